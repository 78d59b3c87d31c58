#include "transport_system.h"

namespace ubsim {

TransportSystem::TransportSystem(sc_core::sc_module_name name, const Config& c, SackMode mode, double p_loss_data,
                                 double p_loss_ack, std::set<uint32_t> drop_once)
    : sc_module(name), cfg_(c), fabric_("fabric") {
  const uint64_t seed = cfg_.count("seed");
  sender_ = std::make_unique<SackSenderBridge>("A_sack_tx", cfg_, mode, pool_);
  receiver_ = std::make_unique<SackReceiverBridge>("B_sack_rx", cfg_, mode, pool_);
  const uint64_t propagation = cfg_.fs("loss.wire_latency");
  // the data direction carries only data packets, the other only acks
  data_ = std::make_unique<LossyWire>("wire_A_to_B", cfg_, pool_, p_loss_data, 0.0, propagation, std::move(drop_once),
                                      seed * 2 + 1);
  ack_ = std::make_unique<LossyWire>("wire_B_to_A", cfg_, pool_, 0.0, p_loss_ack, propagation, std::set<uint32_t>{},
                                     seed * 2 + 2);
  const int s = fabric_.attach(sender_.get()), r = fabric_.attach(receiver_.get());
  const int d = fabric_.attach(data_.get()), a = fabric_.attach(ack_.get());
  data_route_.hops = {{Op::WireRequest, NodeId::A, "data packet"}};
  data_route_.component = {d};
  data_route_.sink = r;
  ack_route_.hops = {{Op::WireResponse, NodeId::B, "ack"}};
  ack_route_.component = {a};
  ack_route_.sink = s;
  sender_->set_data_route(&data_route_, data_.get());
  receiver_->set_ack_route(&ack_route_);
  data_->on_sent = [this](const Packet& p, uint64_t, uint64_t end) { sender_->sent(p.psn, end); };
}

StatsTable TransportSystem::stats() const { return fabric_.stats(); }

}  // namespace ubsim
