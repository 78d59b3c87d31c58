// Drivers of the PCIe link model alone (no controller): the NIC's DMA
// engine with K operations in flight (the pcie experiment), and the two
// flows sharing one direction of the link (pcie-contention).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include <systemc>

#include "pcie_link.h"
#include "transaction.h"

namespace ubsim {

// The NIC's DMA engine: K operations in flight, the next one issued when
// one finishes (a read when its data is back, a write when it is visible).
class DmaEngine : public sc_core::sc_module {
 public:
  DmaEngine(sc_core::sc_module_name name, PcieLink& link, bool read, uint32_t bytes, uint64_t k, uint64_t ops,
            uint64_t seed)
      : sc_module(name), link_(link), read_(read), bytes_(bytes), k_(k), ops_(ops), rng_(seed) {
    SC_HAS_PROCESS(DmaEngine);
    SC_METHOD(start);
  }
  uint64_t window_ops = 0, window_start_fs = 0, window_end_fs = 0;
  long double rtt_sum_fs = 0;
  uint64_t rtt_n = 0;

 private:
  void start() {
    for (uint64_t i = 0; i < std::min(k_, ops_); ++i) issue();
  }
  void issue() {
    ++issued_;
    const uint64_t addr = (rng_() % (1ull << 30)) & ~63ull;   // random, 64 B aligned, within 1 GiB
    const uint64_t t0 = now_fs();
    auto done = [this, t0] { finish(t0); };
    if (read_) link_.dma_read(addr, bytes_, done);
    else link_.dma_write(addr, bytes_, done);
  }
  void finish(uint64_t t0) {
    ++completed_;
    const uint64_t warm = ops_ / 10;
    if (completed_ == warm) window_start_fs = now_fs();
    if (completed_ > warm && completed_ <= ops_ - warm) {
      ++window_ops;
      window_end_fs = now_fs();
      rtt_sum_fs += now_fs() - t0;
      ++rtt_n;
    }
    if (issued_ < ops_) issue();
  }
  PcieLink& link_;
  const bool read_;
  const uint32_t bytes_;
  const uint64_t k_, ops_;
  std::mt19937_64 rng_;
  uint64_t issued_ = 0, completed_ = 0;
};

// Two flows on one direction of the NIC's link: posted writes offered open
// loop at write_rate (into the NIC: the host's writes; out of it: the NIC's
// DMA writes), and K reads in flight whose completions share that direction
// (into the NIC: the NIC's DMA reads of host memory; out of it: the host's
// reads of the NIC's memory). Bytes and round trips are counted inside
// [window_from, window_to).
class ContentionDriver : public sc_core::sc_module {
 public:
  ContentionDriver(sc_core::sc_module_name name, PcieLink& link, bool into_nic, uint32_t bytes, double write_rate,
                   uint64_t k, uint64_t window_from_fs, uint64_t window_to_fs)
      : sc_module(name), link_(link), into_(into_nic), bytes_(bytes), k_(k), from_(window_from_fs),
        to_(window_to_fs), gap_fs_(write_rate > 0 ? static_cast<uint64_t>(std::llround(1e15 / write_rate)) : 0) {
    SC_HAS_PROCESS(ContentionDriver);
    SC_METHOD(start);
    SC_METHOD(next_write);
    sensitive << write_event_;
    dont_initialize();
  }
  double write_bytes = 0, read_bytes = 0;
  long double rtt_sum_fs = 0;
  uint64_t rtt_n = 0;

 private:
  bool in_window(uint64_t t) const { return t >= from_ && t < to_; }
  void start() {
    for (uint64_t i = 0; i < k_; ++i) read();
    if (gap_fs_ > 0) write_event_.notify(sc_core::SC_ZERO_TIME);
  }
  void next_write() {
    if (now_fs() >= to_) return;
    auto visible = [this] {
      if (in_window(now_fs())) write_bytes += bytes_;
    };
    if (into_) link_.host_write(bytes_, visible);
    else link_.dma_write(0, bytes_, visible);
    write_event_.notify(delay_fs(gap_fs_));
  }
  void read() {
    if (now_fs() >= to_) return;
    const uint64_t t0 = now_fs();
    auto done = [this, t0] {
      if (in_window(now_fs())) {
        read_bytes += bytes_;
        rtt_sum_fs += now_fs() - t0;
        ++rtt_n;
      }
      read();
    };
    if (into_) link_.dma_read(0, bytes_, done);
    else link_.host_read(bytes_, done);
  }
  PcieLink& link_;
  const bool into_;
  const uint32_t bytes_;
  const uint64_t k_, from_, to_, gap_fs_;
  sc_core::sc_event write_event_;
};

}  // namespace ubsim
