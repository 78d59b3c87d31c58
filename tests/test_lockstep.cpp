// The blocks restructured for simulation cost against the blocks as they
// were (rtl/v1/), run in lockstep (lockstep.h): every output of the old
// block but the activity outputs (busy, quiet, wake_in) must be equal in
// every cycle (as it settles, before the edge: what a bridge samples), and
// a failure names the first cycle and port that differ.
//  - Recorded stimuli: the experiments' own traffic (latency on every path,
//    multi-packet writes, issue rate, ordering, context-cache misses,
//    throughput, loss inside the paths), as the bridges and drivers drove
//    each block (UBSIM_STIMULUS_DIR, stimulus.h), replayed into both builds.
//  - Random traffic: 10^6 cycles per block from protocol-respecting random
//    drivers (requests held until taken, grants in request order,
//    completions only of issued requests, payload credits only for a
//    message waiting for one, refills, releases of answered lookups,
//    back-pressure on every output).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "lockstep.h"
#include "run_command.h"
#include "rtl_variant.h"

namespace fs = std::filesystem;
using ubsim::test::Lockstep;

namespace {

std::mt19937_64& rng_for(uint64_t seed) {
  static std::mt19937_64 rng;
  rng.seed(seed);
  return rng;
}

// ---------------- the order tracker alone ----------------
void random_order_tracker(uint64_t run, uint64_t cycles) {
  ubsim::SharedContextModel<Vorder_tracker> n_owned("new_ot");
  auto& n = *n_owned;
  ubsim::SharedContextModel<Vorder_tracker_v1> o_owned("ref_ot");
  auto& o = *o_owned;
  // s_present (the new block's alone): with s_valid, and in a quarter of
  // the other cycles too (a request waiting upstream), from a generator of
  // its own so that the reference's stimulus stays as it was. The late
  // field (s_late_sel, s_late: the new block's alone, LATE_W = 1 at bit 0
  // as blocks.json builds it): in about half the cycles the request's bit
  // 0 comes from s_late, and the new block's s_data has that bit inverted,
  // so a late field not taken, or taken where it is not selected, shows on
  // m_data.
  Lockstep<Vorder_tracker, Vorder_tracker_v1> ls(n, o, fmt::format("order_tracker run {}", run),
                                                 {"s_present", "s_late_sel", "s_late"});
  std::mt19937_64 present_rng(99 + run);
  uint64_t late_taken = 0;
  auto& rng = rng_for(7 + run);
  std::uniform_real_distribution<double> u(0, 1);
  o.cfg_strict = run % 2;
  o.cfg_mtu = 4096;
  o.s_valid = 0; o.m_ready = 1; o.m_err_ready = 1; o.m_rep_ready = 1; o.s_cpl_valid = 0;
  ls.reset(4);
  const int queues = run < 2 ? 6 : 12;   // 12: more queues than slots
  std::vector<int> mode(static_cast<size_t>(queues));
  for (int& m : mode) m = static_cast<int>(rng() % 4);
  std::vector<std::pair<int, int>> in_flight;
  uint64_t issued = 0, holds = 0, releases = 0, errors = 0;
  bool taken = true;
  uint32_t id = 0;
  for (uint64_t c = 0; c < cycles; ++c) {
    if (taken) {
      o.s_valid = u(rng) < 0.5;
      if (o.s_valid) {
        const int q = static_cast<int>(rng() % static_cast<uint64_t>(queues));
        o.s_id = id++; o.s_data = rng(); o.s_track = u(rng) < 0.9; o.s_queue = static_cast<uint16_t>(q);
        o.s_mode = static_cast<uint8_t>(mode[static_cast<size_t>(q)]); o.s_tag = static_cast<uint8_t>(rng() % 3);
        o.s_fence = u(rng) < 0.1; o.s_comp_order = u(rng) < 0.1; o.s_rdat = u(rng) < 0.3;
        o.s_payload = u(rng) < 0.1 ? 5000 : 64;
        if (o.s_mode == ubsim::enc::MODE_UNO && u(rng) < 0.7) { o.s_tag = 0; o.s_fence = 0; o.s_comp_order = 0; }
      }
    }
    o.m_ready = u(rng) < 0.7; o.m_err_ready = u(rng) < 0.7; o.m_rep_ready = u(rng) < 0.7;
    o.s_cpl_valid = 0;
    if (!in_flight.empty() && u(rng) < 0.3) {
      const size_t k = rng() % in_flight.size();
      o.s_cpl_valid = 1;
      o.s_cpl_slot = static_cast<uint8_t>(in_flight[k].first);
      o.s_cpl_seq = static_cast<uint8_t>(in_flight[k].second);
      in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(k));
    }
    n.s_present = o.s_valid || present_rng() % 4 == 0;
    n.s_late_sel = present_rng() % 2;
    n.s_late = static_cast<uint8_t>(o.s_data & 1u);
    std::string d = ls.settle([&] {
      if (n.s_late_sel) n.s_data ^= 1u;
    });
    late_taken += n.s_late_sel && o.s_valid && o.s_ready;
    if (d.empty()) {
      taken = !o.s_valid || o.s_ready;
      if (o.m_valid && o.m_ready && o.m_tracked) {
        in_flight.emplace_back(o.m_slot, o.m_seq);
        ++issued;
      }
      holds += o.in_hold;
      releases += o.rel_take;
      errors += o.m_err_valid && o.m_err_ready;
      d = ls.edge();
    }
    if (!d.empty()) FAIL(d);
  }
  // the traffic reached what the restructuring touched
  CHECK(issued > cycles / 10);
  CHECK(late_taken > 100);
  CHECK(holds > 100);
  CHECK(releases > 100);
  if (queues > ubsim::rtl_variant::kOrderSlots) CHECK(o.stall_slots > 0);
  else CHECK(o.stall_window > 0);
  if (!o.cfg_strict) CHECK(errors > 0);
}

// ---------------- shared helpers of the pipeline drivers ----------------
// In-order context-cache grants: every request the pipeline takes gets one,
// a random number of cycles later, naming a random entry.
struct Grants {
  struct G { uint32_t id; uint64_t at; uint32_t entry; };
  std::deque<G> q;
  template <class M>
  void drive(M& m, uint64_t c) {
    m.s_grant_valid = !q.empty() && q.front().at <= c;
    if (!q.empty()) {
      m.s_grant_id = q.front().id;
      if constexpr (has_entry<M>::value) m.s_grant_entry = q.front().entry;
    }
  }
  template <class M, class = void>
  struct has_entry : std::false_type {};
  template <class M>
  struct has_entry<M, std::void_t<decltype(std::declval<M&>().s_grant_entry)>> : std::true_type {};
};

// The rest of a send pipeline's random stimulus, the same for both tops:
// context grants, back-pressure on m_*, completions of issued requests, a
// payload credit for the message that waited for one, context-RAM fills;
// and, once the inputs settled, what fired at the edge.
struct SendSide {
  Grants grants;
  std::vector<std::pair<int, int>> in_flight;   // (slot, seq) issued, not completed
  std::pair<bool, uint32_t> wait{false, 0};     // data_wait / data_wait_id as last settled
  uint64_t packets = 0, issued = 0, credits = 0, fills = 0;
  uint32_t entries;
  explicit SendSide(uint32_t fill_entries) : entries(fill_entries) {}

  template <class M, class Rng, class U>
  void drive(M& o, uint64_t c, Rng& rng, U& u) {
    grants.drive(o, c);
    o.m_ready = u(rng) < 0.8;
    o.s_cpl_valid = 0;
    if (!in_flight.empty() && u(rng) < 0.2) {
      const size_t k = rng() % in_flight.size();
      o.s_cpl_valid = 1;
      o.s_cpl_slot = static_cast<uint8_t>(in_flight[k].first);
      o.s_cpl_seq = static_cast<uint8_t>(in_flight[k].second);
      in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(k));
    }
    // a payload credit for the message whose next packet waited for one last
    // cycle (as a bridge hands it: sampled, then driven at the next edge)
    o.s_credit_valid = wait.first && u(rng) < 0.4;
    o.s_credit_id = wait.second;
    o.s_fill_valid = o.s_fill_ready && u(rng) < 0.05;
    if (o.s_fill_valid) {
      o.s_fill_entry = static_cast<uint16_t>(rng() % entries);
      for (int w = 0; w < static_cast<int>(sizeof(o.s_fill_data) / sizeof(uint32_t)); ++w) o.s_fill_data[w] = static_cast<uint32_t>(rng());
    }
  }
  template <class M, class Rng, class U>
  void settled(const M& o, uint64_t c, Rng& rng, U& u) {
    wait = {o.data_wait && !o.s_credit_valid, o.data_wait_id};
    if (o.s_valid && o.s_ready && o.cfg_ctx_gate)
      grants.q.push_back({o.s_id, c + 1 + (u(rng) < 0.7 ? 0 : rng() % 30), static_cast<uint32_t>(rng() % entries)});
    if (o.s_grant_valid && o.s_grant_ready) grants.q.pop_front();
    if (o.ord_issue) {
      in_flight.emplace_back(o.ord_issue_slot, o.ord_issue_seq);
      ++issued;
    }
    packets += o.m_valid && o.m_ready && o.m_last;
    credits += o.s_credit_valid;
    fills += o.s_fill_valid && o.s_fill_ready;
  }
};

// ---------------- the UB send pipeline ----------------
void random_ub_tx(uint64_t run, uint64_t cycles) {
  ubsim::SharedContextModel<Vub_tx_pipeline> n_owned("new_ub");
  auto& n = *n_owned;
  ubsim::SharedContextModel<Vub_tx_pipeline_v1> o_owned("ref_ub");
  auto& o = *o_owned;
  Lockstep<Vub_tx_pipeline, Vub_tx_pipeline_v1> ls(n, o, fmt::format("ub_tx_pipeline run {}", run));
  // (odd runs: its settles with the request alone and its edges as the
  // burst driver's, leaving the outputs that driver does not read)
  if (run % 2) ls.step_as_every_cycle(7);
  auto& rng = rng_for(100 + run);
  std::uniform_real_distribution<double> u(0, 1);
  const uint32_t mtu = run % 2 ? 1024 : 4096;
  o.cfg_ctx_gate = run >= 2;
  o.cfg_mtu = mtu; o.cfg_header_bytes = 64;
  o.s_valid = 0; o.m_ready = 1; o.s_cpl_valid = 0; o.s_credit_valid = 0; o.s_fill_valid = 0; o.s_grant_valid = 0;
  o.cfg_now = 0;
  // the fixed stages' minima come from the block itself
  o.cfg_depth_async = 0; o.cfg_depth_load = 0;
  o.clk = 0; o.eval();
  o.cfg_depth_async = static_cast<uint8_t>(o.fixed_async + (run == 1 ? 0 : 3 + rng() % 20));
  o.cfg_depth_load = static_cast<uint8_t>(o.fixed_load + (run == 1 ? 0 : rng() % 10));
  ls.reset(4);
  const int jetties = 10;
  std::vector<int> mode(jetties);
  for (int& m : mode) m = static_cast<int>(rng() % 3);   // ROI / ROT / ROL (UNO errors are the tracker test's)
  const uint32_t entries = 64;
  SendSide side(entries);
  bool taken = true;
  uint32_t id = 0;
  for (uint64_t c = 1; c <= cycles; ++c) {
    o.cfg_now = static_cast<uint16_t>(c);
    if (taken) {
      o.s_valid = u(rng) < 0.4;
      if (o.s_valid) {
        const int j = static_cast<int>(rng() % jetties);
        const bool load = u(rng) < 0.3;
        o.s_id = ++id; o.s_ctx = static_cast<uint16_t>(rng() % entries); o.s_load = load;
        const uint32_t len = u(rng) < 0.5 ? 64 : static_cast<uint32_t>(rng() % (3 * mtu + 1));
        const uint32_t pkts = len == 0 ? 1 : (len + mtu - 1) / mtu;
        o.s_len = len;
        // (credits are used in the order the packets leave: only the full
        // route's messages wait for payload, so the two routes cannot swap them)
        o.s_data_pkts = load || u(rng) < 0.5 ? pkts : static_cast<uint32_t>(rng() % (pkts + 1));
        o.s_ord_track = !load && u(rng) < 0.8; o.s_ord_jetty = static_cast<uint16_t>(j);
        o.s_ord_mode = static_cast<uint8_t>(mode[static_cast<size_t>(j)]); o.s_ord_tag = static_cast<uint8_t>(rng() % 3);
        o.s_ord_fence = u(rng) < 0.05; o.s_ord_comp_order = u(rng) < 0.05; o.s_ord_rdat = u(rng) < 0.3;
        o.s_ord_payload = len;
      }
    }
    side.drive(o, c, rng, u);
    std::string d = ls.settle();
    if (d.empty()) {
      taken = !o.s_valid || o.s_ready;
      side.settled(o, c, rng, u);
      d = ls.edge();
    }
    if (!d.empty()) FAIL(d);
  }
  CHECK(side.packets > cycles / 20);
  CHECK(side.issued > cycles / 50);
  CHECK(side.credits > 100);
  CHECK(side.fills > 100);
  CHECK(o.ctx_forwards > 0);
  if (o.cfg_ctx_gate) CHECK(o.ctx_hazard_cycles > 0);
  CHECK(ls.driven_settles() > cycles / 20);   // the request's valid high alone: the copy a bridge takes then
  CHECK(ls.nothing_settles() > cycles / 200);   // no valid high: the choice a bridge's quiet edge takes
  CHECK(ls.bare_settles() == (run % 2 ? ls.driven_settles() : 0));
}

// ---------------- the NIC send pipeline ----------------
void random_roce_tx(uint64_t run, uint64_t cycles) {
  ubsim::SharedContextModel<Vroce_tx_pipeline> n_owned("new_roce");
  auto& n = *n_owned;
  ubsim::SharedContextModel<Vroce_tx_pipeline_v1> o_owned("ref_roce");
  auto& o = *o_owned;
  Lockstep<Vroce_tx_pipeline, Vroce_tx_pipeline_v1> ls(n, o, fmt::format("roce_tx_pipeline run {}", run));
  // (odd runs: its settles with the request alone and its edges as the
  // burst driver's, leaving the outputs that driver does not read)
  if (run % 2) ls.step_as_every_cycle(7);
  auto& rng = rng_for(200 + run);
  std::uniform_real_distribution<double> u(0, 1);
  const uint32_t mtu = run % 2 ? 1024 : 4096;
  o.cfg_ctx_gate = run >= 2;
  o.cfg_mtu = mtu; o.cfg_header_bytes = 58;
  o.s_valid = 0; o.m_ready = 1; o.s_cpl_valid = 0; o.s_credit_valid = 0; o.s_fill_valid = 0; o.s_grant_valid = 0;
  o.cfg_now = 0;
  o.cfg_depth = 0;
  o.clk = 0; o.eval();
  o.cfg_depth = static_cast<uint8_t>(o.fixed_depth + (run == 1 ? 0 : 3 + rng() % 20));
  ls.reset(4);
  const uint32_t qps = 12;
  SendSide side(qps);
  bool taken = true;
  uint32_t id = 0;
  for (uint64_t c = 1; c <= cycles; ++c) {
    o.cfg_now = static_cast<uint16_t>(c);
    if (taken) {
      o.s_valid = u(rng) < 0.4;
      if (o.s_valid) {
        o.s_id = ++id; o.s_ctx = static_cast<uint16_t>(rng() % qps);
        const uint32_t len = u(rng) < 0.5 ? 64 : static_cast<uint32_t>(rng() % (3 * mtu + 1));
        const uint32_t pkts = len == 0 ? 1 : (len + mtu - 1) / mtu;
        o.s_len = len;
        o.s_data_pkts = u(rng) < 0.5 ? pkts : static_cast<uint32_t>(rng() % (pkts + 1));
        o.s_ord_track = u(rng) < 0.8; o.s_ord_tag = static_cast<uint8_t>(rng() % 3);
        o.s_ord_fence = u(rng) < 0.05; o.s_ord_comp_order = u(rng) < 0.05; o.s_ord_rdat = u(rng) < 0.3;
      }
    }
    side.drive(o, c, rng, u);
    std::string d = ls.settle();
    if (d.empty()) {
      taken = !o.s_valid || o.s_ready;
      side.settled(o, c, rng, u);
      d = ls.edge();
    }
    if (!d.empty()) FAIL(d);
  }
  CHECK(side.packets > cycles / 50);
  CHECK(side.issued > cycles / 100);
  CHECK(side.credits > 100);
  CHECK(side.fills > 100);
  CHECK(ls.driven_settles() > cycles / 20);   // the request's valid high alone: the copy a bridge takes then
  CHECK(ls.nothing_settles() > cycles / 200);   // no valid high: the choice a bridge's quiet edge takes
  CHECK(ls.bare_settles() == (run % 2 ? ls.driven_settles() : 0));
}

// ---------------- the receive pipeline ----------------
void random_rx(uint64_t run, uint64_t cycles) {
  ubsim::SharedContextModel<Vrx_pipeline> n_owned("new_rx");
  auto& n = *n_owned;
  ubsim::SharedContextModel<Vrx_pipeline_v1> o_owned("ref_rx");
  auto& o = *o_owned;
  Lockstep<Vrx_pipeline, Vrx_pipeline_v1> ls(n, o, fmt::format("rx_pipeline run {}", run));
  auto& rng = rng_for(300 + run);
  std::uniform_real_distribution<double> u(0, 1);
  o.cfg_ctx_gate = run >= 2;
  o.s_valid = 0; o.m_ready = 1; o.s_grant_valid = 0;
  o.cfg_now = 0;
  o.cfg_depth_full = 0; o.cfg_depth_short = 0;
  o.clk = 0; o.eval();
  o.cfg_depth_full = static_cast<uint8_t>(o.fixed_depth + (run == 1 ? 0 : 2 + rng() % 20));
  o.cfg_depth_short = static_cast<uint8_t>(o.fixed_depth + (run == 1 ? 0 : rng() % 6));
  ls.reset(4);
  Grants grants;
  uint64_t delivered = 0;
  bool taken = true;
  uint32_t id = 0;
  for (uint64_t c = 1; c <= cycles; ++c) {
    o.cfg_now = static_cast<uint16_t>(c);
    if (taken) {
      o.s_valid = u(rng) < 0.5;
      o.s_id = ++id;
      o.s_short = u(rng) < 0.4;
    }
    grants.drive(o, c);
    o.m_ready = u(rng) < 0.8;
    std::string d = ls.settle();
    if (d.empty()) {
      taken = !o.s_valid || o.s_ready;
      if (o.s_valid && o.s_ready && o.cfg_ctx_gate) grants.q.push_back({o.s_id, c + 1 + (u(rng) < 0.7 ? 0 : rng() % 20), 0});
      if (o.s_grant_valid && o.s_grant_ready) grants.q.pop_front();
      delivered += o.m_valid && o.m_ready;
      d = ls.edge();
    }
    if (!d.empty()) FAIL(d);
  }
  CHECK(delivered > cycles / 5);
}

// ---------------- the context cache ----------------
// Lookups of one or two keys held until taken, refills returned in random
// order after random delays, answers taken under random back-pressure, and
// every answered lookup's entries released some cycles later: small caches,
// so misses, merges, evictions and pinned victims all happen.
void random_ctx_cache(uint64_t run, uint64_t cycles) {
  ubsim::SharedContextModel<Vctx_cache> n_owned("new_cache");
  auto& n = *n_owned;
  ubsim::SharedContextModel<Vctx_cache_v1> o_owned("ref_cache");
  auto& o = *o_owned;
  Lockstep<Vctx_cache, Vctx_cache_v1> ls(n, o, fmt::format("ctx_cache run {}", run));
  auto& rng = rng_for(400 + run);
  std::uniform_real_distribution<double> u(0, 1);
  const struct { uint32_t entries, ways, universe; } shape[] = {{16, 0, 40}, {32, 4, 64}, {8, 0, 12}, {64, 8, 100}};
  const auto& sh = shape[run % 4];
  o.cfg_entries = static_cast<uint16_t>(sh.entries);
  o.cfg_ways = static_cast<uint16_t>(sh.ways);
  o.s_valid = 0; o.s_fill_valid = 0; o.s_rel_valid = 0; o.m_ready = 1; o.m_refill_ready = 1;
  ls.reset(4);
  struct Refill { uint32_t slot; uint64_t due; };
  struct Held { uint32_t keys, slot0, slot1; uint64_t due; };
  std::vector<Refill> refills;
  std::vector<Held> held;
  std::map<uint32_t, uint32_t> keys_of;   // lookup id -> its key count
  bool taken = true;
  uint32_t id = 0;
  uint64_t fired = 0, misses = 0, answers = 0, fills = 0, releases = 0, refused = 0;
  for (uint64_t c = 1; c <= cycles; ++c) {
    if (taken) {
      o.s_valid = u(rng) < 0.6;
      if (o.s_valid) {
        o.s_id = ++id;
        o.s_keys = u(rng) < 0.3 ? 1 : 3;
        o.s_key0 = static_cast<uint32_t>(rng() % sh.universe);
        do o.s_key1 = static_cast<uint32_t>(rng() % sh.universe); while (o.s_key1 == o.s_key0);
      }
    }
    int fill = -1;   // at most one refill back per cycle, any that is due
    for (size_t i = 0; i < refills.size(); ++i)
      if (refills[i].due <= c && (fill < 0 || rng() % 2)) fill = static_cast<int>(i);
    o.s_fill_valid = fill >= 0;
    o.s_fill_slot = fill >= 0 ? static_cast<uint16_t>(refills[static_cast<size_t>(fill)].slot) : 0;
    int rel = -1;    // one release per cycle, of an answered lookup
    for (size_t i = 0; i < held.size() && rel < 0; ++i)
      if (held[i].due <= c && u(rng) < 0.5) rel = static_cast<int>(i);
    o.s_rel_valid = rel >= 0;
    if (rel >= 0) {
      const Held& h = held[static_cast<size_t>(rel)];
      o.s_rel_keys = static_cast<uint8_t>(h.keys);
      o.s_rel_slot0 = static_cast<uint16_t>(h.slot0);
      o.s_rel_slot1 = static_cast<uint16_t>(h.slot1);
    }
    o.m_ready = u(rng) < 0.8;
    o.m_refill_ready = u(rng) < 0.9;
    std::string d = ls.settle();
    if (d.empty()) {
      taken = !o.s_valid || o.s_ready;
      refused += o.s_valid && !o.s_ready;
      if (o.lk_fire) {
        ++fired;
        keys_of[o.s_id] = o.s_keys;
        for (int k = 0; k < 2; ++k)
          if (o.m_refill_valid & (1u << k)) {
            refills.push_back({k == 0 ? o.m_refill_slot0 : o.m_refill_slot1, c + 1 + rng() % 12});
            ++misses;
          }
      }
      if (o.m_valid && o.m_ready) {
        ++answers;
        const uint32_t keys = keys_of.at(o.m_id);
        keys_of.erase(o.m_id);
        held.push_back({keys, o.m_entry0, o.m_entry1, c + 1 + rng() % 30});
      }
      if (fill >= 0) refills.erase(refills.begin() + fill), ++fills;
      if (rel >= 0) held.erase(held.begin() + rel), ++releases;
      d = ls.edge();
    }
    if (!d.empty()) FAIL(d);
  }
  // the traffic reached what the restructuring touched: the reorder
  // buffer's wait bits (refills) and the pin counts (lookups, releases)
  CHECK(fired > cycles / 10);
  CHECK(misses > cycles / 50);
  CHECK(answers > cycles / 10);
  CHECK(fills > cycles / 50);
  CHECK(releases > cycles / 10);
  CHECK(refused > 100);
}

// ---------------- the SACK sender at the production window ----------------
// Against the sender as it was before its window bitmaps became a gated
// unit (rtl/v1/sack_sender_v2.sv, with every feature the simulator's has): new packets,
// acks around the window (stale ones too) with random SACK bitmaps in its
// low words and now and then high ones, duplicate marks, tx-dones of sent
// packets, back-pressure, a reorder threshold, and SACK, probe and GoBackN
// runs. The engine's own timer and probe fire on cfg_now.
void random_sack_sender(uint64_t run, uint64_t cycles) {
  ubsim::SharedContextModel<Vsack_sender> n_owned("new_sack_tx");
  auto& n = *n_owned;
  ubsim::SharedContextModel<Vsack_sender_v2> o_owned("ref_sack_tx");
  auto& o = *o_owned;
  Lockstep<Vsack_sender, Vsack_sender_v2> ls(n, o, fmt::format("sack_sender run {}", run));
  auto& rng = rng_for(500 + run);
  std::uniform_real_distribution<double> u(0, 1);
  constexpr uint32_t kPsn = (1u << 24) - 1;
  constexpr int kWords = static_cast<int>(sizeof(o.s_ack_sack) / sizeof(uint32_t));
  const bool gbn = run == 2;
  o.cfg_window = static_cast<uint16_t>(run == 3 ? 2048 : 256);
  o.cfg_gbn = gbn; o.cfg_fast_rtx = 1; o.cfg_rto_cycles = 120; o.cfg_backoff_shift = 1; o.cfg_max_retries = 8;
  o.cfg_first_psn = run == 1 ? kPsn - 400 : 1000 * static_cast<uint32_t>(run);
  o.cfg_reorder_thresh = static_cast<uint16_t>(run == 1 ? 3 : 0);
  o.cfg_probe_cycles = run == 0 ? 0 : 50;
  o.cfg_paths = static_cast<uint8_t>(run == 3 ? 3 : 1); o.cfg_path_weights = 0x11111121;
  o.s_valid = 0; o.m_ready = 1; o.s_ack_valid = 0; o.s_txdone_valid = 0; o.cfg_now = 0;
  ls.reset(4);
  std::deque<uint32_t> on_wire;
  uint32_t id = 0;
  bool taken = true, due_next = false;
  for (uint64_t c = 1; c <= cycles; ++c) {
    o.cfg_now = c;
    // one quarter of the time the host and the peer are silent: the timer
    // and the probe fire
    const bool silent = (c / 1500) % 4 == 3;
    if (taken) {
      o.s_valid = !silent && u(rng) < 0.3;
      o.s_id = id++;
      o.s_bytes = static_cast<uint16_t>(64 + rng() % 1000);
    }
    o.m_ready = u(rng) < 0.8;
    const uint32_t base = (o.m_psn - o.outstanding + 1) & kPsn;
    // (and in a silent spell, now and then a duplicate ack in the very cycle
    // the timer or the probe fires: the window's update takes both at once)
    const bool dup_at_timer = silent && due_next && u(rng) < 0.5;
    o.s_ack_valid = (!silent && u(rng) < 0.12) || dup_at_timer;
    if (dup_at_timer) {
      o.s_ack_cum = base;
      o.s_ack_dup = 1;
      for (int w = 0; w < kWords; ++w) o.s_ack_sack[w] = 0;
    } else if (o.s_ack_valid) {
      o.s_ack_cum = (base + static_cast<uint32_t>(rng() % (o.outstanding + 3)) - 1) & kPsn;
      o.s_ack_dup = u(rng) < 0.3;
      for (int w = 0; w < kWords; ++w) o.s_ack_sack[w] = 0;
      if (u(rng) < 0.5) o.s_ack_sack[0] = static_cast<uint32_t>(rng()) & static_cast<uint32_t>(rng());
      if (u(rng) < 0.2) o.s_ack_sack[1 + rng() % (kWords - 1)] = static_cast<uint32_t>(rng());
    }
    o.s_txdone_valid = !on_wire.empty() && u(rng) < 0.5;
    o.s_txdone_psn = o.s_txdone_valid ? on_wire.front() : 0;
    if (o.s_txdone_valid) on_wire.pop_front();
    std::string d = ls.settle();
    if (d.empty()) {
      taken = !o.s_valid || o.s_ready;
      due_next = o.wake_in == 1;   // the timer or the probe fires at the next edge
      if (o.m_valid && o.m_ready && u(rng) < 0.95) on_wire.push_back(o.m_psn);
      if (o.m_fail) on_wire.clear();
      d = ls.edge();
    }
    if (!d.empty()) FAIL(d);
  }
  // the traffic reached what the restructuring touched: acks with and
  // without SACKed PSNs, resends for holes and for the timer, the probe
  CHECK(o.cnt_timeouts > 0);
  CHECK(o.cnt_retransmits > cycles / 1000);
  CHECK(o.cnt_sent > cycles / 20);
  if (!gbn) CHECK(o.cnt_fast_rtx > 0);
  if (!gbn && run != 0) CHECK(o.cnt_probes > 0);
}

// ---------------- the SACK receiver at the production window ----------------
// Against the receiver as it was before its rotation and encoder were
// written out of their functions (rtl/v1/sack_receiver_v2.sv): PSNs around
// the next expected one (in order, above holes, duplicates, beyond the
// window), back-pressure on delivery and acks, a reorder limit that drops.
void random_sack_receiver(uint64_t run, uint64_t cycles) {
  ubsim::SharedContextModel<Vsack_receiver> n_owned("new_sack_rx");
  auto& n = *n_owned;
  ubsim::SharedContextModel<Vsack_receiver_v2> o_owned("ref_sack_rx");
  auto& o = *o_owned;
  Lockstep<Vsack_receiver, Vsack_receiver_v2> ls(n, o, fmt::format("sack_receiver run {}", run));
  auto& rng = rng_for(600 + run);
  std::uniform_real_distribution<double> u(0, 1);
  constexpr uint32_t kPsn = (1u << 24) - 1;
  const bool gbn = run % 2 == 1;
  o.cfg_window = static_cast<uint16_t>(run < 2 ? 2048 : 300);
  o.cfg_gbn = gbn;
  o.cfg_first_psn = run == 3 ? kPsn - 200 : 500 * static_cast<uint32_t>(run);
  o.cfg_reorder_limit = run == 2 ? 20000 : 8388608;
  o.s_valid = 0; o.m_dlv_ready = 1; o.m_ack_ready = 1;
  ls.reset(4);
  for (uint64_t c = 1; c <= cycles; ++c) {
    // a third of the PSNs the next one or the one after (GoBackN keeps only those)
    const uint32_t ahead = u(rng) < 0.3 ? static_cast<uint32_t>(rng() % 2)
                                        : static_cast<uint32_t>(rng() % (run < 2 ? 2200 : 400)) - 8;
    o.s_valid = u(rng) < 0.6;
    o.s_psn = (o.m_dlv_psn + ahead) & kPsn;
    o.s_id = static_cast<uint32_t>(rng());
    o.s_bytes = static_cast<uint16_t>(64 + rng() % 4000);
    o.m_dlv_ready = u(rng) < 0.8;
    o.m_ack_ready = u(rng) < 0.6;
    const std::string d = ls.cycle();
    if (!d.empty()) FAIL(d);
  }
  CHECK(o.cnt_delivered > cycles / 20);
  CHECK(o.cnt_duplicates > 0);
  CHECK(o.cnt_out_of_window > 0);
  if (gbn) CHECK(o.cnt_gbn_drops > 0);
  if (run == 2) CHECK(o.cnt_reorder_drops > 0);
}

// ---------------- recorded stimuli ----------------
template <class T>
struct ModelType {
  using type = T;
};

// Replays one stimulus file into the lockstep pair of its model; returns
// the cycles compared, or fails with the first difference.
uint64_t replay(const fs::path& file) {
  ubsim::StimulusReader header(file.string());
  auto run = [&](auto& n, auto& o) {
    Lockstep<std::remove_reference_t<decltype(n)>, std::remove_reference_t<decltype(o)>> ls(n, o, file.filename().string());
    const std::string d = ls.replay(file.string());
    if (!d.empty()) FAIL(d);
    return ls.cycles();
  };
  // the block stepped as the bridges step it against itself stepped by
  // eval(): its outputs right after each edge too, those the bridges read
  // there (busy, quiet, wake_in) among them
  // (skipping: the same with the edges leaving busy and quiet, recomputed
  // every 7th cycle, and the settles with the request alone leaving the
  // outputs the burst driver does not read, as that driver steps it)
  auto run_after_edges = [&](auto& n, auto& o, bool skipping) {
    using New = std::remove_reference_t<decltype(n)>;
    Lockstep<New, std::remove_reference_t<decltype(o)>> ls(
        n, o, file.filename().string() + (skipping ? " (after the edges, activity and unread outputs left)" : " (after the edges)"));
    ls.compare_after_edges();
    if (skipping) ls.step_as_every_cycle(7);
    const std::string d = ls.replay(file.string());
    if (!d.empty()) FAIL(d);
    if constexpr (ubsim::SettleIco<New>::kBare)
      if (skipping && ls.driven_settles() > 0) CHECK(ls.bare_settles() == ls.driven_settles());
  };
  // a restructured block against its reference; with after_edges, first
  // the block against itself as above
  auto pair = [&](auto new_model, auto ref_model, bool after_edges) -> uint64_t {
    using New = typename decltype(new_model)::type;
    using Ref = typename decltype(ref_model)::type;
    if (after_edges) {
      ubsim::SharedContextModel<New> n2("new2"), r2("eval");
      run_after_edges(*n2, *r2, false);
      if constexpr (ubsim::EdgeNba<New>::kActivity) {
        ubsim::SharedContextModel<New> n3("new3"), r3("eval3");
        run_after_edges(*n3, *r3, true);
      }
    }
    ubsim::SharedContextModel<New> n("new");
    ubsim::SharedContextModel<Ref> o("ref");
    return run(*n, *o);
  };
  const std::string& m = header.model();
  if (m == "Vub_tx_pipeline") return pair(ModelType<Vub_tx_pipeline>{}, ModelType<Vub_tx_pipeline_v1>{}, true);
  if (m == "Vroce_tx_pipeline") return pair(ModelType<Vroce_tx_pipeline>{}, ModelType<Vroce_tx_pipeline_v1>{}, true);
  if (m == "Vctx_cache") return pair(ModelType<Vctx_cache>{}, ModelType<Vctx_cache_v1>{}, true);
  if (m == "Vrx_pipeline") return pair(ModelType<Vrx_pipeline>{}, ModelType<Vrx_pipeline_v1>{}, true);
  if (m == "Vsack_sender") return pair(ModelType<Vsack_sender>{}, ModelType<Vsack_sender_v2>{}, false);
  if (m == "Vsack_receiver") return pair(ModelType<Vsack_receiver>{}, ModelType<Vsack_receiver_v2>{}, false);
  return 0;   // a block that was not restructured
}

}  // namespace

// The check the bridges make at compile time (pipeline_bridges.cpp) sees the
// ports an edge leaves to the next settle.
static_assert(!ubsim::exact_after_edge<Vub_tx_pipeline>("s_ready") && !ubsim::exact_after_edge<Vroce_tx_pipeline>("s_ready"));
static_assert(ubsim::exact_after_edge<Vub_tx_pipeline>("busy") && ubsim::exact_after_edge<Vub_tx_pipeline>("m_valid"));
static_assert(ubsim::exact_after_edge<Vsack_receiver>("s_ready"));   // its edge keeps eval()'s NBA region
// The send and receive pipelines' activity outputs are apart (the burst
// driver's edges leave them): the replays below check both ways.
static_assert(ubsim::EdgeNba<Vub_tx_pipeline>::kActivity && ubsim::EdgeNba<Vroce_tx_pipeline>::kActivity &&
              ubsim::EdgeNba<Vrx_pipeline>::kActivity);
// and their settles for that driver leave outputs it does not read, none
// that it reads (burst.h static_asserts the same)
static_assert(ubsim::SettleIco<Vub_tx_pipeline>::kBare && ubsim::SettleIco<Vroce_tx_pipeline>::kBare);
// and the UB pipeline's edges for it take the NBA region's chain (the
// replays with the activity left and the odd random runs step them so)
static_assert(ubsim::EdgeNba<Vub_tx_pipeline>::kChain && !ubsim::EdgeNba<Vroce_tx_pipeline>::kChain &&
              !ubsim::EdgeNba<Vrx_pipeline>::kChain);
static_assert(!ubsim::exact_reading_few<Vub_tx_pipeline>("ctx_wait") &&
              ubsim::exact_reading_few<Vub_tx_pipeline>("s_ready") &&
              ubsim::exact_reading_few<Vroce_tx_pipeline>("m_valid"));

TEST_CASE("restructured blocks: the old blocks' outputs in every cycle of the experiments' recorded traffic",
          "[rtl][lockstep]") {
  const fs::path dir = fs::temp_directory_path() / fmt::format("ubsim_stimuli_{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string env = "UBSIM_STIMULUS_DIR=" + dir.string() + " SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE ";
  const std::string bin = UBSIM_BIN;
  const std::vector<std::string> runs = {
      "latency --path all --ops 200",
      "latency --path all --verb write --size 20000 --ops 40",
      "latency --path all --ops 200 --outstanding 16",
      "latency --path all --ops 150 --loss 0.02",
      "latency --path ub-async --ops 1500 --loss 0.05 --outstanding 8",
      "issue-rate --burst 400",
      "ordering",
      "ctx-cache --endpoints 1,600 --ops 300",
      "throughput --size 65536 --slots 4,32",
  };
  for (const std::string& r : runs) {
    const auto res = ubsim::test::run_command(env + bin + " " + r + " --format json > /dev/null");
    INFO(r << "\n" << res.out);
    REQUIRE(res.status == 0);
  }
  std::map<std::string, uint64_t> cycles;
  for (const auto& e : fs::directory_iterator(dir)) {
    ubsim::StimulusReader h(e.path().string());
    cycles[h.model()] += replay(e.path());
  }
  fs::remove_all(dir);
  for (const char* m : {"Vub_tx_pipeline", "Vroce_tx_pipeline", "Vrx_pipeline", "Vctx_cache"}) {
    INFO(m);
    CHECK(cycles[m] > 20000);
  }
  CHECK(cycles["Vsack_sender"] > 10000);   // (4 edges per packet: the loss runs' packets)
  CHECK(cycles["Vsack_receiver"] > 10000);
  WARN(fmt::format("cycles compared: ub_tx {} roce_tx {} rx {} ctx_cache {} sack_tx {} sack_rx {}",
                   cycles["Vub_tx_pipeline"], cycles["Vroce_tx_pipeline"], cycles["Vrx_pipeline"], cycles["Vctx_cache"],
                   cycles["Vsack_sender"], cycles["Vsack_receiver"]));
}

TEST_CASE("restructured blocks: the old blocks' outputs in every cycle of 10^6 random cycles each", "[rtl][lockstep]") {
  for (uint64_t run = 0; run < 4; ++run) random_order_tracker(run, 250000);
  for (uint64_t run = 0; run < 4; ++run) random_ub_tx(run, 250000);
  for (uint64_t run = 0; run < 4; ++run) random_roce_tx(run, 250000);
  for (uint64_t run = 0; run < 4; ++run) random_rx(run, 250000);
  for (uint64_t run = 0; run < 4; ++run) random_ctx_cache(run, 250000);
  for (uint64_t run = 0; run < 4; ++run) random_sack_sender(run, 250000);
  for (uint64_t run = 0; run < 4; ++run) random_sack_receiver(run, 250000);
}
