#include "load.h"
#include "pipeline_limits.h"

#include <stdexcept>

#include <fmt/format.h>

#include "experiment.h"
#include "latency.h"

namespace ubsim {

LoadPoint run_load_point(const Config& base, const std::string& path, double rate_per_s) {
  Config cfg = base;
  cfg.set_by_experiment(key::workload_rate, "load", fmt::format("{:.17g}ops/s", rate_per_s));
  LatencyOptions o;
  o.path = path;
  const LatencyResult r = run_latency(cfg, o);
  LoadPoint p;
  p.path = path;
  p.offered_per_us = r.offered_per_us;
  p.achieved_per_us = r.achieved_per_us;
  p.mean_ns = r.mean_ns;
  p.p50_ns = r.p50_ns;
  p.p99_ns = r.p99_ns;
  p.p999_ns = r.p999_ns;
  p.max_ns = r.max_ns;
  p.retransmitted_packets = static_cast<double>(r.retransmitted_packets);
  p.retransmitted_bytes = static_cast<double>(r.retransmitted_bytes);
  p.timeouts = static_cast<double>(r.timeouts);
  p.failed = static_cast<double>(r.failed);
  for (const StatRow& row : r.stats.rows) {
    if (row.name == "queue_mean" && row.value > p.bottleneck_queue) {
      p.bottleneck_queue = row.value;
      p.bottleneck = row.component;
    }
  }
  if (p.bottleneck.empty()) p.bottleneck = "-";
  return p;
}

json::Value load_row(const LoadPoint& p) {
  using V = json::Value;
  return V::object()
      .add("path", V::string(p.path))
      .add("offered_per_us", V::number(p.offered_per_us))
      .add("achieved_per_us", V::number(p.achieved_per_us))
      .add("latency_ns", V::object()
                             .add("mean", V::number(p.mean_ns))
                             .add("p50", V::number(p.p50_ns))
                             .add("p99", V::number(p.p99_ns))
                             .add("p999", V::number(p.p999_ns))
                             .add("max", V::number(p.max_ns)))
      .add("retransmitted_packets", V::number(p.retransmitted_packets))
      .add("retransmitted_bytes", V::number(p.retransmitted_bytes))
      .add("timeouts", V::number(p.timeouts))
      .add("failed", V::number(p.failed))
      .add("bottleneck", V::string(p.bottleneck))
      .add("bottleneck_queue_mean", V::number(p.bottleneck_queue));
}

namespace {
json::Value point_in_child(const Config& cfg, const std::string& path, double rate_per_s) {
  return rows_in_child([&] { return std::vector<json::Value>{load_row(run_load_point(cfg, path, rate_per_s))}; }).at(0);
}
}  // namespace

std::vector<json::Value> run_load_sweep(const Config& cfg, const std::string& path,
                                        const std::vector<double>& fractions, double& capacity_per_us) {
  // Arrivals every ~1 ps keep the send queue full: what completes is the capacity.
  capacity_per_us = point_in_child(cfg, path, 1e12).num("achieved_per_us");
  std::vector<json::Value> out;
  for (double f : fractions) out.push_back(point_in_child(cfg, path, f * capacity_per_us * 1e6));
  return out;
}

namespace {

ResultSet run(Config& cfg, const Options& o) {
  const auto paths = select_paths(o.text("--path"), "");
  const uint64_t ops = o.count("--ops");
  cfg.set_by_experiment(key::workload_ops, "load", fmt::format("{}", ops));
  cfg.set_by_experiment(key::workload_warmup, "load", fmt::format("{}", ops / 10));
  cfg.set_by_experiment(key::workload_outstanding, "load", fmt::format("{}", o.count("--queue-depth")));
  validate_config(cfg);
  ResultSet rs;
  for (const auto& path : paths) {
    double capacity = 0;
    for (auto& row : run_load_sweep(cfg, path, o.reals("--points"), capacity)) rs.rows.push_back(std::move(row));
    rs.notes += fmt::format("{}: measured capacity {:.3f} /us\n", path, capacity);
  }
  rs.notes += "open loop, Poisson arrivals; bottleneck = the component with the longest mean input queue.\n";
  return rs;
}

}  // namespace

const Experiment& load_experiment() {
  static const Experiment e{
      "load",
      "latency vs offered load (open-loop arrivals): measured capacity, then a sweep over fractions of it",
      "The capacity is measured first by offering far more than the model can serve (what completes is the\n"
      "capacity), then each point offers a fraction of it; the component with the longest mean input queue\n"
      "is named as the bottleneck.",
      {opt_choice("--path", {"pcie-nic", "ub-async", "ub-load", "all"}, "all", "the path(s) to run"),
       opt_reals("--points", "LIST", "a fraction of capacity in (0, 100]", [](double f) { return f > 0 && f <= 100; },
                 "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.95,1.0,1.1", "offered load as fractions of the measured capacity"),
       opt_count("--ops", "N", 100, 100000000, "20000", "requests per point (the first 10 % warm up)"),
       opt_count("--queue-depth", "K", 1, 65536, "256", "send-queue depth: requests in flight at most"),
       opt_key("--size", "B", "workload.size", "message bytes of each read: ceil(size / transport.mtu) packets"),
       opt_key("--loss", "P", "loss.data", "lose data (and ack) packets on the wire with probability P (the transport\n"
               "engines then run inside the paths)")},
      {"path", "offered_per_us"},
      {{"offered_per_us", "1/us", "offered arrival rate"},
       {"achieved_per_us", "1/us", "completions per us over the measured window"},
       {"latency_ns", "ns", "mean, p50, p99, p999, max (from arrival; requests that succeeded)"},
       {"retransmitted_packets", "packets", "packets the transport engines resent (0 without loss)"},
       {"retransmitted_bytes", "bytes", "payload bytes resent"},
       {"timeouts", "events", "retransmit timer expiries"},
       {"failed", "ops", "requests completed with an error status (transport retries exhausted)"},
       {"bottleneck", "", "the component with the longest mean input queue"},
       {"bottleneck_queue_mean", "requests", "its time-weighted mean queue"}},
      "load",
      "plot_load.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
