// Spec §5: issue interval and burst rate of the send pipelines, from the RTL.
#include <catch2/catch.hpp>

#include "issue_rate.h"
#include "rtl_variant.h"

using namespace ubsim;

namespace {
// Derived from the RAM macro of this build and the spec's record sizes, not
// from the RTL: a 56 B TP-channel record read one port word per cycle; the
// RoCE PSN update: read issue, read latency, increment, write, turnaround.
constexpr int kUbDelta = (56 + rtl_variant::kCtxPortBytes - 1) / rtl_variant::kCtxPortBytes;
constexpr int kRoceDelta = 1 + rtl_variant::kCtxRamLatency + 1 + 1 + rtl_variant::kCtxRamTurnaround;
}  // namespace

TEST_CASE("burst rates match the published figures", "[issue-rate]") {
  Config cfg;
  const IssueRateResult ub256 = run_issue_rate(cfg, "ub", 256, 1);
  const IssueRateResult roce256 = run_issue_rate(cfg, "roce", 256, 1);
  const IssueRateResult ub1000 = run_issue_rate(cfg, "ub", 1000, 1);
  for (const auto* r : {&ub256, &roce256, &ub1000}) {
    CHECK(r->delivered == r->burst);
    CHECK(r->submitted == r->burst);
  }
  // span = L + (N-1)·δ with L the configured traversal and δ from the RAM structure
  CHECK(ub256.interval_cycles == kUbDelta);
  CHECK(roce256.interval_cycles == kRoceDelta);
  CHECK(ub256.span_cycles == 25 + 255 * kUbDelta);
  CHECK(ub1000.span_cycles == 25 + 999 * kUbDelta);
  CHECK(roce256.span_cycles == 9 + 255 * kRoceDelta);
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
  // the former runtime knobs are refused: the RAM macro is a build variant
  for (const char* key : {"ub.tpc_read_beats=3", "roce.qpc_read_latency=3", "roce.qpc_turnaround=2"}) {
    Config cfg;
    CHECK_THROWS_WITH(cfg.apply_set(key), Catch::Contains("no longer a runtime key") &&
                                              Catch::Contains("UBSIM_RTL_CTX_"));
  }
  // RoCE: one QP or many, the single QP-context port serializes them
  Config base;
  CHECK(run_issue_rate(base, "roce", 200, 16).interval_cycles == run_issue_rate(base, "roce", 200, 1).interval_cycles);
  // the clock scales the interval in ns, not in cycles
  Config fast;
  fast.apply_set("clock=500MHz");
  const IssueRateResult r = run_issue_rate(fast, "ub", 256, 1);
  CHECK(r.interval_cycles == run_issue_rate(base, "ub", 256, 1).interval_cycles);
  CHECK(r.interval_ns == Approx(2.0 * r.interval_cycles).margin(1e-9));
}
