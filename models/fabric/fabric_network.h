// FabricNetwork: a topology elaborated as switches, links and traffic
// endpoints (every node a traffic endpoint: the controllers' paths over a
// fabric are the next step, docs/fabric.md). Two FabricLinks per topology
// link, one per direction; a device's port p is its p-th link.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "config.h"
#include "fabric_link.h"
#include "fabric_switch.h"
#include "frame.h"
#include "wait_for.h"
#include "topology.h"
#include "traffic_endpoint.h"

namespace ubsim {

struct FabricOptions {
  EcmpMode ecmp = EcmpMode::Hash;
  uint64_t hash_seed = 0;
  uint32_t mtu = 4096, header_bytes = 32;
  bool record_series = false;
  PausePolicy pause;
  uint64_t shared_buffer = 0;   // each switch's total across its output queues (0: none)
  EcnPolicy ecn;                // marking on every switch output queue
};

// The options the configuration gives (fabric.ecmp, fabric.hash_seed,
// transport.mtu and header_bytes, fabric.pause*).
FabricOptions fabric_options(const Config& c, bool record_series = false);
// The topology's [[topology.flow]] entries as flows of its traffic
// endpoints (entropy: 49152 + the flow's index, the sources' port range).
std::vector<FlowRecord> flow_records(const Topology& t);

class FabricNetwork : public sc_core::sc_module {
 public:
  // flows: what each endpoint sends (src and dst are device indices).
  FabricNetwork(sc_core::sc_module_name name, const Topology& topo, std::vector<FlowRecord> flows,
                const FabricOptions& o);
  const Topology& topology() const { return topo_; }
  const std::vector<FlowRecord>& flows() const { return flows_; }
  // The link leaving device d on its port p.
  const FabricLink& egress(int d, int p) const { return *egress_[d][p]; }
  FabricLink& egress(int d, int p) { return *egress_[d][p]; }
  std::string link_name(int d, int p) const;
  const FabricSwitch* switch_at(int d) const { return switches_[d].get(); }
  // Frames that carry stage transactions (FabricWire): taken from the
  // network's pool, sent from endpoint d now, handed to `sink` on arrival.
  Frame& acquire() { return *pool_.acquire(); }
  void release(Frame& f) { pool_.release(&f); }
  void inject(int d, Frame& f) { endpoints_[d]->inject(f); }
  TrafficEndpoint* endpoint(int d) { return endpoints_[d].get(); }
  const TrafficEndpoint* endpoint(int d) const { return endpoints_[d].get(); }
  void set_carrier_sink(const std::function<void(Frame&)>& sink);
  // The links that hold frames and cannot send them, as a wait-for graph:
  // a link paused by the switch it feeds waits for that switch's queues
  // holding what came in on it (each of them, if blocked, a vertex too).
  WaitForGraph wait_for() const;
  // Flows not done: sent or delivered fewer than their packets (less drops).
  size_t unfinished_flows() const;

 private:
  const Topology topo_;
  std::vector<FlowRecord> flows_;
  FramePool pool_;
  std::vector<std::unique_ptr<FabricSwitch>> switches_;
  std::vector<std::unique_ptr<TrafficEndpoint>> endpoints_;
  std::vector<std::vector<std::unique_ptr<FabricLink>>> egress_;   // [device][port]
};

}  // namespace ubsim
