// Segmenter: a send pipeline's messages as packets, the TLM side of the
// RTL's tx_segmenter. A message enters as its packet 0; every later packet
// leaves as a child Request made when its first flit leaves (from a pool,
// numbered above every request id). How many packets a message has, and
// how many of them have their payload already (a read's first response
// packet was fetched by the stages before; a small write's payload is
// inline), is set when it enters.
#pragma once
#include <cstdint>

#include "packet.h"
#include "pool.h"
#include "request.h"

namespace ubsim {

// Later packets and payload fetches are numbered above every request id
// (the RTL's ids and the queues' tie-break need them unique).
uint64_t next_packet_id();

class Segmenter {
 public:
  // A write's payload up to this many bytes travels inline with its descriptor.
  static constexpr uint64_t kInlineBytes = 64;
  explicit Segmenter(uint64_t mtu) : mtu_(mtu) {}
  uint64_t mtu() const { return mtu_; }
  Pool<Request>& pool() { return pool_; }

  // Message r enters the pipeline.
  void start(Request& r) const {
    const bool carries = carries_payload(r);
    r.pkts = carries ? packets_of(r.size, mtu_) : 1;
    r.payload_bytes = carries ? packet_payload(r.size, mtu_, 0) : 0;
    r.data_pkts = !carries || r.current().node == NodeId::B || r.size <= kInlineBytes ? 1 : 0;
    r.fetch_next = r.data_pkts;
    r.send_hop = r.hop;
    r.seg_done = r.rx_done = 0;
    r.seg_waiting = false;
  }
  // Packet k (>= 1) of message m leaves.
  Request* packet(Request& m, uint32_t k);
  uint64_t later_packets() const { return later_packets_; }

 private:
  const uint64_t mtu_;
  Pool<Request> pool_;
  uint64_t later_packets_ = 0;
};

}  // namespace ubsim
