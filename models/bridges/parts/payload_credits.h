// PayloadCredits: the send engine's payload buffers. A packet whose payload
// did not come with its message is fetched over the node's fetch route (the
// controller over the bus from DRAM, the NIC by a PCIe DMA read), at most
// PAYLOAD_BUFFERS at once, for the message the RTL's segmenter names as
// waiting (data_wait); each fetched payload is handed to the RTL as a
// credit (one per edge). A buffer is free again when its packet leaves.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>

#include "request.h"
#include "segmenter.h"

namespace ubsim {

class PayloadCredits {
 public:
  PayloadCredits(uint32_t buffers, Segmenter& seg) : buffers_(buffers), seg_(seg) {}
  void set_route(Route r) { route_ = std::move(r); }
  Route& route() { return route_; }

  // The segmenter names message `id` as waiting for payload.
  void waiting(uint32_t id) {
    waiting_ = true;
    wait_id_ = id;
  }
  bool is_waiting() const { return waiting_; }
  uint32_t wait_id() const { return wait_id_; }
  // A fetched payload of the waiting message can be handed over.
  bool credit_due() const {
    if (!waiting_) return false;
    auto it = payloads_.find(wait_id_);
    return it != payloads_.end() && it->second > 0;
  }
  void credited(uint32_t id) {
    --payloads_[id];
    ++credits_;
  }
  // Fetches the payloads of message m's next packets, as many as buffers
  // are free, starting at edge e; launch(f) hands each fetch on. Whether it
  // started one.
  template <class Launch>
  bool fetch(Request& m, uint64_t e, const std::string& who, Launch&& launch) {
    bool started = false;
    while (m.fetch_next < m.pkts && in_use_ < buffers_) {
      if (route_.hops.empty())
        throw std::logic_error(who + ": a packet's payload must be fetched but no fetch route is set");
      Request* f = seg_.pool().acquire();
      f->reset(&route_);
      f->id = next_packet_id();
      f->verb = m.verb;
      f->size = m.size;
      f->parent = &m;
      f->home = &seg_.pool();
      f->pkt = m.fetch_next++;
      f->payload_bytes = packet_payload(m.size, seg_.mtu(), f->pkt);
      f->issued_fs = e;
      ++in_use_;
      ++fetches_;
      launch(*f);
      started = true;
    }
    return started;
  }
  // A fetch came back with its payload.
  void fetched(Request& f) {
    ++payloads_[static_cast<uint32_t>(f.parent->id)];
    f.home->release(&f);
  }
  // A packet is being sent from its buffer.
  void buffer_sent() { --in_use_; }
  // Message id's last packet left.
  void done(uint32_t id) {
    payloads_.erase(id);
    if (waiting_ && wait_id_ == id) waiting_ = false;
  }
  uint64_t fetches() const { return fetches_; }
  uint64_t credits() const { return credits_; }

 private:
  const uint32_t buffers_;
  Segmenter& seg_;
  Route route_;
  uint32_t in_use_ = 0;   // fetching, full, or credited and not yet sent
  std::unordered_map<uint32_t, uint32_t> payloads_;   // fetched, not yet credited, by message id
  bool waiting_ = false;
  uint32_t wait_id_ = 0;
  uint64_t fetches_ = 0, credits_ = 0;
};

}  // namespace ubsim
