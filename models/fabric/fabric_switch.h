// FabricSwitch: forwards each frame, once it has arrived whole, to the
// output queue of a port towards its destination (Topology::next_ports:
// the ports on a shortest path). Among several (an ECMP group) it picks by
// fabric.ecmp: `hash`, the keyed hash of the frame's header fields with
// fabric.hash_seed (every packet of a flow takes the same port); or
// `flow_rr`, each new flow the next port of the group in turn (the
// placement a central scheduler would make: no collision while flows <=
// ports). No forwarding latency beyond store and forward.
#pragma once
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "fabric_link.h"
#include "frame.h"
#include "topology.h"

namespace ubsim {

enum class EcmpMode { Hash, FlowRoundRobin };

class FabricSwitch : public sc_core::sc_module, public FrameIn {
 public:
  sc_core::sc_export<FrameIn> in;

  FabricSwitch(sc_core::sc_module_name name, const Topology& topo, int self, EcmpMode mode, uint64_t seed);
  void attach(int port, FabricLink* egress) { egress_[port] = egress; }
  void put(Frame& f, int port) override;
  // fabric.ecmp = hash: the member of `group` a frame with these header
  // fields takes at switch `switch_id` under `seed` (what put() does).
  static int hash_choice(uint32_t src, uint32_t dst, uint32_t entropy, const std::vector<int>& group, uint64_t seed,
                         uint32_t switch_id);
  uint64_t forwarded() const { return forwarded_; }

 private:
  int choose(const Frame& f, const std::vector<int>& group);
  const Topology& topo_;
  const int self_;
  const EcmpMode mode_;
  const uint64_t seed_;
  std::vector<FabricLink*> egress_;
  std::unordered_map<uint64_t, int> flow_port_;   // flow_rr: (destination, flow) -> port
  std::map<std::vector<int>, uint32_t> next_in_group_;   // flow_rr: per group of ports, the next member
  uint64_t forwarded_ = 0;
};

}  // namespace ubsim
