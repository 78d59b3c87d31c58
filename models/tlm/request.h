// Request: a remote read or write of the application along its path (or a
// context refill a cache sends over its node's memory path).
#pragma once
#include <cstdint>

#include "transaction.h"

namespace ubsim {

enum class Verb { Read, Write };

struct Request : Transaction {
  Request() : Transaction(Kind::Request) {}
  Verb verb = Verb::Read;
  uint32_t payload_bytes = 64;
  uint32_t ctx = 0;             // TP channel (UB) or QP (RoCE) index; refills: cache slot
  uint32_t local_ep = 0;        // initiator endpoint (Jetty / QP owner) on node A
  uint32_t remote_ep = 0;       // target endpoint on node B
  // Ordering of the request in its Jetty / QP (spec 2): service mode and
  // tag as ubsim::enc::MODE_* / TAG_*; Fence; completion order.
  uint8_t ord_mode = 0, ord_tag = 0;
  bool fence = false, comp_order = false;
  int ord_slot = -1, ord_seq = -1;   // given by the order tracker (-1: not tracked)
  uint64_t ord_hold_fs = 0, ord_release_fs = 0;   // held by the order tracker (0: never)
  bool error = false;                // rejected with an error completion
  int error_code = 0;                // ubsim::enc::ERR_*

  // Starts the route with the per-request state cleared.
  void reset(const Route* r) {
    start_route(r);
    ord_slot = ord_seq = -1;
    ord_hold_fs = ord_release_fs = 0;
    error = false;
    error_code = 0;
  }
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
