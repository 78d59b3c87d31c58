// StageComponent: a SystemC module that owns stages of a path. Requests
// arrive over a TLM-2.0 target socket (nb_transport_fw, BEGIN_REQ) and leave
// over an initiator socket to the stage fabric, which hands them to the
// component of their next hop.
#pragma once
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "request.h"
#include "stats.h"

namespace ubsim {

class StageComponent : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<StageComponent> in;
  tlm_utils::simple_initiator_socket<StageComponent> out;

  explicit StageComponent(sc_core::sc_module_name name);

  int fabric_id = -1;
  virtual void collect_stats(StatsTable& table) const = 0;

 protected:
  // Called at the request's arrival time; the component owns it from here.
  virtual void accept(Request& r) = 0;
  // Records the departure time and hands the request to its next hop.
  void forward(Request& r);
  // Sends a request that starts here to the component of its first hop.
  void launch(Request& r);
  // Ends a request here (e.g. an error completion): straight to its sink.
  void finish_early(Request& r);

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
};

}  // namespace ubsim
