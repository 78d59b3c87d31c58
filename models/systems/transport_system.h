// TransportSystem: one transport connection between two nodes for the loss
// experiment (spec 8): the verilated SACK engine's sender on node A and
// receiver on node B, joined by two lossy wire directions (data A->B, acks
// B->A) on a stage fabric.
#pragma once
#include <memory>
#include <set>
#include <vector>

#include "config.h"
#include "fabric.h"
#include "lossy_wire.h"
#include "sack_bridges.h"

namespace ubsim {

class TransportSystem : public sc_core::sc_module {
 public:
  // p_loss_data / p_loss_ack: loss probabilities of the two directions;
  // drop_once: data PSNs lost on their first transmission. Everything else
  // comes from the configuration (a copy is kept).
  TransportSystem(sc_core::sc_module_name name, const Config& c, SackMode mode, double p_loss_data,
                  double p_loss_ack, std::set<uint32_t> drop_once);
  SackSenderBridge& sender() { return *sender_; }
  SackReceiverBridge& receiver() { return *receiver_; }
  LossyWire& data_wire() { return *data_; }
  LossyWire& ack_wire() { return *ack_; }
  StatsTable stats() const;

 private:
  const Config cfg_;
  StageFabric fabric_;
  Pool<Packet> pool_;
  std::unique_ptr<SackSenderBridge> sender_;
  std::unique_ptr<SackReceiverBridge> receiver_;
  std::unique_ptr<LossyWire> data_, ack_;
  Route data_route_, ack_route_;
};

}  // namespace ubsim
