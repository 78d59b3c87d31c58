// ContextClient: a pipeline's side of its node's context cache. Every
// request's records are looked up the moment it reaches the pipeline, but
// at most `grant_fifo` lookups are out at once (the bus interface's grant
// FIFO: a lookup is issued with a free entry, returned when the gate takes
// the grant; the waits are counted). Grants arrive in request order and are
// offered to the RTL's gate at the first edge after they arrive; a taken
// grant's records stay pinned until the holder releases them (its last
// packet left, or it was rejected).
//
// Why the FIFO bound: without it, requests queued in front of a busy
// pipeline would pin records up to the cache's pin maximum, and a lookup
// waiting for that pin would hold the cache's input against the receive
// pipeline's lookups whose completions would free it (a deadlock).
#pragma once
#include <cstdint>
#include <deque>

#include "context_ports.h"
#include "id_map.h"
#include "timed_queue.h"

namespace ubsim {

class ContextClient {
 public:
  explicit ContextClient(uint32_t grant_fifo) : grant_fifo_(grant_fifo) {}
  void attach(ContextCacheService* cache, GrantSink* sink) {
    cache_ = cache;
    sink_ = sink;
  }
  bool attached() const { return cache_ != nullptr; }
  ContextCacheService* cache() const { return cache_; }

  // r reached the pipeline at at_fs: its lookup, then or when a FIFO entry frees.
  void request(const Request& r, uint64_t at_fs) {
    if (!backlog_.empty() || out_ >= grant_fifo_) ++credit_waits_;
    backlog_.push_back(&r);
    issue(at_fs);
  }
  void granted(const CtxGrant& g, uint64_t at_fs) { grants_.push(at_fs, g); }
  bool grants_pending() const { return !grants_.empty(); }
  // The grant the gate is offered at edge e (null: none).
  const CtxGrant* offered(uint64_t e) { return grants_.offered(e); }
  // The gate took the offered grant: its records are pinned, its FIFO
  // entry is free for the next lookup. True if a lookup waits for it: the
  // pipeline issues it (issue()) at that edge's own time, since a lookup
  // reaches the cache when it is issued (the edge may be stepped ahead of
  // the kernel's time).
  bool taken() {
    pinned_.emplace(grants_.front().id, grants_.front());
    grants_.pop();
    --out_;
    return !backlog_.empty();
  }
  // The lookups waiting for a FIFO entry, as far as entries are free (at at_fs).
  void issue(uint64_t at_fs) {
    while (!backlog_.empty() && out_ < grant_fifo_) {
      ++out_;
      cache_->lookup(*backlog_.front(), sink_, at_fs);
      backlog_.pop_front();
    }
  }
  // The grant of request id, taken and not yet released (null: none).
  const CtxGrant* pinned(uint32_t id) const { return pinned_.find(id); }
  void release(uint32_t id, uint64_t at_fs) {
    const CtxGrant* g = pinned_.find(id);
    if (!g) return;
    cache_->release(*g, at_fs);
    pinned_.erase(id);
  }
  uint64_t credit_waits() const { return credit_waits_; }
  size_t pinned_count() const { return pinned_.size(); }

 private:
  const uint32_t grant_fifo_;
  ContextCacheService* cache_ = nullptr;
  GrantSink* sink_ = nullptr;
  uint32_t out_ = 0;                       // issued, grant not yet taken by the gate
  std::deque<const Request*> backlog_;     // waiting for a FIFO entry
  TimedQueue<CtxGrant> grants_;
  IdMap<CtxGrant> pinned_;
  uint64_t credit_waits_ = 0;
};

}  // namespace ubsim
