// TwoNodeSystem: nodes A (initiator) and B (target), each with a CPU core,
// PCIe link, on-chip bus, DRAM, bus-attached UB controller (RTL send and
// receive pipelines) and PCIe peripheral NIC (RTL send and receive
// pipelines), joined by a full-duplex wire; a stage fabric connects them and
// the initiator application runs on A. Over a switched topology the same
// nodes are the topology's controllers, and a session (an initiator
// application and its route) runs for each (initiator, target) pair given:
// node A of its route is its initiator, node B its target.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "completion_queue.h"
#include "doorbell_batcher.h"
#include "link_stage.h"
#include "config.h"
#include "ctx_cache_bridge.h"
#include "fabric.h"
#include "fabric_wire.h"
#include "multipath_wire.h"
#include "initiator_app.h"
#include "path_transport.h"
#include "pipeline_bridges.h"
#include "servers.h"
#include "watchdog.h"

namespace ubsim {

struct Node {
  std::unique_ptr<StageServer> cpu, dram;
  std::unique_ptr<LinkStage> bus;    // the on-chip bus (controller <-> memory, CPU -> controller)
  std::unique_ptr<LinkStage> pcie;   // the PCIe NIC's link to its host
  std::unique_ptr<UbTxBridge> ub_tx;
  std::unique_ptr<RxBridge> ub_rx;
  std::unique_ptr<RoceTxBridge> nic_tx;
  std::unique_ptr<RxBridge> nic_rx;
  // Context caches (null with cache.enabled = false): UB controller, PCIe NIC.
  std::unique_ptr<CtxCacheBridge> ub_cache, nic_cache;
  // Node A with batched completion handling (sw.cq_batch > 0), else null.
  std::unique_ptr<CompletionQueue> cq;
  // Node A posting several work requests per doorbell (sw.wr_per_doorbell > 1), else null.
  std::unique_ptr<DoorbellBatcher> doorbells;
};

// Whether the transport engines run inside the paths: transport.in_paths,
// or any loss, duplication or reordering on the wire.
bool transport_in_paths(const Config& c);
// Connections given their own engines at most (4 verilated engines each).
inline constexpr uint64_t kMaxTransportChannels = 64;

class TwoNodeSystem : public sc_core::sc_module {
 public:
  // The system keeps its own copy of the configuration (its components
  // read from it); `app` is the initiator application's workload.
  // With a topology of switches (Config::topology), the wire stages cross
  // the fabric (FabricWire) and a session runs for each of `pairs`
  // (topology device indices: initiator, target; empty: the first pair),
  // all at once; over one link the one session runs from A to B.
  TwoNodeSystem(sc_core::sc_module_name name, const Config& c, std::vector<HopSpec> hops, Workload app,
                std::vector<std::pair<int, int>> pairs = {});
  size_t sessions() const { return sessions_.size(); }
  const Route& route(size_t k) const { return sessions_[k]->route; }
  InitiatorApp& app(size_t k) { return *sessions_[k]->app; }
  // Session k's (initiator, target) as topology device indices (-1 over one link).
  std::pair<int, int> session_devices(size_t k) const { return sessions_[k]->devices; }
  // The fabric the wire stages cross (null: one link, wire_from()).
  const FabricWire* fabric_wire() const { return fabric_wire_.get(); }
  const Route& route() const { return sessions_[0]->route; }
  InitiatorApp& app() { return *sessions_[0]->app; }
  // Ends a run that stops making progress (watchdog.h); check() after sc_start.
  const ProgressWatchdog& watchdog() const { return *watchdog_; }
  // The wire direction leaving node `from` (lossless, without transport engines).
  WireDirection& wire_from(NodeId from) { return from == NodeId::A ? *wire_ab_ : *wire_ba_; }
  // The transport of the packets leaving node `from` (null unless transport.in_paths).
  PathTransport* transport_from(NodeId from) const {
    return from == NodeId::A ? transport_ab_.get() : transport_ba_.get();
  }
  // The transport's wire direction leaving node `from` (null unless
  // transport.in_paths): one lossy link, or multipath.paths paths.
  TransportWire* transport_wire_from(NodeId from) const {
    return from == NodeId::A ? data_ab_.get() : data_ba_.get();
  }
  // Node A's send pipeline of the route's stack (its order tracker inside).
  RtlBridge& initiator_tx() const;
  const std::vector<StageComponent*>& components() const { return fabric_.components(); }
  // Every verilated model: pipelines and context caches.
  std::vector<RtlBridge*> bridges() const;
  // The context caches of both nodes (empty with cache.enabled = false).
  std::vector<CtxCacheBridge*> caches() const;
  // FST waveforms: one file per RTL pipeline, prefix + "." + module + ".fst".
  void open_traces(const std::string& prefix);
  void close_traces();
  StatsTable stats() const;

 private:
  struct Session {
    int a = 0, b = 1;                          // node indices of its nodes A and B
    std::pair<int, int> devices{-1, -1};       // the same as topology devices
    Route route;
    std::unique_ptr<InitiatorApp> app;
  };
  // The component that runs hop h when node A is node `a` and node B node `b`.
  StageComponent* owner(const HopSpec& h, int a, int b);
  // A route of hops on node `node`'s components, ending at fabric id `sink`.
  Route route_of(std::vector<HopSpec> hops, int sink, int node, Route::LinkUse use = Route::LinkUse::Auto);
  void build_node(Node& n, const std::string& tag, int index, bool initiator);
  void build_caches(Node& n, const std::string& tag, NodeId role, int index);
  void build_session(Session& s, std::vector<HopSpec> hops, const Workload& w, uint32_t index);
  void build_transport(const std::vector<HopSpec>& hops);

  const Config cfg_;
  StageFabric fabric_;
  std::vector<Node> nodes_;   // [0] A, [1] B over one link; the topology's controllers in sessions over a fabric
  std::vector<std::string> node_tags_;
  std::vector<NodeId> node_roles_;
  std::unique_ptr<WireDirection> wire_ab_, wire_ba_;
  std::unique_ptr<FabricWire> fabric_wire_;
  // The transport inside the paths: both directions' engines and wires.
  Pool<Packet> packets_;
  std::unique_ptr<TransportWire> data_ab_, data_ba_;
  std::unique_ptr<PathTransport> transport_ab_, transport_ba_;
  std::vector<std::unique_ptr<Session>> sessions_;
  std::unique_ptr<ProgressWatchdog> watchdog_;
};

}  // namespace ubsim
