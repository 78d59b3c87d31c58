#include "fabric_switch.h"

#include "flow_hash.h"

namespace ubsim {

FabricSwitch::FabricSwitch(sc_core::sc_module_name name, const Topology& topo, int self, EcmpMode mode,
                           uint64_t seed)
    : sc_module(name),
      in("in"),
      topo_(topo),
      self_(self),
      mode_(mode),
      seed_(seed),
      egress_(topo.ports()[self].size(), nullptr) {
  in.bind(*this);
}

int FabricSwitch::hash_choice(uint32_t src, uint32_t dst, uint32_t entropy, const std::vector<int>& group,
                              uint64_t seed, uint32_t switch_id) {
  return group[ecmp_hash(src, dst, entropy, seed, switch_id) % group.size()];
}

int FabricSwitch::choose(const Frame& f, const std::vector<int>& group) {
  if (group.size() == 1) return group[0];
  if (mode_ == EcmpMode::Hash)
    return hash_choice(f.src, f.dst, f.entropy, group, seed_, static_cast<uint32_t>(self_));
  const uint64_t key = static_cast<uint64_t>(f.dst) << 32 | f.flow;
  const auto it = flow_port_.find(key);
  if (it != flow_port_.end()) return it->second;
  const int port = group[next_in_group_[group]++ % group.size()];
  flow_port_.emplace(key, port);
  return port;
}

void FabricSwitch::put(Frame& f, int /*port*/) {
  const std::vector<int>& group = topo_.next_ports(self_, static_cast<int>(f.dst));
  sc_assert(!group.empty());   // Topology::finish refuses a destination without a route
  ++forwarded_;
  egress_[choose(f, group)]->send(f);
}

}  // namespace ubsim
