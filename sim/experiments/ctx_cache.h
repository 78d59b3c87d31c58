// The context-cache experiment (spec §6): 64 B reads with all-to-all traffic
// among N local and N remote endpoints, per path and N, on the two-node
// model whose controllers hold their contexts in the ctx_cache RTL. Each
// point reports the derived state bytes and entries needed beside the
// measured hit rate, refills per read and latency; the extra latency over
// N = 1 is shown beside the derived refill cost of the path (one refill per
// end through the node's memory path).
#pragma once
#include <string>
#include <vector>

#include "config.h"
#include "json_value.h"

namespace ubsim {

// Byte model of the state a scheme keeps for N local reaching M remote
// endpoints (derived from the record sizes).
struct StateBytes {
  double pair = 0;   // S_pair = qp * N * M + segment * N
  double ub = 0;     // S_UB = (jetty + segment) * N + tp_channel * M
};
StateBytes state_bytes(const Config& cfg, double n, double m);
// Smallest N (= M) whose state exceeds `bytes`, searched up to `limit`
// (0 if none).
uint64_t byte_overflow_n(const Config& cfg, bool pair, double bytes, uint64_t limit = 1u << 20);

struct CtxCachePoint {
  std::string path, stack;
  uint64_t endpoints = 0;
  double state_bytes = 0;          // derived, the path's scheme
  uint64_t entries_needed = 0;     // derived, per end
  uint64_t entries = 0;            // cache entries (per end)
  uint64_t warmup_ops = 0, ops = 0;
  bool warmup_capped = false;
  // measured over the window (both ends' caches)
  double hit_rate = 0, refills_per_op = 0, merges_per_op = 0, evictions_per_op = 0;
  double refill_mean_ns = 0;       // one refill through the memory path
  double mean_ns = 0, p99_ns = 0;
  double refill_wait_ns = 0;       // itemized: waiting at ctx_gate, per read
  double derived_refill_ns = 0;    // derived cost of one read's refills (one per end)
};

// One point (call in a child process: one SystemC elaboration).
CtxCachePoint run_ctx_cache_point(const Config& cfg, const std::string& path, uint64_t endpoints);
// Every path x N, each point in its own child process: the result rows
// (ctx_cache_row), with extra_ns over the smallest N of each path.
std::vector<json::Value> run_ctx_cache(const Config& cfg, const std::vector<std::string>& paths,
                                       const std::vector<uint64_t>& endpoints);

json::Value ctx_cache_row(const CtxCachePoint& p);
// The byte model: S_pair and S_UB at N = M = 1024 and their ratio, and the
// overflow points of a cache of cache.bytes (derived, no simulation).
json::Value ctx_cache_bytes_row(const Config& cfg);
// S_pair and S_UB at N = M = n (derived), for the state curve.
json::Value ctx_cache_bytes_row_n(const Config& cfg, uint64_t n);

}  // namespace ubsim
