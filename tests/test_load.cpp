// Open-loop arrivals: latency vs offered load comes from queueing in the
// model, and the saturation throughput is the structural capacity of the
// path's slowest resource.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "load.h"

using namespace ubsim;

namespace {
Config load_config(uint64_t ops) {
  Config c;
  c.apply_set(fmt::format("workload.ops={}", ops));
  c.apply_set(fmt::format("workload.warmup={}", ops / 10));
  c.apply_set("workload.outstanding=256");
  return c;
}
}  // namespace

TEST_CASE("saturation throughput is the capacity of the slowest resource", "[load]") {
  const Config cfg = load_config(6000);
  double capacity = 0;
  // ub-async: the CPU core runs 50 + 30 + 5 + 30 ns of software per read
  auto pts = run_load_sweep(cfg, "ub-async", {0.5}, capacity);
  CHECK(capacity == Approx(1e3 / 115.0).epsilon(0.01));
  CHECK(pts.at(0).str("bottleneck") == "sys.A_cpu");
  // ub-load: no software; with enough miss buffers the send pipeline's
  // TP-context port (2 cycles per request) binds
  Config wide = cfg;
  wide.apply_set("core.outstanding_loads=256");
  pts = run_load_sweep(wide, "ub-load", {0.1, 1.2}, capacity);
  CHECK(capacity == Approx(322.0 / 2).epsilon(0.01));
  CHECK(pts.at(1).str("bottleneck").find("_ub_tx") != std::string::npos);
  // below the knee latency is close to the unloaded read, above it it explodes
  CHECK(pts.at(0).num("latency_ns.mean") < 440);
  // Poisson arrivals: over ~5000 requests the achieved rate is within a few % of offered
  CHECK(pts.at(0).num("achieved_per_us") == Approx(pts.at(0).num("offered_per_us")).epsilon(0.05));
  CHECK(pts.at(1).num("latency_ns.mean") > 5 * pts.at(0).num("latency_ns.mean"));
  CHECK(pts.at(1).num("achieved_per_us") < pts.at(1).num("offered_per_us"));
  // with the default 16 outstanding-miss buffers of the one core, 16 Loads
  // in flight: 16 per unloaded Load latency (spec §4: 419 ns, within 3 %)
  run_load_sweep(cfg, "ub-load", {0.5}, capacity);
  CHECK(capacity == Approx(16 * 1e3 / 419.0).epsilon(0.03));
}

TEST_CASE("latency rises monotonically with offered load", "[load]") {
  double capacity = 0;
  const auto pts = run_load_sweep(load_config(8000), "pcie-nic", {0.2, 0.5, 0.8, 0.95}, capacity);
  CHECK(capacity == Approx(1e3 / 230.0).epsilon(0.01));   // 50+30+70+30+50 ns of software
  for (size_t i = 1; i < pts.size(); ++i) {
    CHECK(pts[i].num("latency_ns.mean") > pts[i - 1].num("latency_ns.mean"));
    CHECK(pts[i].num("latency_ns.p99") >= pts[i].num("latency_ns.p50"));
  }
}

TEST_CASE("open-loop runs are deterministic for a seed", "[load]") {
  double c1 = 0, c2 = 0, c3 = 0;
  Config a = load_config(3000);
  const auto r1 = run_load_sweep(a, "ub-async", {0.7}, c1);
  const auto r2 = run_load_sweep(a, "ub-async", {0.7}, c2);
  a.apply_set("seed=7");
  const auto r3 = run_load_sweep(a, "ub-async", {0.7}, c3);
  CHECK(r1.at(0).num("latency_ns.mean") == r2.at(0).num("latency_ns.mean"));
  CHECK(r1.at(0).num("latency_ns.p99") == r2.at(0).num("latency_ns.p99"));
  CHECK(r1.at(0).num("latency_ns.mean") != r3.at(0).num("latency_ns.mean"));
}
