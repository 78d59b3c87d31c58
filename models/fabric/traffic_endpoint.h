// TrafficEndpoint: a node that sends and receives flows of frames, for runs
// where the controller's own limits must not bind. Each flow it sends is
// `bytes` in packets of at most transport.mtu payload plus
// transport.header_bytes, released at the flow's rate from its start
// (packet k when the k packets before it have had their time at that
// rate) into the node's link queue; it counts what it sends, and what
// arrives for it (per flow: packets, bytes, first and last arrival).
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "fabric_link.h"
#include "frame.h"

namespace ubsim {

struct FlowRecord {
  // what to send
  uint32_t src = 0, dst = 0, entropy = 0;
  uint64_t bytes = 0;
  double rate_Bps = 0;
  uint64_t start_fs = 0;
  // what happened
  uint64_t packets = 0;                 // it leaves as
  uint64_t sent = 0, delivered = 0, delivered_bytes = 0, dropped = 0;
  uint64_t first_sent_fs = 0, first_arrival_fs = 0, last_arrival_fs = 0;
};

class TrafficEndpoint : public sc_core::sc_module, public FrameIn {
 public:
  sc_core::sc_export<FrameIn> in;

  TrafficEndpoint(sc_core::sc_module_name name, int self, uint32_t mtu, uint32_t header_bytes, FramePool& pool,
                  std::vector<FlowRecord>& flows);
  void attach(FabricLink* egress) { egress_ = egress; }
  void add_flow(uint32_t flow);   // before the run
  void put(Frame& f, int port) override;
  uint64_t received() const { return received_; }
  // Sends a frame now (one that carries a stage transaction).
  void inject(Frame& f) { egress_->send(f); }
  // Where frames that carry a transaction go when they arrive (it recycles them).
  std::function<void(Frame&)> on_carrier;
  // The reaction point (set before the run): a flow's frames go to `gate`
  // instead of the link (it sends them on, paced), and a notification for
  // one of this node's flows goes to `on_cnp`.
  std::function<void(Frame&)> gate;
  std::function<void(uint32_t flow)> on_cnp;
  uint64_t cnps_sent() const { return cnps_sent_; }
  uint64_t cnps_received() const { return cnps_received_; }
  static constexpr uint32_t kCnpBytes = 64;

 private:
  void emit();
  void start_of_simulation() override;
  uint64_t release_fs(const FlowRecord& r, uint64_t k) const;

  const int self_;
  const uint32_t mtu_, header_;
  FramePool& pool_;
  std::vector<FlowRecord>& flows_;
  FabricLink* egress_ = nullptr;
  // (release time, flow) of each flow's next packet, earliest first
  std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>,
                      std::greater<std::pair<uint64_t, uint32_t>>>
      next_;
  sc_core::sc_event wake_;
  uint64_t received_ = 0, cnps_sent_ = 0, cnps_received_ = 0;
};

}  // namespace ubsim
