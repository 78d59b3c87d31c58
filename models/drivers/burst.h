// Ideal source and sink around one verilated pipeline, stepped cycle by
// cycle in plain C++ (no SystemC): the source offers request `next` every
// cycle until n have been accepted (drive(m, next) sets its inputs once, a
// function of `next` alone: they stay on the ports until it is taken); the
// sink's m_ready follows ready(cycle); a request counts as delivered at its
// packet's first flit. Each cycle is a
// step / apply split (VerilatedBlock::cycle): inputs driven and handshakes
// sampled with the clock low, then the edge.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "config.h"
#include "packet.h"
#include "verilated_block.h"

namespace ubsim {

struct BurstTrace {
  std::vector<uint64_t> in_cycle;    // by request id: input handshake cycle
  std::vector<uint64_t> out_cycle;   // by packet (request id x packets + index): first flit out cycle (0 = never)
  std::vector<uint32_t> out_order;   // packets in the order they left
  uint64_t delivered = 0;            // packets
  uint64_t duplicates = 0;
  uint64_t flits = 0;        // every flit handed to the sink
};

struct IgnoreOutput {
  template <class Model>
  void operator()(const Model&) const {}
};

// The packet index of the output (send pipelines cut messages into
// packets: m_pkt); 0 for blocks that emit one packet per request.
template <class Model>
auto output_packet(const Model& m, int) -> decltype(static_cast<uint32_t>(m.m_pkt)) {
  return static_cast<uint32_t>(m.m_pkt);
}
template <class Model>
uint32_t output_packet(const Model&, long) {
  return 0;
}

// observe(m) is called for every first flit out, before the clock edge.
// With period_ps and an open trace, the waveform is dumped on that grid.
// pkts: packets each request leaves as (a message cut by the segmenter).
template <class Model, class Drive, class Ready, class Observe = IgnoreOutput>
BurstTrace drive_burst(VerilatedBlock<Model>& b, uint32_t n, Drive drive, Ready ready, uint64_t max_cycles = 10000000,
                       Observe observe = Observe{}, uint64_t period_ps = 0, uint32_t pkts = 1) {
  Model& m = b.model();
  auto& r = *m.rootp;   // its ports, without the model's reference to each
  BurstTrace t;
  const uint64_t total = static_cast<uint64_t>(n) * pkts;
  t.in_cycle.assign(n, 0);
  t.out_cycle.assign(total, 0);
  m.s_valid = 0;
  m.m_ready = 1;
  b.reset(4);
  uint32_t next = 0;
  uint32_t driven = ~0u;   // the request whose inputs are on the ports (none yet)
  // (the loop's state in locals: the stores to the model's byte-wide ports
  // cannot alias them, so nothing is reloaded from `t` per cycle)
  uint64_t delivered = 0, flits = 0;
  bool offered = false;
  Driven driven_as = Driven::Unknown;   // what the ports hold (asked once per request)
  // (no observer: the loop below reads no output but these, so the settle
  // may leave the others, clock_edge.h)
  constexpr bool kReadsFew = std::is_same_v<Observe, IgnoreOutput>;
  static_assert(exact_reading_few<Model>("s_ready") && exact_reading_few<Model>("m_valid") &&
                exact_reading_few<Model>("m_first") && exact_reading_few<Model>("m_id") &&
                exact_reading_few<Model>("m_pkt"));
  for (uint64_t c = 1; c < max_cycles && delivered < total; ++c) {
    if (next != driven) {   // (the ports hold them until the next request)
      offered = next < n;
      r.s_valid = offered;
      r.s_id = next;
      drive(m, next);
      driven = next;
      if constexpr (SettleIco<Model>::kDriven)
        driven_as = SettleIco<Model>::drove_alone(&r)     ? (kReadsFew ? Driven::RequestAloneReadsFew : Driven::RequestAlone)
                    : SettleIco<Model>::drove_nothing(&r) ? Driven::Nothing
                                                          : Driven::Unknown;
    }
    const bool out_ready = ready(c);
    r.m_ready = out_ready;
    bool in_fire = false, out_fire = false;
    uint32_t out_id = 0, out_pkt = 0;
    // (the settle's copy for the request's valid alone, or for no valid,
    // where the block has them and the ports hold that case; with nothing
    // observing the outputs, the first one without those read nowhere here)
    // (neither busy nor quiet read: the edge may leave them, clock_edge.h)
    b.template cycle_driven<EdgeCaller::EveryCycle>(driven_as, [&] {
      in_fire = offered && r.s_ready;
      const bool flit = out_ready && r.m_valid;
      flits += flit;
      out_fire = flit && r.m_first;
      if (out_fire) {
        out_id = r.m_id;
        out_pkt = output_packet(r, 0);
        observe(m);
      }
    }, period_ps);
    if (in_fire) t.in_cycle[next++] = c;
    if (out_fire) {
      const uint64_t k = static_cast<uint64_t>(out_id) * pkts + out_pkt;
      if (out_id >= n || out_pkt >= pkts || t.out_cycle[k] != 0) {
        ++t.duplicates;
        continue;
      }
      t.out_cycle[k] = c;
      t.out_order.push_back(static_cast<uint32_t>(k));
      ++delivered;
    }
  }
  t.delivered = delivered;
  t.flits = flits;
  return t;
}

// A burst of n messages of `message_bytes` payload each (write / send: the
// payload leaves with the message, ceil(bytes / MTU) packets, all present:
// an ideal source) into a send pipeline at its defaults from the
// configuration: UB (stack "ub", every message on one TP channel) or RoCE
// ("roce", message i on QP i mod initiators). trace_path: an FST of the
// burst (empty = none).
BurstTrace send_burst(const Config& c, const std::string& stack, uint32_t n, uint32_t initiators,
                      uint64_t message_bytes, const std::string& trace_path = "");

}  // namespace ubsim
