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
// while the port stays above xon.
#pragma once
#include <cstdint>
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
