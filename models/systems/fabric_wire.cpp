#include "fabric_wire.h"

#include <fmt/format.h>

#include "request.h"

namespace ubsim {

FabricWire::FabricWire(sc_core::sc_module_name name, const Config& c, const Topology& t)
    : StageComponent(name),
      header_bytes_(static_cast<uint32_t>(c.count(key::transport_header_bytes))),
      stage_latency_fs_(c.fs(key::wire_latency)) {
  // the topology's traffic sources run beside the controllers' packets
  const FabricOptions o = fabric_options(c);
  net_ = std::make_unique<FabricNetwork>("net", t, flow_records(t), o);
  net_->set_carrier_sink([this](Frame& f) { arrived(f); });
  const bool limit = c.flag(key::limiter_controllers);
  if (limit) {   // each controller's packets through its verilated rate limiter, cut by its peer's CNPs
    limiter_sockets_ = std::make_unique<StageFabric>("limiter_sockets");
    limiters_.resize(t.devices.size());
    for (size_t d = 0; d < t.devices.size(); ++d) {
      if (t.devices[d].kind == TopoDevice::Kind::Switch || t.devices[d].kind == TopoDevice::Kind::Source ||
          t.ports()[d].empty())
        continue;
      FabricLink& link = net_->egress(static_cast<int>(d), 0);
      auto lim = std::make_unique<RateLimiterBridge>((t.devices[d].name + "_limiter").c_str(), c,
                                                     RateLimiterSettings::from(c, link.rate_Bps()));
      FabricNetwork* net = net_.get();
      lim->send = [net, d](void* f) { net->inject(static_cast<int>(d), *static_cast<Frame*>(f)); };
      lim->downstream_bytes = [&link] { return link.bytes_held(); };
      RateLimiterBridge* l = lim.get();
      net_->endpoint(static_cast<int>(d))->on_cnp = [l](uint32_t) { l->notify(); };
      limiter_sockets_->attach(l);
      limiters_[d] = std::move(lim);
    }
  }
  if (o.pause.enabled || limit) {
    gates_.resize(t.devices.size());
    for (size_t d = 0; d < t.devices.size(); ++d) {
      if (t.devices[d].is_switch() || t.ports()[d].empty()) continue;
      if (o.pause.enabled) gates_[d].link = &net_->egress(static_cast<int>(d), 0);
      if (limit) gates_[d].limiter = limiters_[d].get();
    }
  }
}

void FabricWire::accept(Transaction& t) {
  Request& r = static_cast<Request&>(t);
  const bool from_a = r.current().node == NodeId::A;
  const Session* s = nullptr;
  for (const Session& x : sessions_)
    if (x.route == r.route) s = &x;
  sc_assert(s && "a request on a route no session of the fabric carries");
  Frame& f = net_->acquire();
  f.src = static_cast<uint32_t>(from_a ? s->a : s->b);
  f.dst = static_cast<uint32_t>(from_a ? s->b : s->a);
  f.entropy = r.ctx;   // the connection (TP channel / QP): its packets keep one path
  f.bytes = packet_bytes(r, header_bytes_);
  f.payload = f.bytes - header_bytes_;
  f.sent_fs = now_fs();
  f.carrier = &t;
  ++packets_;
  bytes_ += f.bytes;
  if (RateLimiterBridge* l = limiters_.empty() ? nullptr : limiters_[f.src].get()) l->offer(&f, f.bytes);
  else net_->inject(static_cast<int>(f.src), f);
}

void FabricWire::arrived(Frame& f) {
  Transaction& t = *static_cast<Transaction*>(f.carrier);
  HopTimes& h = t.now_times();
  h.start_fs = h.arrive_fs + f.queued_fs;   // the time in output queues is the stage's queueing
  h.serialize_fs = f.serialized_fs;
  h.fabric_fs = f.propagated_fs > stage_latency_fs_ ? f.propagated_fs - stage_latency_fs_ : 0;
  net_->release(f);
  forward(t);
}

void FabricWire::collect_stats(StatsTable& table) const {
  const std::string n = name();
  for (const auto& l : limiters_)
    if (l) l->collect_stats(table);
  for (const FlowRecord& f : net_->flows()) {
    const std::string flow = fmt::format("flow.{}_to_{}", net_->topology().devices[f.src].name, net_->topology().devices[f.dst].name);
    table.add(n, flow + ".sent", static_cast<double>(f.sent), "packets", "packets the traffic source sent");
    table.add(n, flow + ".delivered", static_cast<double>(f.delivered), "packets", "... that arrived");
  }
  table.add(n, "packets", static_cast<double>(packets_), "packets", "packets sent over the fabric (both directions)");
  table.add(n, "bytes", static_cast<double>(bytes_), "bytes", "their bytes on the wire (headers included)");
  const Topology& t = net_->topology();
  for (size_t d = 0; d < t.devices.size(); ++d)
    for (size_t p = 0; p < t.ports()[d].size(); ++p) {
      const FabricLink& l = net_->egress(static_cast<int>(d), static_cast<int>(p));
      if (!l.frames()) continue;
      const std::string link = net_->link_name(static_cast<int>(d), static_cast<int>(p));
      table.add(n, link + ".frames", static_cast<double>(l.frames()), "packets", "packets this link direction serialized");
      table.add(n, link + ".queue_max", static_cast<double>(l.max_queue_bytes()), "bytes",
                "its output queue's largest occupancy (waiting + in serialization)");
      if (l.capacity()) table.add(n, link + ".dropped", static_cast<double>(l.dropped_frames()), "packets", "packets its full queue dropped");
      if (l.pauses_received())
        table.add(n, link + ".pauses_received", static_cast<double>(l.pauses_received()), "frames", "pause frames that stopped it");
      if (l.paused_fs()) table.add(n, link + ".paused_ns", static_cast<double>(l.paused_fs()) / 1e6, "ns", "time it was paused");
      if (l.marked_frames()) {
        table.add(n, link + ".ecn_marked", static_cast<double>(l.marked_frames()), "packets", "packets it marked (ECN)");
        table.add(n, link + ".first_mark_ns", static_cast<double>(l.first_mark_fs()) / 1e6, "ns", "its first mark");
      }
    }
}

void FabricWire::holdings(std::vector<Holding>& out) const {
  const WaitForGraph g = net_->wait_for();
  if (const std::vector<size_t> cycle = g.find_cycle(); !cycle.empty()) {
    std::string names;
    for (size_t v : cycle) names += g.vertex(v).name + " -> ";
    out.push_back({"", "DEADLOCK, a cycle of paused links: " + names + g.vertex(cycle.front()).name});
  }
  for (size_t v = 0; v < g.size(); ++v)
    out.push_back({g.vertex(v).name + ": " + g.vertex(v).holds, g.vertex(v).waits});
}

}  // namespace ubsim
