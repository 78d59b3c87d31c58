// FabricSwitch: forwards each frame, once it has arrived whole, to the
// output queue of a port towards its destination (Topology::next_ports:
// the ports on a shortest path). Among several (an ECMP group) it picks by
// fabric.ecmp: `hash`, the keyed hash of the frame's header fields with
// fabric.hash_seed (every packet of a flow takes the same port); or
// `flow_rr`, each new flow the next port of the group in turn (the
// placement a central scheduler would make: no collision while flows <=
// ports). No forwarding latency beyond store and forward.
// Link-level pause (PausePolicy::enabled, PFC-like, one priority): the
// switch counts the bytes it holds per ingress port (arrived there, not yet
// serialized out); a port passing `xoff` sends a pause frame upstream on
// that port (next after the frame in serialization there), and one going
// back to `xon` or below sends a resume. With quanta the pause lasts that
// long unless refreshed: the switch sends it again every half quantum
// while the port stays above xon. Switch-wide (PausePolicy::switch_wide) the
// bytes held in all are compared instead, counted as they arrive (the
// buffer fills while a frame is received: each upstream link reports a data
// frame as it starts, `incoming`, and its bytes count from its first byte's
// arrival to its last's), so XOFF is decided the instant the bytes held
// pass it, not a whole frame later. Passing xoff pauses every ingress port
// that holds or receives bytes (and any that starts receiving while the
// switch is paused); going back to xon resumes them all.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "fabric_link.h"
#include "frame.h"
#include "topology.h"

namespace ubsim {

enum class EcmpMode { Hash, FlowRoundRobin };

struct PausePolicy {
  bool enabled = false;
  uint64_t xoff = 0, xon = 0;      // bytes held per ingress port
  uint64_t quanta_fs = 0;          // 0: until resumed
  // false: xoff/xon count the bytes held per ingress port, each port pausing
  // its own upstream; true: the bytes held in all, and every ingress port
  // holding bytes is paused at once (a shared buffer's pause)
  bool switch_wide = false;
  uint32_t frame_bytes = 64;       // a pause frame on the wire
};

class FabricSwitch : public sc_core::sc_module, public FrameIn {
 public:
  sc_core::sc_export<FrameIn> in;

  FabricSwitch(sc_core::sc_module_name name, const Topology& topo, int self, EcmpMode mode, uint64_t seed,
               const PausePolicy& pause = {}, FramePool* pool = nullptr, uint64_t shared_buffer = 0);
  // A frame that entered here left (serialized out, or dropped by a full queue).
  void departed(const Frame& f);
  uint64_t xoffs_sent() const { return xoffs_; }
  uint64_t xons_sent() const { return xons_; }
  // Most bytes held at once for one ingress port, and for all of them.
  uint64_t ingress_peak(int port) const { return in_peak_[port]; }
  uint64_t ingress_bytes(int port) const { return in_bytes_[port]; }   // held now
  bool pausing(int port) const { return xoff_[port]; }                 // its upstream is paused
  uint64_t held_peak() const { return held_peak_; }
  uint64_t held() const { return held_; }
  uint64_t held_peak_fs() const { return held_peak_fs_; }
  uint64_t first_xoff_fs() const { return first_xoff_fs_; }        // 0: none
  uint64_t held_at_first_xoff() const { return held_at_first_xoff_; }
  void attach(int port, FabricLink* egress) { egress_[port] = egress; }
  void put(Frame& f, int port) override;
  // Switch-wide pause: a data frame of `bytes` started towards port `port`;
  // its first byte arrives at head_fs, its last at tail_fs (then put()).
  void incoming(int port, uint64_t bytes, uint64_t head_fs, uint64_t tail_fs);
  // fabric.ecmp = hash: the member of `group` a frame with these header
  // fields takes at switch `switch_id` under `seed` (what put() does).
  static int hash_choice(uint32_t src, uint32_t dst, uint32_t entropy, const std::vector<int>& group, uint64_t seed,
                         uint32_t switch_id);
  uint64_t forwarded() const { return forwarded_; }
  // Every pause frame it sent: when, on which port, XOFF or XON.
  struct PauseEvent {
    uint64_t fs;
    int port;
    bool xoff;
  };
  const std::vector<PauseEvent>& pause_events() const { return pause_events_; }

 private:
  int choose(const Frame& f, const std::vector<int>& group);
  void send_pause(int port, bool xoff);
  void refresh();
  void note_first_xoff(uint64_t held);
  // switch-wide: the bytes held at time t, frames being received counted
  // by the part of them arrived; the next time they pass xoff is predicted
  // after every change and checked then
  double held_at(uint64_t t) const;
  void predict_xoff();
  void check_xoff();
  void pause_all();
  // the frames of one instant, taken in port order (put -> arbitrate -> take)
  void arbitrate();
  void take(Frame& f, int port);
  struct Arrival {
    int port;
    size_t seq;
    Frame* frame;
  };
  std::vector<Arrival> arriving_;
  sc_core::sc_event arbitrate_event_;
  struct Ramp {
    uint64_t bytes, head_fs, tail_fs;
  };
  std::vector<std::deque<Ramp>> ramps_;   // per port, in arrival order
  sc_core::sc_event xoff_check_;
  bool paused_all_ = false;
  const Topology& topo_;
  const int self_;
  const EcmpMode mode_;
  const uint64_t seed_;
  std::vector<FabricLink*> egress_;
  std::unordered_map<uint64_t, int> flow_port_;   // flow_rr: (destination, flow) -> port
  std::map<std::vector<int>, uint32_t> next_in_group_;   // flow_rr: per group of ports, the next member
  uint64_t forwarded_ = 0;
  const PausePolicy pause_;
  FramePool* pool_;
  const uint64_t shared_buffer_;
  std::vector<uint64_t> in_bytes_, in_peak_;
  std::vector<bool> xoff_;
  std::vector<uint64_t> refresh_at_;   // quanta: when port p's pause is sent again (0: none)
  sc_core::sc_event refresh_event_;
  uint64_t xoffs_ = 0, xons_ = 0, held_ = 0, held_peak_ = 0, held_peak_fs_ = 0;
  uint64_t first_xoff_fs_ = 0, held_at_first_xoff_ = 0;
  std::vector<PauseEvent> pause_events_;
};

}  // namespace ubsim
