// Fixed-size log-linear latency histogram (HDR style): memory is flat in the
// number of samples; each power-of-two range of picoseconds is split into
// 1024 sub-buckets, so a percentile is within 0.1 % of the exact value.
// A percentile is the mean of the samples in its bucket (exact when they are
// equal, as in a deterministic pipeline), not the bucket's midpoint.
// The mean is exact (running sum).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace ubsim {

class LatencyHistogram {
 public:
  static constexpr int kSubBits = 10;
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kRanges = 48;   // up to 2^57 ps

  void add(uint64_t fs) {
    const uint64_t ps = fs / 1000;
    const size_t i = index(ps);
    ++counts_[i];
    sums_fs_[i] += static_cast<double>(fs);
    ++n_;
    sum_fs_ += static_cast<long double>(fs);
    if (fs > max_fs_) max_fs_ = fs;
    if (n_ == 1 || fs < min_fs_) min_fs_ = fs;
  }
  uint64_t count() const { return n_; }
  double mean_ns() const { return n_ ? static_cast<double>(sum_fs_ / n_) / 1e6 : 0.0; }
  double max_ns() const { return static_cast<double>(max_fs_) / 1e6; }
  double min_ns() const { return static_cast<double>(min_fs_) / 1e6; }
  // Value at quantile q (0..1): the mean of its bucket's samples, in ns.
  double quantile_ns(double q) const {
    if (n_ == 0) return 0.0;
    const auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(n_)));
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen >= rank && counts_[i])
        return std::clamp(sums_fs_[i] / static_cast<double>(counts_[i]) / 1e6, min_ns(), max_ns());
    }
    return max_ns();
  }

 private:
  static size_t index(uint64_t ps) {
    if (ps < static_cast<uint64_t>(kSub)) return static_cast<size_t>(ps);
    const int msb = 63 - __builtin_clzll(ps);
    const int shift = msb - kSubBits;
    const uint64_t sub = (ps >> shift) & (kSub - 1);
    const size_t idx = static_cast<size_t>(shift + 1) * kSub + sub;
    return idx < kRanges * kSub ? idx : kRanges * kSub - 1;
  }
  std::array<uint64_t, kRanges * kSub> counts_{};
  std::array<double, kRanges * kSub> sums_fs_{};
  uint64_t n_ = 0;
  long double sum_fs_ = 0;
  uint64_t max_fs_ = 0;
  uint64_t min_fs_ = 0;
};

}  // namespace ubsim
