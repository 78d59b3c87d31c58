// Lockstep of two builds of one block: a block restructured for simulation
// cost (New) against the block as it was (Old, rtl/v1/): the same inputs
// into both, every output compared in every cycle (settled, before the edge),
// port by port through the generated port tables (port_table.h), so no
// output can be left out of the comparison. The first cycle and port that
// differ are named.
//
// Inputs come from a recorded stimulus (stimulus.h: what the bridges drove
// in an experiment) or from a random driver that writes the reference's
// inputs (copied to the new block each cycle). An input only the new block
// has (a hint its enclosing block gives it, e.g. the order tracker's
// s_present) is named by the caller, which drives it.
#pragma once
#include <cstring>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "stimulus.h"
#include "verilated_block.h"

namespace ubsim::test {

// Outputs that only steer the simulator (when a bridge may skip cycles), not
// the block's behaviour: a restructured block may report them differently.
inline const std::set<std::string> kActivityOutputs = {"busy", "quiet", "wake_in"};

template <class New, class Old>
class Lockstep {
 public:
  Lockstep(New& n, Old& o, std::string what, std::set<std::string> own_inputs = {})
      : n_(n), o_(o), what_(std::move(what)) {
    for (const PortInfo* p = ports_begin<Old>(); p != ports_end<Old>(); ++p) {
      const PortInfo* q = find<New>(p->name);
      if (!q && !p->input && kActivityOutputs.count(p->name)) continue;   // reported another way (the chains' taps)
      if (!q) throw std::logic_error(what_ + ": the restructured block has no port '" + p->name + "'");
      if (q->input != p->input || q->bytes != p->bytes || q->bits != p->bits)
        throw std::logic_error(what_ + ": port '" + std::string(p->name) + "' differs in direction or width");
      if (p->input) inputs_.push_back({q, p});
      else if (!kActivityOutputs.count(p->name)) outputs_.push_back({q, p});
    }
    for (const PortInfo* q = ports_begin<New>(); q != ports_end<New>(); ++q)
      if (!find<Old>(q->name) && q->input && !own_inputs.count(q->name))
        throw std::logic_error(what_ + ": the restructured block has an input the reference lacks: " + q->name);
  }

  // The reference's inputs into the new block.
  void copy_inputs() {
    for (const auto& [q, p] : inputs_) std::memcpy(q->addr(&n_), p->addr(&o_), p->bytes);
  }
  // Both blocks reset with the inputs as they are (`edges` clock edges).
  void reset(int edges) {
    copy_inputs();
    reset_one(n_, edges);
    reset_one(o_, edges);
    ++resets_;
  }
  // One clock cycle with the inputs as they are: clock low (settle), compare
  // every output, then the rising edge (the new block's as the bridges step
  // it). Returns the first difference ("" when none). The outputs are
  // compared as they settle in each cycle, which is what a bridge samples
  // and what the logic around the block would see; right after the edge a
  // block's outputs mix the new state with the last cycle's inputs (the
  // stage chains' tap, for one, is a register in the new blocks and a
  // compare with cfg_now in the old), which no consumer reads.
  std::string cycle() {
    std::string d = settle();
    return d.empty() ? edge() : d;
  }
  // The two halves of cycle(), for a driver that reacts to the settled
  // handshakes before the edge.
  // (adjust: run after the reference's inputs are copied, for an input of
  // the new block's own that changes how it reads another)
  std::string settle(const std::function<void()>& adjust = {}) {
    copy_inputs();
    if (adjust) adjust();
    ++cycles_;
    n_.clk = 0;
    o_.clk = 0;
    // as the bridges settle it (clock_edge.h): where the request's valid is
    // high alone, or no valid is, the copy a bridge that drove that takes
    Driven as = Driven::Unknown;
    if constexpr (SettleIco<New>::kDriven) {
      if (SettleIco<New>::drove_alone(n_.rootp)) as = Driven::RequestAlone;
      else if (SettleIco<New>::drove_nothing(n_.rootp)) as = Driven::Nothing;
    }
    driven_settles_ += as == Driven::RequestAlone;
    nothing_settles_ += as == Driven::Nothing;
    if constexpr (SettleIco<New>::kBare)
      if (refresh_every_ != 0 && as == Driven::RequestAlone) as = Driven::RequestAloneReadsFew;
    bare_ = as == Driven::RequestAloneReadsFew;
    bare_settles_ += bare_;
    settled_ = settle_clock_low_for(n_, as);
    o_.eval();
    return difference();
  }
  std::string edge() {
    // (activity exact after this edge: computed by it, or refreshed)
    const bool activity_exact = refresh_every_ == 0 || cycles_ % refresh_every_ == 0;
    if (refresh_every_ == 0) {
      ClockEdge<New>::template rise<true>(n_, settled_);
    } else {
      ClockEdge<New>::template rise<true, EdgeCaller::EveryCycle>(n_, settled_);
      if (activity_exact) refresh_activity(n_);
    }
    o_.clk = 1;
    o_.eval();
    for (const auto& [q, p] : after_edge_) {
      if (!activity_exact && kActivityOutputs.count(p->name)) continue;
      if (bare_ && !exact_reading_few<New>(p->name)) continue;
      if (std::memcmp(q->addr(&n_), p->addr(&o_), p->bytes) != 0)
        return fmt::format("{}: after the edge of cycle {}: port {} is {} in the block stepped as the bridges step "
                           "it, {} in the reference",
                           what_, cycles_, p->name, port_hex(*q, &n_), port_hex(*p, &o_));
    }
    return {};
  }
  // The new block stepped as the burst driver steps it (a driver that
  // clocks it in every cycle and reads few outputs): its edges as
  // EdgeCaller::EveryCycle (the NBA region's chain where generated, the
  // activity outputs, busy and quiet, left as they were), recomputed every
  // `refresh_every` cycles (refresh_activity) and then compared with the
  // rest; its settles where the request's valid is high alone as
  // Driven::RequestAloneReadsFew, whose left outputs
  // (SettleIco<New>::kBareLeft) are compared only after a settle of
  // another kind. Every other output is compared as before: the logic
  // left out feeds nothing else.
  void step_as_every_cycle(uint64_t refresh_every) { refresh_every_ = refresh_every; }
  uint64_t bare_settles() const { return bare_settles_; }
  // For a pair of one block (New stepped as the bridges step it, Old the
  // same model by eval()): also compare right after every edge each output
  // that edge leaves exact, the activity outputs included: every port but
  // those in EdgeNba<New>::kStale (the input logic left to the next settle).
  void compare_after_edges() {
    std::set<std::string> stale;
    if constexpr (EdgeNba<New>::kSkipped > 0)
      for (const char* const* n = EdgeNba<New>::kStale; *n; ++n) stale.insert(*n);
    for (const PortInfo* p = ports_begin<Old>(); p != ports_end<Old>(); ++p)
      if (!p->input && !stale.count(p->name)) after_edge_.push_back({find<New>(p->name), p});
  }
  // Replays a recorded stimulus into both; returns the first difference.
  std::string replay(const std::string& path) {
    StimulusReader r(path);
    while (r.next()) {
      r.apply(&o_, ports_begin<Old>(), ports_end<Old>());
      if (r.is_reset()) {
        reset(r.reset_edges());
        continue;
      }
      std::string d = cycle();
      if (!d.empty()) return d;
    }
    return {};
  }
  uint64_t cycles() const { return cycles_; }
  uint64_t resets() const { return resets_; }
  // settles that took the block's settle_driven copy (its valid high alone),
  // and its choice for no valid high
  uint64_t driven_settles() const { return driven_settles_; }
  uint64_t nothing_settles() const { return nothing_settles_; }

 private:
  template <class M>
  static const PortInfo* find(const char* name) {
    for (const PortInfo* p = ports_begin<M>(); p != ports_end<M>(); ++p)
      if (std::strcmp(p->name, name) == 0) return p;
    return nullptr;
  }
  template <class M>
  static void reset_one(M& m, int edges) {
    m.rst = 1;
    for (int i = 0; i < edges; ++i) {
      m.clk = 0;
      m.eval();
      m.clk = 1;
      m.eval();
    }
    m.rst = 0;
    m.clk = 0;
    m.eval();
  }
  std::string difference() {
    for (const auto& [q, p] : outputs_)
      if (bare_ && !exact_reading_few<New>(p->name)) continue;
      else if (std::memcmp(q->addr(&n_), p->addr(&o_), p->bytes) != 0)
        return fmt::format("{}: cycle {}: port {} is {} in the restructured block, {} in the reference", what_,
                           cycles_, p->name, port_hex(*q, &n_), port_hex(*p, &o_));
    return {};
  }

  New& n_;
  Old& o_;
  std::string what_;
  std::vector<std::pair<const PortInfo*, const PortInfo*>> inputs_, outputs_, after_edge_;   // (new, reference)
  uint64_t cycles_ = 0, resets_ = 0, driven_settles_ = 0, nothing_settles_ = 0;
  uint32_t settled_ = 0;   // what the last settle returned: the edge's trigger mask (ClockEdge::rise)
  uint64_t refresh_every_ = 0;   // step_as_every_cycle(); 0: as the bridges step it
  bool bare_ = false;            // the last settle left SettleIco<New>::kBareLeft
  uint64_t bare_settles_ = 0;
};

}  // namespace ubsim::test
