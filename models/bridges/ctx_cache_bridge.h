// CtxCacheBridge: one node's context cache (verilated ctx_cache) for one
// stack, shared by that node's send and receive pipelines.
//
// A pipeline bridge hands every request to lookup() when it reaches the
// controller; the bridge presents its record keys to the RTL, passes the
// RTL's in-order responses back to that pipeline as grants, and serves each
// refill request the RTL issues through the node's modelled memory path
// (a refill route of TLM hops: PCIe DMA read for the peripheral NIC, on-chip
// bus + DRAM row miss for the bus-attached controller). The refill time is
// therefore whatever that path costs in the model, contention included.
#pragma once
#include <deque>
#include <memory>
#include <vector>

#include <tlm_utils/peq_with_get.h>

#include "pool.h"
#include "request.h"
#include "rtl_bridge.h"

#include "Vctx_cache.h"

namespace ubsim {

class PipelineBridge;

enum class Stack { Ub, Roce };

// Record keys (26 bits): a UB Jetty or TP-channel record by endpoint, or a
// RoCE QP context by (owner endpoint, peer endpoint), 12 bits each.
namespace ctx_key {
inline constexpr int kEndpointBits = 12;
inline constexpr uint32_t kMaxEndpoints = 1u << kEndpointBits;
inline constexpr uint32_t jetty(uint32_t ep) { return (1u << 24) | ep; }
inline constexpr uint32_t tp_channel(uint32_t peer) { return (2u << 24) | peer; }
inline constexpr uint32_t qp(uint32_t owner, uint32_t peer) { return (owner << kEndpointBits) | peer; }
}  // namespace ctx_key

struct CtxKeys {
  int n = 0;
  uint32_t key[2] = {0, 0};
};

// The records a request needs at one node: on the URMA async path the local
// endpoint's Jetty and the TP channel to the peer; on the Load/Store path
// the TP channel only; on RoCE the QP context of the (local, peer) pair.
CtxKeys context_keys(Stack stack, NodeId node, const Request& r);

struct CacheCounters {
  uint64_t lookups = 0, hits = 0, misses = 0, merges = 0, evictions = 0, fills = 0;
  uint64_t refill_fs_sum = 0;   // issue to return, summed over returned refills
  CacheCounters operator-(const CacheCounters& o) const {
    return {lookups - o.lookups, hits - o.hits, misses - o.misses, merges - o.merges,
            evictions - o.evictions, fills - o.fills, refill_fs_sum - o.refill_fs_sum};
  }
};

class CtxCacheBridge : public VerilatedBridge<Vctx_cache> {
 public:
  // entries / ways: the cache's runtime size (cache.ub_* or cache.roce_*).
  CtxCacheBridge(sc_core::sc_module_name name, const Config& c, NodeId node, Stack stack, uint32_t entries,
                 uint32_t ways);
  // The TLM hops a refill takes (component ids filled in; sink = this).
  void set_refill_route(Route route) { refill_route_ = std::move(route); }
  const Route& refill_route() const { return refill_route_; }
  // A pipeline asks for the records of r (at r's arrival at the pipeline).
  void lookup(const Request& r, PipelineBridge* client);
  CacheCounters counters() const;
  void collect_stats(StatsTable& table) const override;

 protected:
  void accept(Transaction& t) override;   // a refill came back
  bool has_work() const override { return !lookups_.empty() || !fills_.empty() || m_->busy; }
  void configure() override;
  void drive(uint64_t e) override;
  void sample(uint64_t e) override;
  bool apply(uint64_t e) override;
  void drive_idle() override;

 private:
  struct Lookup {
    uint64_t arrive_fs;
    uint32_t id;
    CtxKeys keys;
    PipelineBridge* client;
  };
  struct Fill {
    uint64_t arrive_fs;
    uint32_t slot;
  };
  void launch_refills();

  NodeId node_;
  Stack stack_;
  const uint32_t entries_, ways_;
  Route refill_route_;
  std::deque<Lookup> lookups_;           // waiting for the RTL to take them
  std::deque<Lookup> responses_due_;     // taken, answered in this order
  std::deque<Fill> fills_;
  Pool<Request> refill_pool_;
  tlm_utils::peq_with_get<Transaction> refill_out_;
  // this edge
  struct Edge {
    const Lookup* head = nullptr;
    const Fill* fill = nullptr;
    bool lk_fire = false, resp = false;
    uint32_t resp_id = 0;
    uint8_t refills = 0;
    uint32_t refill_slot[2] = {0, 0};
  } edge_;
  uint64_t refill_fs_sum_ = 0;
  uint64_t refill_max_fs_ = 0;
  uint64_t lookup_stall_cycles_ = 0;
  uint64_t next_refill_id_ = 0;
};

}  // namespace ubsim
