// Request: a remote read or write of the application along its path (or a
// context refill, a write-back, a payload fetch a controller sends over its
// node's memory path).
//
// A message of `size` bytes crosses the link as packets: each send pipeline
// cuts it into ceil(payload / MTU) packets (one when the direction carries
// no payload: a read request, an ack). The message object itself travels as
// packet 0; the later packets are child Requests (parent = the message) the
// send pipeline's bridge creates, which follow the same route through the
// packet segment (send pipeline, wire, receive pipeline, per-packet
// placement stages) and end there; the message leaves the segment when its
// last packet has (reassembly).
#pragma once
#include <cstdint>

#include "transaction.h"

namespace ubsim {

template <class T>
class Pool;

enum class Verb { Read, Write };

struct Request : Transaction {
  Request() : Transaction(Kind::Request) {}
  Verb verb = Verb::Read;
  uint64_t size = 64;           // the message's bytes (what the application reads or writes)
  uint32_t payload_bytes = 64;  // bytes this transaction carries: its packet's payload; fetches: theirs
  // Packets in the current segment: this one's index, the message's count
  // (children copy it), how many leading packets came with the message
  // (the rest are fetched by the send engine).
  uint32_t pkt = 0, pkts = 1, data_pkts = 1;
  size_t send_hop = 0;                 // message: the hop of the send pipeline cutting it (packet 0 moves on)
  Request* parent = nullptr;           // a later packet (or a payload fetch): its message
  Pool<Request>* home = nullptr;       // a later packet / fetch: the pool it returns to
  uint32_t seg_done = 0;               // message: packets that finished the segment
  uint32_t rx_done = 0;                // message: packets past the receiving pipeline
  uint32_t fetch_next = 0;             // message: next packet whose payload the send engine fetches
  uint64_t seg_wait_from = 0;          // message: reached the segment's end, waiting for its other packets
  bool seg_waiting = false;
  uint64_t placed_bytes = 0;           // message: payload bytes that completed a payload-carrying segment
  uint32_t ctx = 0;             // TP channel (UB) or QP (RoCE) index; refills: cache slot
  uint32_t local_ep = 0;        // initiator endpoint (Jetty / QP owner) on node A
  uint32_t core = 0;            // node A's CPU core that submits it and handles its completion
  uint32_t remote_ep = 0;       // target endpoint on node B
  // Ordering of the request in its Jetty / QP (spec 2): service mode and
  // tag as ubsim::enc::MODE_* / TAG_*; Fence; completion order.
  uint8_t ord_mode = 0, ord_tag = 0;
  bool fence = false, comp_order = false;
  int ord_slot = -1, ord_seq = -1;   // given by the order tracker (-1: not tracked)
  uint64_t ord_hold_fs = 0, ord_release_fs = 0;   // held by the order tracker (0: never)
  // The application's request: when it had a carrier (left the send-queue
  // backlog) and when it took a request slot (was submitted).
  // paced_fs: when it had a slot but waited for the submit interval (0: never).
  uint64_t queued_fs = 0, slot_fs = 0, paced_fs = 0;
  // Doorbell batching: the leader of a batch carries the other requests
  // (a chain through next_rider) and fetches `descriptors` descriptors.
  Request* next_rider = nullptr;
  uint32_t descriptors = 1;
  bool error = false;                // rejected with an error completion
  int error_code = 0;                // ubsim::enc::ERR_*
  // The PSN the send pipeline put in this packet's header (from its TP
  // channel / QP record), when the pipeline has a context RAM.
  uint32_t psn = 0;
  bool has_psn = false;

  // Starts the route with the per-request state cleared.
  void reset(const Route* r) {
    start_route(r);
    ord_slot = ord_seq = -1;
    ord_hold_fs = ord_release_fs = 0;
    error = false;
    error_code = 0;
    has_psn = false;
    pkt = 0;
    pkts = data_pkts = 1;
    parent = nullptr;
    home = nullptr;
    seg_done = rx_done = fetch_next = 0;
    seg_waiting = false;
    placed_bytes = 0;
    next_rider = nullptr;
    descriptors = 1;
  }
  Request& message() { return parent ? *parent : *this; }
  const Request& message() const { return parent ? *parent : *this; }
};

// Whether the packets r's current hop sends carry the payload: requests
// leave node A, responses node B; a write carries its payload out, a read
// brings it back.
inline bool carries_payload(const Request& r) {
  const bool request_direction = r.current().node == NodeId::A;
  return request_direction == (r.verb == Verb::Write);
}

// Bytes of the packet the current hop sends: header, plus the payload when
// it travels in this direction.
inline uint32_t packet_bytes(const Request& r, uint32_t header_bytes) {
  return header_bytes + (carries_payload(r) ? r.payload_bytes : 0);
}

inline Request& as_request(Transaction& t) {
  sc_assert(t.kind == Transaction::Kind::Request);
  return static_cast<Request&>(t);
}

}  // namespace ubsim
