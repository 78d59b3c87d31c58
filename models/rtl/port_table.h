// The ports of a verilated block as data: name, direction, width and where
// the model keeps the value. Ports<M> is generated for every block of
// rtl/blocks.json from its model's header (rtl/gen_ports.cmake), so the
// tools that record a block's inputs, replay them or compare two builds of
// a block port by port (stimulus.h, the lockstep tests) need no list written
// by hand and cannot miss a port.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>

namespace ubsim {

struct PortInfo {
  const char* name;
  bool input;
  int bits;
  size_t bytes;                  // storage in the model (CData .. VlWide<N>)
  void* (*addr)(void* model);    // the value's storage in one model instance
};

// Specialized by the generated V<block>_ports.h (rtl_ports.h includes them all).
template <class Model>
struct Ports;

// A block whose units gate their own clocks (rtl/clock_gate.sv): the
// generated specialization sets every gated clock to its latched enable at a
// rising edge (clock_edge.h); kCount 0 for a block without.
template <class Model>
struct GatedClocks {
  static constexpr int kCount = 0;
};

// What the scheduler's trigger pass does with the clock low, done directly:
// it records the value of every signal an edge trigger watches (clk, the
// gated clocks, rst) as the previous value for the next rising edge. With the
// clock low nothing can fire (clk and every gated clock are low, rst stays
// low after the reset), so the pass computes no trigger; the lockstep tests
// step the blocks this way against eval(). The generated specialization
// lists the model's __Vtrigrprev__ members; kCount 0: none found.
template <class Model>
struct ClockLowTriggers {
  static constexpr int kCount = 0;
};

// The rising edge's NBA region without the combinational functions that
// only recompute input logic, which the next clock-low settle recomputes
// (generated from the model's C++: gen_ports.cmake); kSkipped 0: none
// found. kStale lists the ports among them (null-terminated): after such an
// edge they keep their values from before it, so a bridge that reads one
// after the edge must not take it (clock_edges.h opts blocks in).
// kActivity: the logic of the activity outputs (busy, quiet) is left out of
// run_masked, in activity() (ClockEdge<M>::rise, refresh_activity()).
// kChain: run_chain(), the region as its chain of tests with each function
// inline, for a driver that clocks the block in every cycle (EdgeCaller).
template <class Model>
struct EdgeNba {
  static constexpr int kSkipped = 0;
  static constexpr bool kActivity = false;
  static constexpr bool kChain = false;
};

// The rising edge's triggers as a bit mask (bit n: trigger n of the
// generated _eval_triggers__act fired) at a fast rising edge, taken from
// the gated clocks' latches (rise()); generated only for a model whose
// active region is empty and whose every trigger is clk's rising edge, rst's
// falling edge or a gated clock's rising edge (clock_edge.h). The edge's NBA
// region then switches on the mask, a case per combination of the bits it
// tests (EdgeNba<M>::run_masked).
template <class Model>
struct EdgeTriggers {
  static constexpr bool kFromEnables = false;
};

// The clock-low settle's input region, the generated _eval_ico with its
// one trigger taken as set (kDirect false: not generated).
template <class Model>
struct SettleIco {
  static constexpr bool kDirect = false;
  static constexpr bool kDriven = false;   // run_clock_low_driven(): blocks.json settle_driven
  static constexpr bool kBare = false;     // run_clock_low_driven_bare(): blocks.json settle_driven_reads
  static constexpr bool kMask = false;     // run*() return the edge's trigger mask (EdgeTriggers)
};

// Every port of M, in declaration order.
template <class M>
constexpr const PortInfo* ports_begin() { return std::begin(Ports<M>::list); }
template <class M>
constexpr const PortInfo* ports_end() { return std::end(Ports<M>::list); }

// The value of port p in model m, as hex (most significant word first).
inline std::string port_hex(const PortInfo& p, void* m) {
  const auto* bytes = static_cast<const uint8_t*>(p.addr(m));
  std::string s = "0x";
  bool leading = true;
  static const char* kDigits = "0123456789abcdef";
  for (size_t i = p.bytes; i-- > 0;) {
    for (int nib = 1; nib >= 0; --nib) {
      const int d = (bytes[i] >> (4 * nib)) & 0xf;
      if (leading && d == 0 && !(i == 0 && nib == 0)) continue;
      leading = false;
      s += kDigits[d];
    }
  }
  return s;
}

}  // namespace ubsim
