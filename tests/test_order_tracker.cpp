// The order tracker RTL against an ordering reference written from the
// rules of spec sections 2 and 7, with random traffic (many seeds): mixed
// queues, service modes, tags, Fences, completion-order bits and illegal UNO
// requests, random completion timing and back-pressure.
//
// The reference keeps its own per-queue history (what was accepted, issued
// and completed when) and derives, for every request, the earliest cycle it
// may be issued: one cycle after it is accepted (the tracker is a register
// stage), and
//   - UB (not strict): after every earlier Fence of its queue has issued (a
//     Fence is a queue barrier); a Fence two cycles after the completion of
//     every earlier Read/Atomic of its queue reached the tracker (registered,
//     then released); an SO of an ROI queue likewise after every earlier RO
//     and SO of its queue; nothing else waits (NO and RO are never blocked by
//     an SO; ROT, ROL leave SO to the target / the channel);
//   - RoCE RC (strict): after every earlier request of its QP has issued, and
//     an SO or Fence two cycles after every earlier Read/Atomic completed.
// Checked for every request: never issued before that cycle; held exactly
// when that cycle is later than the pass-through one; and issued late only
// by cycles in which the output was taken by another request or refused by
// m_ready (isolation: no request is kept waiting by another queue's requests
// or holds, only by contention for the one output). Strict mode also: every
// QP's requests issue in order. A watchdog fails a run that stops making
// progress.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "block_config.h"
#include "verilated_block.h"
#include "Vorder_tracker.h"
#include "rtl_variant.h"

namespace {

// the RTL's encodings (rtl/ubsim_pkg.sv, generated into rtl_variant.h)
enum Mode { ROI = ubsim::enc::MODE_ROI, ROT = ubsim::enc::MODE_ROT, ROL = ubsim::enc::MODE_ROL, UNO = ubsim::enc::MODE_UNO };
enum Tag { NO = ubsim::enc::TAG_NO, RO = ubsim::enc::TAG_RO, SO = ubsim::enc::TAG_SO };
constexpr int kMtu = 4096;
constexpr uint64_t kNever = ~0ull;

struct Req {
  uint32_t id = 0;
  int queue = 0, mode = ROI, tag = NO;
  bool fence = false, rdat = false, corder = false, illegal = false;
  uint32_t payload = 64;
  uint64_t accepted = kNever, issued = kNever, completed = kNever;   // cycles (completion: on s_cpl)
  bool held = false, reported = false, errored = false;
  int slot = -1, seq = -1;
};

// The reference: per queue, its requests in acceptance order.
class OrderingReference {
 public:
  explicit OrderingReference(bool strict) : strict_(strict) {}
  std::vector<Req> reqs;                                   // by id
  void accept(const Req& r) {
    reqs.push_back(r);
    if (!r.illegal) queue_[r.queue].push_back(r.id);
  }
  const std::vector<uint32_t>& queue(int q) { return queue_[q]; }

  // The earliest cycle r may issue, from its queue's history; kNever while a
  // request it waits for has not issued or completed yet.
  uint64_t earliest_issue(const Req& r) const {
    uint64_t e = r.accepted + 1;
    auto after_issue = [&](const Req& p) { e = std::max(e, p.issued == kNever ? kNever : p.issued + 1); };
    auto after_completion = [&](const Req& p) { e = std::max(e, p.completed == kNever ? kNever : p.completed + 2); };
    for (uint32_t id : queue_.at(r.queue)) {
      if (id == r.id) break;
      const Req& p = reqs[id];
      if (strict_) {
        after_issue(p);                                           // RC: in order
        if ((r.tag == SO || r.fence) && p.rdat) after_completion(p);
      } else {
        if (p.fence) after_issue(p);                              // queue barrier
        if (r.fence && p.rdat) after_completion(p);
        if (r.tag == SO && r.mode == ROI && p.tag != NO) after_completion(p);
      }
    }
    return e;
  }

 private:
  bool strict_;
  std::map<int, std::vector<uint32_t>> queue_;
};

struct RunStats {
  uint64_t accepted = 0, held = 0, errors = 0, issued = 0, reported = 0;
  uint64_t max_lateness = 0;      // cycles issued after the earliest cycle (all by contention)
  uint64_t contended = 0;         // requests issued late (by another request or m_ready)
  uint64_t cross_queue_late = 0;  // ... of which while another queue held a request
};

RunStats run(uint64_t seed, bool strict, int queues, int cycles) {
  ubsim::VerilatedBlock<Vorder_tracker> b("ot");
  Vorder_tracker& m = b.model();
  ubsim::configure(m, strict, kMtu);
  m.s_valid = 0;
  m.s_present = 0;
  m.s_cpl_valid = 0;
  m.m_ready = 1;
  m.m_err_ready = 1;
  m.m_rep_ready = 1;
  b.reset();

  std::mt19937_64 rng(seed);
  auto chance = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  std::vector<int> mode_of(static_cast<size_t>(queues));
  for (int& md : mode_of) md = strict ? ROI : static_cast<int>(rng() % 4);
  OrderingReference ref(strict);
  RunStats st;
  struct Due { uint64_t at; uint32_t id; };
  std::vector<Due> completions;                 // issued, to complete at `at`
  std::vector<bool> port_taken(1, false);       // by cycle: something issued, or m_ready low
  std::vector<bool> other_held(1, false);       // by cycle: a held request anywhere
  bool presenting = false;
  Req in;
  uint64_t last_progress = 0;
  for (uint64_t cyc = 1;; ++cyc) {
    const bool draining = cyc > static_cast<uint64_t>(cycles);
    bool all_done = !presenting;
    for (const Req& r : ref.reqs) all_done = all_done && (r.errored || (r.issued != kNever && r.reported));
    if (draining && all_done) break;
    INFO(fmt::format("seed {} strict {} cycle {}", seed, strict, cyc));
    REQUIRE(cyc - last_progress < 5000);        // watchdog: no deadlock

    if (!draining && !presenting && chance(60)) {
      presenting = true;
      in = Req{};
      in.id = static_cast<uint32_t>(ref.reqs.size());
      in.queue = static_cast<int>(rng() % static_cast<uint64_t>(queues));
      in.mode = mode_of[static_cast<size_t>(in.queue)];
      const int t = static_cast<int>(rng() % 10);
      in.tag = t < 5 ? NO : t < 7 ? RO : SO;
      in.fence = chance(10);
      in.rdat = chance(50);
      in.corder = chance(20);
      if (in.mode == UNO && chance(60)) { in.tag = NO; in.fence = false; in.corder = false; }
      in.payload = in.mode == UNO && chance(10) ? kMtu + 1 : 64;
    }
    // one completion per cycle: the earliest due one
    int cpl = -1;
    for (size_t i = 0; i < completions.size(); ++i)
      if (completions[i].at <= cyc && (cpl < 0 || completions[i].at < completions[static_cast<size_t>(cpl)].at))
        cpl = static_cast<int>(i);
    const bool m_ready = draining || chance(85);
    const bool rep_ready = draining || chance(70);

    m.clk = 0;
    m.s_valid = presenting;
    m.s_present = presenting;
    m.s_id = in.id;
    m.s_data = in.id;
    m.s_track = 1;
    m.s_queue = static_cast<uint16_t>(in.queue);
    m.s_mode = static_cast<uint8_t>(in.mode);
    m.s_tag = static_cast<uint8_t>(in.tag);
    m.s_fence = in.fence;
    m.s_comp_order = in.corder;
    m.s_rdat = in.rdat;
    m.s_payload = static_cast<uint16_t>(in.payload);
    m.s_cpl_valid = cpl >= 0;
    if (cpl >= 0) {
      const Req& c = ref.reqs[completions[static_cast<size_t>(cpl)].id];
      m.s_cpl_slot = static_cast<uint8_t>(c.slot);
      m.s_cpl_seq = static_cast<uint8_t>(c.seq);
    }
    m.m_ready = m_ready;
    m.m_err_ready = 1;
    m.m_rep_ready = rep_ready;
    m.eval();

    // ---- what the RTL does this cycle, against the reference ----
    port_taken.push_back(!m_ready || (m.m_valid && m_ready));
    other_held.push_back(m.held_any != 0);
    if (m.s_valid && m.s_ready) {
      in.illegal = in.mode == UNO && (in.tag != NO || in.fence || in.corder || in.payload > kMtu);
      in.accepted = cyc;
      in.held = !in.illegal && m.in_hold;
      st.held += in.held;
      ref.accept(in);
      presenting = false;
      ++st.accepted;
      last_progress = cyc;
    }
    if (m.m_valid && m.m_ready) {
      Req& r = ref.reqs.at(m.m_id);
      INFO(fmt::format("issue of request {} (queue {} mode {} tag {} fence {} rdat {}, accepted {}, held {})", r.id,
                       r.queue, r.mode, r.tag, r.fence, r.rdat, r.accepted, r.held));
      REQUIRE(r.issued == kNever);              // exactly once
      REQUIRE(!r.illegal);
      REQUIRE(static_cast<bool>(m.m_released) == r.held);
      const uint64_t earliest = ref.earliest_issue(r);
      REQUIRE(earliest != kNever);              // everything it waits for issued / completed
      REQUIRE(cyc >= earliest);                 // never early
      // held exactly when a rule makes it wait beyond the pass-through cycle
      REQUIRE(r.held == (earliest > r.accepted + 1));
      // late only by cycles the output was taken by another request or refused
      for (uint64_t c = earliest; c < cyc; ++c) {
        INFO("the output was free in cycle " << c << " while the request could go (from " << earliest << ")");
        REQUIRE(port_taken[c]);
      }
      st.max_lateness = std::max(st.max_lateness, cyc - earliest);
      if (cyc > earliest) {
        ++st.contended;
        bool held_elsewhere = false;
        for (uint64_t c = earliest; c < cyc; ++c) held_elsewhere = held_elsewhere || other_held[c];
        st.cross_queue_late += held_elsewhere;
      }
      r.issued = cyc;
      r.slot = m.m_slot;
      r.seq = m.m_seq;
      completions.push_back({cyc + 1 + rng() % 40, r.id});
      ++st.issued;
      last_progress = cyc;
    }
    if (m.m_err_valid && m.m_err_ready) {
      Req& r = ref.reqs.at(m.m_err_id);
      REQUIRE(r.illegal);
      REQUIRE(!r.errored);
      REQUIRE(m.m_err_code == (r.tag == NO && !r.fence && !r.corder ? ubsim::enc::ERR_UNO_OVER_MTU : ubsim::enc::ERR_ORDER_UNDER_UNO));
      r.errored = true;
      ++st.errors;
      last_progress = cyc;
    }
    if (m.m_rep_valid && m.m_rep_ready) {
      Req& r = ref.reqs.at(m.m_rep_id);
      REQUIRE(r.completed != kNever);           // reported once done
      REQUIRE(!r.reported);
      if (r.corder)                             // completion order: every earlier one first
        for (uint32_t id : ref.queue(r.queue)) {
          if (id == r.id) break;
          REQUIRE(ref.reqs[id].reported);
        }
      r.reported = true;
      ++st.reported;
      last_progress = cyc;
    }

    // ---- the edge ----
    m.clk = 1;
    m.eval();
    if (cpl >= 0) {
      ref.reqs[completions[static_cast<size_t>(cpl)].id].completed = cyc;
      completions.erase(completions.begin() + cpl);
    }
  }
  for (const Req& r : ref.reqs) CHECK((r.illegal ? r.errored : (r.issued != kNever && r.reported)));
  if (strict)   // RC: every QP's requests left in the order they came
    for (int q = 0; q < queues; ++q) {
      uint64_t last = 0;
      for (uint32_t id : ref.queue(q)) {
        CHECK(ref.reqs[id].issued > last);
        last = ref.reqs[id].issued;
      }
    }
  return st;
}

}  // namespace

TEST_CASE("order tracker: every ordering rule holds under random traffic (UB modes)", "[rtl][order]") {
  RunStats all;
  for (uint64_t seed = 1; seed <= 80; ++seed) {
    const int queues = seed % 5 == 0 ? ubsim::rtl_variant::kOrderSlots + 3 : 1 + static_cast<int>(seed % 6);
    const RunStats s = run(seed, false, queues, 1500);
    all.accepted += s.accepted; all.held += s.held; all.errors += s.errors; all.issued += s.issued;
    all.contended += s.contended; all.cross_queue_late += s.cross_queue_late;
    all.max_lateness = std::max(all.max_lateness, s.max_lateness);
  }
  // the random mix exercised holds, releases, errors and contention many times
  CHECK(all.held > 1000);
  CHECK(all.errors > 100);
  CHECK(all.contended > 1000);
  CHECK(all.cross_queue_late > 100);   // isolation was tested while other queues held requests
  CHECK(all.issued + all.errors == all.accepted);
  CHECK(all.max_lateness <= 50);       // spec 7's bound, with back-pressure included
}

TEST_CASE("order tracker: strict in-order per queue (RoCE RC)", "[rtl][order]") {
  RunStats all;
  for (uint64_t seed = 101; seed <= 140; ++seed) {
    const RunStats s = run(seed, true, 1 + static_cast<int>(seed % 4), 1500);
    all.held += s.held; all.issued += s.issued; all.accepted += s.accepted;
  }
  CHECK(all.held > 1000);
  CHECK(all.issued == all.accepted);
}
