#include "ctx_cache_bridge.h"

#include <fmt/format.h>

#include "block_config.h"

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

CtxCacheBridge::CtxCacheBridge(sc_core::sc_module_name name, const Config& c, NodeId node, Stack stack,
                               uint32_t entries, uint32_t ways)
    : VerilatedBridge(name, c),
      node_(node),
      stack_(stack),
      entries_(entries),
      ways_(ways),
      memory_(stack, node, static_cast<uint32_t>(c.count(key::transport_mtu)), static_cast<uint32_t>(c.count(key::sack_window))) {
  // read after an edge (has_work, holdings): they must hold the new state
  // there, also where the edge leaves the input logic to the next settle
  static_assert(exact_after_edge<Vctx_cache>("busy") && exact_after_edge<Vctx_cache>("mshr_used"),
                "a port this bridge reads after an edge is left to the next settle: make it a register's");
}

void CtxCacheBridge::configure() { ubsim::configure(model(), entries_, ways_); }

void CtxCacheBridge::drive_idle() {
  m_->s_valid = 0;
  m_->s_fill_valid = 0;
  m_->s_rel_valid = 0;
  m_->m_ready = 1;
  m_->m_refill_ready = 1;
}

void CtxCacheBridge::lookup(const Request& r, GrantSink* client, uint64_t at_fs) {
  lookups_.push(at_fs, {static_cast<uint32_t>(r.id), context_keys(stack_, node_, r), client});
  wake(at_fs);
}

void CtxCacheBridge::release(const CtxGrant& g, uint64_t at_fs) {
  // (behind a deferred release, deferred too: they stay in order)
  const bool defer = may_defer();
  if (defer || !deferred_releases_.empty()) {
    if (!defer) wake(at_fs);   // the cache has other work: woken as for a live input
    deferred_releases_.push(at_fs, g);
    return;
  }
  releases_.push(at_fs, g);
  wake(at_fs);
}

void CtxCacheBridge::take_deferred() {
  releases_.push(deferred_releases_.front_time(), deferred_releases_.front());
  deferred_releases_.pop();
}

void CtxCacheBridge::accept(Transaction& t) {
  Request& r = as_request(t);
  if (r.verb == Verb::Write) {   // a write-back reached memory
    ++writebacks_done_;
    refill_pool_.release(&r);
    return;
  }
  const uint64_t took = now_fs() - r.issued_fs;
  refill_fs_sum_ += took;
  refill_max_fs_ = std::max(refill_max_fs_, took);
  fills_.push(now_fs(), r.ctx);
  // the record's words go to the data array in the cycle the tag turns valid
  auto key = refill_key_.find(r.ctx);
  sc_assert(key != refill_key_.end() && "a refill came back for a slot with no refill");
  if (data_array_) data_array_->fill(r.ctx, memory_.read(key->second), now_fs());
  refill_key_.erase(key);
  refill_pool_.release(&r);
  wake(now_fs());
}

RtlBridge::Steps CtxCacheBridge::step_edges(StepLimit& lim, uint64_t now) {
  return step_edges_as(lim, now, [this] { return CtxCacheBridge::has_work(); },
                       [this](uint64_t k, uint64_t& w) { return CtxCacheBridge::step_block(k, w); });
}

bool CtxCacheBridge::step_block(uint64_t k, uint64_t& wake) {
  const uint64_t e = edge_fs(k);
  Edge x;   // (a local: the stores to the model's byte-wide ports cannot alias it)
  static_cast<VerilatedBlock<Vctx_cache>&>(block()).edge(k, period_fs_, [&] { drive_edge(x, e); },
                                                         [&] { sample_edge(x); });
  wake = 0;   // (no timed state: it changes only with an input)
  return apply_edge(x, e);
}

void CtxCacheBridge::drive_edge(Edge& x, uint64_t e) {
  // (every field of the edge apply reads is written here or in sample, or
  // read only where it was written: not cleared as a whole every cycle)
  auto& m = *m_;
  x.head = lookups_.offered(e);
  x.fill = fills_.offered(e);
  x.rel = releases_.offered(e);
  m.s_valid = x.head != nullptr;
  if (x.head) {
    m.s_id = x.head->id;
    m.s_keys = x.head->keys.n == 2 ? 3 : 1;
    m.s_key0 = x.head->keys.key[0];
    m.s_key1 = x.head->keys.key[1];
  }
  m.s_fill_valid = x.fill != nullptr;
  m.s_fill_slot = x.fill ? *x.fill : 0;
  m.s_rel_valid = x.rel != nullptr;
  if (x.rel) {
    m.s_rel_keys = x.rel->n == 2 ? 3 : 1;
    m.s_rel_slot0 = x.rel->entry[0];
    m.s_rel_slot1 = x.rel->entry[1];
  }
}

void CtxCacheBridge::sample_edge(Edge& x) {
  const auto& m = *m_;
  x.lk_fire = m.lk_fire;
  x.resp = m.m_valid;
  if (x.resp) {
    x.resp_id = m.m_id;
    x.resp_entry[0] = m.m_entry0;
    x.resp_entry[1] = m.m_entry1;
  }
  x.refills = m.m_refill_valid;
  x.evicts = x.lk_fire ? m.lk_evict : 0;
  if (x.refills || x.evicts) {   // (an eviction's write-back names the refill's slot)
    x.refill_slot[0] = m.m_refill_slot0;
    x.refill_slot[1] = m.m_refill_slot1;
    x.refill_key[0] = m.m_refill_key0;
    x.refill_key[1] = m.m_refill_key1;
    x.evict_key[0] = m.lk_evict_key0;
    x.evict_key[1] = m.lk_evict_key1;
  }
  if (x.head && !x.lk_fire) ++lookup_stall_cycles_;
  lookup_ready_ = m.s_ready;
}

void CtxCacheBridge::write_back(uint32_t key, uint32_t slot, uint64_t e) {
  if (!data_array_ || !memory_.holds_psn(key) || !data_array_->entry_dirty(slot)) return;
  memory_.write_back_psn(key, data_array_->entry_psn(slot));
  ++writebacks_;
  if (writeback_route_.hops.empty()) return;
  Request* r = refill_pool_.acquire();
  r->reset(&writeback_route_);
  r->id = next_refill_id_++;
  r->verb = Verb::Write;
  r->ctx = slot;
  r->payload_bytes = static_cast<uint32_t>(memory_.record_bits(key) / 8);
  r->issued_fs = e;
  hand_off(e, *r, Handoff::Launch);
}

bool CtxCacheBridge::apply_edge(const Edge& x, uint64_t e) {
  if (x.fill) fills_.pop();
  if (x.rel) {
    releases_.pop();
    ++releases_taken_;
  }
  if (x.lk_fire) {
    responses_due_.push_back(*x.head);
    lookups_.pop();
  }
  if (x.resp) {
    const Lookup& l = responses_due_.front();
    sc_assert(!responses_due_.empty() && l.id == x.resp_id && "ctx_cache answered out of lookup order");
    CtxGrant g;
    g.id = x.resp_id;
    g.n = l.keys.n;
    g.entry[0] = x.resp_entry[0];
    g.entry[1] = x.resp_entry[1];
    g.data_entry = x.resp_entry[l.keys.data];
    g.data_key = l.keys.key[l.keys.data];
    l.client->grant(g, e);
    responses_due_.pop_front();
  }
  // refills first: a posted write-back queues behind the reads it shares hops with
  if (!x.refills && !x.evicts) return x.resp;
  for (int i = 0; i < 2; ++i) {
    if (!(x.refills & (1u << i))) continue;
    refill_key_[x.refill_slot[i]] = x.refill_key[i];
    Request* r = refill_pool_.acquire();
    r->reset(&refill_route_);
    r->id = next_refill_id_++;
    r->verb = Verb::Read;
    r->ctx = x.refill_slot[i];
    r->payload_bytes = static_cast<uint32_t>(memory_.record_bits(x.refill_key[i]) / 8);
    r->issued_fs = e;
    hand_off(e, *r, Handoff::Launch);
  }
  for (int i = 0; i < 2; ++i)
    if (x.evicts & (1u << i)) write_back(x.evict_key[i], x.refill_slot[i], e);
  return x.resp || x.refills != 0;
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
  table.add(n, "writebacks", static_cast<double>(writebacks_), "records",
            "evicted records whose next PSN the send pipeline had advanced, written back to memory");
  table.add(n, "writebacks_done", static_cast<double>(writebacks_done_), "records",
            "write-backs that reached memory over the write-back route");
  table.add(n, "releases", static_cast<double>(releases_taken_), "requests",
            "pipelines done with a response's records (pins released)");
  table.add(n, "hit_rate", keys > 0 ? static_cast<double>(c.hits) / keys : 0.0, "fraction", "hits / records looked up");
  table.add(n, "refill_mean_ns", c.fills ? static_cast<double>(c.refill_fs_sum) / static_cast<double>(c.fills) / 1e6 : 0.0,
            "ns", "refill request to fill, through the node's memory path (measured)");
  table.add(n, "refill_max_ns", static_cast<double>(refill_max_fs_) / 1e6, "ns", "longest refill");
  table.add(n, "lookup_stall_cycles", static_cast<double>(lookup_stall_cycles_), "cycles",
            "cycles a lookup was refused (reorder buffer, MSHRs, all victims pending or pinned)");
  collect_clock_stats(table);
}

void CtxCacheBridge::holdings(std::vector<Holding>& out) const {
  if (m_->mshr_used > 0)
    out.push_back({fmt::format("{} miss register(s) (MSHRs)", static_cast<unsigned>(m_->mshr_used)),
                   fmt::format("their records from context memory ({} refill(s) outstanding)", refill_key_.size())});
  if (!lookups_.empty())
    out.push_back({"", fmt::format("its lookup port: {} lookup(s) queued, s_ready {} in its last stepped cycle",
                                   lookups_.size(), lookup_ready_ ? 1 : 0)});
  if (!responses_due_.empty())
    out.push_back({fmt::format("{} lookup(s) taken, not yet answered", responses_due_.size()), "its pipeline"});
}

}  // namespace ubsim
