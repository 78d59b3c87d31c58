// The two verilated SACK engines wired to each other by a C++ link, cycle by
// cycle, with what the system bridges never do: random back-pressure on the
// sender's link port, the receiver's delivery port and its ack port, a
// receiver window smaller than the sender's, and loss, duplication and
// reordering on both directions. In both modes every packet must be
// delivered exactly once, in PSN order, with its id, and the sender must end
// with nothing outstanding and no failure.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <deque>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "rtl_variant.h"

#include <type_traits>
#include "verilated_block.h"
#include "Vsack_receiver.h"
#include "Vsack_sender.h"

namespace {

constexpr int kSackWords = ubsim::rtl_variant::kSackMaxWindow / 32;
constexpr uint32_t kPsnMask = (1u << 24) - 1;

struct Packet { uint64_t due; uint32_t psn, id; uint16_t bytes; };
struct Ack { uint64_t due; uint32_t cum; bool dup; std::array<uint32_t, kSackWords> sack; };

struct Shape {
  bool gbn;
  int tx_window, rx_window;
  double loss, dup, reorder;
  uint32_t first_psn;
};

struct Outcome { uint64_t delivered = 0, out_of_window = 0, duplicates = 0, gbn_drops = 0, timeouts = 0; };

// The receivers with a reorder limit (not the _v1 reference) run without
// one here: the limit at the build maximum of the smallest of them.
template <class M, class = void>
struct has_reorder_limit : std::false_type {};
template <class M>
struct has_reorder_limit<M, std::void_t<decltype(std::declval<M&>().cfg_reorder_limit)>> : std::true_type {};
template <class M>
void unlimited_reorder(M& m) {
  if constexpr (has_reorder_limit<M>::value)
    m.cfg_reorder_limit = static_cast<uint32_t>(std::min<uint64_t>(ubsim::rtl_variant::kSackReorderMax, 8388608));
}

// A shadow steps other engines beside the pair under test (the lockstep
// test below); this one does nothing.
struct NoShadow {
  template <class Tx, class Rx>
  void low(const Tx&, const Rx&, uint64_t) {}
  template <class Tx, class Rx>
  void high(const Tx&, const Rx&, uint64_t) {}
};

template <class TxModel = Vsack_sender, class RxModel = Vsack_receiver, class Shadow = NoShadow>
Outcome run(uint64_t seed, const Shape& s, int packets, Shadow&& shadow = {}) {
  ubsim::VerilatedBlock<TxModel> tx_block("tx");
  ubsim::VerilatedBlock<RxModel> rx_block("rx");
  TxModel& tx = tx_block.model();
  RxModel& rx = rx_block.model();
  constexpr int kWords = static_cast<int>(sizeof(tx.s_ack_sack) / sizeof(uint32_t));   // the bitmap port's words
  tx.cfg_window = static_cast<uint16_t>(s.tx_window);
  tx.cfg_gbn = s.gbn;
  tx.cfg_fast_rtx = 1;
  tx.cfg_rto_cycles = 400;
  tx.cfg_backoff_shift = 1;
  tx.cfg_max_retries = 15;
  tx.cfg_first_psn = s.first_psn;
  tx.cfg_probe_cycles = 0;
  tx.cfg_now = 0;
  tx.s_valid = 0; tx.m_ready = 0; tx.s_ack_valid = 0; tx.s_txdone_valid = 0;
  rx.cfg_window = static_cast<uint16_t>(s.rx_window);
  rx.cfg_gbn = s.gbn;
  rx.cfg_first_psn = s.first_psn;
  unlimited_reorder(rx);
  rx.s_valid = 0; rx.m_dlv_ready = 0; rx.m_ack_ready = 0;
  tx_block.reset();
  rx_block.reset();

  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  auto chance = [&](double p) { return u(rng) < p; };
  constexpr uint64_t kWire = 20;              // cycles one way
  std::vector<Packet> data_wire;              // in flight to the receiver (any order)
  std::vector<Ack> ack_wire;
  std::deque<uint32_t> txdone;                // PSNs whose last byte the link has sent
  std::vector<uint32_t> delivered_ids;
  uint32_t expected_psn = s.first_psn;
  int next_id = 0;
  uint64_t last_delivery = 0;
  for (uint64_t cyc = 1;; ++cyc) {
    if (delivered_ids.size() == static_cast<size_t>(packets) && tx.outstanding == 0 && data_wire.empty() &&
        ack_wire.empty() && !rx.busy)
      break;
    INFO(fmt::format("seed {} gbn {} windows {}/{} cycle {} delivered {}", seed, s.gbn, s.tx_window, s.rx_window,
                     cyc, delivered_ids.size()));
    REQUIRE(cyc - last_delivery < 200000);    // watchdog: no stall
    REQUIRE(!tx.m_fail);

    // ---- drive both engines' inputs for this cycle ----
    tx.cfg_now = cyc;
    tx.s_valid = next_id < packets;
    tx.s_id = static_cast<uint32_t>(next_id);
    tx.s_bytes = 64;
    const bool link_ready = chance(0.8);
    tx.m_ready = link_ready;
    // (indices: the wires grow below before these are taken off)
    const auto ack_at = static_cast<size_t>(
        std::find_if(ack_wire.begin(), ack_wire.end(), [&](const Ack& a) { return a.due <= cyc; }) - ack_wire.begin());
    tx.s_ack_valid = ack_at != ack_wire.size();
    if (tx.s_ack_valid) {
      tx.s_ack_cum = ack_wire[ack_at].cum;
      tx.s_ack_dup = ack_wire[ack_at].dup;
      for (int w = 0; w < kWords; ++w) tx.s_ack_sack[w] = ack_wire[ack_at].sack[static_cast<size_t>(w)];
    }
    tx.s_txdone_valid = !txdone.empty();
    if (!txdone.empty()) tx.s_txdone_psn = txdone.front();
    const auto pkt_at = static_cast<size_t>(
        std::find_if(data_wire.begin(), data_wire.end(), [&](const Packet& p) { return p.due <= cyc; }) -
        data_wire.begin());
    rx.s_valid = pkt_at != data_wire.size();
    if (rx.s_valid) { rx.s_psn = data_wire[pkt_at].psn; rx.s_id = data_wire[pkt_at].id; rx.s_bytes = data_wire[pkt_at].bytes; }
    const bool dlv_ready = chance(0.7), ack_ready = chance(0.7);
    rx.m_dlv_ready = dlv_ready;
    rx.m_ack_ready = ack_ready;
    tx.clk = 0; rx.clk = 0;
    tx.eval(); rx.eval();
    shadow.low(tx, rx, cyc);

    // ---- what moves in this cycle ----
    const bool new_taken = tx.s_valid && tx.s_ready;
    if (tx.m_valid && link_ready) {           // a packet onto the wire
      const Packet p{cyc + kWire + (chance(s.reorder) ? rng() % 60 : 0), tx.m_psn, tx.m_id, tx.m_bytes};
      txdone.push_back(tx.m_psn);
      if (!chance(s.loss)) data_wire.push_back(p);
      if (chance(s.dup)) data_wire.push_back(Packet{p.due + 1 + rng() % 30, p.psn, p.id, p.bytes});
    }
    if (tx.s_ack_valid) ack_wire.erase(ack_wire.begin() + static_cast<std::ptrdiff_t>(ack_at));
    if (tx.s_txdone_valid) txdone.pop_front();
    if (rx.s_valid && rx.s_ready) data_wire.erase(data_wire.begin() + static_cast<std::ptrdiff_t>(pkt_at));
    if (rx.m_dlv_valid && dlv_ready) {
      REQUIRE(rx.m_dlv_psn == expected_psn);  // in PSN order, each once
      REQUIRE(rx.m_dlv_id == delivered_ids.size());
      delivered_ids.push_back(rx.m_dlv_id);
      expected_psn = (expected_psn + 1) & kPsnMask;
      last_delivery = cyc;
    }
    if (rx.m_ack_valid && ack_ready && !chance(s.loss)) {
      Ack a{cyc + kWire + (chance(s.reorder) ? rng() % 60 : 0), rx.m_ack_cum, static_cast<bool>(rx.m_ack_dup), {}};
      for (int w = 0; w < kWords; ++w) a.sack[static_cast<size_t>(w)] = rx.m_ack_sack[w];
      ack_wire.push_back(a);
    }
    if (new_taken) ++next_id;
    tx.clk = 1; rx.clk = 1;
    tx.eval(); rx.eval();
    shadow.high(tx, rx, cyc);
  }
  CHECK(rx.cnt_delivered == static_cast<uint32_t>(packets));
  CHECK(tx.cnt_sent == static_cast<uint32_t>(packets));
  CHECK(tx.outstanding == 0);
  return {rx.cnt_delivered, rx.cnt_out_of_window, rx.cnt_duplicates, rx.cnt_gbn_drops, tx.cnt_timeouts};
}

}  // namespace

TEST_CASE("SACK engines back to back: exactly once and in order under back-pressure on every port", "[loss][rtl]") {
  Outcome sack, gbn;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    const bool go_back = seed % 2 == 0;
    // every third run: a receiver window a quarter of the sender's (packets beyond it are dropped and resent);
    // the first PSN near 2^24 in some runs, across wrap-around
    const Shape shape{go_back, 64, seed % 3 == 0 ? 16 : 64, 0.05, 0.02, 0.05,
                      seed % 4 == 1 ? kPsnMask - 100 : static_cast<uint32_t>(seed * 1000)};
    const Outcome o = run(seed, shape, 600);
    Outcome& sum = go_back ? gbn : sack;
    sum.delivered += o.delivered; sum.out_of_window += o.out_of_window; sum.duplicates += o.duplicates;
    sum.gbn_drops += o.gbn_drops; sum.timeouts += o.timeouts;
  }
  CHECK(sack.delivered == 12 * 600);
  CHECK(gbn.delivered == 12 * 600);
  // the runs reached what they were built for
  CHECK(sack.out_of_window > 0);
  CHECK(sack.duplicates > 0);
  CHECK(gbn.gbn_drops > 0);
}

// ---------------------------------------------------------------------------
// The sender's activity outputs: a sender stepped only while `active`, when an
// input is offered, or at the edge `wake_in` names, against one stepped in
// every cycle, on the same stimulus (timeouts, backed-off retries, the probe,
// GoBackN go-backs, failures). Every output of the sleeping one equals the
// reference's in each cycle it is stepped, and the reference changes no
// output in a cycle the sleeper skips.
namespace {

struct SenderOutputs {
  bool s_ready, m_valid, m_retransmit, m_fail, busy;
  uint32_t m_psn, m_id, m_bytes, m_fail_id, outstanding, sent, rtx, timeouts, fast, stale, probes;
  bool operator==(const SenderOutputs& o) const {
    return std::tie(s_ready, m_valid, m_retransmit, m_fail, busy, m_psn, m_id, m_bytes, m_fail_id, outstanding, sent,
                    rtx, timeouts, fast, stale, probes) ==
           std::tie(o.s_ready, o.m_valid, o.m_retransmit, o.m_fail, o.busy, o.m_psn, o.m_id, o.m_bytes, o.m_fail_id,
                    o.outstanding, o.sent, o.rtx, o.timeouts, o.fast, o.stale, o.probes);
  }
};

SenderOutputs outputs_of(const Vsack_sender& m) {
  return {static_cast<bool>(m.s_ready), static_cast<bool>(m.m_valid), static_cast<bool>(m.m_retransmit),
          static_cast<bool>(m.m_fail), static_cast<bool>(m.busy), m.m_psn, m.m_id, m.m_bytes, m.m_fail_id,
          m.outstanding, m.cnt_sent, m.cnt_retransmits, m.cnt_timeouts, m.cnt_fast_rtx, m.cnt_stale_acks,
          m.cnt_probes};
}

std::string describe(const SenderOutputs& o) {
  return fmt::format("s_ready {} m_valid {} m_psn {} m_id {} m_retransmit {} m_fail {} busy {} outstanding {} sent {} "
                     "retransmits {} timeouts {} fast {} stale {} probes {}",
                     o.s_ready, o.m_valid, o.m_psn, o.m_id, o.m_retransmit, o.m_fail, o.busy, o.outstanding, o.sent,
                     o.rtx, o.timeouts, o.fast, o.stale, o.probes);
}

void configure_sender(Vsack_sender& m, bool gbn, uint32_t probe) {
  m.cfg_window = 32;
  m.cfg_gbn = gbn;
  m.cfg_fast_rtx = 1;
  m.cfg_rto_cycles = 60;
  m.cfg_backoff_shift = 1;
  m.cfg_max_retries = 5;
  m.cfg_first_psn = 100;
  m.cfg_probe_cycles = probe;
  m.s_valid = 0; m.m_ready = 1; m.s_ack_valid = 0; m.s_txdone_valid = 0;
}

struct SleepRun { uint64_t stepped = 0, skipped = 0, timeouts = 0, probes = 0, failures = 0; };

SleepRun run_sleeping(uint64_t seed, bool gbn, uint32_t probe, uint64_t cycles) {
  ubsim::VerilatedBlock<Vsack_sender> ref_block("ref"), slp_block("sleeper");
  Vsack_sender& ref = ref_block.model();
  Vsack_sender& slp = slp_block.model();
  configure_sender(ref, gbn, probe);
  configure_sender(slp, gbn, probe);
  ref_block.reset();
  slp_block.reset();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  auto chance = [&](double p) { return u(rng) < p; };
  struct Timed { uint64_t due; uint32_t psn; };
  std::deque<Timed> txdone, acks;            // acks: the cumulative ack to report
  uint32_t next_id = 0, received_to = 100;   // the receiver has every PSN below received_to
  SleepRun r;
  uint64_t wake_edge = 0;
  bool slp_active = true;
  SenderOutputs last_ref = outputs_of(ref);
  for (uint64_t cyc = 1; cyc <= cycles; ++cyc) {
    // the stimulus, from the reference's state: sparse new packets; the link
    // sends one in a few cycles (tx-done), loses 30 % of them; acks come
    // back later, cumulative, sometimes duplicated (GoBackN's dup flag)
    const bool offer = ref.outstanding < 8 && chance(0.02);
    const bool td = !txdone.empty() && txdone.front().due <= cyc;
    const bool ack = !td && !acks.empty() && acks.front().due <= cyc;
    auto drive = [&](Vsack_sender& m) {
      m.cfg_now = cyc;
      m.s_valid = offer;
      m.s_id = next_id;
      m.s_bytes = 64;
      m.m_ready = 1;
      m.s_txdone_valid = td;
      m.s_txdone_psn = td ? txdone.front().psn : 0;
      m.s_ack_valid = ack;
      m.s_ack_cum = ack ? acks.front().psn : 0;
      m.s_ack_dup = ack && chance(0.0);
      for (int w = 0; w < kSackWords; ++w) m.s_ack_sack[w] = 0;
      m.clk = 0;
      m.eval();
    };
    const bool offered = offer || td || ack;
    const bool due = offered || slp_active || (wake_edge != 0 && wake_edge <= cyc);
    INFO(fmt::format("seed {} gbn {} probe {} cycle {}", seed, gbn, probe, cyc));
    drive(ref);
    const bool sent = ref.m_valid && ref.m_ready;
    const uint32_t sent_psn = ref.m_psn;
    if (due) {
      drive(slp);
      INFO("before the edge: reference " << describe(outputs_of(ref)) << "\n  sleeper " << describe(outputs_of(slp)));
      REQUIRE(outputs_of(slp) == outputs_of(ref));
    }
    if (offer && ref.s_ready) ++next_id;
    if (td) txdone.pop_front();
    if (ack) acks.pop_front();
    if (sent) {
      txdone.push_back({cyc + 1 + rng() % 4, sent_psn});
      if (!chance(0.3) && sent_psn == received_to) received_to = (received_to + 1) & kPsnMask;
      acks.push_back({cyc + 20 + rng() % 10, received_to});
    }
    ref.clk = 1;
    ref.eval();
    if (due) {
      slp.clk = 1;
      slp.eval();
      INFO("after the edge: reference " << describe(outputs_of(ref)) << "\n  sleeper " << describe(outputs_of(slp)));
      REQUIRE(outputs_of(slp) == outputs_of(ref));
      slp_active = slp.active;
      wake_edge = slp.wake_in ? cyc + slp.wake_in : 0;
      ++r.stepped;
    } else {
      // a skipped cycle: nothing of the reference may have changed in it
      // (s_ready aside: it follows this cycle's offered inputs)
      SenderOutputs now = outputs_of(ref);
      now.s_ready = last_ref.s_ready;
      INFO("skipped cycle: reference before " << describe(last_ref) << "\n  after " << describe(now));
      REQUIRE(now == last_ref);
      ++r.skipped;
    }
    last_ref = outputs_of(ref);
    if (ref.m_fail) {   // the engine stopped: start again from a reset
      ++r.failures;
      ref_block.reset();
      slp_block.reset();
      txdone.clear(); acks.clear();
      received_to = 100;
      slp_active = true;
      wake_edge = 0;
      last_ref = outputs_of(ref);
    }
  }
  r.timeouts = ref.cnt_timeouts;
  r.probes = ref.cnt_probes;
  return r;
}

}  // namespace

TEST_CASE("SACK sender asleep between timer expiries: the same outputs as one stepped in every cycle", "[loss][rtl]") {
  SleepRun total;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const bool gbn = seed % 2 == 0;
    const SleepRun r = run_sleeping(seed, gbn, gbn ? 0 : 25, 40000);
    total.stepped += r.stepped; total.skipped += r.skipped; total.timeouts += r.timeouts;
    total.probes += r.probes; total.failures += r.failures;
  }
  // the runs reached what they were built for: timer expiries, probes and
  // exhausted retries happened, and most cycles were skipped
  CHECK(total.timeouts > 0);
  CHECK(total.probes > 0);
  CHECK(total.failures > 0);
  CHECK(total.skipped > 2 * total.stepped);
}

// ---------------------------------------------------------------------------
// Lockstep: each SACK engine as restructured for simulation cost against the
// block as it was (rtl/sack_*_v1.sv, a test-only reference), both verilated
// with a 128-PSN window, on the same random stimulus for 10^6 cycles each:
// every output except the activity ones (busy, active, wake_in) is equal
// before and after every clock edge; the first cycle and port that differ
// are named.
#include "Vsack_receiver_v1.h"
#include "Vsack_receiver_w128.h"
#include "Vsack_sender_v1.h"
#include "Vsack_sender_w128.h"

namespace {

constexpr int kSmallWords = 128 / 32;

template <class A, class B>
std::string first_sender_difference(const A& a, const B& b) {
#define UBSIM_PORT(p) if (a.p != b.p) return fmt::format(#p " {} vs {}", a.p, b.p);
  UBSIM_PORT(s_ready) UBSIM_PORT(m_valid) UBSIM_PORT(m_psn) UBSIM_PORT(m_id) UBSIM_PORT(m_bytes)
  UBSIM_PORT(m_retransmit) UBSIM_PORT(m_fail) UBSIM_PORT(m_fail_id) UBSIM_PORT(outstanding) UBSIM_PORT(cnt_sent)
  UBSIM_PORT(cnt_retransmits) UBSIM_PORT(cnt_timeouts) UBSIM_PORT(cnt_fast_rtx) UBSIM_PORT(cnt_stale_acks)
  UBSIM_PORT(cnt_probes)
  return {};
}

template <class A, class B>
std::string first_receiver_difference(const A& a, const B& b) {
  UBSIM_PORT(s_ready) UBSIM_PORT(s_kept) UBSIM_PORT(m_dlv_valid) UBSIM_PORT(m_dlv_id) UBSIM_PORT(m_dlv_psn)
  UBSIM_PORT(m_dlv_bytes) UBSIM_PORT(m_ack_valid) UBSIM_PORT(m_ack_cum) UBSIM_PORT(m_ack_dup)
  UBSIM_PORT(cnt_duplicates) UBSIM_PORT(cnt_out_of_window) UBSIM_PORT(cnt_gbn_drops) UBSIM_PORT(cnt_delivered)
#undef UBSIM_PORT
  for (int w = 0; w < static_cast<int>(sizeof(a.m_ack_sack) / sizeof(uint32_t)); ++w)
    if (a.m_ack_sack[w] != b.m_ack_sack[w]) return fmt::format("m_ack_sack word {} {:#x} vs {:#x}", w, a.m_ack_sack[w], b.m_ack_sack[w]);
  return {};
}

// One engine pair in lockstep; `drive` sets the same inputs on both; the
// new one is settled and clocked by `rise_new` (by default eval()).
struct FullEval {
  template <class M>
  void settle(M& m) const { m.eval(); }
  template <class M>
  void operator()(M& m) const { m.clk = 1; m.eval(); }
};
struct Rise {   // as the bridges step a block (clock_edge.h)
  template <class M>
  void settle(M& m) const { ubsim::ClockEdge<M>::settle(m); }
  template <class M>
  void operator()(M& m) const { ubsim::ClockEdge<M>::rise(m); }
};
template <class New, class Old, class Drive, class Differ, class Rise = FullEval>
void lockstep(const char* what, uint64_t cycles, Drive&& drive, Differ&& differ, New& n, Old& o, Rise rise_new = {}) {
  for (uint64_t cyc = 1; cyc <= cycles; ++cyc) {
    drive(cyc, n, o);
    n.clk = 0; o.clk = 0;
    rise_new.settle(n); o.eval();
    std::string d = differ(n, o);
    if (!d.empty()) FAIL(fmt::format("{}: cycle {} before the edge: {} (new vs reference)", what, cyc, d));
    rise_new(n);
    o.clk = 1;
    o.eval();
    d = differ(n, o);
    if (!d.empty()) FAIL(fmt::format("{}: cycle {} after the edge: {} (new vs reference)", what, cyc, d));
  }
}

template <class M>
void small_sender_config(M& m, bool gbn, uint32_t probe, uint32_t first_psn) {
  m.cfg_window = 64; m.cfg_gbn = gbn; m.cfg_fast_rtx = 1; m.cfg_rto_cycles = 90; m.cfg_backoff_shift = 1;
  m.cfg_max_retries = 6; m.cfg_first_psn = first_psn; m.cfg_probe_cycles = probe;
  m.s_valid = 0; m.m_ready = 1; m.s_ack_valid = 0; m.s_txdone_valid = 0; m.cfg_now = 0;
}

}  // namespace

TEST_CASE("SACK engines restructured for simulation cost: every output equals the old block's in every cycle", "[loss][rtl]") {
  // sender: 4 runs x 250,000 cycles (SACK with and without the probe, GoBackN)
  for (uint64_t run = 0; run < 4; ++run) {
    ubsim::VerilatedBlock<Vsack_sender_w128> nb("new_tx");
    ubsim::VerilatedBlock<Vsack_sender_v1> ob("ref_tx");
    const bool gbn = run == 2;
    const uint32_t first = run == 3 ? kPsnMask - 300 : 1000 * static_cast<uint32_t>(run);
    small_sender_config(nb.model(), gbn, run == 1 ? 0 : 40, first);
    small_sender_config(ob.model(), gbn, run == 1 ? 0 : 40, first);
    nb.reset(); ob.reset();
    std::mt19937_64 rng(100 + run);
    std::uniform_real_distribution<double> u(0, 1);
    std::deque<uint32_t> txdone;
    uint32_t id = 0;
    auto drive = [&](uint64_t cyc, auto& n, auto& o) {
      // inputs from the reference's state: sent PSNs finish on the wire;
      // acks name a cumulative PSN around the window (stale ones too) and a
      // random SACK bitmap, sometimes duplicate-marked
      if (o.m_valid && o.m_ready && u(rng) < 0.9) txdone.push_back(o.m_psn);
      const uint32_t base = (o.m_psn - o.outstanding + 1) & kPsnMask;
      const bool ack = u(rng) < 0.12;
      const bool td = !txdone.empty() && u(rng) < 0.5;
      uint32_t cum = (base + static_cast<uint32_t>(rng() % (o.outstanding + 3)) - 1) & kPsnMask;
      std::array<uint32_t, kSmallWords> sack{};
      if (u(rng) < 0.6) sack[0] = static_cast<uint32_t>(rng()) & static_cast<uint32_t>(rng());
      if (u(rng) < 0.2) sack[1] = static_cast<uint32_t>(rng());
      const bool dup = u(rng) < 0.3, valid = u(rng) < 0.3, ready = u(rng) < 0.7;
      const uint32_t tdpsn = td ? txdone.front() : 0;
      if (td) txdone.pop_front();
      auto set = [&](auto& m) {
        m.cfg_now = cyc;
        m.s_valid = valid; m.s_id = id; m.s_bytes = static_cast<uint16_t>(64 + (id % 7));
        m.m_ready = ready;
        m.s_ack_valid = ack; m.s_ack_cum = cum; m.s_ack_dup = dup;
        for (int w = 0; w < kSmallWords; ++w) m.s_ack_sack[w] = sack[static_cast<size_t>(w)];
        m.s_txdone_valid = td; m.s_txdone_psn = tdpsn;
      };
      set(n); set(o);
      ++id;
      if (o.m_fail) { txdone.clear(); }
    };
    lockstep(fmt::format("sack_sender run {}", run).c_str(), 250000, drive,
             [](auto& a, auto& b) { return first_sender_difference(a, b); }, nb.model(), ob.model());
    CHECK(ob.model().cnt_timeouts > 0);
    CHECK(ob.model().cnt_retransmits > 0);
    if (!gbn) CHECK(ob.model().cnt_fast_rtx > 0);
  }
  // receiver: 4 runs x 250,000 cycles (SACK, GoBackN; windows 64 and 128)
  for (uint64_t run = 0; run < 4; ++run) {
    ubsim::VerilatedBlock<Vsack_receiver_w128> nb("new_rx");
    ubsim::VerilatedBlock<Vsack_receiver_v1> ob("ref_rx");
    const bool gbn = run % 2 == 1;
    const uint32_t first = run == 3 ? kPsnMask - 200 : 500 * static_cast<uint32_t>(run);
    auto cfg = [&](auto& m) {
      m.cfg_window = static_cast<uint16_t>(run < 2 ? 64 : 128); m.cfg_gbn = gbn; m.cfg_first_psn = first; unlimited_reorder(m);
      m.s_valid = 0; m.m_dlv_ready = 1; m.m_ack_ready = 1;
    };
    cfg(nb.model()); cfg(ob.model());
    nb.reset(); ob.reset();
    std::mt19937_64 rng(200 + run);
    std::uniform_real_distribution<double> u(0, 1);
    auto drive = [&](uint64_t, auto& n, auto& o) {
      // PSNs around the next expected one: in order, above holes, duplicates, beyond the window
      // (a third of them the next one or the one after: GoBackN keeps only those)
      const uint32_t psn = (o.m_dlv_psn + static_cast<uint32_t>(u(rng) < 0.3 ? rng() % 2 : rng() % 150 - 8)) & kPsnMask;
      const bool valid = u(rng) < 0.6, dlv_ready = u(rng) < 0.8, ack_ready = u(rng) < 0.6;
      const uint32_t pid = static_cast<uint32_t>(rng());
      auto set = [&](auto& m) {
        m.s_valid = valid; m.s_psn = psn; m.s_id = pid; m.s_bytes = static_cast<uint16_t>(pid & 0xfff);
        m.m_dlv_ready = dlv_ready; m.m_ack_ready = ack_ready;
      };
      set(n); set(o);
    };
    lockstep(fmt::format("sack_receiver run {}", run).c_str(), 250000, drive,
             [](auto& a, auto& b) { return first_receiver_difference(a, b); }, nb.model(), ob.model());
    CHECK(ob.model().cnt_delivered > 1000);
    CHECK(ob.model().cnt_duplicates > 0);
    CHECK(ob.model().cnt_out_of_window > 0);
    if (gbn) CHECK(ob.model().cnt_gbn_drops > 0);
  }
}

// The rising edge without the input-combinational region (clock_edge.h),
// against clk high and eval(), on the production-size engines: every output
// equal before and after every edge (the golden results, recorded with the
// full eval, check the same for every block through the experiments).
TEST_CASE("rising edge without the input region: the SACK engines give eval()'s outputs in every cycle", "[loss][rtl]") {
  STATIC_REQUIRE(ubsim::ClockEdge<Vsack_sender>::kFast);
  STATIC_REQUIRE(ubsim::ClockEdge<Vsack_receiver>::kFast);
  {
    ubsim::VerilatedBlock<Vsack_sender> nb("fast_tx"), ob("full_tx");
    small_sender_config(nb.model(), false, 40, 7);
    small_sender_config(ob.model(), false, 40, 7);
    nb.reset(); ob.reset();
    std::mt19937_64 rng(7);
    uint32_t id = 0;
    auto drive = [&](uint64_t cyc, auto& n, auto& o) {
      const uint32_t base = (o.m_psn - o.outstanding + 1) & kPsnMask;
      const bool ack = rng() % 8 == 0, td = o.m_valid && rng() % 2 == 0, valid = rng() % 3 == 0, ready = rng() % 4 != 0;
      const uint32_t cum = (base + static_cast<uint32_t>(rng() % (o.outstanding + 3)) - 1) & kPsnMask;
      const uint32_t sack0 = static_cast<uint32_t>(rng()) & static_cast<uint32_t>(rng());
      const uint32_t psn = o.m_psn;
      for (auto* m : {&n, &o}) {
        m->cfg_now = cyc; m->s_valid = valid; m->s_id = id; m->s_bytes = 64; m->m_ready = ready;
        m->s_ack_valid = ack; m->s_ack_cum = cum; m->s_ack_dup = 0; m->s_ack_sack[0] = sack0;
        m->s_txdone_valid = td; m->s_txdone_psn = psn;
      }
      ++id;
    };
    lockstep("sack_sender, edge without the input region", 100000, drive,
             [](auto& a, auto& b) { return first_sender_difference(a, b); }, nb.model(), ob.model(), Rise{});
    CHECK(ob.model().cnt_retransmits > 0);
  }
  {
    ubsim::VerilatedBlock<Vsack_receiver> nb("fast_rx"), ob("full_rx");
    for (auto* m : {&nb.model(), &ob.model()}) {
      m->cfg_window = 256; m->cfg_gbn = 0; m->cfg_first_psn = 3; m->s_valid = 0; m->m_dlv_ready = 1; m->m_ack_ready = 1;
      unlimited_reorder(*m);
    }
    nb.reset(); ob.reset();
    std::mt19937_64 rng(8);
    auto drive = [&](uint64_t, auto& n, auto& o) {
      const uint32_t psn = (o.m_dlv_psn + static_cast<uint32_t>(rng() % 4 == 0 ? rng() % 2 : rng() % 300 - 8)) & kPsnMask;
      const bool valid = rng() % 2 == 0, dlv = rng() % 5 != 0, ack = rng() % 3 != 0;
      for (auto* m : {&n, &o}) {
        m->s_valid = valid; m->s_psn = psn; m->s_id = psn; m->s_bytes = 64; m->m_dlv_ready = dlv; m->m_ack_ready = ack;
      }
    };
    lockstep("sack_receiver, edge without the input region", 100000, drive,
             [](auto& a, auto& b) { return first_receiver_difference(a, b); }, nb.model(), ob.model(), Rise{});
    CHECK(ob.model().cnt_delivered > 1000);
  }
}

// The restructured engines in their own closed loop (the back-to-back run
// above: loss, duplication, reordering, back-pressure, GoBackN drops, both
// modes), with the blocks as they were stepped beside them on the same
// inputs in every cycle: every output equal before and after every edge.
namespace {

struct OldEnginesShadow {
  ubsim::VerilatedBlock<Vsack_sender_v1> tx_block{"old_tx"};
  ubsim::VerilatedBlock<Vsack_receiver_v1> rx_block{"old_rx"};
  uint64_t compared = 0;
  explicit OldEnginesShadow(const Shape& s) {
    auto& tx = tx_block.model();
    auto& rx = rx_block.model();
    tx.cfg_window = static_cast<uint16_t>(s.tx_window); tx.cfg_gbn = s.gbn; tx.cfg_fast_rtx = 1;
    tx.cfg_rto_cycles = 400; tx.cfg_backoff_shift = 1; tx.cfg_max_retries = 15; tx.cfg_first_psn = s.first_psn;
    tx.cfg_probe_cycles = 0; tx.cfg_now = 0;
    tx.s_valid = 0; tx.m_ready = 0; tx.s_ack_valid = 0; tx.s_txdone_valid = 0;
    rx.cfg_window = static_cast<uint16_t>(s.rx_window); rx.cfg_gbn = s.gbn; rx.cfg_first_psn = s.first_psn;
    rx.s_valid = 0; rx.m_dlv_ready = 0; rx.m_ack_ready = 0;
    tx_block.reset();
    rx_block.reset();
  }
  template <class Tx, class Rx>
  void compare(const Tx& ntx, const Rx& nrx, uint64_t cyc, const char* when) {
    const std::string d = first_sender_difference(ntx, tx_block.model());
    if (!d.empty()) FAIL(fmt::format("sack_sender: cycle {} {}: {} (new vs old)", cyc, when, d));
    const std::string r = first_receiver_difference(nrx, rx_block.model());
    if (!r.empty()) FAIL(fmt::format("sack_receiver: cycle {} {}: {} (new vs old)", cyc, when, r));
    ++compared;
  }
  template <class Tx, class Rx>
  void low(const Tx& ntx, const Rx& nrx, uint64_t cyc) {
    auto& tx = tx_block.model();
    auto& rx = rx_block.model();
    tx.cfg_now = ntx.cfg_now; tx.s_valid = ntx.s_valid; tx.s_id = ntx.s_id; tx.s_bytes = ntx.s_bytes;
    tx.m_ready = ntx.m_ready; tx.s_ack_valid = ntx.s_ack_valid; tx.s_ack_cum = ntx.s_ack_cum;
    tx.s_ack_dup = ntx.s_ack_dup;
    for (int w = 0; w < kSmallWords; ++w) tx.s_ack_sack[w] = ntx.s_ack_sack[w];
    tx.s_txdone_valid = ntx.s_txdone_valid; tx.s_txdone_psn = ntx.s_txdone_psn;
    rx.s_valid = nrx.s_valid; rx.s_psn = nrx.s_psn; rx.s_id = nrx.s_id; rx.s_bytes = nrx.s_bytes;
    rx.m_dlv_ready = nrx.m_dlv_ready; rx.m_ack_ready = nrx.m_ack_ready;
    tx.clk = 0; rx.clk = 0;
    tx.eval(); rx.eval();
    compare(ntx, nrx, cyc, "before the edge");
  }
  template <class Tx, class Rx>
  void high(const Tx& ntx, const Rx& nrx, uint64_t cyc) {
    auto& tx = tx_block.model();
    auto& rx = rx_block.model();
    tx.clk = 1; rx.clk = 1;
    tx.eval(); rx.eval();
    compare(ntx, nrx, cyc, "after the edge");
  }
};

}  // namespace

TEST_CASE("SACK engines restructured in a closed loop with loss: the old blocks' outputs in every cycle", "[loss][rtl]") {
  uint64_t compared = 0;
  Outcome total;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const bool go_back = seed % 2 == 0;
    const Shape shape{go_back, 64, seed % 3 == 0 ? 16 : 64, 0.05, 0.02, 0.05,
                      seed % 4 == 1 ? kPsnMask - 100 : static_cast<uint32_t>(seed * 1000)};
    OldEnginesShadow shadow(shape);
    const Outcome o = run<Vsack_sender_w128, Vsack_receiver_w128>(seed, shape, 400, shadow);
    compared += shadow.compared;
    total.timeouts += o.timeouts; total.duplicates += o.duplicates; total.gbn_drops += o.gbn_drops;
    total.out_of_window += o.out_of_window;
  }
  CHECK(compared > 100000);
  CHECK(total.timeouts > 0);
  CHECK(total.duplicates > 0);
  CHECK(total.gbn_drops > 0);
  CHECK(total.out_of_window > 0);
}
