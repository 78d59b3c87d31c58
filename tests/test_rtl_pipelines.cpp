// The verilated pipelines on their own, driven cycle by cycle: latency from
// input handshake to first flit out, issue interval from structure, and
// back-pressure without loss.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

#include "burst.h"
#include "verilated_block.h"
#include "Vroce_tx_pipeline.h"
#include "Vrx_pipeline.h"
#include "Vub_tx_pipeline.h"

using ubsim::BurstTrace;

namespace {

template <class M, class Drive>
BurstTrace run(ubsim::VerilatedBlock<M>& b, int n, Drive drive, const std::function<bool(uint64_t)>& ready) {
  BurstTrace t = ubsim::drive_burst(b, static_cast<uint32_t>(n), drive, ready, 100000);
  REQUIRE(t.duplicates == 0);   // exactly once
  return t;
}

auto always = [](uint64_t) { return true; };

}  // namespace

TEST_CASE("UB send pipeline: latency equals the configured depth on both routes", "[rtl]") {
  for (int depth : {7, 8, 25, 40}) {
    ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
    auto& m = m_b.model();
    m.cfg_depth_async = static_cast<uint8_t>(depth);
    m.cfg_depth_load = 8;
    m.cfg_tpc_beats = 2;
    m.eval();
    CHECK(m.fixed_async == 7);
    CHECK(m.fixed_load == 5);
    auto t = run(m_b, 1, [](auto& mm, uint32_t) { mm.s_ctx = 0; mm.s_load = 0; mm.s_bytes = 96; }, always);
    CHECK(t.out_cycle.at(0) - t.in_cycle.at(0) == static_cast<uint64_t>(depth));
    ubsim::VerilatedBlock<Vub_tx_pipeline> l_b("ubl");
    auto& l = l_b.model();
    l.cfg_depth_async = 25;
    l.cfg_depth_load = static_cast<uint8_t>(depth);
    l.cfg_tpc_beats = 2;
    auto tl = run(l_b, 1, [](auto& mm, uint32_t) { mm.s_ctx = 0; mm.s_load = 1; mm.s_bytes = 96; }, always);
    CHECK(tl.out_cycle.at(0) - tl.in_cycle.at(0) == static_cast<uint64_t>(depth));
  }
}

TEST_CASE("UB send pipeline: issue interval is the TP-context read occupancy", "[rtl]") {
  for (int beats : {1, 2, 3, 4}) {
    ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
    auto& m = m_b.model();
    m.cfg_depth_async = 25;
    m.cfg_depth_load = 8;
    m.cfg_tpc_beats = static_cast<uint8_t>(beats);
    const int n = 64;
    auto t = run(m_b, n, [](auto& mm, uint32_t id) { mm.s_ctx = id % 5; mm.s_load = 0; mm.s_bytes = 96; }, always);
    REQUIRE(t.delivered == static_cast<uint64_t>(n));
    // first input handshake -> last first flit = L + (N-1) * beats
    CHECK(t.out_cycle.at(n - 1) - t.in_cycle.at(0) == static_cast<uint64_t>(25 + (n - 1) * beats));
    for (int i = 1; i < n; ++i) CHECK(t.out_cycle.at(i) - t.out_cycle.at(i - 1) == static_cast<uint64_t>(beats));
  }
}

TEST_CASE("RoCE send pipeline: the PSN read-modify-write holds the QP-context port", "[rtl]") {
  struct Case { int rd, turn; };
  for (Case k : {Case{2, 1}, Case{1, 1}, Case{3, 2}}) {
    for (int qps : {1, 7}) {   // one QP or many: the single port serializes both
      ubsim::VerilatedBlock<Vroce_tx_pipeline> m_b("roce");
      auto& m = m_b.model();
      m.cfg_depth = 12;
      m.cfg_qpc_rd_latency = static_cast<uint8_t>(k.rd);
      m.cfg_qpc_turnaround = static_cast<uint8_t>(k.turn);
      const int n = 40;
      auto t = run(m_b, n, [qps](auto& mm, uint32_t id) { mm.s_ctx = id % static_cast<uint32_t>(qps); mm.s_bytes = 96; }, always);
      REQUIRE(t.delivered == static_cast<uint64_t>(n));
      const uint64_t interval = static_cast<uint64_t>(3 + k.rd + k.turn);
      CHECK(t.out_cycle.at(n - 1) - t.in_cycle.at(0) == 12 + (n - 1) * interval);
    }
  }
}

TEST_CASE("RoCE PSNs are allocated in order per QP", "[rtl]") {
  ubsim::VerilatedBlock<Vroce_tx_pipeline> m_b("roce");
  auto& m = m_b.model();
  m.cfg_depth = 9;
  m.cfg_qpc_rd_latency = 2;
  m.cfg_qpc_turnaround = 1;
  std::map<uint32_t, std::vector<uint32_t>> psn_by_qp;
  auto t = ubsim::drive_burst(
      m_b, 200, [](auto& mm, uint32_t id) { mm.s_ctx = id % 3; mm.s_bytes = 96; }, always, 100000,
      [&](const Vroce_tx_pipeline& mm) { psn_by_qp[mm.m_id % 3].push_back(mm.m_psn); });
  REQUIRE(t.delivered == 200);
  REQUIRE(psn_by_qp.size() == 3);
  for (auto& [qp, psns] : psn_by_qp)
    for (size_t i = 0; i < psns.size(); ++i) CHECK(psns[i] == i);
}

TEST_CASE("a stalled output back-pressures the submitter and loses nothing", "[rtl]") {
  ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
  auto& m = m_b.model();
  m.cfg_depth_async = 25;
  m.cfg_depth_load = 8;
  m.cfg_tpc_beats = 2;
  const int n = 300;
  // output ready only 1 cycle in 7, with long stretches of none
  // several Jetties/TP channels, both routes, packets of 1 to 5 flits
  auto t = run(m_b, n, [](auto& mm, uint32_t id) {
        mm.s_ctx = id % 3;
        mm.s_load = id % 4 == 0;
        mm.s_bytes = static_cast<uint16_t>(32 + (id % 5) * 256);
      },
               [](uint64_t c) { return c % 7 == 0 && (c / 500) % 2 == 0; });
  REQUIRE(t.delivered == static_cast<uint64_t>(n));
  CHECK(std::count(t.in_cycle.begin(), t.in_cycle.end(), 0u) == 0);
  // the input was refused for long stretches: the last request entered late
  CHECK(t.in_cycle.at(n - 1) > static_cast<uint64_t>(n) * 3);
  // requests of one route leave in submission order
  std::vector<uint32_t> async_order;
  for (uint32_t id : t.out_order)
    if (id % 4 != 0) async_order.push_back(id);
  CHECK(std::is_sorted(async_order.begin(), async_order.end()));
}

TEST_CASE("receive pipeline: both routes take their configured depth", "[rtl]") {
  ubsim::VerilatedBlock<Vrx_pipeline> m_b("rx");
  auto& m = m_b.model();
  m.cfg_depth_full = 25;
  m.cfg_depth_short = 8;
  m.eval();
  CHECK(m.fixed_depth == 2);
  auto t = run(m_b, 2, [](auto& mm, uint32_t id) { mm.s_short = id == 1; }, always);
  CHECK(t.out_cycle.at(0) - t.in_cycle.at(0) == 25);
  CHECK(t.out_cycle.at(1) - t.in_cycle.at(1) == 8);
}

TEST_CASE("multi-flit packets: interval is the larger of port beats and flits", "[rtl]") {
  for (int payload : {64, 480, 1024, 4096}) {
    const int bytes = 32 + payload;
    const int flits = (bytes + 255) / 256;
    ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
    auto& m = m_b.model();
    m.cfg_depth_async = 25;
    m.cfg_depth_load = 8;
    m.cfg_tpc_beats = 2;
    const int n = 100;
    auto t = run(m_b, n, [bytes](auto& mm, uint32_t id) {
          mm.s_ctx = id % 7;
          mm.s_load = 0;
          mm.s_bytes = static_cast<uint16_t>(bytes);
        }, always);
    INFO("payload " << payload);
    REQUIRE(t.delivered == static_cast<uint64_t>(n));
    // the driver stops at the last packet's first flit
    CHECK(t.flits == static_cast<uint64_t>((n - 1) * flits + 1));
    CHECK(t.out_cycle.at(0) - t.in_cycle.at(0) == 25);   // first flit latency unchanged
    const uint64_t interval = static_cast<uint64_t>(std::max(2, flits));
    CHECK(t.out_cycle.at(n - 1) - t.out_cycle.at(n - 2) == interval);
  }
}
