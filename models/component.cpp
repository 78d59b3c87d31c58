#include "component.h"

namespace ubsim {

StageComponent::StageComponent(sc_core::sc_module_name name)
    : sc_module(name), in("in"), out("out") {
  in.register_nb_transport_fw(this, &StageComponent::nb_transport_fw);
}

tlm::tlm_sync_enum StageComponent::nb_transport_fw(tlm::tlm_generic_payload& gp,
                                                   tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  RequestExtension* ext = nullptr;
  gp.get_extension(ext);
  sc_assert(ext && ext->request && phase == tlm::BEGIN_REQ && delay == sc_core::SC_ZERO_TIME);
  Request& r = *ext->request;
  if (r.hop < r.times.size()) r.now_times().arrive_fs = now_fs();
  accept(r);
  phase = tlm::END_REQ;
  return tlm::TLM_COMPLETED;
}

void StageComponent::forward(Request& r) {
  if (r.hop < r.times.size()) {
    r.now_times().depart_fs = now_fs();
    ++r.hop;
  }
  const int next = r.hop < r.route->hops.size() ? r.route->component[r.hop] : r.route->sink;
  r.gp.set_address(static_cast<uint64_t>(next));
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->nb_transport_fw(r.gp, phase, delay);
}

void StageComponent::finish_early(Request& r) {
  r.now_times().depart_fs = now_fs();
  r.hop = r.route->hops.size();
  r.gp.set_address(static_cast<uint64_t>(r.route->sink));
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->nb_transport_fw(r.gp, phase, delay);
}

void StageComponent::launch(Request& r) {
  r.gp.set_address(static_cast<uint64_t>(r.route->component[r.hop]));
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->nb_transport_fw(r.gp, phase, delay);
}

}  // namespace ubsim
