#include "path_transport.h"

#include <stdexcept>

#include <fmt/format.h>

#include "rtl_variant.h"

namespace ubsim {

namespace {
// 24-bit PSN arithmetic
constexpr uint32_t kPsnMask = 0xffffffu;
}  // namespace

PathTransport::PathTransport(sc_core::sc_module_name name, const Config& c, StageFabric& fabric, NodeId from,
                             const std::string& stack, uint32_t channels, SackMode mode, Pool<Packet>& pool,
                             TransportWire& data_wire, TransportWire& ack_wire)
    : StageComponent(name),
      gbn_(mode.gbn),
      period_fs_(c.clock_period_fs()),
      data_wire_(data_wire),
      pool_(pool),
      out_("delivered") {
  SC_HAS_PROCESS(PathTransport);
  SC_METHOD(depart);
  sensitive << out_.get_event();
  dont_initialize();
  const NodeId to = from == NodeId::A ? NodeId::B : NodeId::A;
  const char* f = from == NodeId::A ? "A" : "B";
  const char* t = from == NodeId::A ? "B" : "A";
  const std::string base = stack + (gbn_ ? "_gbn" : "_sack");
  const bool ack_on_data_path = c.choice(key::sack_ack_path) == "data";
  for (uint32_t i = 0; i < channels; ++i) {
    auto ch = std::make_unique<Channel>();
    ch->tx = std::make_unique<SackSenderBridge>(fmt::format("{}_{}_tx{}", f, base, i).c_str(), c, mode, pool_);
    ch->rx = std::make_unique<SackReceiverBridge>(fmt::format("{}_{}_rx{}", t, base, i).c_str(), c, mode, pool_);
    ch->tx->set_channel(i);
    ch->rx->set_channel(i);
    const int tx_id = fabric.attach(ch->tx.get()), rx_id = fabric.attach(ch->rx.get());
    const Op data_op = from == NodeId::A ? Op::WireRequest : Op::WireResponse;
    const Op ack_op = from == NodeId::A ? Op::WireResponse : Op::WireRequest;
    ch->data_route.hops = {{data_op, from, "transport data packet"}};
    ch->data_route.component = {data_wire.fabric_id};
    ch->data_route.sink = rx_id;
    ch->ack_route.hops = {{ack_op, to, "transport ack"}};
    ch->ack_route.component = {ack_wire.fabric_id};
    ch->ack_route.sink = tx_id;
    ch->tx->set_data_route(&ch->data_route, &data_wire);
    ch->rx->set_ack_route(&ch->ack_route);
    ch->rx->set_ack_on_data_path(ack_on_data_path);
    ch->rx->on_arrive = [this](const Packet& p, uint64_t at) {
      auto it = in_flight_.find(static_cast<uint32_t>(p.id));
      if (it == in_flight_.end()) return;
      it->second.kept_retransmit = p.retransmit;
      it->second.kept_arrival_fs = p.times[0].depart_fs;   // the wire handed it to the receiver
      it->second.kept_edge_fs = at;
    };
    ch->rx->on_deliver = [this, i](uint32_t id, uint32_t psn, uint64_t at) {
      if (on_delivered) on_delivered(i, psn, at);
      deliver(id, at);
    };
    ch->tx->on_fail = [this, i](uint32_t, uint64_t at) { fail_channel(i, at); };
    channels_.push_back(std::move(ch));
  }
}

void PathTransport::accept(Transaction& t) {
  Request& r = as_request(t);
  if (r.ctx >= channels_.size())
    throw std::logic_error(fmt::format("{}: request {} uses connection {}, the transport has {}", name(), r.id, r.ctx,
                                       channels_.size()));
  ++packets_;
  Channel& ch = *channels_[r.ctx];
  if (ch.down) {   // the connection failed: nothing goes out on it any more
    give_up(r);
    return;
  }
  const uint32_t id = next_id_++;
  InFlight& f = in_flight_[id];
  f.r = &r;
  f.channel = r.ctx;
  ch.tx->submit(id, carries_payload(r) ? r.payload_bytes : 0, now_fs());
}

void PathTransport::sent(const Packet& p, uint64_t start_fs, uint64_t end_fs) {
  Channel& ch = *channels_.at(p.channel);
  ch.tx->sent(p.psn, end_fs);   // the retransmit timer runs from the last byte
  auto it = in_flight_.find(static_cast<uint32_t>(p.id));
  if (it == in_flight_.end() || it->second.sent) return;
  InFlight& f = it->second;
  f.sent = true;
  f.first_start_fs = start_fs;
  f.first_end_fs = end_fs;
  f.first_path = p.path;
  if (!f.r->has_psn || p.retransmit) return;
  const uint32_t offset = (f.r->psn - p.psn) & kPsnMask;
  if (!ch.psn_known) {
    ch.psn_known = true;
    ch.psn_offset = offset;
  } else if (offset != ch.psn_offset) {
    throw std::runtime_error(fmt::format(
        "{}: connection {}: request {} left the send pipeline with PSN {} from its record, but the transport engine "
        "sent it as PSN {} (record and engine disagree)",
        name(), p.channel, f.r->id, f.r->psn, p.psn));
  }
}

// The receiver delivered packet `id` in PSN order at edge at_fs. Its time in
// the transport, itemized from the engines' events: the first transmission's
// serialization, the time until a resend reached the receiver (when the copy
// it kept was one), the wait in the receiver for a lower PSN (a hole, or
// deliveries ahead of it: it delivers one per cycle, the cycle after it took
// the packet), and the rest, the engines' own cycles and the wire's queue.
void PathTransport::deliver(uint32_t id, uint64_t at_fs) {
  auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;
  const InFlight f = it->second;
  in_flight_.erase(it);
  Request& r = *f.r;
  HopTimes& t = r.now_times();
  const auto positive = [](int64_t v) { return v > 0 ? static_cast<uint64_t>(v) : 0; };
  t.start_fs = t.arrive_fs;
  t.serialize_fs = f.first_end_fs - f.first_start_fs;
  t.retransmit_fs = f.kept_retransmit ? positive(static_cast<int64_t>(f.kept_arrival_fs) -
                                                 static_cast<int64_t>(f.first_end_fs + data_wire_.propagation_fs(f.first_path)))
                                      : 0;
  t.reorder_fs = positive(static_cast<int64_t>(at_fs) - static_cast<int64_t>(f.kept_edge_fs + period_fs_));
  t.transport_fs = positive(static_cast<int64_t>(at_fs - t.arrive_fs) -
                            static_cast<int64_t>(data_wire_.propagation_fs(f.first_path) + t.serialize_fs + t.retransmit_fs + t.reorder_fs));
  ++delivered_;
  out_.notify(r, fs_from_now(at_fs));
}

void PathTransport::fail_channel(uint32_t channel, uint64_t at_fs) {
  channels_[channel]->down = true;
  for (auto it = in_flight_.begin(); it != in_flight_.end();) {
    if (it->second.channel == channel) {
      failing_.insert(it->second.r);
      out_.notify(*it->second.r, fs_from_now(at_fs));
      it = in_flight_.erase(it);   // late engine events find nothing
    } else {
      ++it;
    }
  }
}

void PathTransport::depart() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  while (Transaction* t = out_.get_next_transaction()) {
    Request& r = as_request(*t);
    if (failing_.erase(&r)) give_up(r);
    else forward(r);
  }
  StageComponent::settle_touched();   // (its last statement: component.h)
}

void PathTransport::give_up(Request& r) {
  ++failed_packets_;
  Request& m = r.message();
  if (!m.error) {
    m.error_code = enc::ERR_TRANSPORT;
    ++failed_messages_;
    if (on_failed) on_failed(m);
  }
  r.now_times().depart_fs = now_fs();
  abandon(r);
}

uint64_t PathTransport::retransmitted_packets() const {
  uint64_t n = 0;
  for (const auto& ch : channels_) n += ch->tx->retransmits();
  return n;
}

uint64_t PathTransport::retransmitted_bytes() const {
  uint64_t n = 0;
  for (const auto& ch : channels_) n += ch->tx->retransmitted_bytes();
  return n;
}

uint64_t PathTransport::timeouts() const {
  uint64_t n = 0;
  for (const auto& ch : channels_) n += ch->tx->timeouts();
  return n;
}

void PathTransport::collect_stats(StatsTable& table) const {
  const std::string n = name();
  uint64_t down = 0;
  for (const auto& ch : channels_) down += ch->down ? 1 : 0;
  table.add(n, "packets", static_cast<double>(packets_), "packets", "packets handed to the transport by send pipelines");
  table.add(n, "delivered", static_cast<double>(delivered_), "packets",
            "packets the receiving engine delivered to its receive pipeline (PSN order)");
  table.add(n, "retransmitted_packets", static_cast<double>(retransmitted_packets()), "packets",
            "packets the sending engines resent (timeouts, SACK holes, GoBackN windows)");
  table.add(n, "retransmitted_bytes", static_cast<double>(retransmitted_bytes()), "bytes", "payload bytes resent");
  table.add(n, "timeouts", static_cast<double>(timeouts()), "events", "retransmit timer expiries");
  table.add(n, "failed_packets", static_cast<double>(failed_packets_), "packets",
            "packets abandoned: their connection ran out of retries");
  table.add(n, "failed_messages", static_cast<double>(failed_messages_), "messages",
            "requests completed with the transport error");
  table.add(n, "connections_down", static_cast<double>(down), "connections",
            "connections whose sender ran out of retries (sack.max_retries)");
}

}  // namespace ubsim
