#include "ctx_cache_bridge.h"

#include "block_config.h"
#include "pipeline_bridge.h"

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

CtxKeys context_keys(Stack stack, NodeId node, const Request& r) {
  const bool at_initiator = node == NodeId::A;
  const uint32_t local = at_initiator ? r.local_ep : r.remote_ep;
  const uint32_t peer = at_initiator ? r.remote_ep : r.local_ep;
  CtxKeys k;
  if (stack == Stack::Roce) {
    k.n = 1;
    k.key[0] = ctx_key::qp(local, peer);
  } else if (r.current().op == Op::UbLoadTx || r.current().op == Op::UbLoadRx) {
    k.n = 1;
    k.key[0] = ctx_key::tp_channel(peer);
  } else {
    k.n = 2;
    k.key[0] = ctx_key::jetty(local);
    k.key[1] = ctx_key::tp_channel(peer);
  }
  return k;
}

CtxCacheBridge::CtxCacheBridge(sc_core::sc_module_name name, const Config& c, NodeId node, Stack stack,
                               uint32_t entries, uint32_t ways)
    : VerilatedBridge(name, c), node_(node), stack_(stack), entries_(entries), ways_(ways), refill_out_("refill_out") {
  SC_HAS_PROCESS(CtxCacheBridge);
  SC_METHOD(launch_refills);
  sensitive << refill_out_.get_event();
  dont_initialize();
  reset_block();
}

void CtxCacheBridge::configure() { ubsim::configure(*m_, entries_, ways_); }

void CtxCacheBridge::drive_idle() {
  m_->s_valid = 0;
  m_->s_fill_valid = 0;
  m_->m_ready = 1;
  m_->m_refill_ready = 1;
}

void CtxCacheBridge::lookup(const Request& r, PipelineBridge* client) {
  lookups_.push_back({now_fs(), static_cast<uint32_t>(r.id), context_keys(stack_, node_, r), client});
  wake(now_fs());
}

void CtxCacheBridge::accept(Transaction& t) {
  Request& r = as_request(t);
  const uint64_t took = now_fs() - r.issued_fs;
  refill_fs_sum_ += took;
  refill_max_fs_ = std::max(refill_max_fs_, took);
  fills_.push_back({now_fs(), r.ctx});
  refill_pool_.release(&r);
  wake(now_fs());
}

void CtxCacheBridge::drive(uint64_t e) {
  edge_ = Edge{};
  edge_.head = !lookups_.empty() && lookups_.front().arrive_fs < e ? &lookups_.front() : nullptr;
  edge_.fill = !fills_.empty() && fills_.front().arrive_fs < e ? &fills_.front() : nullptr;
  m_->s_valid = edge_.head != nullptr;
  if (edge_.head) {
    m_->s_id = edge_.head->id;
    m_->s_keys = edge_.head->keys.n == 2 ? 3 : 1;
    m_->s_key0 = edge_.head->keys.key[0];
    m_->s_key1 = edge_.head->keys.key[1];
  }
  m_->s_fill_valid = edge_.fill != nullptr;
  m_->s_fill_slot = edge_.fill ? edge_.fill->slot : 0;
}

void CtxCacheBridge::sample(uint64_t) {
  edge_.lk_fire = m_->lk_fire;
  edge_.resp = m_->m_valid;
  edge_.resp_id = m_->m_id;
  edge_.refills = m_->m_refill_valid;
  edge_.refill_slot[0] = m_->m_refill_slot0;
  edge_.refill_slot[1] = m_->m_refill_slot1;
  if (edge_.head && !edge_.lk_fire) ++lookup_stall_cycles_;
}

bool CtxCacheBridge::apply(uint64_t e) {
  const Edge& x = edge_;
  if (x.fill) fills_.pop_front();
  if (x.lk_fire) {
    responses_due_.push_back(*x.head);
    lookups_.pop_front();
  }
  if (x.resp) {
    sc_assert(!responses_due_.empty() && responses_due_.front().id == x.resp_id &&
              "ctx_cache answered out of lookup order");
    responses_due_.front().client->grant(x.resp_id, e);
    responses_due_.pop_front();
  }
  for (int i = 0; i < 2; ++i) {
    if (!(x.refills & (1u << i))) continue;
    Request* r = refill_pool_.acquire();
    r->reset(&refill_route_);
    r->id = next_refill_id_++;
    r->ctx = x.refill_slot[i];
    r->issued_fs = e;
    refill_out_.notify(*r, fs_from_now(e));
  }
  return x.resp || x.refills != 0;
}

void CtxCacheBridge::launch_refills() {
  while (Transaction* t = refill_out_.get_next_transaction()) launch(*t);
}

CacheCounters CtxCacheBridge::counters() const {
  return {m_->cnt_lookups, m_->cnt_hits, m_->cnt_misses, m_->cnt_merges,
          m_->cnt_evictions, m_->cnt_fills, refill_fs_sum_};
}

void CtxCacheBridge::collect_stats(StatsTable& table) const {
  const std::string n = name();
  const CacheCounters c = counters();
  const double keys = static_cast<double>(c.hits + c.misses + c.merges);
  table.add(n, "entries", static_cast<double>(entries_), "entries", "entries in use (runtime)");
  table.add(n, "ways", static_cast<double>(ways_), "ways", "associativity (0 = fully associative)");
  table.add(n, "lookups", static_cast<double>(c.lookups), "lookups", "lookups taken (one per pipeline traversal)");
  table.add(n, "hits", static_cast<double>(c.hits), "records", "records found on chip");
  table.add(n, "misses", static_cast<double>(c.misses), "records", "records refilled (a refill each)");
  table.add(n, "merges", static_cast<double>(c.merges), "records", "records found with their refill in flight");
  table.add(n, "evictions", static_cast<double>(c.evictions), "records", "valid records replaced");
  table.add(n, "fills", static_cast<double>(c.fills), "records", "refills returned");
  table.add(n, "hit_rate", keys > 0 ? static_cast<double>(c.hits) / keys : 0.0, "fraction", "hits / records looked up");
  table.add(n, "refill_mean_ns", c.fills ? static_cast<double>(c.refill_fs_sum) / static_cast<double>(c.fills) / 1e6 : 0.0,
            "ns", "refill request to fill, through the node's memory path (measured)");
  table.add(n, "refill_max_ns", static_cast<double>(refill_max_fs_) / 1e6, "ns", "longest refill");
  table.add(n, "lookup_stall_cycles", static_cast<double>(lookup_stall_cycles_), "cycles",
            "cycles a lookup was refused (reorder buffer, MSHRs or all victims pending)");
  collect_clock_stats(table);
}

}  // namespace ubsim
