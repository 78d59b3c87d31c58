// The rate limiter (rtl/rate_limiter.sv; spec 17's reaction point), as a
// block: pacing to its rate in every cycle, the cut on a notification at
// most once per interval, additive recovery, and the same packets passing
// at the same cycles when a simulator skips the idle cycles between them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "verilated_block.h"   // (first: it brings in SystemC before Verilator's headers)
#include "Vrate_limiter.h"

namespace {

constexpr uint32_t q16(double bytes_per_cycle) { return static_cast<uint32_t>(bytes_per_cycle * 65536.0); }

void configure(Vrate_limiter& m, double max, double min, uint32_t burst, uint32_t decrease, uint64_t interval,
               uint64_t recover_cycles, double step) {
  m.cfg_rate_max = q16(max);
  m.cfg_rate_min = q16(min);
  m.cfg_burst = burst;
  m.cfg_decrease = static_cast<uint16_t>(decrease);
  m.cfg_interval = interval;
  m.cfg_recover_cycles = recover_cycles;
  m.cfg_recover_step = q16(step);
  m.s_valid = 0;
  m.m_ready = 1;
  m.s_cnp = 0;
  m.s_bytes = 64;
}

// One edge at cycle index `now`: inputs set, outputs sampled before it.
template <class F>
void edge(ubsim::VerilatedBlock<Vrate_limiter>& b, uint64_t now, F&& sample) {
  b.set_now(now);
  b.model().clk = 0;
  b.model().eval();
  sample();
  b.model().clk = 1;
  b.model().eval();
}

}  // namespace

TEST_CASE("rate limiter: paces to its rate in every cycle", "[rtl][congestion]") {
  ubsim::VerilatedBlock<Vrate_limiter> b("pace");
  auto& m = b.model();
  configure(m, 16, 1, 256, 128, 1000, 0, 0);   // 16 B per cycle: a 64 B packet every 4 cycles
  b.reset();
  m.s_valid = 1;
  uint64_t bytes = 0;
  for (uint64_t c = 1; c <= 10000; ++c) {
    bool passed = false;
    edge(b, c, [&] {
      passed = m.s_valid && m.s_ready;
      CHECK(m.m_valid == (m.s_valid && m.s_ready));   // the handshake is the budget's, no latency
      CHECK(m.m_bytes == m.s_bytes);
    });
    if (passed) bytes += 64;
    // never ahead of the rate by more than the burst and one packet, never behind by more than a packet
    const double allowed = 16.0 * static_cast<double>(c);
    CHECK(static_cast<double>(bytes) <= allowed + 256 + 64);
    CHECK(static_cast<double>(bytes) >= allowed - 64);
  }
  CHECK(m.cnt_passed == Approx(2500).margin(1));
  CHECK(m.rate == q16(16));
}

TEST_CASE("rate limiter: a notification cuts the rate once per interval and it recovers step by step", "[rtl][congestion]") {
  ubsim::VerilatedBlock<Vrate_limiter> b("cut");
  auto& m = b.model();
  configure(m, 16, 2, 256, 128, 1000, 2000, 1);   // halve, at most every 1000 cycles; +1 B/cycle every 2000
  b.reset();
  std::vector<uint64_t> cnp_at = {100, 500, 1200, 1300, 2300, 3400};
  uint64_t k = 0;
  std::vector<uint32_t> rate_at(12000);
  for (uint64_t c = 1; c < 12000; ++c) {
    m.s_cnp = k < cnp_at.size() && cnp_at[k] == c;
    if (m.s_cnp) ++k;
    edge(b, c, [] {});
    rate_at[c] = m.rate;
  }
  // 100: 16 -> 8; 500: inside the interval, ignored; 1200: -> 4; 1300 ignored;
  // 2300: -> 2; 3400: 2 is the floor
  CHECK(rate_at[150] == q16(8));
  CHECK(rate_at[900] == q16(8));
  CHECK(rate_at[1250] == q16(4));
  CHECK(rate_at[2350] == q16(2));
  CHECK(rate_at[3450] == q16(2));
  CHECK(m.cnt_decreases == 4);   // 100, 1200, 2300, 3400 (the last at the floor)
  CHECK(m.cnt_cnp_ignored == 2);
  // recovery: +1 B/cycle every 2000 cycles after the last cut (3400)
  CHECK(rate_at[5399] == q16(2));
  CHECK(rate_at[5401] == q16(3));
  CHECK(rate_at[7401] == q16(4));
  CHECK(rate_at[11401] == q16(6));
  CHECK(m.cnt_recoveries == 4);
}

TEST_CASE("rate limiter: skipping idle cycles by wake_in passes the same packets at the same cycles", "[rtl][congestion]") {
  ubsim::VerilatedBlock<Vrate_limiter> full("full"), skip("skip");
  for (auto* b : {&full, &skip}) {
    configure(b->model(), 4, 1, 64, 128, 500, 3000, 0.5);
    b->reset();
  }
  // a packet of 256 B offered every 37 cycles (faster than 4 B/cycle allows), notifications now and then
  auto offered = [](uint64_t c) { return c % 37 == 0; };
  auto cnp = [](uint64_t c) { return c % 2900 == 7; };
  std::vector<uint64_t> passed_full, passed_skip;
  uint64_t pending_full = 0, pending_skip = 0;
  for (uint64_t c = 1; c < 40000; ++c) {
    auto& m = full.model();
    if (offered(c)) ++pending_full;
    m.s_valid = pending_full > 0;
    m.s_bytes = 256;
    m.s_cnp = cnp(c);
    bool p = false;
    edge(full, c, [&] { p = m.s_valid && m.s_ready; });
    if (p) {
      --pending_full;
      passed_full.push_back(c);
    }
  }
  // the skipping simulator steps only at an arrival, a notification, or the edge wake_in names
  uint64_t next_wake = 0;
  for (uint64_t c = 1; c < 40000; ++c) {
    auto& m = skip.model();
    if (offered(c)) ++pending_skip;
    const bool due = offered(c) || cnp(c) || (next_wake && c >= next_wake) || (pending_skip > 0 && m.active);
    if (!due) continue;
    m.s_valid = pending_skip > 0;
    m.s_bytes = 256;
    m.s_cnp = cnp(c);
    bool p = false;
    edge(skip, c, [&] { p = m.s_valid && m.s_ready; });
    if (p) {
      --pending_skip;
      passed_skip.push_back(c);
    }
    // what the outputs say after this edge (the next cycle's view)
    skip.set_now(c + 1);
    m.clk = 0;
    m.s_cnp = 0;
    m.eval();
    next_wake = m.wake_in ? c + m.wake_in : 0;   // wake_in counts from the next edge (c + 1)
    if (pending_skip > 0 && m.active) next_wake = c + 1;
  }
  CHECK(passed_full.size() > 100);   // (the cuts keep it well below the 4 B/cycle line)
  CHECK(passed_skip == passed_full);
  CHECK(skip.model().rate == full.model().rate);
  CHECK(skip.model().cnt_decreases == full.model().cnt_decreases);
}
