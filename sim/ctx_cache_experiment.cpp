#include "ctx_cache_experiment.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "json.h"
#include "latency_experiment.h"
#include "subprocess.h"

namespace ubsim {

StateBytes state_bytes(const Config& cfg, double n, double m) {
  StateBytes s;
  s.pair = cfg.value("record.qp_context") * n * m + cfg.value("record.segment") * n;
  s.ub = (cfg.value("record.jetty") + cfg.value("record.segment")) * n + cfg.value("record.tp_channel") * m;
  return s;
}

uint64_t byte_overflow_n(const Config& cfg, bool pair, double bytes, uint64_t limit) {
  for (uint64_t n = 1; n <= limit; ++n) {
    const StateBytes s = state_bytes(cfg, static_cast<double>(n), static_cast<double>(n));
    if ((pair ? s.pair : s.ub) > bytes) return n;
  }
  return 0;
}

namespace {

bool is_roce(const std::string& path) { return path == "pcie-nic"; }

// Records one end holds for all-to-all among N local and N remote endpoints.
uint64_t entries_needed(const std::string& path, uint64_t n) {
  if (is_roce(path)) return n * n;         // a QP context per (local, remote) pair
  if (path == "ub-load") return n;          // a TP channel per peer
  return 2 * n;                             // a Jetty per endpoint + a TP channel per peer
}

// One pass that touches every context of both ends in the all-to-all order.
uint64_t pass_ops(const std::string& path, uint64_t n) { return is_roce(path) ? n * n : n; }

}  // namespace

CtxCachePoint run_ctx_cache_point(const Config& base, const std::string& path, uint64_t n) {
  Config cfg = base;
  const uint64_t ops = static_cast<uint64_t>(cfg.value("ctx_cache.ops"));
  const uint64_t cap = static_cast<uint64_t>(cfg.value("ctx_cache.max_warmup"));
  const uint64_t warmup = std::min(pass_ops(path, n), cap);
  cfg.apply_set(fmt::format("workload.endpoints={}", n));
  cfg.apply_set(fmt::format("workload.warmup={}", warmup));
  cfg.apply_set(fmt::format("workload.ops={}", warmup + ops));
  cfg.apply_set("workload.outstanding=1");
  cfg.apply_set("workload.rate=0ops/s");
  cfg.apply_set("cache.enabled=true");
  LatencyOptions o;
  o.path = path;
  const LatencyResult r = run_latency(cfg, o);

  CtxCachePoint p;
  p.path = path;
  p.stack = is_roce(path) ? "roce" : "ub";
  p.endpoints = n;
  const StateBytes sb = state_bytes(cfg, static_cast<double>(n), static_cast<double>(n));
  p.state_bytes = is_roce(path) ? sb.pair : sb.ub;
  p.entries_needed = entries_needed(path, n);
  p.entries = static_cast<uint64_t>(cfg.value(is_roce(path) ? "cache.roce_entries" : "cache.ub_entries"));
  p.warmup_ops = warmup;
  p.warmup_capped = warmup < pass_ops(path, n);
  p.ops = r.ops - warmup;
  // the caches of this path's stack, both ends
  CacheCounters c;
  const std::string suffix = is_roce(path) ? "_nic_cache" : "_ub_cache";
  for (const auto& [name, cc] : r.cache_window) {
    if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    c.lookups += cc.lookups; c.hits += cc.hits; c.misses += cc.misses; c.merges += cc.merges;
    c.evictions += cc.evictions; c.fills += cc.fills; c.refill_fs_sum += cc.refill_fs_sum;
  }
  const double records = static_cast<double>(c.hits + c.misses + c.merges);
  const double nops = static_cast<double>(p.ops);
  p.hit_rate = records > 0 ? static_cast<double>(c.hits) / records : 0;
  p.refills_per_op = static_cast<double>(c.misses) / nops;
  p.merges_per_op = static_cast<double>(c.merges) / nops;
  p.evictions_per_op = static_cast<double>(c.evictions) / nops;
  p.refill_mean_ns = c.fills ? static_cast<double>(c.refill_fs_sum) / static_cast<double>(c.fills) / 1e6 : 0;
  p.mean_ns = r.mean_ns;
  p.p99_ns = r.p99_ns;
  for (const auto& [cause, ns] : r.effects)
    if (cause == "context-cache refill") p.refill_wait_ns = ns;
  p.derived_refill_ns = is_roce(path) ? 2 * cfg.value("pcie.dma_read") / 1e6
                                      : 2 * (cfg.value("bus.traversal") + cfg.value("dram.row_miss")) / 1e6;
  return p;
}

std::vector<CtxCachePoint> run_ctx_cache(const Config& cfg, const std::vector<std::string>& paths,
                                         const std::vector<uint64_t>& endpoints) {
  std::vector<CtxCachePoint> out;
  for (const auto& path : paths) {
    const size_t first = out.size();
    for (uint64_t n : endpoints) {
      const ChildResult c = run_in_child([&] {
        const CtxCachePoint p = run_ctx_cache_point(cfg, path, n);
        return fmt::format("{} {} {} {} {} {} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}",
                           p.entries_needed, p.entries, p.warmup_ops, p.ops, p.warmup_capped ? 1 : 0,
                           static_cast<uint64_t>(p.state_bytes), p.hit_rate, p.refills_per_op, p.merges_per_op,
                           p.evictions_per_op, p.refill_mean_ns, p.mean_ns, p.p99_ns, p.refill_wait_ns,
                           p.derived_refill_ns);
      });
      if (c.exit_code != 0) throw std::runtime_error(c.output);
      CtxCachePoint p;
      p.path = path;
      p.stack = is_roce(path) ? "roce" : "ub";
      p.endpoints = n;
      std::istringstream in(c.output);
      int capped = 0;
      uint64_t bytes = 0;
      in >> p.entries_needed >> p.entries >> p.warmup_ops >> p.ops >> capped >> bytes >> p.hit_rate >>
          p.refills_per_op >> p.merges_per_op >> p.evictions_per_op >> p.refill_mean_ns >> p.mean_ns >> p.p99_ns >>
          p.refill_wait_ns >> p.derived_refill_ns;
      p.warmup_capped = capped != 0;
      p.state_bytes = static_cast<double>(bytes);
      out.push_back(p);
    }
    // extra latency over the smallest N of this path (both measured)
    const auto base = std::min_element(out.begin() + static_cast<long>(first), out.end(),
                                       [](const auto& a, const auto& b) { return a.endpoints < b.endpoints; });
    const double base_mean = base->mean_ns;
    for (size_t i = first; i < out.size(); ++i) out[i].extra_ns = out[i].mean_ns - base_mean;
  }
  return out;
}

std::string ctx_cache_json(const CtxCachePoint& p) {
  return json::object({{"stack", json::str(p.stack)},
                       {"path", json::str(p.path)},
                       {"endpoints", json::num(static_cast<double>(p.endpoints))},
                       {"state_bytes", json::num(p.state_bytes)},
                       {"entries_needed", json::num(static_cast<double>(p.entries_needed))},
                       {"cache_entries", json::num(static_cast<double>(p.entries))},
                       {"hit_rate", json::num(p.hit_rate)},
                       {"refills_per_op", json::num(p.refills_per_op)},
                       {"merges_per_op", json::num(p.merges_per_op)},
                       {"evictions_per_op", json::num(p.evictions_per_op)},
                       {"refill_mean_ns", json::num(p.refill_mean_ns)},
                       {"latency_ns", json::object({{"mean", json::num(p.mean_ns)}, {"p99", json::num(p.p99_ns)}})},
                       {"refill_wait_ns", json::num(p.refill_wait_ns)},
                       {"extra_ns", json::num(p.extra_ns)},
                       {"derived_refill_ns", json::num(p.derived_refill_ns)},
                       {"warmup_ops", json::num(static_cast<double>(p.warmup_ops))},
                       {"warmup_capped", p.warmup_capped ? "true" : "false"},
                       {"ops", json::num(static_cast<double>(p.ops))}});
}

namespace {
std::string human_bytes(double b) {
  if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.2f} GiB", b / (1024.0 * 1024 * 1024));
  if (b >= 1024.0 * 1024) return fmt::format("{:.2f} MiB", b / (1024.0 * 1024));
  if (b >= 1024.0) return fmt::format("{:.1f} KiB", b / 1024.0);
  return fmt::format("{:.0f} B", b);
}
}  // namespace

std::string ctx_cache_table(const Config& cfg, const std::vector<CtxCachePoint>& pts) {
  std::string out;
  std::string path;
  for (const auto& p : pts) {
    if (p.path != path) {
      path = p.path;
      out += fmt::format(
          "\n{} ({} stack) — 64 B reads, all-to-all among N local and N remote endpoints; cache {} entries per end, "
          "{}\n",
          p.path, p.stack, p.entries,
          cfg.value(p.stack == "roce" ? "cache.roce_ways" : "cache.ub_ways") == 0
              ? std::string("fully associative, true LRU")
              : fmt::format("{}-way", cfg.value(p.stack == "roce" ? "cache.roce_ways" : "cache.ub_ways")));
      out += fmt::format("  {:>5} {:>12} {:>9} {:>8} {:>9} {:>10} {:>9} {:>9} {:>9} {:>10}\n", "N", "state",
                         "entries", "hit", "refills", "refill ns", "mean ns", "p99 ns", "+ns vs", "derived");
      out += fmt::format("  {:>5} {:>12} {:>9} {:>8} {:>9} {:>10} {:>9} {:>9} {:>9} {:>10}\n", "", "(derived)",
                         "needed", "rate", "per read", "(meas.)", "", "", "smallest N", "refill ns");
    }
    out += fmt::format("  {:>5} {:>12} {:>9} {:>7.2f}% {:>9.3f} {:>10.2f} {:>9.2f} {:>9.2f} {:>+9.2f} {:>10.2f}{}\n",
                       p.endpoints, human_bytes(p.state_bytes), p.entries_needed, 100 * p.hit_rate,
                       p.refills_per_op, p.refill_mean_ns, p.mean_ns, p.p99_ns, p.extra_ns, p.derived_refill_ns,
                       p.warmup_capped ? "  (warm-up capped)" : "");
  }
  out += "  derived refill ns: one refill per end through the path's memory path (2 x pcie.dma_read, or\n"
         "  2 x (bus.traversal + dram.row_miss)); +ns and refill ns are measured.\n";
  return out;
}

std::string ctx_cache_csv(const Config& cfg, const std::vector<CtxCachePoint>& pts,
                          const std::vector<uint64_t>& byte_model_endpoints) {
  std::string out =
      "stack,path,endpoints,state_bytes,entries_needed,cache_entries,hit_rate,refills_per_op,merges_per_op,"
      "evictions_per_op,refill_mean_ns,mean_ns,p99_ns,refill_wait_ns,extra_ns,derived_refill_ns,"
      "pair_state_bytes,ub_state_bytes,cache_bytes,roce_cache_bytes,ub_cache_bytes,warmup_capped,"
      "pair_overflow_n,ub_overflow_n,ub_entries_at_roce_bytes\n";
  // the byte columns (derived) let the plot draw both schemes and the capacity lines
  const double roce_bytes = cfg.value("cache.roce_entries") * cfg.value("record.qp_context");
  const double ub_bytes = cfg.value("cache.ub_entries") * cfg.value("record.tp_channel");
  const std::string overflow = fmt::format(
      "{},{},{:.0f}", byte_overflow_n(cfg, true, cfg.value("cache.bytes")),
      byte_overflow_n(cfg, false, cfg.value("cache.bytes")), std::floor(roce_bytes / cfg.value("record.tp_channel")));
  for (const auto& p : pts) {
    const StateBytes sb = state_bytes(cfg, static_cast<double>(p.endpoints), static_cast<double>(p.endpoints));
    out += fmt::format(
        "{},{},{},{:.0f},{},{},{:.6f},{:.6f},{:.6f},{:.6f},{:.4f},{:.4f},{:.4f},{:.4f},{:.4f},{:.4f},{:.0f},{:.0f},{:.0f},"
        "{:.0f},{:.0f},{},{}\n",
        p.stack, p.path, p.endpoints, p.state_bytes, p.entries_needed, p.entries, p.hit_rate, p.refills_per_op,
        p.merges_per_op, p.evictions_per_op, p.refill_mean_ns, p.mean_ns, p.p99_ns, p.refill_wait_ns, p.extra_ns,
        p.derived_refill_ns, sb.pair, sb.ub, cfg.value("cache.bytes"), roce_bytes, ub_bytes, p.warmup_capped ? 1 : 0, overflow);
  }
  if (pts.empty())   // --bytes: the byte model alone, one row per N
    for (uint64_t n : byte_model_endpoints) {
      const StateBytes sb = state_bytes(cfg, static_cast<double>(n), static_cast<double>(n));
      out += fmt::format("-,byte-model,{},,,,,,,,,,,,,,{:.0f},{:.0f},{:.0f},{:.0f},{:.0f},,{}\n", n, sb.pair, sb.ub,
                         cfg.value("cache.bytes"), roce_bytes, ub_bytes, overflow);
    }
  return out;
}

std::string ctx_cache_bytes_table(const Config& cfg, const std::vector<uint64_t>& endpoints) {
  const double budget = cfg.value("cache.bytes");
  const StateBytes k = state_bytes(cfg, 1024, 1024);
  std::string out = fmt::format(
      "\nstate bytes (derived from the record sizes: Jetty {:.0f} B, segment {:.0f} B, TP channel {:.0f} B, QP "
      "context {:.0f} B), N local reaching M = N remote endpoints\n",
      cfg.value("record.jetty"), cfg.value("record.segment"), cfg.value("record.tp_channel"),
      cfg.value("record.qp_context"));
  out += fmt::format("  {:>5} {:>14} {:>12} {:>10}\n", "N", "S_pair", "S_UB", "ratio");
  for (uint64_t n : endpoints) {
    const StateBytes s = state_bytes(cfg, static_cast<double>(n), static_cast<double>(n));
    out += fmt::format("  {:>5} {:>14} {:>12} {:>9.0f}x\n", n, human_bytes(s.pair), human_bytes(s.ub),
                       s.pair / s.ub);
  }
  out += fmt::format("  N = M = 1024: S_pair {} vs S_UB {} ({:.0f}x)\n", human_bytes(k.pair), human_bytes(k.ub),
                     k.pair / k.ub);
  out += fmt::format("  a {} on-chip cache (cache.bytes) overflows at N >= {} (pair) and N >= {} (UB)\n",
                     human_bytes(budget), byte_overflow_n(cfg, true, budget), byte_overflow_n(cfg, false, budget));
  const double ub_entries = cfg.value("cache.ub_entries"), roce_entries = cfg.value("cache.roce_entries");
  const double tp = cfg.value("record.tp_channel"), qp = cfg.value("record.qp_context");
  out += fmt::format(
      "  entry caches: RoCE {:.0f} x {:.0f} B = {}; UB {:.0f} x {:.0f} B = {} (at the RoCE cache's bytes UB would "
      "hold {:.0f} entries)\n",
      roce_entries, qp, human_bytes(roce_entries * qp), ub_entries, tp, human_bytes(ub_entries * tp),
      std::floor(roce_entries * qp / tp));
  return out;
}

std::string ctx_cache_bytes_json(const Config& cfg) {
  const double budget = cfg.value("cache.bytes");
  const StateBytes k = state_bytes(cfg, 1024, 1024);
  return json::object({{"scenario", json::str("byte-model")},
                       {"pair_bytes_1024", json::num(k.pair)},
                       {"ub_bytes_1024", json::num(k.ub)},
                       {"ratio_1024", json::num(k.pair / k.ub)},
                       {"cache_bytes", json::num(budget)},
                       {"pair_overflow_n", json::num(static_cast<double>(byte_overflow_n(cfg, true, budget)))},
                       {"ub_overflow_n", json::num(static_cast<double>(byte_overflow_n(cfg, false, budget)))},
                       {"ub_entries_at_roce_bytes",
                        json::num(std::floor(cfg.value("cache.roce_entries") * cfg.value("record.qp_context") /
                                             cfg.value("record.tp_channel")))}});
}

}  // namespace ubsim
