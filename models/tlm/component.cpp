#include "component.h"

namespace ubsim {

StageComponent::StageComponent(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
  in.register_nb_transport_fw(this, &StageComponent::nb_transport_fw);
}

tlm::tlm_sync_enum StageComponent::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                   sc_core::sc_time& delay) {
  TransactionExtension* ext = nullptr;
  gp.get_extension(ext);
  sc_assert(ext && ext->t && phase == tlm::BEGIN_REQ && delay == sc_core::SC_ZERO_TIME);
  Transaction& t = *ext->t;
  if (t.on_route()) t.now_times().arrive_fs = now_fs();
  accept(t);
  phase = tlm::END_REQ;
  return tlm::TLM_COMPLETED;
}

void StageComponent::send(Transaction& t, int target) {
  t.gp.set_address(static_cast<uint64_t>(target));
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->nb_transport_fw(t.gp, phase, delay);
}

void StageComponent::forward(Transaction& t) {
  if (t.on_route()) {
    t.now_times().depart_fs = now_fs();
    ++t.hop;
  }
  send(t, t.on_route() ? t.route->component[t.hop] : t.route->sink);
}

void StageComponent::finish_early(Transaction& t) {
  t.now_times().depart_fs = now_fs();
  t.hop = t.route->hops.size();
  send(t, t.route->sink);
}

void StageComponent::launch(Transaction& t) { send(t, t.route->component[t.hop]); }

}  // namespace ubsim
