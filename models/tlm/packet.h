// Packet: a transport-layer packet between the SACK engines: a data packet
// (PSN, payload, the message it carries in `id`) or an ack (cumulative ack,
// SACK bitmap, duplicate flag).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "transaction.h"

namespace ubsim {

// Packets a message of `message_bytes` payload leaves as: ceil(bytes / MTU),
// one at least (a message without payload is one packet).
inline uint32_t packets_of(uint64_t message_bytes, uint64_t mtu) {
  return message_bytes == 0 ? 1u : static_cast<uint32_t>((message_bytes + mtu - 1) / mtu);
}
// Payload of packet k of such a message.
inline uint32_t packet_payload(uint64_t message_bytes, uint64_t mtu, uint32_t k) {
  const uint64_t from = static_cast<uint64_t>(k) * mtu;
  return message_bytes > from ? static_cast<uint32_t>(std::min<uint64_t>(mtu, message_bytes - from)) : 0u;
}

struct Packet : Transaction {
  Packet() : Transaction(Kind::Packet) {}
  uint32_t psn = 0;
  uint32_t payload_bytes = 0;
  uint32_t wire_bytes = 0;          // header + payload (+ SACK bitmap)
  bool is_ack = false, retransmit = false;
  uint32_t ack_cum = 0;             // ack: next PSN the receiver expects
  bool ack_dup = false;             // ack: an out-of-order packet was dropped (GoBackN)
  std::vector<uint64_t> sack;       // ack: PSN ack_cum + 1 + i received, 64 bits a word
  bool lost = false;                // the wire lost it (handed on so its owner recycles it)
  uint32_t channel = 0;             // the transport connection (TP channel / QP) it belongs to
  uint32_t path = 0;                // data: the path the sender chose for it (spec 16: several paths)

  // The content of another packet (a duplicate on the wire).
  void copy_from(const Packet& o) {
    id = o.id;
    route = o.route;
    hop = o.hop;
    times = o.times;
    psn = o.psn;
    payload_bytes = o.payload_bytes;
    wire_bytes = o.wire_bytes;
    is_ack = o.is_ack;
    retransmit = o.retransmit;
    ack_cum = o.ack_cum;
    ack_dup = o.ack_dup;
    sack = o.sack;
    lost = false;
    channel = o.channel;
    path = o.path;
  }
};

// What a sender's link offers it: whether path `path` has finished
// serializing at edge_fs, counting only what was handed over before it (the
// sender's transmit queue holds one packet per path).
class TransmitPort {
 public:
  virtual ~TransmitPort() = default;
  virtual bool free_at_edge(uint64_t edge_fs, uint32_t path) const = 0;
};

inline Packet& as_packet(Transaction& t) {
  sc_assert(t.kind == Transaction::Kind::Packet);
  return static_cast<Packet&>(t);
}

}  // namespace ubsim
