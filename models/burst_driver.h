// drive_burst: an ideal source and sink around one verilated pipeline,
// counting a request as delivered at its packet's first flit
// stepped cycle by cycle in plain C++ (no SystemC): the source offers request
// `next` every cycle until n have been accepted; the sink's m_ready follows
// ready(cycle). Each cycle is a step / apply split: inputs driven and
// handshakes sampled with the clock low, then the edge.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace ubsim {

struct BurstTrace {
  std::vector<uint64_t> in_cycle;    // by request id: input handshake cycle
  std::vector<uint64_t> out_cycle;   // by request id: first flit out cycle (0 = never)
  std::vector<uint32_t> out_order;
  uint64_t delivered = 0;
  uint64_t duplicates = 0;
  uint64_t flits = 0;        // every flit handed to the sink
};

struct IgnoreOutput {
  template <class Model>
  void operator()(const Model&) const {}
};

struct NoDump {
  void operator()(uint64_t, bool) const {}
};

// observe(m) is called for every first flit out, before the clock edge;
// dump(cycle, clock_high) after each evaluation (waveform tracing).
template <class Model, class Drive, class Ready, class Observe = IgnoreOutput, class Dump = NoDump>
BurstTrace drive_burst(Model& m, uint32_t n, Drive drive, Ready ready, uint64_t max_cycles = 10000000,
                       Observe observe = Observe{}, Dump dump = Dump{}) {
  BurstTrace t;
  t.in_cycle.assign(n, 0);
  t.out_cycle.assign(n, 0);
  m.rst = 1;
  for (int i = 0; i < 4; ++i) { m.clk = 0; m.eval(); m.clk = 1; m.eval(); }
  m.rst = 0;
  uint32_t next = 0;
  for (uint64_t c = 1; c < max_cycles && t.delivered < n; ++c) {
    m.clk = 0;
    m.s_valid = next < n;
    m.s_id = next;
    drive(m, next);
    m.m_ready = ready(c);
    m.eval();
    dump(c, false);
    const bool in_fire = m.s_valid && m.s_ready;
    const bool out_fire = m.m_valid && m.m_ready && m.m_first;
    t.flits += m.m_valid && m.m_ready;
    const uint32_t out_id = m.m_id;
    if (out_fire) observe(m);
    m.clk = 1;
    m.eval();
    dump(c, true);
    if (in_fire) t.in_cycle[next++] = c;
    if (out_fire) {
      if (out_id >= n || t.out_cycle[out_id] != 0) {
        ++t.duplicates;
        continue;
      }
      t.out_cycle[out_id] = c;
      t.out_order.push_back(out_id);
      ++t.delivered;
    }
  }
  return t;
}

}  // namespace ubsim
