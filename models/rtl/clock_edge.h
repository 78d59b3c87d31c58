// ClockEdge: the rising-edge evaluation of a verilated block, without the
// input-combinational region when the scheduler allows it.
//
// Every cycle of a block is two eval() calls: clock low (the new inputs
// settle, so a bridge can read which handshakes fire), then clock high (the
// edge). Verilator 5.006's eval() starts with the input-combinational region
// on every call, so the clock-high call evaluates again, for unchanged inputs
// and unchanged state, everything the clock-low call has just settled: for
// the send pipelines that is a third of a cycle's cost. For the untraced
// blocks registered here the edge runs only the scheduler's active / NBA
// loop (the second half of the generated _eval, the same functions in the
// same order), and the clock-low call (settle) runs the input region and
// records the triggers' inputs (settle_low; nothing where the edge takes its
// trigger mask from the gated clocks' latches, enable_mask() below), both
// without the eval_step() wrapper. Any other block, a traced one (the waveform writer reads the
// wrapper's activity flag), or another Verilator version takes eval().
//
// A gated block may also be registered so that its edge leaves the logic
// of the inputs to the next settle (UBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE):
// after the register updates, Verilator's NBA region recomputes every
// combinational signal that depends on them, also those that depend on an
// input, which the next settle's input region computes again before
// anything reads them. The edge runs EdgeNba<M>::run (generated from the
// model by rtl/gen_ports.cmake): the NBA region without the functions that
// compute only such signals. Right after that edge the ports among them
// (EdgeNba<M>::kStale) still hold their values from before it; every other
// port is exact, which the lockstep test checks after every edge of the
// recorded traffic, and a bridge static_asserts exact_after_edge() for each
// port it reads there.
//
// Why it is exact: the input-combinational region is a function of the
// inputs and the state; between the two calls only clk changes, and no
// block's logic reads clk as data (the edge trigger aside), so it would
// compute what it already holds. The lockstep tests (test_lockstep.cpp,
// test_sack_engines.cpp) step each registered block this way against a
// reference stepped by eval() and compare every output in every cycle.
//
// Both halves take copies of the generated functions with clk and rst as
// the constants they are there (V<block>_settle.cpp, gen_ports.cmake): the
// settle with clk low (settle_clock_low, from VerilatedBlock::edge, which
// has just set it; settle() tests it), the edge's NBA functions with clk
// high, and both with rst low, which it always is after the reset (the
// reset steps through eval()); rst high takes the model's own functions.
// The copies also take the context's assertion switch as on, as ubsim
// always runs (shared_verilated_context()).
#pragma once
#include <cstdint>
#include <type_traits>

#include "port_table.h"
#include "verilated_compat.h"

namespace ubsim {

// What the caller of a clock-low settle says it drove (VerilatedBlock::edge):
// a block with a settle_driven valid (SettleIco<M>::kDriven, rtl/blocks.json)
// then takes the copy for that case without testing its ports.
enum class Driven : uint8_t {
  Unknown,        // the ports tell
  RequestAlone,   // the block's settle_driven valid, no other input valid
  Nothing,        // no input valid
  // RequestAlone, and the caller reads before the edge no output but the
  // block's settle_driven_reads: the settle may leave the others stale
  // (SettleIco<M>::kBareLeft) until a settle of another kind
  RequestAloneReadsFew,
};

// Who steps a fast rising edge (ClockEdge<M>::rise): a bridge, which reads
// the activity outputs (busy, quiet) after every edge and clocks a block
// mostly while few of its units work; or a driver that clocks a saturated
// block in every cycle and reads neither (the burst driver,
// models/drivers/burst.h). The latter's edges leave the activity outputs as
// they were, where the block's NBA region has them apart
// (EdgeNba<M>::kActivity; refresh_activity() recomputes them), and take the
// NBA region as its chain of trigger tests with each function inline, where
// generated (EdgeNba<M>::kChain): no call per function, a test per block
// of the chain, cheaper than the switch where most units are clocked and
// dearer where few are (docs/performance.md).
enum class EdgeCaller : uint8_t { Bridge, EveryCycle };

// Specialized (below) for the blocks whose edge skips the input region.
template <class Model>
struct ClockEdge {
  static constexpr bool kFast = false;
  static constexpr bool kInputLogicAtSettle = false;   // the edge leaves the input logic to the settle
  // rise<true>(m, settled): the rising edge after a fast settle (out of
  // reset: rst low) that returned `settled` (the registered blocks take
  // their trigger mask from it where their settle computes one,
  // SettleIco<M>::kMask); rise(m): after any settle that left the latches
  // stored (eval(), the reset). kCaller: who steps it (EdgeCaller).
  template <bool kGiven = false, EdgeCaller kCaller = EdgeCaller::Bridge>
  static void rise(Model& m, uint32_t /*settled*/ = 0) {
    m.clk = 1;
    m.eval();
  }
  static uint32_t settle(Model& m) {
    m.eval();
    return 0;
  }
  static uint32_t settle_clock_low(Model& m) { return settle(m); }
  template <Driven>
  static uint32_t settle_clock_low_as(Model& m) {
    return settle(m);
  }
};

// The active / NBA loop of Verilator 5.006's generated _eval for one clock.
template <class Root, void (*TriggersAct)(Root*), void (*Act)(Root*), void (*Nba)(Root*)>
inline void rise_without_input_region(Root* r) {
  uint32_t nba_iterations = 0;
  bool nba_again = true;
  while (nba_again) {
    nba_again = false;
    r->__VnbaTriggered.clear();
    r->__VactIterCount = 0;
    r->__VactContinue = 1;
    while (r->__VactContinue) {
      r->__VactContinue = 0;
      TriggersAct(r);
      if (r->__VactTriggered.any()) {
        r->__VactContinue = 1;
        if (VL_UNLIKELY(++r->__VactIterCount > 100)) VL_FATAL_MT(__FILE__, __LINE__, "", "Active region did not converge.");
        r->__VnbaTriggered.set(r->__VactTriggered);
        Act(r);
      }
    }
    if (r->__VnbaTriggered.any()) {
      nba_again = true;
      if (VL_UNLIKELY(++nba_iterations > 100)) VL_FATAL_MT(__FILE__, __LINE__, "", "NBA region did not converge.");
      Nba(r);
    }
  }
}

// The clock-low evaluation (the new inputs settle) of a registered block:
// the generated _eval without the eval_step() wrapper around it (the first
// call's initialization, done by the reset; the activity flag the waveform
// writer reads, so a traced block takes eval(); the message queue of
// threaded models, which these are not). The input-combinational region
// runs once, as _eval's first iteration does. Then, instead of the active /
// NBA loop, whose one trigger pass with clk low fires nothing and only
// records the watched signals' low values for the next rising edge, those
// values are recorded directly (ClockLowTriggers<M>, generated from the
// model).
template <class Root, void (*Ico)(Root*), void (*RecordLow)(Root*)>
inline void settle_low(Root* r) {
  r->__VicoTriggered.at(0) = 1;
  Ico(r);
  r->__VicoTriggered.at(0) = 0;
  RecordLow(r);
}
// The same with the input region called directly (SettleIco<M>, generated:
// _eval_ico with its one trigger taken as set), where it exists.
// kRecord false: the edge does not read the recorded values (below).
// kClockLow: the caller has just set clk low (the input region's functions
// with the clock and the reset low, where generated, taken without testing
// clk; rst is tested: SettleIco<M>::run_clock_low).
// kAs: what the caller drove (SettleIco<M>::run_clock_low_driven, its
// _bare copy and run_clock_low_nothing, where generated).
// Returns the edge's trigger mask where the input region's copies compute
// it (SettleIco<M>::kMask), else 0 (the edge then reads it from the latches).
template <class M, class Root, void (*Ico)(Root*), void (*RecordLow)(Root*), bool kRecord = true, bool kClockLow = false,
          Driven kAs = Driven::Unknown>
inline uint32_t settle_low_of(Root* r) {
  if constexpr (SettleIco<M>::kDirect) {
    uint32_t t = 0;
    auto take = [&t](auto run) {
      if constexpr (SettleIco<M>::kMask) t = run();
      else run();
    };
    if constexpr (kClockLow && kAs == Driven::RequestAloneReadsFew && SettleIco<M>::kBare)
      take([r] { return SettleIco<M>::run_clock_low_driven_bare(r); });
    else if constexpr (kClockLow && (kAs == Driven::RequestAlone || kAs == Driven::RequestAloneReadsFew) &&
                       SettleIco<M>::kDriven)
      take([r] { return SettleIco<M>::run_clock_low_driven(r); });
    else if constexpr (kClockLow && kAs == Driven::Nothing && SettleIco<M>::kDriven)
      take([r] { return SettleIco<M>::run_clock_low_nothing(r); });
    else if constexpr (kClockLow) take([r] { return SettleIco<M>::run_clock_low(r); });
    else take([r] { return SettleIco<M>::run(r); });
    if constexpr (kRecord) RecordLow(r);
    return t;
  } else {
    settle_low<Root, Ico, RecordLow>(r);
    return 0;
  }
}

// One pass of the same loop (below) is the whole edge also for a block
// whose only edge trigger is clk (ClockLowTriggers<M>::kCount == 1): its
// NBA region cannot raise clk, so the loop's further trigger evaluations
// (two per edge) would find nothing.
//
// The rising edge of a block whose units gate their own clocks
// (rtl/clock_gate.sv). A gated clock is clk AND a latched enable: a wire of
// the input clock, so eval() computes it in the input region. Here the edge
// sets each gated clock to its latched enable (what that region would
// compute with clk high; GatedClocks<M>, generated from the model), then
// runs one pass of the active / NBA regions: the triggers of clk and of
// every enabled unit, the active region, and the NBA region of the units
// that fired. One pass is the whole edge: while clk is high no enable can
// change (the latches are closed), so no further clock edge can arise.
template <class Root, void (*TriggersAct)(Root*), void (*Act)(Root*), void (*Nba)(Root*)>
inline void rise_gated(Root* r) {
  TriggersAct(r);
  if (r->__VactTriggered.any()) {
    r->__VnbaTriggered = r->__VactTriggered;
    Act(r);
    Nba(r);
  }
}

// Whether the fast rising edge of M takes its trigger mask from the gated
// clocks' latches (EdgeTriggers<M>::rise): at that edge clk rises from the
// low the settle left, every gated clock (clk AND its latch) rises from low
// where its latch is set, and rst is as it was at the settle, so the mask
// is clk's trigger and the set latches' triggers, which is what
// _eval_triggers__act computes from the values a settle records. The settle
// then records nothing: no trigger evaluation reads them (the reset and a
// traced block take eval(), whose trigger pass reads them as they were
// after the reset: every watched signal low). The lockstep tests step the
// blocks this way against eval().
template <class M>
constexpr bool enable_mask(bool at_settle) {
  return at_settle && EdgeTriggers<M>::kFromEnables;
}
// One pass of the active / NBA regions at a fast rising edge (clk already
// high) of a gated block (kGated) or of a block whose only trigger is clk.
// given: the mask the settle returned, where its copies compute it
// (SettleIco<M>::kMask) and kGiven; else the edge reads it from the latches.
// kCaller: who steps it (EdgeCaller: the activity outputs and the NBA
// region's form).
template <class M, class Root, void (*TriggersAct)(Root*), void (*Act)(Root*), void (*Nba)(Root*), bool kAtSettle,
          bool kGated, bool kGiven, EdgeCaller kCaller = EdgeCaller::Bridge>
inline void rise_one_pass(Root* r, [[maybe_unused]] uint32_t given) {
  if constexpr (enable_mask<M>(kAtSettle)) {
    if constexpr (kGated) static_assert(EdgeTriggers<M>::kGated == GatedClocks<M>::kCount, "a gated clock without its trigger");
    uint32_t t;
    if constexpr (kGiven && SettleIco<M>::kMask) t = given;
    else t = EdgeTriggers<M>::rise(r);
    // (a given mask comes from a fast settle: out of reset, rst low, which
    // the NBA region's entry then need not test; UBSan checks it)
    if constexpr (kGiven)
      if (r->rst) __builtin_unreachable();
    if (t) {
      if constexpr (kCaller == EdgeCaller::EveryCycle && EdgeNba<M>::kChain) EdgeNba<M>::run_chain(r, t);
      else EdgeNba<M>::run_masked(r, t);
      if constexpr (kCaller == EdgeCaller::Bridge && EdgeNba<M>::kActivity) EdgeNba<M>::activity(r);
    }
  } else {
    if constexpr (kGated) GatedClocks<M>::rise(r);
    rise_gated<Root, TriggersAct, Act, Nba>(r);
  }
}

}  // namespace ubsim

// Registers model class M (its root class M___024root must be complete: include
// its V*___024root.h). Written against Verilator 5.006's scheduler; any other
// version keeps eval().
#if VERILATOR_VERSION_INTEGER == 5006000
#define UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION_WITH(M, NBA, AT_SETTLE)                                    \
  void M##___024root___eval_ico(M##___024root*);                                                           \
  void M##___024root___eval_triggers__act(M##___024root*);                                                 \
  void M##___024root___eval_act(M##___024root*);                                                           \
  void M##___024root___eval_nba(M##___024root*);                                                           \
  namespace ubsim {                                                                                        \
  template <>                                                                                              \
  struct ClockEdge<M> {                                                                                    \
    static constexpr bool kFast = true;                                                                    \
    static constexpr bool kInputLogicAtSettle = AT_SETTLE;                                                 \
    template <bool kGiven = false, EdgeCaller kCaller = EdgeCaller::Bridge>                               \
    static void rise(M& m, [[maybe_unused]] uint32_t settled = 0) {                                        \
      m.clk = 1;                                                                                           \
      if constexpr (ClockLowTriggers<M>::kCount == 1)                                                      \
        rise_one_pass<M, M##___024root, &M##___024root___eval_triggers__act, &M##___024root___eval_act, NBA,  \
                      AT_SETTLE, false, kGiven, kCaller>(m.rootp, settled);                                  \
      else                                                                                                 \
        rise_without_input_region<M##___024root, &M##___024root___eval_triggers__act, &M##___024root___eval_act, \
                                  NBA>(m.rootp);                                     \
    }                                                                                                      \
    static uint32_t settle(M& m) {                                                                         \
      static_assert(ClockLowTriggers<M>::kCount > 0, #M " has no edge trigger");                            \
      return settle_low_of<M, M##___024root, &M##___024root___eval_ico, &ClockLowTriggers<M>::record,              \
                    !(ClockLowTriggers<M>::kCount == 1 && enable_mask<M>(AT_SETTLE))>(m.rootp);            \
    }                                                                                                      \
    static uint32_t settle_clock_low(M& m) {                                                               \
      static_assert(ClockLowTriggers<M>::kCount > 0, #M " has no edge trigger");                            \
      return settle_low_of<M, M##___024root, &M##___024root___eval_ico, &ClockLowTriggers<M>::record,              \
                    !(ClockLowTriggers<M>::kCount == 1 && enable_mask<M>(AT_SETTLE)), true>(m.rootp);      \
    }                                                                                                      \
    template <Driven kAs>                                                                                   \
    static uint32_t settle_clock_low_as(M& m) {                                                            \
      return settle_low_of<M, M##___024root, &M##___024root___eval_ico, &ClockLowTriggers<M>::record,              \
                    !(ClockLowTriggers<M>::kCount == 1 && enable_mask<M>(AT_SETTLE)), true, kAs>(m.rootp); \
    }                                                                                                      \
  };                                                                                                       \
  }
#define UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION(M) \
  UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION_WITH(M, &M##___024root___eval_nba, false)
// Registers gated model class M (its V*_ports.h defines GatedClocks<M>),
// whose edge runs NBA region function NBA.
#define UBSIM_CLOCK_EDGE_GATED_WITH(M, NBA, AT_SETTLE)                                                       \
  void M##___024root___eval_ico(M##___024root*);                                                           \
  void M##___024root___eval_triggers__act(M##___024root*);                                                 \
  void M##___024root___eval_act(M##___024root*);                                                           \
  void M##___024root___eval_nba(M##___024root*);                                                           \
  namespace ubsim {                                                                                        \
  template <>                                                                                              \
  struct ClockEdge<M> {                                                                                    \
    static constexpr bool kFast = true;                                                                    \
    static constexpr bool kInputLogicAtSettle = AT_SETTLE;                                                 \
    template <bool kGiven = false, EdgeCaller kCaller = EdgeCaller::Bridge>                               \
    static void rise(M& m, [[maybe_unused]] uint32_t settled = 0) {                                        \
      static_assert(GatedClocks<M>::kCount > 0, #M " gates no clock");                                    \
      m.clk = 1;                                                                                           \
      rise_one_pass<M, M##___024root, &M##___024root___eval_triggers__act, &M##___024root___eval_act, NBA,    \
                    AT_SETTLE, true, kGiven, kCaller>(m.rootp, settled);                                   \
    }                                                                                                      \
    static uint32_t settle(M& m) {                                                                         \
      static_assert(ClockLowTriggers<M>::kCount > 0, #M " has no edge trigger");                            \
      return settle_low_of<M, M##___024root, &M##___024root___eval_ico, &ClockLowTriggers<M>::record,              \
                    !enable_mask<M>(AT_SETTLE)>(m.rootp);                                                  \
    }                                                                                                      \
    static uint32_t settle_clock_low(M& m) {                                                               \
      static_assert(ClockLowTriggers<M>::kCount > 0, #M " has no edge trigger");                            \
      return settle_low_of<M, M##___024root, &M##___024root___eval_ico, &ClockLowTriggers<M>::record,              \
                    !enable_mask<M>(AT_SETTLE), true>(m.rootp);                                            \
    }                                                                                                      \
    template <Driven kAs>                                                                                   \
    static uint32_t settle_clock_low_as(M& m) {                                                            \
      return settle_low_of<M, M##___024root, &M##___024root___eval_ico, &ClockLowTriggers<M>::record,              \
                    !enable_mask<M>(AT_SETTLE), true, kAs>(m.rootp);                                       \
    }                                                                                                      \
  };                                                                                                       \
  }
#define UBSIM_CLOCK_EDGE_GATED(M) UBSIM_CLOCK_EDGE_GATED_WITH(M, &M##___024root___eval_nba, false)
// The same, and the edge leaves the input logic to the next settle
// (EdgeNba<M>): for a block whose bridge reads after an edge only ports
// that are not in EdgeNba<M>::kStale (its activity outputs are registers).
#define UBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE(M)                                                      \
  static_assert(::ubsim::EdgeNba<M>::kSkipped > 0, #M ": the edge would skip nothing");                     \
  UBSIM_CLOCK_EDGE_GATED_WITH(M, &::ubsim::EdgeNba<M>::run, true)

#else
#define UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION(M)
#define UBSIM_CLOCK_EDGE_GATED(M)
#define UBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE(M)
#endif

namespace ubsim {
// The clock-low settle for what the caller drove (VerilatedBlock::edge, the
// lockstep pairs): the copy for that case where the block has one
// (settle_clock_low_as), else the settle that tests the ports. Returns the
// settle's result (the edge's trigger mask, where computed).
template <class M>
inline uint32_t settle_clock_low_for(M& m, Driven as) {
  if (as == Driven::RequestAloneReadsFew)
    return ClockEdge<M>::template settle_clock_low_as<Driven::RequestAloneReadsFew>(m);
  if (as == Driven::RequestAlone) return ClockEdge<M>::template settle_clock_low_as<Driven::RequestAlone>(m);
  if (as == Driven::Nothing) return ClockEdge<M>::template settle_clock_low_as<Driven::Nothing>(m);
  return ClockEdge<M>::settle_clock_low(m);
}

// The activity outputs (busy, quiet) recomputed from the block's state,
// after edges that left them as they were (EdgeCaller::EveryCycle); nothing
// for a block whose edge always computes them.
template <class M>
inline void refresh_activity(M& m) {
  if constexpr (EdgeNba<M>::kActivity) EdgeNba<M>::activity(m.rootp);
}

constexpr bool same_name(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
// Whether a generated list of port names (nullptr-terminated) holds `port`.
constexpr bool names_port(const char* const* list, const char* port) {
  for (const char* const* n = list; *n; ++n)
    if (same_name(*n, port)) return true;
  return false;
}
// Whether output `port` of M holds its value for the new state right after
// an edge: false only for a port the edge leaves to the next settle (a
// block opted in above, the port in EdgeNba<M>::kStale). A bridge
// static_asserts it for every port it reads after an edge.
template <class M>
constexpr bool exact_after_edge(const char* port) {
  if constexpr (ClockEdge<M>::kInputLogicAtSettle) return !names_port(EdgeNba<M>::kStale, port);
  return true;
}

// Whether output `port` is exact at a settle for a caller that says
// Driven::RequestAloneReadsFew (SettleIco<M>::kBareLeft: those it leaves
// stale). The burst driver static_asserts it for every port it reads.
template <class M>
constexpr bool exact_reading_few(const char* port) {
  if constexpr (SettleIco<M>::kBare) return !names_port(SettleIco<M>::kBareLeft, port);
  return true;
}
}  // namespace ubsim
