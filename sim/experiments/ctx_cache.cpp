#include "ctx_cache.h"
#include "pipeline_limits.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "experiment.h"
#include "latency.h"

namespace ubsim {

StateBytes state_bytes(const Config& cfg, double n, double m) {
  StateBytes s;
  s.pair = cfg.value(key::record_qp_context) * n * m + cfg.value(key::record_segment) * n;
  s.ub = (cfg.value(key::record_jetty) + cfg.value(key::record_segment)) * n + cfg.value(key::record_tp_channel) * m;
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
  const uint64_t ops = static_cast<uint64_t>(cfg.value(key::ctx_cache_ops));
  const uint64_t cap = static_cast<uint64_t>(cfg.value(key::ctx_cache_max_warmup));
  const uint64_t warmup = std::min(pass_ops(path, n), cap);
  cfg.set_by_experiment(key::workload_endpoints, "ctx-cache", fmt::format("{}", n));
  cfg.set_by_experiment(key::workload_warmup, "ctx-cache", fmt::format("{}", warmup));
  cfg.set_by_experiment(key::workload_ops, "ctx-cache", fmt::format("{}", warmup + ops));
  cfg.set_by_experiment(key::workload_outstanding, "ctx-cache", "1");
  cfg.set_by_experiment(key::workload_rate, "ctx-cache", "0ops/s");
  cfg.set_by_experiment(key::cache_enabled, "ctx-cache", "true");
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
  p.entries = static_cast<uint64_t>(is_roce(path) ? cfg.value(key::cache_roce_entries) : cfg.value(key::cache_ub_entries));
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
  p.derived_refill_ns = is_roce(path) ? 2 * cfg.value(key::pcie_dma_read) / 1e6
                                      : 2 * (cfg.value(key::bus_traversal) + cfg.value(key::dram_row_miss)) / 1e6;
  return p;
}

std::vector<json::Value> run_ctx_cache(const Config& cfg, const std::vector<std::string>& paths,
                                       const std::vector<uint64_t>& endpoints) {
  std::vector<json::Value> out;
  for (const auto& path : paths) {
    std::vector<json::Value> rows;
    for (uint64_t n : endpoints)
      for (auto& row : rows_in_child([&] { return std::vector<json::Value>{ctx_cache_row(run_ctx_cache_point(cfg, path, n))}; }))
        rows.push_back(std::move(row));
    // extra latency over the smallest N of this path (both measured)
    const auto base = std::min_element(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
      return a.num("endpoints") < b.num("endpoints");
    });
    const double base_mean = base->num("latency_ns.mean");
    for (auto& row : rows) {
      for (auto& [k, v] : row.fields)
        if (k == "extra_ns") v = json::Value::number(row.num("latency_ns.mean") - base_mean);
      out.push_back(std::move(row));
    }
  }
  return out;
}

json::Value ctx_cache_row(const CtxCachePoint& p) {
  using V = json::Value;
  return V::object()
      .add("stack", V::string(p.stack))
      .add("path", V::string(p.path))
      .add("endpoints", V::number(static_cast<double>(p.endpoints)))
      .add("state_bytes", V::number(p.state_bytes))
      .add("entries_needed", V::number(static_cast<double>(p.entries_needed)))
      .add("cache_entries", V::number(static_cast<double>(p.entries)))
      .add("hit_rate", V::number(p.hit_rate))
      .add("refills_per_op", V::number(p.refills_per_op))
      .add("merges_per_op", V::number(p.merges_per_op))
      .add("evictions_per_op", V::number(p.evictions_per_op))
      .add("refill_mean_ns", V::number(p.refill_mean_ns))
      .add("latency_ns", V::object().add("mean", V::number(p.mean_ns)).add("p99", V::number(p.p99_ns)))
      .add("refill_wait_ns", V::number(p.refill_wait_ns))
      .add("extra_ns", V::number(0))   // set by run_ctx_cache
      .add("derived_refill_ns", V::number(p.derived_refill_ns))
      .add("warmup_ops", V::number(static_cast<double>(p.warmup_ops)))
      .add("warmup_capped", V::boolean(p.warmup_capped))
      .add("ops", V::number(static_cast<double>(p.ops)));
}

json::Value ctx_cache_bytes_row(const Config& cfg) {
  using V = json::Value;
  const double budget = cfg.value(key::cache_bytes);
  const StateBytes k = state_bytes(cfg, 1024, 1024);
  return V::object()
      .add("scenario", V::string("byte-model"))
      .add("pair_bytes_1024", V::number(k.pair))
      .add("ub_bytes_1024", V::number(k.ub))
      .add("ratio_1024", V::number(k.pair / k.ub))
      .add("cache_bytes", V::number(budget))
      .add("pair_overflow_n", V::number(static_cast<double>(byte_overflow_n(cfg, true, budget))))
      .add("ub_overflow_n", V::number(static_cast<double>(byte_overflow_n(cfg, false, budget))))
      .add("ub_entries_at_roce_bytes", V::number(std::floor(cfg.value(key::cache_roce_entries) *
                                                           cfg.value(key::record_qp_context) /
                                                           cfg.value(key::record_tp_channel))))
      .add("roce_cache_bytes", V::number(cfg.value(key::cache_roce_entries) * cfg.value(key::record_qp_context)))
      .add("ub_cache_bytes", V::number(cfg.value(key::cache_ub_entries) * cfg.value(key::record_tp_channel)));
}

json::Value ctx_cache_bytes_row_n(const Config& cfg, uint64_t n) {
  using V = json::Value;
  const StateBytes sb = state_bytes(cfg, static_cast<double>(n), static_cast<double>(n));
  return V::object()
      .add("scenario", V::string("byte-model-n"))
      .add("endpoints", V::number(static_cast<double>(n)))
      .add("pair_state_bytes", V::number(sb.pair))
      .add("ub_state_bytes", V::number(sb.ub));
}

namespace {

std::string human_bytes(double b) {
  if (b >= 1024.0 * 1024 * 1024) return fmt::format("{:.2f} GiB", b / (1024.0 * 1024 * 1024));
  if (b >= 1024.0 * 1024) return fmt::format("{:.2f} MiB", b / (1024.0 * 1024));
  if (b >= 1024.0) return fmt::format("{:.1f} KiB", b / 1024.0);
  return fmt::format("{:.0f} B", b);
}

ResultSet run(Config& cfg, const Options& o) {
  const auto ns = o.counts("--endpoints");
  if (ns.empty()) throw CliError("option --endpoints: empty list");
  const auto paths = select_paths("all", o.text("--stack"));
  validate_config(cfg);
  ResultSet rs;
  rs.rows.push_back(ctx_cache_bytes_row(cfg));
  for (uint64_t n : ns) rs.rows.push_back(ctx_cache_bytes_row_n(cfg, n));
  if (!o.flag("--bytes"))
    for (auto& row : run_ctx_cache(cfg, paths, ns)) rs.rows.push_back(std::move(row));
  const StateBytes k = state_bytes(cfg, 1024, 1024);
  rs.notes = fmt::format(
      "byte model (derived): N = M = 1024: S_pair {} vs S_UB {} ({:.0f}x); a {} cache (cache.bytes) overflows\n"
      "at N >= {} (pair) and N >= {} (UB). Entry caches: RoCE {:.0f} x {:.0f} B = {}; UB {:.0f} x {:.0f} B = {}.\n"
      "derived_refill_ns: one refill per end through the path's memory path; extra_ns and refill_mean_ns are measured.\n",
      human_bytes(k.pair), human_bytes(k.ub), k.pair / k.ub, human_bytes(cfg.value(key::cache_bytes)),
      byte_overflow_n(cfg, true, cfg.value(key::cache_bytes)), byte_overflow_n(cfg, false, cfg.value(key::cache_bytes)),
      cfg.value(key::cache_roce_entries), cfg.value(key::record_qp_context),
      human_bytes(cfg.value(key::cache_roce_entries) * cfg.value(key::record_qp_context)), cfg.value(key::cache_ub_entries),
      cfg.value(key::record_tp_channel), human_bytes(cfg.value(key::cache_ub_entries) * cfg.value(key::record_tp_channel)));
  return rs;
}

}  // namespace

const Experiment& ctx_cache_experiment() {
  static const Experiment e{
      "ctx-cache",
      "context-cache overflow (spec 6): all-to-all reads among N local and N remote endpoints",
      "Per N: state bytes and entries needed (derived), hit rate, refills per read, refill time and latency\n"
      "(measured) for the RoCE QP cache (pcie-nic) and the UB cache (ub-async, ub-load). One warm-up pass\n"
      "over every context (capped at ctx_cache.max_warmup), then ctx_cache.ops measured reads.\n"
      "Cache size and associativity: --set cache.ub_entries=4096 --set cache.ub_ways=8.",
      {opt_choice("--stack", {"ub", "roce", "both"}, "both", "ub (ub-async and ub-load), roce (pcie-nic) or both"),
       opt_counts("--endpoints", "LIST", 1, 4096, "1,2,4,8,16,22,23,24,32,64,128,256,512,1024,1025,2048,4096",
                  "N values"),
       opt_key("--ops", "N", "ctx_cache.ops", "measured reads per point after the warm-up"),
       opt_flag("--bytes", "the byte model only (derived S_pair, S_UB, overflow points of cache.bytes); no simulation")},
      {"scenario", "path", "endpoints"},
      {{"scenario", "", "byte-model: the derived summary; byte-model-n: S_pair and S_UB at N = M (derived)"},
       {"state_bytes", "B", "derived: the path's scheme's state for N = M"},
       {"entries_needed", "entries", "derived: records per end"},
       {"hit_rate", "", "measured: hits / records looked up (both ends)"},
       {"refills_per_op", "", "measured: refills per read (both ends)"},
       {"refill_mean_ns", "ns", "measured: refill request to fill through the memory path"},
       {"latency_ns", "ns", "measured read latency: mean, p99"},
       {"refill_wait_ns", "ns", "itemized wait at ctx_gate per read"},
       {"extra_ns", "ns", "measured: mean minus the mean at the smallest N of the run"},
       {"derived_refill_ns", "ns", "derived: one refill per end"},
       {"stack", "", "ub or roce: the context cache of the path's stack"},
       {"cache_entries", "entries", "the cache's entries (cache.ub_entries / cache.roce_entries)"},
       {"merges_per_op", "", "measured: lookups per read that joined a refill already in flight"},
       {"evictions_per_op", "", "measured: records evicted per read"},
       {"warmup_ops", "ops", "reads run before the measured ones (each record of the working set touched)"},
       {"warmup_capped", "", "the warm-up stopped at ctx_cache.max_warmup reads"},
       {"ops", "ops", "measured reads"},
       {"pair_bytes_1024", "B", "derived: per-pair (RoCE RC) state for N = M = 1024"},
       {"ub_bytes_1024", "B", "derived: UB (Jetty + TP channel) state for N = M = 1024"},
       {"ratio_1024", "", "derived: pair_bytes_1024 / ub_bytes_1024"},
       {"cache_bytes", "B", "the on-chip state budget (cache.bytes)"},
       {"pair_overflow_n", "endpoints", "derived: the smallest N = M whose per-pair state exceeds cache_bytes"},
       {"ub_overflow_n", "endpoints", "derived: the smallest N = M whose UB state exceeds cache_bytes"},
       {"ub_entries_at_roce_bytes", "entries", "derived: TP-channel records in the RoCE cache's bytes"},
       {"roce_cache_bytes", "B", "the RoCE cache's bytes: entries x QP-context record"},
       {"ub_cache_bytes", "B", "the UB cache's bytes: entries x TP-channel record"},
       {"pair_state_bytes", "B", "derived (byte-model-n): per-pair state at N = M = endpoints"},
       {"ub_state_bytes", "B", "derived (byte-model-n): UB state at N = M = endpoints"}},
      "ctx_cache",
      "plot_ctx_cache.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
