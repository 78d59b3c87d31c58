#include "transport_system.h"

namespace ubsim {

TransportSystem::TransportSystem(sc_core::sc_module_name name, const Config& c, SackMode mode, double p_loss_data,
                                 double p_loss_ack, std::set<uint32_t> drop_once)
    : sc_module(name), cfg_(c), fabric_("fabric") {
  const uint64_t seed = cfg_.count(key::seed);
  sender_ = std::make_unique<SackSenderBridge>("A_sack_tx", cfg_, mode, pool_);
  receiver_ = std::make_unique<SackReceiverBridge>("B_sack_rx", cfg_, mode, pool_);
  const uint64_t propagation = cfg_.fs(key::loss_wire_latency);
  // the data direction carries only data packets, the other only acks
  data_ = std::make_unique<LossyWire>("wire_A_to_B", cfg_, pool_, p_loss_data, 0.0, propagation, std::move(drop_once),
                                      seed * 2 + 1);
  ack_ = std::make_unique<LossyWire>("wire_B_to_A", cfg_, pool_, 0.0, p_loss_ack, propagation, std::set<uint32_t>{},
                                     seed * 2 + 2);
  connection_.connect(fabric_, *sender_, *receiver_, *data_, *ack_, *data_);
  data_->on_sent = [this](const Packet& p, uint64_t, uint64_t end) { sender_->sent(p.psn, end); };
}

void SackConnection::connect(StageFabric& fabric, SackSenderBridge& sender, SackReceiverBridge& receiver,
                             StageComponent& data, StageComponent& ack, const TransmitPort& port) {
  const int s = fabric.attach(&sender), r = fabric.attach(&receiver);
  const int d = fabric.attach(&data), a = fabric.attach(&ack);
  data_route.hops = {{Op::WireRequest, NodeId::A, "data packet"}};
  data_route.component = {d};
  data_route.sink = r;
  ack_route.hops = {{Op::WireResponse, NodeId::B, "ack"}};
  ack_route.component = {a};
  ack_route.sink = s;
  sender.set_data_route(&data_route, &port);
  receiver.set_ack_route(&ack_route);
}

StatsTable TransportSystem::stats() const { return fabric_.stats(); }

}  // namespace ubsim
