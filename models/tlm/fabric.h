// StageFabric: zero-time delivery of a request to the component that owns
// its next hop (address = fabric id). All time is spent inside components;
// the fabric is only the wiring of the stage graph. Its decode is fixed at
// elaboration (an address is a component), so each attached component hands
// a transaction to its target component's arrival itself (the peers it is
// given): what the target socket's nb_transport_fw does, without the calls
// of the hop through the fabric's and the target's sockets, which add
// neither time nor state. The sockets stay bound: a hand-off to an address
// outside the fabric goes through them (and fails the decode).
#pragma once
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "component.h"

namespace ubsim {

class StageFabric : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<StageFabric> from_components;
  tlm_utils::multi_passthrough_initiator_socket<StageFabric> to_components;

  explicit StageFabric(sc_core::sc_module_name name) : sc_module(name) {
    from_components.register_nb_transport_fw(this, &StageFabric::route);
  }

  // Connects a component both ways; returns its fabric id (its address).
  int attach(StageComponent* c) {
    c->fabric_id = static_cast<int>(components_.size());
    components_.push_back(c);
    c->set_peers(&components_);
    c->out.bind(from_components);
    to_components.bind(c->in);
    return c->fabric_id;
  }
  const std::vector<StageComponent*>& components() const { return components_; }
  StatsTable stats() const {
    StatsTable t;
    for (StageComponent* c : components_) c->collect_stats(t);
    return t;
  }

 private:
  tlm::tlm_sync_enum route(int /*from*/, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                           sc_core::sc_time& delay) {
    const auto target = static_cast<unsigned>(gp.get_address());
    sc_assert(target < to_components.size());
    return to_components[target]->nb_transport_fw(gp, phase, delay);
  }
  std::vector<StageComponent*> components_;
};

}  // namespace ubsim
