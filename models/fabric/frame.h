// Frame: one packet crossing the switched fabric, with the header fields
// the switches read (source, destination, the flow's entropy field) and
// what the endpoints count. FrameIn is what a device offers its links: a
// frame whose last byte arrived on port `port`.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

namespace ubsim {

struct Frame {
  uint32_t src = 0, dst = 0;   // endpoint device indices (Topology::devices)
  uint32_t entropy = 0;        // the flow's header field that varies (its UDP source port)
  uint32_t flow = 0;           // its flow (FlowTable index)
  uint32_t seq = 0;            // packet k of the flow
  uint32_t bytes = 0;          // on the wire: header + payload
  uint32_t payload = 0;
  uint64_t sent_fs = 0;        // its first byte left the source
  // what it met on its way (each link adds its part)
  uint64_t enqueued_fs = 0;    // entered the current link's queue
  uint64_t queued_fs = 0;      // waited in output queues
  uint64_t serialized_fs = 0;  // was serialized
  uint64_t propagated_fs = 0;  // propagated
  void* carrier = nullptr;     // a stage transaction it carries (FabricWire), else null
  int in_port = -1;            // the switch port it entered on (the switch's ingress accounting)
  // A link-level pause frame (PFC-like; its receiver's link towards the
  // sender stops starting frames): XOFF for quanta_fs (0: until XON), or XON.
  bool control = false, xoff = false;
  uint64_t quanta_fs = 0;
  // ECN (spec 17): a switch queue marked it (congestion experienced); a
  // congestion notification (CNP) the receiver returns to the marked flow's
  // source, a frame of its own (flow: the data flow it answers).
  bool ecn = false, cnp = false;
};

// RED-like marking on a switch's output queue, as a frame leaves it: below
// kmin bytes never, at or above kmax always, between with probability
// pmax x (q - kmin) / (kmax - kmin).
struct EcnPolicy {
  bool enabled = false;
  uint64_t kmin = 0, kmax = 0;
  double pmax = 1;
  uint64_t seed = 0;
};

struct FrameIn : virtual sc_core::sc_interface {
  virtual void put(Frame& f, int port) = 0;
};

// Frames recycled instead of freed: a run allocates only its peak number.
class FramePool {
 public:
  Frame* acquire() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<Frame>());
      return all_.back().get();
    }
    Frame* f = free_.back();
    free_.pop_back();
    *f = Frame{};
    return f;
  }
  void release(Frame* f) { free_.push_back(f); }

 private:
  std::vector<std::unique_ptr<Frame>> all_;
  std::vector<Frame*> free_;
};

}  // namespace ubsim
