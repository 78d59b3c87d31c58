// CtxCacheBridge: one node's context cache (verilated ctx_cache) for one
// stack, shared by that node's send and receive pipelines.
//
// A pipeline bridge hands every request to lookup() when it reaches the
// controller; the bridge presents its record keys to the RTL, passes the
// RTL's in-order responses back to that pipeline as grants (with the
// entries of the records, which stay pinned until the pipeline releases
// them), and serves each refill request the RTL issues through the node's
// modelled memory path (a refill route of TLM hops: PCIe DMA read for the
// peripheral NIC, on-chip bus + DRAM row miss for the bus-attached
// controller). The refill time is therefore whatever that path costs in the
// model, contention included.
//
// The cache's data array is the send pipeline's context RAM: a returning
// refill carries the record (read from the node's ContextMemory) into it,
// at the entry the RTL chose, in the cycle the tag turns valid. Evicting a
// record whose PSN the pipeline advanced writes it back (a posted write
// over the write-back route).
#pragma once
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>


#include "context_memory.h"
#include "context_ports.h"
#include "pool.h"
#include "request.h"
#include "rtl_bridge.h"
#include "timed_queue.h"

#include "Vctx_cache.h"

namespace ubsim {

struct CacheCounters {
  uint64_t lookups = 0, hits = 0, misses = 0, merges = 0, evictions = 0, fills = 0;
  uint64_t refill_fs_sum = 0;   // issue to return, summed over returned refills
  CacheCounters operator-(const CacheCounters& o) const {
    return {lookups - o.lookups, hits - o.hits, misses - o.misses, merges - o.merges,
            evictions - o.evictions, fills - o.fills, refill_fs_sum - o.refill_fs_sum};
  }
};

class CtxCacheBridge : public VerilatedBridge<Vctx_cache>, public ContextCacheService {
 public:
  // entries / ways: the cache's runtime size (cache.ub_* or cache.roce_*).
  CtxCacheBridge(sc_core::sc_module_name name, const Config& c, NodeId node, Stack stack, uint32_t entries,
                 uint32_t ways);
  // The TLM hops a refill takes (component ids filled in; sink = this).
  void set_refill_route(Route route) { refill_route_ = std::move(route); }
  const Route& refill_route() const { return refill_route_; }
  // The TLM hops a dirty record's write-back takes (sink = this).
  void set_writeback_route(Route route) { writeback_route_ = std::move(route); }
  // The send pipeline whose context RAM is this cache's data array.
  void set_data_array(ContextDataArray* tx) { data_array_ = tx; }
  NodeId node() const override { return node_; }
  Stack stack() const override { return stack_; }
  // A pipeline asks for the records of r (at r's arrival at the pipeline).
  // (lookup and release flattened, as the hop hand-offs: once per read each)
  [[gnu::flatten]] void lookup(const Request& r, GrantSink* client, uint64_t at_fs) override;
  // A pipeline is done with the records of grant g (at at_fs >= now).
  [[gnu::flatten]] void release(const CtxGrant& g, uint64_t at_fs) override;
  CacheCounters counters() const;
  void collect_stats(StatsTable& table) const override;

 protected:
  void accept(Transaction& t) override;   // a refill (or a write-back) came back
  bool has_work() const override {
    return !lookups_.empty() || !fills_.empty() || !releases_.empty() || m_->busy;
  }
  void configure() override;
  // (flattened: drive, sample and apply inlined into the edge, not called
  // once each per edge)
  [[gnu::flatten]] bool step_block(uint64_t k, uint64_t& wake) override;
  [[gnu::flatten]] Steps step_edges(StepLimit& lim, uint64_t now) override;
  void drive(uint64_t e) override { drive_edge(edge_, e); }
  void sample(uint64_t) override { sample_edge(edge_); }
  bool apply(uint64_t e) override { return apply_edge(edge_, e); }
  void drive_idle() override;
  void holdings(std::vector<Holding>& out) const override;
  uint64_t deferred_edge() const override {
    return deferred_releases_.empty() ? 0 : sampling_edge(deferred_releases_.front_time());
  }
  void take_deferred() override;

 private:
  struct Lookup {
    uint32_t id;
    CtxKeys keys;
    GrantSink* client;
  };
  void write_back(uint32_t key, uint32_t slot, uint64_t e);

  NodeId node_;
  Stack stack_;
  const uint32_t entries_, ways_;
  Route refill_route_, writeback_route_;
  ContextDataArray* data_array_ = nullptr;
  ContextMemory memory_;
  TimedQueue<Lookup> lookups_;           // waiting for the RTL to take them
  std::deque<Lookup> responses_due_;     // taken, answered in this order
  TimedQueue<uint32_t> fills_;           // refilled slots (their record came back)
  TimedQueue<CtxGrant> releases_;        // grants whose records are no longer pinned
  // Releases while the cache sleeps with nothing else to do: a release only
  // unpins (the cache answers nothing for it), so it waits for the cache's
  // next activation instead of waking it (RtlBridge::may_defer).
  TimedQueue<CtxGrant> deferred_releases_;
  std::unordered_map<uint32_t, uint32_t> refill_key_;   // slot -> key being refilled into it
  Pool<Request> refill_pool_;
  // an edge: what is offered (drive) and what fires (sample)
  struct Edge {
    const Lookup* head = nullptr;
    const uint32_t* fill = nullptr;   // the refilled slot
    const CtxGrant* rel = nullptr;
    bool lk_fire = false, resp = false;
    uint32_t resp_id = 0, resp_entry[2] = {0, 0};
    uint8_t refills = 0, evicts = 0;
    uint32_t refill_slot[2] = {0, 0}, refill_key[2] = {0, 0}, evict_key[2] = {0, 0};
  };
  Edge edge_;   // the edge stepped through the hooks (step_block keeps its own)
  void drive_edge(Edge& x, uint64_t e);
  void sample_edge(Edge& x);
  bool apply_edge(const Edge& x, uint64_t e);
  uint64_t refill_fs_sum_ = 0;
  uint64_t refill_max_fs_ = 0;
  uint64_t lookup_stall_cycles_ = 0;
  bool lookup_ready_ = false;   // s_ready at the last edge (what a stuck run's report names)
  uint64_t next_refill_id_ = 0;
  uint64_t writebacks_ = 0, writebacks_done_ = 0, releases_taken_ = 0;
};

}  // namespace ubsim
