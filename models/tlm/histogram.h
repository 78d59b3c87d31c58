// Fixed-size log-linear latency histogram (HDR style): memory is flat in the
// number of samples; each power-of-two range of picoseconds is split into
// 1024 sub-buckets, so a percentile is within 0.1 % of the exact value.
// A percentile is the mean of the samples in its bucket (exact when they are
// equal, as in a deterministic pipeline), not the bucket's midpoint.
// The mean is exact (running sum). A range's buckets are allocated when its
// first sample arrives: a run's samples fall in a few of the 48 ranges, and
// clearing all of them (768 KiB a histogram) cost every run more than its
// samples did.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>

namespace ubsim {

class LatencyHistogram {
 public:
  static constexpr int kSubBits = 10;
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kRanges = 48;   // up to 2^57 ps

  LatencyHistogram() = default;
  LatencyHistogram(const LatencyHistogram& o) { *this = o; }
  LatencyHistogram& operator=(const LatencyHistogram& o) {
    if (this == &o) return *this;
    for (size_t k = 0; k < ranges_.size(); ++k)
      ranges_[k] = o.ranges_[k] ? std::make_unique<Range>(*o.ranges_[k]) : nullptr;
    n_ = o.n_;
    sum_fs_ = o.sum_fs_;
    max_fs_ = o.max_fs_;
    min_fs_ = o.min_fs_;
    return *this;
  }
  LatencyHistogram(LatencyHistogram&&) = default;
  LatencyHistogram& operator=(LatencyHistogram&&) = default;

  void add(uint64_t fs) {
    const uint64_t ps = fs / 1000;
    const size_t i = index(ps);
    std::unique_ptr<Range>& r = ranges_[i / kSub];
    if (!r) r = std::make_unique<Range>();
    ++r->counts[i % kSub];
    r->sums_fs[i % kSub] += static_cast<double>(fs);
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
    for (const std::unique_ptr<Range>& r : ranges_) {
      if (!r) continue;   // (no sample in it)
      for (size_t i = 0; i < r->counts.size(); ++i) {
        seen += r->counts[i];
        if (seen >= rank && r->counts[i])
          return std::clamp(r->sums_fs[i] / static_cast<double>(r->counts[i]) / 1e6, min_ns(), max_ns());
      }
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
  struct Range {
    std::array<uint64_t, kSub> counts{};
    std::array<double, kSub> sums_fs{};
  };
  std::array<std::unique_ptr<Range>, kRanges> ranges_;   // null: no sample in it yet
  uint64_t n_ = 0;
  long double sum_fs_ = 0;
  uint64_t max_fs_ = 0;
  uint64_t min_fs_ = 0;
};

}  // namespace ubsim
