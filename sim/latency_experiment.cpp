#include "latency_experiment.h"

#include <sys/resource.h>

#include <chrono>
#include <fstream>

#include <fmt/format.h>

#include "json.h"
#include "system.h"

namespace ubsim {

using sc_core::SC_FS;

WorkloadConfig workload_from(const Config& cfg) {
  WorkloadConfig w;
  w.ops = static_cast<uint64_t>(cfg.value("workload.ops"));
  w.outstanding = static_cast<int>(cfg.value("workload.outstanding"));
  w.payload_bytes = static_cast<uint32_t>(cfg.value("workload.payload"));
  w.rate_per_s = cfg.value("workload.rate");
  w.poisson = cfg.value("workload.poisson") != 0;
  w.warmup_ops = static_cast<uint64_t>(cfg.value("workload.warmup"));
  w.seed = static_cast<uint64_t>(cfg.value("seed"));
  w.endpoints = static_cast<uint32_t>(cfg.value("workload.endpoints"));
  return w;
}

namespace {

class TimelineWriter {
 public:
  TimelineWriter(const std::string& path, uint64_t max_ops) : out_(path), max_ops_(max_ops) {
    if (!out_) throw std::runtime_error("cannot write timeline file " + path);
    out_ << "{\"traceEvents\": [\n";
  }
  ~TimelineWriter() { out_ << "\n], \"displayTimeUnit\": \"ns\"}\n"; }
  void add(const Request& r) {
    if (r.id >= max_ops_) return;
    for (size_t i = 0; i < r.times.size(); ++i) {
      const HopTimes& t = r.times[i];
      const HopSpec& h = r.route->hops[i];
      out_ << (first_ ? "" : ",\n")
           << fmt::format("{{\"name\": {}, \"cat\": {}, \"ph\": \"X\", \"pid\": 1, \"tid\": {}, "
                          "\"ts\": {:.6f}, \"dur\": {:.6f}}}",
                          json::str(h.label), json::str(op_info(h.op).category), r.id,
                          static_cast<double>(t.arrive_fs) / 1e9,
                          static_cast<double>(t.depart_fs - t.arrive_fs) / 1e9);
      first_ = false;
    }
  }

 private:
  std::ofstream out_;
  uint64_t max_ops_;
  bool first_ = true;
};

}  // namespace

LatencyResult run_latency(const Config& cfg, const LatencyOptions& o) {
  sc_core::sc_set_time_resolution(1, SC_FS);   // before any sc_time exists (toolchain note 6)
  cfg.validate();
  const ModelParams p = cfg.model_params();
  WorkloadConfig w = workload_from(cfg);
  w.verb = o.verb;
  const std::string verb = o.verb == Verb::Read ? "read" : "write";
  // The system lives until the process exits: each simulation runs in its own
  // child process, and tearing down verilated models after SystemC has run
  // gains nothing (Verilator 5.006 can deadlock in ~VerilatedScope there).
  auto& sys = *new TwoNodeSystem("sys", p, cfg.route(o.path, verb), w);
  std::unique_ptr<TimelineWriter> timeline;
  if (!o.timeline_path.empty())
    timeline = std::make_unique<TimelineWriter>(o.timeline_path, o.timeline_ops);
  // Cache counters at the end of the warm-up, so the window's are a difference.
  std::vector<CacheCounters> at_warmup;
  for (CtxCacheBridge* c : sys.caches()) at_warmup.push_back(c->counters());
  sys.app().on_complete = [&](const Request& r) {
    if (timeline) timeline->add(r);
    if (sys.app().completed() == w.warmup_ops) {
      at_warmup.clear();
      for (CtxCacheBridge* c : sys.caches()) at_warmup.push_back(c->counters());
    }
  };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  if (!o.trace_prefix.empty()) sys.open_traces(o.trace_prefix);
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const auto t1 = std::chrono::steady_clock::now();
  sys.close_traces();
  if (sys.app().completed() != w.ops)
    throw std::runtime_error(fmt::format("simulation ended with {} of {} requests completed",
                                         sys.app().completed(), w.ops));

  LatencyResult r;
  r.path = o.path;
  r.verb = verb;
  r.ops = w.ops;
  r.outstanding = w.outstanding;
  r.clock_mhz = p.clock_hz / 1e6;
  r.wall_s = std::chrono::duration<double>(t1 - t0).count();
  r.sim_time_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  const LatencyRecord& rec = sys.app().record();
  const double n = static_cast<double>(rec.measured_ops);
  const double cycle_ns = 1e9 / p.clock_hz;
  double align = 0, ser = 0, queue = 0, hazard = 0, ctx_wait = 0;
  for (size_t i = 0; i < sys.route().hops.size(); ++i) {
    const HopSpec& h = sys.route().hops[i];
    const OpInfo& info = op_info(h.op);
    const HopSums& s = rec.hops[i];
    StageResult st;
    st.stage = h.label;
    st.category = info.category;
    st.rtl = info.in_cycles;
    st.derived_ns = info.in_cycles ? p.stage_value.at(info.param_key) * cycle_ns
                                   : p.stage_value.at(info.param_key) / 1e6;
    st.measured_ns = static_cast<double>(s.measured / n) / 1e6;
    st.align_ns = static_cast<double>(s.align / n) / 1e6;
    st.serialize_ns = static_cast<double>(s.serialize / n) / 1e6;
    st.queue_ns = static_cast<double>(s.queue / n) / 1e6;
    // Inside an RTL pipeline, time beyond its configured depth is a structural
    // hazard stall (e.g. two requests contending for the TP-context port).
    // Measured against the configured cycles on the simulated clock grid (an
    // integer number of fs per cycle), so it is exactly 0 without a stall.
    // The cycles the RTL reports waiting at its context gate are a refill,
    // itemized on their own.
    st.ctx_wait_ns = static_cast<double>(s.ctx_wait / n) / 1e6;
    if (st.rtl)
      st.hazard_ns = static_cast<double>(s.service / n) / 1e6 - st.ctx_wait_ns -
                     p.stage_value.at(info.param_key) * static_cast<double>(p.clock_period_fs) / 1e6;
    align += st.align_ns;
    hazard += st.hazard_ns;
    ctx_wait += st.ctx_wait_ns;
    ser += st.serialize_ns;
    queue += st.queue_ns;
    if (st.rtl) ++r.rtl_entries;
    r.derived_total_ns += st.derived_ns;
    r.stages.push_back(st);
  }
  r.mean_ns = rec.total.mean_ns();
  r.p50_ns = rec.total.quantile_ns(0.50);
  r.p99_ns = rec.total.quantile_ns(0.99);
  r.max_ns = rec.total.max_ns();
  r.min_ns = rec.total.min_ns();
  const double backlog = static_cast<double>(rec.backlog_fs / n) / 1e6;
  r.effects = {{"clock-edge alignment", align}, {"wire serialization", ser}, {"queueing", queue},
               {"pipeline hazard stall", hazard}, {"context-cache refill", ctx_wait},
               {"send-queue backlog", backlog}};
  r.unexplained_ns = r.mean_ns - r.derived_total_ns - align - ser - queue - hazard - ctx_wait - backlog;
  r.offered_per_us = w.rate_per_s / 1e6;
  const uint64_t window = rec.window_end_fs - rec.window_start_fs;
  r.achieved_per_us = window ? static_cast<double>(rec.window_ops) / (static_cast<double>(window) / 1e9) : 0;
  r.stats = sys.stats();
  const auto caches = sys.caches();
  for (size_t i = 0; i < caches.size(); ++i)
    r.cache_window.emplace_back(caches[i]->basename(), caches[i]->counters() - at_warmup[i]);
  for (ClockedComponent* b : sys.bridges()) r.cycles_evaluated += static_cast<double>(b->cycles_evaluated());
  r.cycles_total = r.sim_time_ns / cycle_ns;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  r.peak_rss_kib = ru.ru_maxrss;
  return r;
}

std::string latency_json(const LatencyResult& r, double reference_ns) {
  std::vector<std::string> stages, effects;
  for (const auto& s : r.stages)
    stages.push_back(json::object({{"stage", json::str(s.stage)},
                                   {"category", json::str(s.category)},
                                   {"derived_ns", json::num(s.derived_ns)},
                                   {"measured_ns", json::num(s.measured_ns)},
                                   {"alignment_ns", json::num(s.align_ns)},
                                   {"serialization_ns", json::num(s.serialize_ns)},
                                   {"queueing_ns", json::num(s.queue_ns)},
                                   {"hazard_stall_ns", json::num(s.hazard_ns)},
                                   {"ctx_refill_ns", json::num(s.ctx_wait_ns)}}));
  for (const auto& [cause, ns] : r.effects)
    effects.push_back(json::object({{"cause", json::str(cause)}, {"ns", json::num(ns)}}));
  std::vector<std::string> stats;
  for (const auto& row : r.stats.rows)
    stats.push_back(json::object({{"component", json::str(row.component)}, {"name", json::str(row.name)},
                                  {"value", json::num(row.value)}, {"unit", json::str(row.unit)}}));
  return json::object({
      {"path", json::str(r.path)},
      {"verb", json::str(r.verb)},
      {"ops", json::num(static_cast<double>(r.ops))},
      {"outstanding", json::num(r.outstanding)},
      {"stages", json::array(stages)},
      {"derived_total_ns", json::num(r.derived_total_ns)},
      {"measured_total_ns", json::object({{"mean", json::num(r.mean_ns)}, {"p50", json::num(r.p50_ns)},
                                          {"p99", json::num(r.p99_ns)}, {"max", json::num(r.max_ns)},
                                          {"min", json::num(r.min_ns)}})},
      {"effects", json::array(effects)},
      {"unexplained_ns", json::num(r.unexplained_ns)},
      {"offered_per_us", json::num(r.offered_per_us)},
      {"achieved_per_us", json::num(r.achieved_per_us)},
      {"reference_ns", reference_ns > 0 ? json::num(reference_ns) : "null"},
      {"sim", json::object({{"wall_s", json::num(r.wall_s)},
                            {"ops_per_s", json::num(static_cast<double>(r.ops) / r.wall_s)},
                            {"rtl_cycles_evaluated", json::num(r.cycles_evaluated)},
                            {"peak_rss_kib", json::num(static_cast<double>(r.peak_rss_kib))}})},
      {"stats", json::array(stats)},
  });
}

std::string latency_table(const LatencyResult& r, double reference_ns) {
  std::string out = fmt::format("\n{} — 64 B remote {}, {} ops, {} outstanding, clock {:.6g} MHz\n", r.path,
                                r.verb, r.ops, r.outstanding, r.clock_mhz);
  out += fmt::format("  {:<38} {:<11} {:>11} {:>12} {:>9}\n", "stage", "category", "derived ns", "measured ns",
                     "diff ns");
  for (const auto& s : r.stages)
    out += fmt::format("  {:<38} {:<11} {:>11.2f} {:>12.2f} {:>+9.2f}\n", s.stage, s.category, s.derived_ns,
                       s.measured_ns, s.measured_ns - s.derived_ns);
  out += fmt::format("  {:<38} {:<11} {:>11.2f} {:>12.2f} {:>+9.2f}\n", "total", "", r.derived_total_ns, r.mean_ns,
                     r.mean_ns - r.derived_total_ns);
  out += fmt::format("  measured total: mean {:.2f}  p50 {:.2f}  p99 {:.2f}  max {:.2f} ns", r.mean_ns, r.p50_ns,
                     r.p99_ns, r.max_ns);
  if (reference_ns > 0) out += fmt::format("   (published cycle-level simulator: {:.0f} ns)", reference_ns);
  out += fmt::format("\n  measured - derived = {:+.2f} ns =", r.mean_ns - r.derived_total_ns);
  for (const auto& [cause, ns] : r.effects) out += fmt::format(" {} {:+.2f},", cause, ns);
  out += fmt::format(" unexplained {:+.4f}\n", r.unexplained_ns);
  out += fmt::format("  ({} RTL entries: alignment bound {:.2f} ns = one cycle each)\n", r.rtl_entries,
                     r.rtl_entries * 1e3 / r.clock_mhz);
  return out;
}

std::string latency_csv(const LatencyResult& r, bool header) {
  std::string out;
  if (header)
    out += "path,verb,stage,category,derived_ns,measured_ns,alignment_ns,serialization_ns,queueing_ns,hazard_stall_ns,ctx_refill_ns\n";
  for (const auto& s : r.stages)
    out += fmt::format("{},{},\"{}\",{},{:.4f},{:.4f},{:.4f},{:.4f},{:.4f},{:.4f},{:.4f}\n", r.path, r.verb,
                       s.stage, s.category, s.derived_ns, s.measured_ns, s.align_ns, s.serialize_ns, s.queue_ns,
                       s.hazard_ns, s.ctx_wait_ns);
  out += fmt::format("{},{},\"total\",,{:.4f},{:.4f},,,,,\n", r.path, r.verb, r.derived_total_ns, r.mean_ns);
  return out;
}

std::string stats_table_text(const StatsTable& t) {
  std::string out = fmt::format("  {:<18} {:<18} {:>14} {:<10}\n", "component", "statistic", "value", "unit");
  for (const auto& row : t.rows)
    out += fmt::format("  {:<18} {:<18} {:>14.6g} {:<10}\n", row.component, row.name, row.value, row.unit);
  return out;
}

}  // namespace ubsim
