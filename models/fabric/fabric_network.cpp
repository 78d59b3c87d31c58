#include "fabric_network.h"

#include <stdexcept>

#include <fmt/format.h>

namespace ubsim {

FabricOptions fabric_options(const Config& c, bool record_series) {
  FabricOptions o;
  o.ecmp = c.choice(key::fabric_ecmp) == "flow_rr" ? EcmpMode::FlowRoundRobin : EcmpMode::Hash;
  o.hash_seed = c.count(key::fabric_hash_seed);
  o.mtu = static_cast<uint32_t>(c.count(key::transport_mtu));
  o.header_bytes = static_cast<uint32_t>(c.count(key::transport_header_bytes));
  o.record_series = record_series;
  o.pause.enabled = c.flag(key::fabric_pause);
  o.pause.xoff = c.count(key::fabric_pause_xoff);
  o.pause.xon = c.count(key::fabric_pause_xon);
  o.pause.quanta_fs = c.fs(key::fabric_pause_quanta);
  o.pause.switch_wide = c.choice(key::fabric_pause_scope) == "switch";
  o.shared_buffer = c.count(key::fabric_shared_buffer);
  o.ecn.enabled = c.flag(key::fabric_ecn);
  o.ecn.kmin = c.count(key::fabric_ecn_kmin);
  o.ecn.kmax = c.count(key::fabric_ecn_kmax);
  o.ecn.pmax = c.value(key::fabric_ecn_pmax);
  o.ecn.seed = c.count(key::seed);
  return o;
}

std::vector<FlowRecord> flow_records(const Topology& t) {
  std::vector<FlowRecord> flows;
  for (size_t i = 0; i < t.flows.size(); ++i) {
    const TopoFlow& tf = t.flows[i];
    FlowRecord f;
    f.src = static_cast<uint32_t>(tf.src);
    f.dst = static_cast<uint32_t>(tf.dst);
    f.entropy = 49152 + static_cast<uint32_t>(i);
    f.bytes = tf.bytes;
    f.rate_Bps = tf.rate_Bps;
    f.start_fs = tf.start_fs;
    flows.push_back(f);
  }
  return flows;
}

FabricNetwork::FabricNetwork(sc_core::sc_module_name name, const Topology& topo, std::vector<FlowRecord> flows,
                             const FabricOptions& o)
    : sc_module(name), topo_(topo), flows_(std::move(flows)) {
  const size_t n = topo_.devices.size();
  std::vector<FrameIn*> device_in(n, nullptr);
  switches_.resize(n);
  endpoints_.resize(n);
  for (size_t d = 0; d < n; ++d) {
    const std::string dev = topo_.devices[d].name;
    if (topo_.devices[d].is_switch()) {
      switches_[d] = std::make_unique<FabricSwitch>(dev.c_str(), topo_, static_cast<int>(d), o.ecmp, o.hash_seed, o.pause,
                                                    &pool_, o.shared_buffer);
      device_in[d] = switches_[d].get();
    } else {
      endpoints_[d] = std::make_unique<TrafficEndpoint>(dev.c_str(), static_cast<int>(d), o.mtu, o.header_bytes,
                                                        pool_, flows_);
      device_in[d] = endpoints_[d].get();
    }
  }
  egress_.resize(n);
  for (size_t d = 0; d < n; ++d) {
    const auto& ports = topo_.ports()[d];
    for (size_t p = 0; p < ports.size(); ++p) {
      const TopoLink& l = topo_.links[ports[p].link];
      auto link = std::make_unique<FabricLink>(link_name(static_cast<int>(d), static_cast<int>(p)).c_str(), l.rate_Bps,
                                               l.delay_fs, ports[p].peer_port, o.record_series,
                                               // a switch's output queue is finite; a node's own never drops
                                               // (its sender waits: the traffic source's queue is its backlog)
                                               switches_[d] ? l.buffer_bytes : 0);
      FabricSwitch* owner = switches_[d].get();
      if (owner && o.ecn.enabled) {   // each queue its own draw, seeded by the run's seed and its place
        EcnPolicy e = o.ecn;
        e.seed = o.ecn.seed * 1000003 + d * 64 + p;
        link->set_ecn(e);
      }
      if (owner) link->on_departed = [owner](Frame& f) { owner->departed(f); };
      const std::string name = link_name(static_cast<int>(d), static_cast<int>(p));
      const uint64_t buffer = l.buffer_bytes;
      link->on_drop = [this, owner, name, buffer](Frame& f) {
        if (owner) owner->departed(f);
        if (!f.carrier && f.flow < flows_.size()) ++flows_[f.flow].dropped;
        if (f.carrier)   // nothing would resend it: the run cannot go on
          throw std::runtime_error(fmt::format(
              "{}: a controller's packet ({} B) was dropped in the full output queue ({} B): the transport does not "
              "run over the fabric, so nothing resends it (more headroom above fabric.pause_xoff, or a larger buffer)",
              name, f.bytes, buffer));
        pool_.release(&f);
      };
      link->out.bind(*device_in[ports[p].peer]);
      if (switches_[d]) switches_[d]->attach(static_cast<int>(p), link.get());
      else endpoints_[d]->attach(link.get());
      egress_[d].push_back(std::move(link));
    }
  }
  // a switch whose pause counts the bytes it holds in all counts them as they arrive
  if (o.pause.enabled && o.pause.switch_wide)
    for (size_t d = 0; d < n; ++d)
      for (size_t p = 0; p < egress_[d].size(); ++p) {
        const TopoPort& port = topo_.ports()[d][p];
        if (FabricSwitch* far = switches_[port.peer].get())
          egress_[d][p]->on_start = [far, q = port.peer_port](uint64_t bytes, uint64_t head, uint64_t tail) {
            far->incoming(q, bytes, head, tail);
          };
      }
  for (size_t f = 0; f < flows_.size(); ++f) endpoints_[flows_[f].src]->add_flow(static_cast<uint32_t>(f));
}

void FabricNetwork::set_carrier_sink(const std::function<void(Frame&)>& sink) {
  for (auto& e : endpoints_)
    if (e) e->on_carrier = sink;
}

std::string FabricNetwork::link_name(int d, int p) const {
  const TopoPort& port = topo_.ports()[d][p];
  return fmt::format("link_{}_to_{}_{}", topo_.devices[d].name, topo_.devices[port.peer].name, p);
}

size_t FabricNetwork::unfinished_flows() const {
  size_t n = 0;
  for (const FlowRecord& f : flows_)
    if (f.delivered + f.dropped < f.packets) ++n;
  return n;
}

WaitForGraph FabricNetwork::wait_for() const {
  WaitForGraph g;
  const size_t n = topo_.devices.size();
  std::vector<std::vector<size_t>> vertex(n);
  for (size_t d = 0; d < n; ++d) {
    vertex[d].assign(egress_[d].size(), SIZE_MAX);
    for (size_t p = 0; p < egress_[d].size(); ++p) {
      const FabricLink& l = *egress_[d][p];
      if (!l.frames_held()) continue;
      const TopoPort& port = topo_.ports()[d][p];
      const std::string& far = topo_.devices[port.peer].name;
      const FabricSwitch* s = switches_[port.peer].get();
      std::string waits = l.paused() ? fmt::format("the pause from {} to end", far) : "its turn on the wire";
      if (l.paused() && s)
        waits = fmt::format("{} to take its port {} below XON ({} B held for it)", far, port.peer_port,
                            s->ingress_bytes(port.peer_port));
      vertex[d][p] = g.add({link_name(static_cast<int>(d), static_cast<int>(p)),
                            fmt::format("{} frames, {} B in its queue", l.frames_held(), l.bytes_held()), waits});
    }
  }
  for (size_t d = 0; d < n; ++d)
    for (size_t p = 0; p < egress_[d].size(); ++p) {
      if (vertex[d][p] == SIZE_MAX || !egress_[d][p]->paused()) continue;
      const TopoPort& port = topo_.ports()[d][p];
      const int v = port.peer;
      if (!switches_[v]) continue;
      // what came in on that port waits in v's queues: each blocked one holds it up
      for (size_t q = 0; q < egress_[v].size(); ++q)
        if (vertex[v][q] != SIZE_MAX && egress_[v][q]->bytes_from_port(port.peer_port) > 0)
          g.add_edge(vertex[d][p], vertex[v][q]);
    }
  return g;
}

}  // namespace ubsim
