// FabricWire: the wire stages of a route (A:wire.request, B:wire.response)
// over a switched fabric instead of one link: each packet leaves its node
// as a frame on the node's link, crosses the switches (store and forward,
// output queues, ECMP among equal-cost ports by the hash of its source,
// destination and connection), and goes on in its route when it has
// arrived whole at the other node. Each session's route names its own
// pair of devices (add_session); the topology's other nodes are idle
// endpoints of the fabric. Itemized per packet: its queueing, its
// serialization on every link, and the propagation beyond the stage's
// configured wire.latency (the switch hops).
#pragma once
#include <memory>
#include <vector>

#include "component.h"
#include "config.h"
#include "fabric_network.h"
#include "fabric.h"
#include "packet.h"
#include "rate_limiter_bridge.h"

namespace ubsim {

class FabricWire : public StageComponent {
 public:
  FabricWire(sc_core::sc_module_name name, const Config& c, const Topology& t);
  // The packets of requests on `route` go between device a (node A of the
  // route) and device b (node B).
  void add_session(const Route* route, int a, int b) { sessions_.push_back({route, a, b}); }
  // With link-level pause (fabric.pause): what device d's send pipeline may
  // hand its link at an edge (its m_ready): the link's transmit FIFO holds
  // one packet behind the one in serialization, so the pipeline waits while
  // two are held, and a paused link (which starts none) stops it after
  // those. Null without pause: the link never refuses (its queue is the
  // node's backlog, as over one link).
  const TransmitPort* egress_gate(int d) const { return gates_.empty() ? nullptr : &gates_.at(d); }
  void collect_stats(StatsTable& table) const override;
  // Every link that holds frames and what it waits for (the network's
  // wait-for graph), a cycle of paused links first.
  void holdings(std::vector<Holding>& out) const override;
  const RateLimiterBridge* limiter(int d) const { return limiters_.empty() ? nullptr : limiters_.at(d).get(); }

 protected:
  void accept(Transaction& t) override;

 private:
  void arrived(Frame& f);
  // A node's link as its send pipeline sees it (egress_gate).
  struct Gate : TransmitPort {
    const FabricLink* link = nullptr;
    const RateLimiterBridge* limiter = nullptr;   // limiter.controllers: nothing waits in it
    static constexpr size_t kTxFifoFrames = 2;
    bool free_at_edge(uint64_t edge_fs, uint32_t) const override {
      return (!link || link->frames_held_before(edge_fs) < kTxFifoFrames) && (!limiter || limiter->backlog_before(edge_fs) == 0);
    }
  };
  std::vector<Gate> gates_;
  struct Session {
    const Route* route;
    int a, b;
  };
  std::vector<Session> sessions_;
  const uint32_t header_bytes_;
  const uint64_t stage_latency_fs_;
  std::unique_ptr<FabricNetwork> net_;
  // limiter.controllers: each controller node's rate limiter (by device)
  std::unique_ptr<StageFabric> limiter_sockets_;
  std::vector<std::unique_ptr<RateLimiterBridge>> limiters_;
  uint64_t packets_ = 0, bytes_ = 0;
};

}  // namespace ubsim
