// A request travelling along its path, with the timestamps every component
// records when the request crosses its boundary.
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>

#include "stage.h"

namespace ubsim {

enum class Verb { Read, Write };

// Timestamps of one hop (fs since simulation start) and the cycle-level
// effects the owning component itemizes.
struct HopTimes {
  uint64_t arrive_fs = 0;   // request handed to the component
  uint64_t start_fs = 0;    // service began (RTL: input handshake edge)
  uint64_t depart_fs = 0;   // handed on (RTL: first flit out)
  uint64_t align_fs = 0;    // RTL: wait for the first clock edge after arrival
  uint64_t serialize_fs = 0;  // wire: first byte out to last byte out
  uint64_t ctx_wait_fs = 0;   // RTL: waiting at ctx_gate for context records (refill)
};

struct Route {
  std::vector<HopSpec> hops;
  std::vector<int> component;   // fabric id of the component that runs each hop
  int sink = -1;                // fabric id that receives the finished request
};

struct Request {
  uint64_t id = 0;
  Verb verb = Verb::Read;
  uint32_t payload_bytes = 64;
  uint32_t ctx = 0;             // TP channel (UB) or QP (RoCE) index; refills: cache slot
  uint32_t local_ep = 0;        // initiator endpoint (Jetty / QP owner) on node A
  uint32_t remote_ep = 0;       // target endpoint on node B
  // Ordering of the request in its Jetty / QP (spec 2): service mode 0 ROI,
  // 1 ROT, 2 ROL, 3 UNO; tag 0 NO, 1 RO, 2 SO; Fence; completion order.
  uint8_t ord_mode = 0, ord_tag = 0;
  bool fence = false, comp_order = false;
  int ord_slot = -1, ord_seq = -1;   // given by the order tracker (-1: not tracked)
  uint64_t ord_hold_fs = 0, ord_release_fs = 0;   // held by the order tracker (0: never)
  bool error = false;                // rejected with an error completion
  int error_code = 0;
  // Transport packets (loss experiments): a data packet (psn, msg id in
  // `id`) or an ack (cumulative ack, SACK bitmap words, duplicate flag).
  uint32_t psn = 0, ack_cum = 0, wire_bytes = 0;
  bool is_ack = false, ack_dup = false, retransmit = false, lost = false;
  std::vector<uint64_t> sack;
  const Route* route = nullptr;
  size_t hop = 0;
  uint64_t issued_fs = 0;
  uint64_t completed_fs = 0;
  std::vector<HopTimes> times;  // one per hop of the route
  tlm::tlm_generic_payload gp;  // carrier on the TLM fabric

  void reset(const Route* r) {
    route = r;
    hop = 0;
    ord_slot = ord_seq = -1;
    ord_hold_fs = ord_release_fs = 0;
    lost = false;
    sack.clear();
    error = false;
    error_code = 0;
    times.assign(r->hops.size(), HopTimes{});
  }
  const HopSpec& current() const { return route->hops[hop]; }
  HopTimes& now_times() { return times[hop]; }
};

// Bytes of the packet the current hop sends: header, plus the payload when
// it travels in this direction (requests leave node A, responses node B; a
// write carries its payload out, a read brings it back).
inline uint32_t packet_bytes(const Request& r, uint32_t header_bytes) {
  const bool request_direction = r.current().node == NodeId::A;
  const bool carries_payload = request_direction == (r.verb == Verb::Write);
  return header_bytes + (carries_payload ? r.payload_bytes : 0);
}

// TLM extension that carries the Request through generic payloads.
struct RequestExtension : tlm::tlm_extension<RequestExtension> {
  Request* request = nullptr;
  tlm_extension_base* clone() const override { auto* e = new RequestExtension; e->request = request; return e; }
  void copy_from(const tlm_extension_base& other) override {
    request = static_cast<const RequestExtension&>(other).request;
  }
};

inline uint64_t now_fs() {
  return static_cast<uint64_t>(sc_core::sc_time_stamp().value());  // resolution is 1 fs
}

}  // namespace ubsim
