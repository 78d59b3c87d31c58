// The order tracker RTL against the ordering rules of spec section 2, with
// random traffic (many seeds): mixed queues, service modes, tags, Fences,
// completion-order bits and illegal UNO requests, random completion timing
// and back-pressure. A reference checker, written from the rules, decides
// for every request whether it has to wait and checks every issue, release,
// completion report and error; a watchdog fails a run that stops making
// progress.
#include <catch2/catch.hpp>

#include <map>
#include <random>
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
constexpr int kReleaseBound = 50;   // spec 7: <= 50 cycles after the completions are known

struct Req {
  uint32_t id = 0;
  int queue = 0, mode = ROI, tag = NO;
  bool fence = false, rdat = false, corder = false, illegal = false;
  uint32_t payload = 64;
  bool held = false, released = false, issued = false, completed = false, reported = false, errored = false;
  uint64_t accepted_at = 0, eligible_since = 0;
  int slot = -1, seq = -1;
};

struct Checker {
  bool strict;
  std::vector<Req> reqs;                       // by id
  std::map<int, std::vector<uint32_t>> queue;  // queue -> ids in acceptance order

  // Does request r (not yet in its queue's list) have to wait, given the
  // completions seen so far?
  bool must_hold(const Req& r) const {
    auto it = queue.find(r.queue);
    if (it == queue.end()) return false;
    bool earlier_held = false, earlier_fence_held = false, rdat_pending = false, roso_pending = false;
    for (uint32_t id : it->second) {
      const Req& e = reqs[id];
      if (e.errored || e.illegal) continue;
      if (e.held && !e.released) {
        earlier_held = true;
        earlier_fence_held = earlier_fence_held || e.fence;
      }
      if (!e.completed) {
        rdat_pending = rdat_pending || e.rdat;
        roso_pending = roso_pending || e.tag != NO;
      }
    }
    if (strict) return earlier_held || ((r.tag == SO || r.fence) && rdat_pending);
    return earlier_fence_held || (r.fence && rdat_pending) || (r.mode == ROI && r.tag == SO && roso_pending);
  }

  // May held request r go now (every earlier request it waits for completed,
  // and it is the oldest held request of its queue)?
  bool may_release(const Req& r) const {
    bool rdat_pending = false, roso_pending = false;
    for (uint32_t id : queue.at(r.queue)) {
      if (id == r.id) break;
      const Req& e = reqs[id];
      if (e.errored || e.illegal) continue;
      if (e.held && !e.released) return false;   // an older held one goes first
      if (!e.completed) {
        rdat_pending = rdat_pending || e.rdat;
        roso_pending = roso_pending || e.tag != NO;
      }
    }
    if (strict) return !((r.tag == SO || r.fence) && rdat_pending);
    return !(r.fence && rdat_pending) && !(r.tag == SO && r.mode == ROI && roso_pending);
  }
};

struct RunStats {
  uint64_t accepted = 0, held = 0, errors = 0, issued = 0, reported = 0, max_release_wait = 0;
};

RunStats run(uint64_t seed, bool strict, int queues, int cycles) {
  ubsim::VerilatedBlock<Vorder_tracker> b("ot");
  Vorder_tracker& m = b.model();
  ubsim::configure(m, strict, kMtu);
  m.s_valid = 0;
  m.s_cpl_valid = 0;
  m.m_ready = 1;
  m.m_err_ready = 1;
  m.m_rep_ready = 1;
  b.reset();

  std::mt19937_64 rng(seed);
  auto chance = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  std::vector<int> mode_of(static_cast<size_t>(queues));
  for (int& md : mode_of) md = strict ? ROI : static_cast<int>(rng() % 4);
  Checker ck{strict, {}, {}};
  RunStats st;
  struct Due { uint64_t at; uint32_t id; };
  std::vector<Due> completions;                 // issued, to complete at `at`
  bool presenting = false;
  Req in;
  uint64_t last_progress = 0;
  for (uint64_t cyc = 1;; ++cyc) {
    const bool draining = cyc > static_cast<uint64_t>(cycles);
    bool all_done = !presenting;
    for (const Req& r : ck.reqs) all_done = all_done && (r.errored || (r.issued && r.completed && r.reported));
    if (draining && all_done) break;
    INFO(fmt::format("seed {} strict {} cycle {}", seed, strict, cyc));
    REQUIRE(cyc - last_progress < 5000);        // watchdog: no deadlock

    if (!draining && !presenting && chance(60)) {
      presenting = true;
      in = Req{};
      in.id = static_cast<uint32_t>(ck.reqs.size());
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
    const uint32_t payload = in.payload;
    // one completion per cycle: the earliest due one
    int cpl = -1;
    for (size_t i = 0; i < completions.size(); ++i)
      if (completions[i].at <= cyc && (cpl < 0 || completions[i].at < completions[static_cast<size_t>(cpl)].at))
        cpl = static_cast<int>(i);
    const bool m_ready = draining || chance(85);
    const bool rep_ready = draining || chance(70);

    m.clk = 0;
    m.s_valid = presenting;
    m.s_id = in.id;
    m.s_data = in.id;
    m.s_track = 1;
    m.s_queue = static_cast<uint16_t>(in.queue);
    m.s_mode = static_cast<uint8_t>(in.mode);
    m.s_tag = static_cast<uint8_t>(in.tag);
    m.s_fence = in.fence;
    m.s_comp_order = in.corder;
    m.s_rdat = in.rdat;
    m.s_payload = static_cast<uint16_t>(payload);
    m.s_cpl_valid = cpl >= 0;
    if (cpl >= 0) {
      const Req& c = ck.reqs[completions[static_cast<size_t>(cpl)].id];
      m.s_cpl_slot = static_cast<uint8_t>(c.slot);
      m.s_cpl_seq = static_cast<uint8_t>(c.seq);
    }
    m.m_ready = m_ready;
    m.m_err_ready = 1;
    m.m_rep_ready = rep_ready;
    m.eval();

    // ---- what the RTL does this cycle, against the reference ----
    if (m.s_valid && m.s_ready) {
      in.illegal = in.mode == UNO && (in.tag != NO || in.fence || in.corder || payload > kMtu);
      in.accepted_at = cyc;
      if (!in.illegal) {
        const bool hold = ck.must_hold(in);
        INFO(fmt::format("request {} queue {} mode {} tag {} fence {} rdat {}", in.id, in.queue, in.mode, in.tag,
                         in.fence, in.rdat));
        REQUIRE(static_cast<bool>(m.in_hold) == hold);   // waits exactly when a rule says so
        in.held = hold;
        in.eligible_since = 0;
        st.held += hold;
      }
      ck.reqs.push_back(in);
      ck.queue[in.queue].push_back(in.id);
      presenting = false;
      ++st.accepted;
      last_progress = cyc;
    }
    if (m.rel_take) {                           // a held request leaves the hold window
      Req& r = ck.reqs.at(m.rel_id);
      INFO("release of " << r.id);
      REQUIRE(r.held);
      REQUIRE(!r.released);
      REQUIRE(ck.may_release(r));               // never early
      REQUIRE(r.eligible_since != 0);
      st.max_release_wait = std::max(st.max_release_wait, cyc - r.eligible_since);
      r.released = true;
    }
    if (m.m_valid && m.m_ready) {
      Req& r = ck.reqs.at(m.m_id);
      INFO("issue of " << r.id);
      REQUIRE(!r.issued);                       // exactly once
      REQUIRE(!r.illegal);
      REQUIRE(static_cast<bool>(m.m_released) == r.held);
      REQUIRE(cyc > r.accepted_at);             // through the output register
      if (r.held) REQUIRE(r.released);
      // a Fence is a queue barrier: nothing later of its queue went before it
      // (strict: nothing later at all went before anything earlier)
      for (uint32_t id : ck.queue.at(r.queue)) {
        if (id == r.id) break;
        const Req& e = ck.reqs[id];
        if (e.illegal) continue;
        if (e.fence || strict) REQUIRE((e.issued || (e.held && e.released)));
      }
      r.issued = true;
      r.slot = m.m_slot;
      r.seq = m.m_seq;
      completions.push_back({cyc + 1 + rng() % 40, r.id});
      ++st.issued;
      last_progress = cyc;
    }
    if (m.m_err_valid && m.m_err_ready) {
      Req& r = ck.reqs.at(m.m_err_id);
      REQUIRE(r.illegal);
      REQUIRE(!r.errored);
      REQUIRE(m.m_err_code == (r.tag == NO && !r.fence && !r.corder ? ubsim::enc::ERR_UNO_OVER_MTU : ubsim::enc::ERR_ORDER_UNDER_UNO));
      r.errored = true;
      ++st.errors;
      last_progress = cyc;
    }
    if (m.m_rep_valid && m.m_rep_ready) {
      Req& r = ck.reqs.at(m.m_rep_id);
      REQUIRE(r.completed);
      REQUIRE(!r.reported);
      if (r.corder)
        for (uint32_t id : ck.queue.at(r.queue)) {
          if (id == r.id) break;
          if (!ck.reqs[id].illegal) REQUIRE(ck.reqs[id].reported);   // completion order
        }
      r.reported = true;
      ++st.reported;
      last_progress = cyc;
    }

    // ---- the edge ----
    m.clk = 1;
    m.eval();
    if (cpl >= 0) {
      ck.reqs[completions[static_cast<size_t>(cpl)].id].completed = true;
      completions.erase(completions.begin() + cpl);
    }
    // from the next cycle on the tracker knows these completions: note when
    // each oldest held request became free to go, and bound its wait
    for (Req& r : ck.reqs)
      if (r.held && !r.released) {
        if (r.eligible_since == 0 && ck.may_release(r)) r.eligible_since = cyc + 1;
        if (r.eligible_since != 0) REQUIRE(cyc + 1 - r.eligible_since <= kReleaseBound);
      }
  }
  for (const Req& r : ck.reqs) CHECK((r.illegal ? r.errored : (r.issued && r.reported)));
  return st;
}

}  // namespace

TEST_CASE("order tracker: every ordering rule holds under random traffic (UB modes)", "[rtl][order]") {
  RunStats all;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const int queues = seed % 5 == 0 ? ubsim::rtl_variant::kOrderSlots + 3 : 1 + static_cast<int>(seed % 6);
    const RunStats s = run(seed, false, queues, 1500);
    all.accepted += s.accepted; all.held += s.held; all.errors += s.errors; all.issued += s.issued;
    all.max_release_wait = std::max(all.max_release_wait, s.max_release_wait);
  }
  // the random mix exercised holds, releases and errors many times
  CHECK(all.held > 1000);
  CHECK(all.errors > 100);
  CHECK(all.issued + all.errors == all.accepted);
  CHECK(all.max_release_wait <= kReleaseBound);
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
