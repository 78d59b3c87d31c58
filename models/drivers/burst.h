// Ideal source and sink around one verilated pipeline, stepped cycle by
// cycle in plain C++ (no SystemC): the source offers request `next` every
// cycle until n have been accepted; the sink's m_ready follows ready(cycle);
// a request counts as delivered at its packet's first flit. Each cycle is a
// step / apply split (VerilatedBlock::cycle): inputs driven and handshakes
// sampled with the clock low, then the edge.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "verilated_block.h"

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

// observe(m) is called for every first flit out, before the clock edge.
// With period_ps and an open trace, the waveform is dumped on that grid.
template <class Model, class Drive, class Ready, class Observe = IgnoreOutput>
BurstTrace drive_burst(VerilatedBlock<Model>& b, uint32_t n, Drive drive, Ready ready, uint64_t max_cycles = 10000000,
                       Observe observe = Observe{}, uint64_t period_ps = 0) {
  Model& m = b.model();
  BurstTrace t;
  t.in_cycle.assign(n, 0);
  t.out_cycle.assign(n, 0);
  m.s_valid = 0;
  m.m_ready = 1;
  b.reset(4);
  uint32_t next = 0;
  for (uint64_t c = 1; c < max_cycles && t.delivered < n; ++c) {
    m.s_valid = next < n;
    m.s_id = next;
    drive(m, next);
    m.m_ready = ready(c);
    bool in_fire = false, out_fire = false;
    uint32_t out_id = 0;
    b.cycle([&] {
      in_fire = m.s_valid && m.s_ready;
      out_fire = m.m_valid && m.m_ready && m.m_first;
      t.flits += m.m_valid && m.m_ready;
      out_id = m.m_id;
      if (out_fire) observe(m);
    }, c, period_ps);
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

// A burst of n requests of `packet_bytes` each into a send pipeline at its
// defaults from the configuration: UB (stack "ub", every request on one TP
// channel) or RoCE ("roce", request i on QP i mod initiators). trace_path:
// an FST of the burst (empty = none).
BurstTrace send_burst(const Config& c, const std::string& stack, uint32_t n, uint32_t initiators,
                      uint32_t packet_bytes, const std::string& trace_path = "");

}  // namespace ubsim
