#include "two_node_system.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "routes.h"

namespace ubsim {

bool transport_in_paths(const Config& c) {
  return c.flag(key::transport_in_paths) || c.value(key::loss_data) > 0 || c.value(key::loss_ack) > 0 ||
         c.value(key::loss_duplicate) > 0 || c.value(key::loss_reorder) > 0;
}

TwoNodeSystem::TwoNodeSystem(sc_core::sc_module_name name, const Config& c, std::vector<HopSpec> hops,
                             Workload w, std::vector<std::pair<int, int>> pairs)
    : sc_module(name), cfg_(c), fabric_("fabric") {
  const Topology* topo = cfg_.topology();
  const bool over_fabric = topo && !topo->is_back_to_back();
  // The nodes, and each session's nodes A and B: over one link A and B;
  // over a fabric the controllers the pairs name, in the order they appear.
  std::vector<std::pair<int, int>> ends, devices;
  if (over_fabric) {
    if (pairs.empty()) pairs = {topo->controller_pairs().at(0)};   // (validate_config: there is one)
    std::map<int, int> node_of;
    for (const auto& [a, b] : pairs)
      for (int d : {a, b})
        if (!node_of.count(d)) {
          node_of[d] = static_cast<int>(node_tags_.size());
          node_tags_.push_back(topo->devices[d].name);
        }
    for (const auto& [a, b] : pairs) {
      ends.emplace_back(node_of[a], node_of[b]);
      devices.emplace_back(a, b);
    }
  } else {
    node_tags_ = {"A", "B"};
    ends = {{0, 1}};
    devices = {{-1, -1}};
  }
  const size_t n = node_tags_.size();
  std::vector<bool> initiator(n, false), target(n, false);
  for (const auto& [a, b] : ends) {
    initiator[a] = true;
    target[b] = true;
  }
  for (size_t k = 0; k < n; ++k)
    if (initiator[k] && target[k])
      throw ConfigError(topo->file, "topology",
                        fmt::format("controller '{}' would be an initiator and a target in one run; run its pairs one "
                                    "at a time, or give it role = \"initiator\" or \"target\"",
                                    node_tags_[k]));
  if (ends.size() > 1) {
    if (!cfg_.flag(key::cache_enabled))
      throw ConfigError(cfg_.source(key::cache_enabled), key::cache_enabled.name,
                        "several sessions at once need the context cache (each connection its own record)");
    if (cfg_.count(key::workload_ops) >= InitiatorApp::kIdSpan)
      throw ConfigError(cfg_.source(key::workload_ops), key::workload_ops.name,
                        fmt::format("with {} sessions at once each runs fewer than {} requests", ends.size(),
                                    InitiatorApp::kIdSpan));
    if (ends.size() * InitiatorApp::endpoint_span(cfg_) > ctx_key::kMaxEndpoints)
      throw ConfigError(cfg_.source(key::workload_endpoints), key::workload_endpoints.name,
                        fmt::format("{} sessions of {} endpoints each exceed the {} endpoints a node numbers",
                                    ends.size(), InitiatorApp::endpoint_span(cfg_), ctx_key::kMaxEndpoints));
  }
  nodes_.resize(n);
  for (size_t k = 0; k < n; ++k) {
    node_roles_.push_back(initiator[k] ? NodeId::A : NodeId::B);
    build_node(nodes_[k], node_tags_[k], static_cast<int>(k), initiator[k]);
  }
  wire_ab_ = std::make_unique<WireDirection>("wire_A_to_B", cfg_);
  wire_ba_ = std::make_unique<WireDirection>("wire_B_to_A", cfg_);
  fabric_.attach(wire_ab_.get());
  fabric_.attach(wire_ba_.get());
  if (over_fabric) {
    fabric_wire_ = std::make_unique<FabricWire>("fabric_wire", cfg_, *topo);
    fabric_.attach(fabric_wire_.get());
  }
  if (transport_in_paths(cfg_)) build_transport(hops);
  else if (cfg_.count(key::multipath_paths) > 1)
    throw ConfigError(cfg_.source(key::multipath_paths), key::multipath_paths.name,
                      "several paths carry the transport's packets: set transport.in_paths = true");
  if (cfg_.flag(key::cache_enabled))
    for (size_t k = 0; k < n; ++k) build_caches(nodes_[k], node_tags_[k], node_roles_[k], static_cast<int>(k));
  // an initiator's receive pipelines report completions to its send side
  for (size_t k = 0; k < n; ++k)
    if (initiator[k]) {
      nodes_[k].ub_rx->set_completion_sink(nodes_[k].ub_tx.get());
      nodes_[k].nic_rx->set_completion_sink(nodes_[k].nic_tx.get());
    }
  for (size_t i = 0; i < ends.size(); ++i) {
    auto s = std::make_unique<Session>();
    s->a = ends[i].first;
    s->b = ends[i].second;
    s->devices = devices[i];
    build_session(*s, hops, w, static_cast<uint32_t>(i));
    sessions_.push_back(std::move(s));
  }
  const uint64_t expected = cfg_.count(key::workload_ops) * sessions_.size();
  watchdog_ = std::make_unique<ProgressWatchdog>(
      ProgressWatchdog::span_for(cfg_),
      [this] {
        // the blocks that hold work, each with what it holds and waits for
        // (and a cycle of waits among them, if there is one)
        bool holding = false;
        for (RtlBridge* b : bridges()) holding = holding || b->holds_work();
        if (!holding) return std::string();
        const auto& all = fabric_.components();
        return wait_for_report(std::vector<const StageComponent*>(all.begin(), all.end()));
      },
      [this, expected] {
        uint64_t done = 0;
        for (const auto& s : sessions_) done += s->app->completed();
        return fmt::format("{} of {} requests completed", done, expected);
      });
}

void TwoNodeSystem::build_session(Session& s, std::vector<HopSpec> hops, const Workload& w, uint32_t index) {
  Node& a = nodes_[s.a];
  const std::string& tag = node_tags_[s.a];
  s.route.hops = std::move(hops);
  if (cfg_.count(key::sw_cq_batch) > 0 && add_completion_batch_wait(s.route.hops) && !a.cq) {
    a.cq = std::make_unique<CompletionQueue>((tag + "_cq").c_str(), cfg_);
    fabric_.attach(a.cq.get());
  }
  int descriptor_hop = -1;
  if (cfg_.count(key::sw_wr_per_doorbell) > 1 && (descriptor_hop = add_doorbell_batch_wait(s.route.hops)) >= 0 &&
      !a.doorbells) {
    a.doorbells = std::make_unique<DoorbellBatcher>((tag + "_doorbells").c_str(), cfg_);
    fabric_.attach(a.doorbells.get());
  }
  for (const HopSpec& h : s.route.hops) s.route.component.push_back(owner(h, s.a, s.b)->fabric_id);
  s.route.mark_segments(w.verb == Verb::Read);
  s.route.descriptor_hop = descriptor_hop;
  const std::string app_name = fabric_wire_ ? tag + "_app_" + node_tags_[s.b] : tag + "_app";
  s.app = std::make_unique<InitiatorApp>(app_name.c_str(), cfg_, s.route, w, index);
  if (DoorbellBatcher* d = a.doorbells.get())
    s.app->on_submit = [d](const Request& r) { d->note_submitted(r.core); };
  s.route.sink = fabric_.attach(s.app.get());
  if (fabric_wire_) {
    fabric_wire_->add_session(&s.route, s.devices.first, s.devices.second);
    // with pause, each end's send pipelines wait on their node's link
    for (const auto& [node, device] : {std::make_pair(s.a, s.devices.first), std::make_pair(s.b, s.devices.second)}) {
      nodes_[node].ub_tx->set_output_gate(fabric_wire_->egress_gate(device));
      nodes_[node].nic_tx->set_output_gate(fabric_wire_->egress_gate(device));
    }
  }
}

void TwoNodeSystem::build_node(Node& n, const std::string& t, int index, bool initiator) {
  const size_t cores = initiator ? static_cast<size_t>(cfg_.count(key::host_cores)) : 1;
  n.cpu = std::make_unique<StageServer>((t + "_cpu").c_str(),
                                        cores > 1 ? "the CPU cores (software stages, each request on its core)"
                                                  : "the CPU core (software stages)",
                                        cfg_, "", cores);
  n.pcie = std::make_unique<LinkStage>((t + "_pcie").c_str(), cfg_, LinkParams::pcie(cfg_));
  n.bus = std::make_unique<LinkStage>((t + "_bus").c_str(), cfg_, LinkParams::bus(cfg_));
  n.dram = std::make_unique<StageServer>((t + "_dram").c_str(), "the DRAM device", cfg_, "dram.occupancy");
  n.ub_tx = std::make_unique<UbTxBridge>((t + "_ub_tx").c_str(), cfg_);
  n.ub_rx = std::make_unique<RxBridge>((t + "_ub_rx").c_str(), cfg_, key::pipeline_ub_async, key::pipeline_ub_load);
  n.nic_tx = std::make_unique<RoceTxBridge>((t + "_nic_tx").c_str(), cfg_);
  n.nic_rx = std::make_unique<RxBridge>((t + "_nic_rx").c_str(), cfg_, key::pipeline_pcie_nic, key::pipeline_pcie_nic);
  for (StageComponent* c : std::initializer_list<StageComponent*>{
           n.cpu.get(), n.pcie.get(), n.bus.get(), n.dram.get(), n.ub_tx.get(), n.ub_rx.get(),
           n.nic_tx.get(), n.nic_rx.get()})
    fabric_.attach(c);
  // The send engines fetch the payload of a packet that did not come with
  // its message: the controller over the on-chip bus from DRAM, the NIC by a
  // PCIe DMA read (each charged for the packet's bytes).
  const NodeId id = initiator ? NodeId::A : NodeId::B;
  n.ub_tx->set_fetch_route(route_of({{Op::BusTraversal, id, "payload fetch: on-chip bus", true},
                                     {Op::DramRowHit, id, "payload fetch: DRAM", true}},
                                    n.ub_tx->fabric_id, index, Route::LinkUse::Read));
  n.nic_tx->set_fetch_route(route_of({{Op::PcieDmaRead, id, "payload fetch: PCIe DMA read", true}},
                                     n.nic_tx->fabric_id, index));
}

// Both wire directions become lossy links, and each direction's packets go
// through the transport engines of their connection: on the UB controller a
// TP channel (SACK, or GoBackN with transport.mode = gbn), on the PCIe NIC a
// QP (GoBackN). The connections are the contexts the requests name: the TP
// channel per remote endpoint, the QP per core or endpoint.
void TwoNodeSystem::build_transport(const std::vector<HopSpec>& hops) {
  const bool roce = std::any_of(hops.begin(), hops.end(), [](const HopSpec& h) { return h.op == Op::NicTx; });
  const uint64_t endpoints = cfg_.count(key::workload_endpoints), cores = cfg_.count(key::host_cores);
  const uint64_t channels = std::max<uint64_t>({1, endpoints, roce ? cores : 1});
  if (channels > kMaxTransportChannels)
    throw ConfigError(cfg_.source(key::workload_endpoints), key::workload_endpoints.name,
                      fmt::format("the transport inside the paths gives each of the {} {} its own verilated engines; at "
                                  "most {} are modelled (fewer endpoints{}, or transport.in_paths = false and no loss)",
                                  channels, roce ? "QPs" : "TP channels", kMaxTransportChannels,
                                  roce ? " or cores" : ""));
  const bool gbn = roce || cfg_.choice(key::transport_mode) == "gbn";
  const double p_data = cfg_.value(key::loss_data);
  const double p_ack = cfg_.value(key::loss_ack) < 0 ? p_data : cfg_.value(key::loss_ack);
  const uint64_t seed = cfg_.count(key::seed);
  const uint64_t propagation = cfg_.fs(key::wire_latency);
  const uint32_t paths = static_cast<uint32_t>(cfg_.count(key::multipath_paths));
  if (paths > 1) {
    // several paths: each direction a MultiPathWire, path p wire.latency + p x step
    for (const char* key : {"loss.data", "loss.ack", "loss.duplicate", "loss.reorder"})
      if (cfg_.value(key) > 0)
        throw ConfigError(cfg_.source(key::multipath_paths), key::multipath_paths.name,
                          fmt::format("the {} paths are lossless but for --drop; {} must be 0 with them", paths, key));
    std::vector<uint64_t> delays;
    for (uint32_t p = 0; p < paths; ++p) delays.push_back(propagation + p * cfg_.fs(key::multipath_delay_step));
    data_ab_ = std::make_unique<MultiPathWire>("paths_A_to_B", cfg_, delays, std::set<uint32_t>{});
    data_ba_ = std::make_unique<MultiPathWire>("paths_B_to_A", cfg_, delays, std::set<uint32_t>{});
  } else {
    data_ab_ = std::make_unique<LossyWire>("lossy_wire_A_to_B", cfg_, packets_, p_data, p_ack, propagation,
                                           std::set<uint32_t>{}, seed * 4 + 1);
    data_ba_ = std::make_unique<LossyWire>("lossy_wire_B_to_A", cfg_, packets_, p_data, p_ack, propagation,
                                           std::set<uint32_t>{}, seed * 4 + 2);
  }
  fabric_.attach(data_ab_.get());
  fabric_.attach(data_ba_.get());
  const char* kind = roce ? "nic_transport" : "ub_transport";
  const std::string stack = roce ? "nic" : "ub";
  // node A's engines spread over the paths (its requests' data, its
  // responses' acks); node B's send on path 0
  SackMode mode_a{gbn, 0, paths}, mode_b{gbn, 0, 1};
  transport_ab_ = std::make_unique<PathTransport>((std::string("A_") + kind).c_str(), cfg_, fabric_, NodeId::A, stack,
                                                  static_cast<uint32_t>(channels), mode_a, packets_, *data_ab_, *data_ba_);
  transport_ba_ = std::make_unique<PathTransport>((std::string("B_") + kind).c_str(), cfg_, fabric_, NodeId::B, stack,
                                                  static_cast<uint32_t>(channels), mode_b, packets_, *data_ba_, *data_ab_);
  fabric_.attach(transport_ab_.get());
  fabric_.attach(transport_ba_.get());
  data_ab_->on_sent = [this](const Packet& p, uint64_t s, uint64_t e) { transport_ab_->sent(p, s, e); };
  data_ba_->on_sent = [this](const Packet& p, uint64_t s, uint64_t e) { transport_ba_->sent(p, s, e); };
  // A failed request ends at node A: its order-tracker entry is released
  // as a completion would (once: the receive side skips it from here on).
  CompletionSink* tx = roce ? static_cast<CompletionSink*>(nodes_[0].nic_tx.get()) : nodes_[0].ub_tx.get();
  const auto release = [tx](Request& m) {
    if (m.ord_slot < 0) return;
    tx->complete(m, now_fs());
    m.ord_slot = -1;
  };
  transport_ab_->on_failed = release;
  transport_ba_->on_failed = release;
}

Route TwoNodeSystem::route_of(std::vector<HopSpec> hops, int sink, int node, Route::LinkUse use) {
  Route r;
  r.link_use = use;
  r.hops = std::move(hops);
  for (const HopSpec& h : r.hops) r.component.push_back(owner(h, node, node)->fabric_id);
  r.sink = sink;
  return r;
}

// Each cache refills over its node's memory path: the PCIe NIC DMA-reads the
// QP context from host memory; the bus-attached controller reads its record
// over the on-chip bus from DRAM (a row miss: context records are cold).
void TwoNodeSystem::build_caches(Node& n, const std::string& t, NodeId id, int index) {
  auto entries = [&](const char* key) { return static_cast<uint32_t>(cfg_.count(key)); };
  n.ub_cache = std::make_unique<CtxCacheBridge>((t + "_ub_cache").c_str(), cfg_, id, Stack::Ub,
                                                entries("cache.ub_entries"), entries("cache.ub_ways"));
  n.nic_cache = std::make_unique<CtxCacheBridge>((t + "_nic_cache").c_str(), cfg_, id, Stack::Roce,
                                                 entries("cache.roce_entries"), entries("cache.roce_ways"));
  const int ub_sink = fabric_.attach(n.ub_cache.get()), nic_sink = fabric_.attach(n.nic_cache.get());
  n.ub_cache->set_refill_route(route_of({{Op::BusTraversal, id, "context refill: on-chip bus"},
                                         {Op::DramRowMiss, id, "context refill: DRAM row miss"}},
                                        ub_sink, index, Route::LinkUse::Read));
  // (the NIC's records move their own bytes: a 512 B QP context)
  n.nic_cache->set_refill_route(route_of({{Op::PcieDmaRead, id, "context refill: PCIe DMA read", true}}, nic_sink, index));
  // a dirty record goes back the same way as a posted write
  n.ub_cache->set_writeback_route(route_of({{Op::BusTraversal, id, "context write-back: on-chip bus"},
                                            {Op::DramRowMiss, id, "context write-back: DRAM"}},
                                           ub_sink, index, Route::LinkUse::Write));
  n.nic_cache->set_writeback_route(
      route_of({{Op::PcieDmaWrite, id, "context write-back: PCIe DMA write", true}}, nic_sink, index));
  n.ub_cache->set_data_array(n.ub_tx.get());
  n.nic_cache->set_data_array(n.nic_tx.get());
  n.ub_tx->attach_cache(n.ub_cache.get());
  n.ub_rx->attach_cache(n.ub_cache.get());
  n.nic_tx->attach_cache(n.nic_cache.get());
  n.nic_rx->attach_cache(n.nic_cache.get());
}

StageComponent* TwoNodeSystem::owner(const HopSpec& h, int a, int b) {
  Node& n = nodes_[h.node == NodeId::A ? a : b];
  switch (h.op) {
    case Op::NicTx: return n.nic_tx.get();
    case Op::NicRx: return n.nic_rx.get();
    case Op::UbTx: case Op::UbLoadTx: return n.ub_tx.get();
    case Op::UbRx: case Op::UbLoadRx: return n.ub_rx.get();
    case Op::WireRequest: case Op::WireResponse:
      if (fabric_wire_) return fabric_wire_.get();
      if (transport_ab_) return h.node == NodeId::A ? transport_ab_.get() : transport_ba_.get();
      return h.node == NodeId::A ? static_cast<StageComponent*>(wire_ab_.get()) : wire_ba_.get();
    default: break;
  }
  switch (op_info(h.op).owner) {
    case ComponentKind::Cpu: return n.cpu.get();
    case ComponentKind::Pcie: return n.pcie.get();
    case ComponentKind::Bus: return n.bus.get();
    case ComponentKind::Dram: return n.dram.get();
    case ComponentKind::CompletionQueue:
      if (n.cq) return n.cq.get();
      break;
    case ComponentKind::DoorbellBatcher:
      if (n.doorbells) return n.doorbells.get();
      break;
    default: break;
  }
  throw std::logic_error("no owner for stage");
}

RtlBridge& TwoNodeSystem::initiator_tx() const {
  const Route& route_ = route();
  const bool roce = std::any_of(route_.hops.begin(), route_.hops.end(), [](const HopSpec& h) { return h.op == Op::NicTx; });
  const Node& a = nodes_[sessions_[0]->a];
  return roce ? static_cast<RtlBridge&>(*a.nic_tx) : static_cast<RtlBridge&>(*a.ub_tx);
}

std::vector<RtlBridge*> TwoNodeSystem::bridges() const {
  std::vector<RtlBridge*> out;
  for (StageComponent* c : fabric_.components())
    if (auto* b = dynamic_cast<RtlBridge*>(c)) out.push_back(b);
  return out;
}

std::vector<CtxCacheBridge*> TwoNodeSystem::caches() const {
  std::vector<CtxCacheBridge*> out;
  for (StageComponent* c : fabric_.components())
    if (auto* b = dynamic_cast<CtxCacheBridge*>(c)) out.push_back(b);
  return out;
}

void TwoNodeSystem::open_traces(const std::string& prefix) {
  for (RtlBridge* b : bridges()) b->open_trace(prefix + "." + b->basename() + ".fst");
}

void TwoNodeSystem::close_traces() {
  for (RtlBridge* b : bridges()) b->close_trace();
}

StatsTable TwoNodeSystem::stats() const { return fabric_.stats(); }

}  // namespace ubsim
