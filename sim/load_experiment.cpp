#include "load_experiment.h"

#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "json.h"
#include "latency_experiment.h"
#include "subprocess.h"

namespace ubsim {

LoadPoint run_load_point(const Config& base, const std::string& path, double rate_per_s) {
  Config cfg = base;
  cfg.apply_set(fmt::format("workload.rate={:.17g}ops/s", rate_per_s));
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
  p.max_ns = r.max_ns;
  for (const StatRow& row : r.stats.rows) {
    if (row.name == "queue_mean" && row.value > p.bottleneck_queue) {
      p.bottleneck_queue = row.value;
      p.bottleneck = row.component;
    }
  }
  if (p.bottleneck.empty()) p.bottleneck = "-";
  return p;
}

namespace {
LoadPoint point_in_child(const Config& cfg, const std::string& path, double rate_per_s) {
  const ChildResult c = run_in_child([&] {
    const LoadPoint p = run_load_point(cfg, path, rate_per_s);
    return fmt::format("{:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {} {:.17g}", p.offered_per_us,
                       p.achieved_per_us, p.mean_ns, p.p50_ns, p.p99_ns, p.max_ns, p.bottleneck,
                       p.bottleneck_queue);
  });
  if (c.exit_code != 0) throw std::runtime_error(c.output);
  LoadPoint p;
  p.path = path;
  std::istringstream in(c.output);
  in >> p.offered_per_us >> p.achieved_per_us >> p.mean_ns >> p.p50_ns >> p.p99_ns >> p.max_ns >> p.bottleneck >>
      p.bottleneck_queue;
  return p;
}
}  // namespace

std::vector<LoadPoint> run_load_sweep(const Config& cfg, const std::string& path,
                                      const std::vector<double>& fractions, double& capacity_per_us) {
  // Arrivals every ~1 ps keep the send queue full: what completes is the capacity.
  const LoadPoint saturated = point_in_child(cfg, path, 1e12);
  capacity_per_us = saturated.achieved_per_us;
  std::vector<LoadPoint> out;
  for (double f : fractions) out.push_back(point_in_child(cfg, path, f * capacity_per_us * 1e6));
  return out;
}

std::string load_json(const LoadPoint& p) {
  return json::object({{"path", json::str(p.path)},
                       {"offered_per_us", json::num(p.offered_per_us)},
                       {"achieved_per_us", json::num(p.achieved_per_us)},
                       {"latency_ns", json::object({{"mean", json::num(p.mean_ns)}, {"p50", json::num(p.p50_ns)},
                                                    {"p99", json::num(p.p99_ns)}, {"max", json::num(p.max_ns)}})},
                       {"bottleneck", json::str(p.bottleneck)},
                       {"bottleneck_queue_mean", json::num(p.bottleneck_queue)}});
}

std::string load_table(const std::vector<LoadPoint>& pts, double capacity_per_us) {
  if (pts.empty()) return "";
  std::string out = fmt::format("\n{} — latency vs offered load (open loop, Poisson); measured capacity {:.3f} /us\n",
                                pts.front().path, capacity_per_us);
  out += fmt::format("  {:>12} {:>12} {:>11} {:>11} {:>11}   {}\n", "offered /us", "achieved /us", "mean ns",
                     "p50 ns", "p99 ns", "longest queue (mean)");
  for (const auto& p : pts)
    out += fmt::format("  {:>12.3f} {:>12.3f} {:>11.1f} {:>11.1f} {:>11.1f}   {} ({:.2f})\n", p.offered_per_us,
                       p.achieved_per_us, p.mean_ns, p.p50_ns, p.p99_ns, p.bottleneck, p.bottleneck_queue);
  return out;
}

std::string load_csv(const std::vector<LoadPoint>& pts, bool header) {
  std::string out = header ? "path,offered_per_us,achieved_per_us,mean_ns,p50_ns,p99_ns,max_ns,bottleneck,bottleneck_queue_mean\n" : "";
  for (const auto& p : pts)
    out += fmt::format("{},{:.6f},{:.6f},{:.3f},{:.3f},{:.3f},{:.3f},{},{:.4f}\n", p.path, p.offered_per_us,
                       p.achieved_per_us, p.mean_ns, p.p50_ns, p.p99_ns, p.max_ns, p.bottleneck,
                       p.bottleneck_queue);
  return out;
}

}  // namespace ubsim
