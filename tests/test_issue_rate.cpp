// Spec §5: issue interval and burst rate of the send pipelines, from the RTL.
#include <catch2/catch.hpp>

#include "issue_rate.h"

using namespace ubsim;

TEST_CASE("burst rates match the published figures", "[issue-rate]") {
  Config cfg;
  const IssueRateResult ub256 = run_issue_rate(cfg, "ub", 256, 1);
  const IssueRateResult roce256 = run_issue_rate(cfg, "roce", 256, 1);
  const IssueRateResult ub1000 = run_issue_rate(cfg, "ub", 1000, 1);
  for (const auto* r : {&ub256, &roce256, &ub1000}) {
    CHECK(r->delivered == r->burst);
    CHECK(r->submitted == r->burst);
    // span = L + (N-1)·δ cycles with the pipeline's own latency L
    CHECK(static_cast<double>(r->span_cycles) == Approx(r->derived_span_cycles).margin(1e-9));
  }
  CHECK(ub256.rate_per_us >= 146);
  CHECK(ub256.rate_per_us <= 155);
  CHECK(roce256.rate_per_us == Approx(54).epsilon(0.03));
  CHECK(ub1000.rate_per_us == Approx(159).epsilon(0.02));
  CHECK(ub256.interval_cycles == 2);
  CHECK(roce256.interval_cycles == 6);
  CHECK(ub256.interval_ns == Approx(6.2).margin(0.05));
  CHECK(roce256.interval_ns == Approx(18.6).margin(0.1));
  CHECK(ub256.latency_cycles == 25);
  CHECK(roce256.latency_cycles == 9);
  CHECK(ub256.ceiling_gbytes_per_s == Approx(10.3).margin(0.05));
  CHECK(roce256.ceiling_gbytes_per_s == Approx(3.4).margin(0.05));
}

TEST_CASE("the interval follows the structure, not a configured delay", "[issue-rate]") {
  Config cfg;
  cfg.apply_set("ub.tpc_read_beats=3");      // a 56 B record over a narrower port
  cfg.apply_set("roce.qpc_read_latency=3");  // slower QP-context RAM
  cfg.apply_set("roce.qpc_turnaround=2");
  CHECK(run_issue_rate(cfg, "ub", 200, 1).interval_cycles == 3);
  CHECK(run_issue_rate(cfg, "roce", 200, 1).interval_cycles == 3 + 3 + 2);
  // RoCE: one QP or many, the single QP-context port serializes them
  Config base;
  CHECK(run_issue_rate(base, "roce", 200, 16).interval_cycles == 6);
  // the clock scales the interval in ns, not in cycles
  Config fast;
  fast.apply_set("clock=500MHz");
  const IssueRateResult r = run_issue_rate(fast, "ub", 256, 1);
  CHECK(r.interval_cycles == 2);
  CHECK(r.interval_ns == Approx(4.0).margin(1e-9));
}
