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

// One connection's engines on a stage fabric: the sender's data packets
// over `data` to the receiver, its acks over `ack` back (the routes are
// filled in here; `port` is what paces the sender).
struct SackConnection {
  Route data_route, ack_route;
  void connect(StageFabric& fabric, SackSenderBridge& sender, SackReceiverBridge& receiver, StageComponent& data,
               StageComponent& ack, const TransmitPort& port);
};

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
  SackConnection connection_;
};

}  // namespace ubsim
