// PathTransport: the transport of one wire direction inside the latency
// paths (spec §14). A packet that a send pipeline hands to the wire goes to
// the verilated SACK engine of its connection (the TP channel on a UB
// controller, shared by every Jetty that reaches that remote; the QP on the
// PCIe NIC, the same engine in GoBackN mode): the sender on the sending node
// puts it on the lossy wire and keeps it until acked, the receiver on the
// other node delivers packets to the receive pipeline in PSN order and acks
// back over the reverse direction. The request goes on when the receiver
// delivers its packet.
//
// Consistency of the TP-channel record and the engine: the record holds the
// pointers the send pipeline reads (next PSN), the engine the window (its
// bitmap, retransmit timer, retries). Both advance by one per packet of the
// connection, in the order the pipeline emits them; the bridge checks every
// first transmission's PSN against the header's (a fixed offset per
// connection), so a drift is an error, never a silent mismatch.
//
// Failure: when the sender runs out of retries (sack.max_retries) the
// connection goes down; every packet outstanding on it and every later one
// is abandoned, and its request completes with ERR_TRANSPORT.
#pragma once
#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <tlm_utils/peq_with_get.h>

#include "component.h"
#include "config.h"
#include "fabric.h"
#include "transport_wire.h"
#include "request.h"
#include "sack_bridges.h"

namespace ubsim {

class PathTransport : public StageComponent {
 public:
  // from: the sending node; stack: "ub" or "nic" (the engines' names:
  // <node>_<stack>_<sack|gbn>_<tx|rx><connection>); channels: connections
  // given engines (the requests' ctx, 0..channels-1); gbn: GoBackN (else
  // SACK; and the sender's paths: mode.paths). data_wire carries this
  // direction's packets, ack_wire the acks back.
  PathTransport(sc_core::sc_module_name name, const Config& c, StageFabric& fabric, NodeId from,
                const std::string& stack, uint32_t channels, SackMode mode, Pool<Packet>& pool,
                TransportWire& data_wire, TransportWire& ack_wire);
  // The data wire sent a packet of this direction (TransportWire::on_sent).
  void sent(const Packet& p, uint64_t start_fs, uint64_t end_fs);
  // A message failed (before it goes to its sink): the system releases what
  // the initiator holds for it (its order-tracker entry).
  std::function<void(Request& message)> on_failed;
  void collect_stats(StatsTable& table) const override;
  // Connection c's engines of this direction: the sender and the receiver.
  SackSenderBridge& sender(uint32_t c) const { return *channels_.at(c)->tx; }
  SackReceiverBridge& receiver(uint32_t c) const { return *channels_.at(c)->rx; }
  // Observes every packet the receiving engine delivers in PSN order.
  std::function<void(uint32_t channel, uint32_t psn, uint64_t at_fs)> on_delivered;
  uint64_t retransmitted_packets() const;
  uint64_t retransmitted_bytes() const;
  uint64_t timeouts() const;
  bool gbn() const { return gbn_; }

 protected:
  void accept(Transaction& t) override;

 private:
  struct Channel {
    std::unique_ptr<SackSenderBridge> tx;
    std::unique_ptr<SackReceiverBridge> rx;
    Route data_route, ack_route;
    bool down = false;
    bool psn_known = false;
    uint32_t psn_offset = 0;   // header PSN - engine PSN (24 bits)
  };
  // A packet in the transport: from its hand-off to its delivery.
  struct InFlight {
    Request* r = nullptr;
    uint32_t channel = 0;
    uint64_t first_start_fs = 0, first_end_fs = 0;   // its first transmission on the wire
    uint32_t first_path = 0;                         // ... and the path it took
    bool sent = false;
    bool kept_retransmit = false;                    // the copy the receiver kept was a resend
    uint64_t kept_arrival_fs = 0, kept_edge_fs = 0;  // ... reached the receiver / was taken
  };
  void deliver(uint32_t id, uint64_t at_fs);
  void fail_channel(uint32_t channel, uint64_t at_fs);
  void depart();
  void give_up(Request& r);

  const bool gbn_;
  const uint64_t period_fs_;
  const TransportWire& data_wire_;
  Pool<Packet>& pool_;
  std::vector<std::unique_ptr<Channel>> channels_;
  std::unordered_map<uint32_t, InFlight> in_flight_;
  std::unordered_set<Request*> failing_;   // abandoned at their connection's failure, leaving
  uint32_t next_id_ = 0;
  tlm_utils::peq_with_get<Transaction> out_;
  uint64_t packets_ = 0, failed_packets_ = 0, failed_messages_ = 0, delivered_ = 0;
};

}  // namespace ubsim
