// Loss inside the three paths (spec §14): the transport engines (verilated
// SACK per TP channel, GoBackN per QP) in the two-node system, with a lossy
// wire. Figures from the spec: the retransmit timeout 20 us, the retry
// budget 20 us x (2^8 - 1), a round trip of a few hundred ns on ub-*.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "experiment.h"
#include "latency.h"
#include "run_command.h"

using namespace ubsim;

namespace {

const double kCycleNs = 1e3 / 322.0;
const double kRtoNs = 20e3;

json::Value run(const std::string& path, const std::vector<std::string>& sets, uint64_t ops, Verb verb = Verb::Read) {
  return rows_in_child([&] {
           Config cfg;
           cfg.apply_set(fmt::format("workload.ops={}", ops));
           for (const auto& s : sets) cfg.apply_set(s);
           LatencyOptions o;
           o.path = path;
           o.verb = verb;
           const LatencyResult r = run_latency(cfg, o);
           json::Value row = latency_row(r, 0);
           row.add("sim_time_ns", json::Value::number(r.sim_time_ns));
           return std::vector<json::Value>{row};
         })
      .at(0);
}

double effect(const json::Value& row, const std::string& cause) {
  for (const auto& e : row.get("effects")->items)
    if (e.str("cause") == cause) return e.num("ns");
  FAIL("no effect " << cause);
  return 0;
}

}  // namespace

TEST_CASE("transport in the paths at loss 0: the lossless figures plus the engines' own cycles, itemized",
          "[loss-paths]") {
  for (const char* path : {"pcie-nic", "ub-async", "ub-load"}) {
    INFO(path);
    const json::Value off = run(path, {}, 200);
    const json::Value on = run(path, {"transport.in_paths=true"}, 200);
    CHECK(off.str("transport") == "none");
    CHECK(on.str("transport") == (std::string(path) == "pcie-nic" ? "gbn" : "sack"));
    const double engines = effect(on, "transport engines and wire queue");
    // two crossings; each: the sender takes the packet (<= 1 cycle of
    // alignment + 1) and the receiver keeps and delivers it (<= 1 + 1)
    CHECK(engines >= 4 * kCycleNs - 1e-3);
    CHECK(engines <= 8 * kCycleNs + 1e-3);
    CHECK(effect(on, "retransmission of lost packets") == 0);
    CHECK(effect(on, "in-order delivery wait (behind a hole)") == 0);
    // the receive pipelines now take packets delivered on a clock edge, so
    // their alignment moves too (by under a cycle each, itemized)
    const double realign = effect(on, "clock-edge alignment") - effect(off, "clock-edge alignment");
    CHECK(std::abs(realign) < 2 * kCycleNs);
    CHECK(on.num("measured_total_ns.mean") - off.num("measured_total_ns.mean") ==
          Approx(engines + realign).margin(1e-3));
    CHECK(std::abs(on.num("unexplained_ns")) < 1e-3);
    CHECK(on.num("retransmitted_packets") == 0);
    CHECK(on.num("failed") == 0);
  }
}

TEST_CASE("sequential reads at 1 % loss: the p99 is the base plus one retransmit timeout on every path",
          "[loss-paths]") {
  for (const char* path : {"pcie-nic", "ub-async", "ub-load"}) {
    INFO(path);
    const json::Value r = run(path, {"loss.data=0.01", "seed=5"}, 3000);
    const double base = r.num("measured_total_ns.p50");
    CHECK(r.num("measured_total_ns.p99") == Approx(base + kRtoNs).margin(0.01 * kRtoNs));
    CHECK(r.num("timeouts") > 0);
    CHECK(r.num("retransmitted_packets") >= r.num("timeouts"));
    CHECK(r.num("failed") == 0);
    CHECK(effect(r, "retransmission of lost packets") > 0);
    CHECK(std::abs(r.num("unexplained_ns")) < 1e-3);
  }
}

TEST_CASE("tail-loss probe: a lost sequential read on ub-* is recovered after the probe time, not the timeout",
          "[loss-paths]") {
  for (const char* path : {"ub-async", "ub-load"}) {
    INFO(path);
    const json::Value r = run(path, {"loss.data=0.01", "seed=5", "sack.probe_after=2us"}, 3000);
    const double base = r.num("measured_total_ns.p50");
    // the probe leaves 2 us after the last transmission; its copy arrives
    // and is delivered within a round trip (less than the base read)
    CHECK(r.num("measured_total_ns.p99") > base + 2000);
    CHECK(r.num("measured_total_ns.p99") < 2 * base + 2000);
    // a timeout only where the probe (or its ack) was lost as well
    CHECK(r.num("timeouts") <= 0.1 * r.num("retransmitted_packets"));
    CHECK(r.num("failed") == 0);
  }
}

TEST_CASE("16 reads outstanding on one TP channel at 1 % loss: SACK resends holes, GoBackN resends windows",
          "[loss-paths]") {
  const std::vector<std::string> common = {"workload.outstanding=16", "seed=5"};
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.end(), common.begin(), common.end());
    return more;
  };
  const json::Value base = run("ub-async", with({"transport.in_paths=true"}), 3000);
  const json::Value sack = run("ub-async", with({"loss.data=0.01"}), 3000);
  const json::Value gbn = run("ub-async", with({"loss.data=0.01", "transport.mode=gbn"}), 3000);
  CHECK(gbn.str("transport") == "gbn");
  // SACK: the p99 rises by about one round trip (less than a base read), no timeout
  const double rise = sack.num("measured_total_ns.p99") - base.num("measured_total_ns.p99");
  CHECK(rise > 0);
  CHECK(rise < base.num("measured_total_ns.p50"));
  CHECK(sack.num("timeouts") == 0);
  // GoBackN: every loss resends what was sent behind it (up to 15 packets
  // with 16 reads in flight), SACK only the hole
  CHECK(gbn.num("retransmitted_packets") > 3 * sack.num("retransmitted_packets"));
  CHECK(gbn.num("retransmitted_bytes") > 3 * sack.num("retransmitted_bytes"));
  CHECK(gbn.num("measured_total_ns.p99") >= sack.num("measured_total_ns.p99"));
  for (const auto* r : {&sack, &gbn}) CHECK(r->num("failed") == 0);
}

TEST_CASE("multi-packet messages with loss, duplication and reordering: every byte delivered exactly once",
          "[loss-paths]") {
  // the application checks each message's bytes arrived exactly once (it
  // fails the run otherwise); the transport must neither lose nor repeat
  for (const Verb verb : {Verb::Read, Verb::Write})
    for (const char* path : {"pcie-nic", "ub-async"}) {
      INFO(path << (verb == Verb::Read ? " read" : " write"));
      const json::Value r = run(path,
                                {"workload.size=16KiB", "loss.data=0.02", "loss.duplicate=0.01", "loss.reorder=0.05",
                                 "workload.outstanding=8", "seed=3"},
                                150, verb);
      CHECK(r.num("failed") == 0);
      CHECK(r.num("retransmitted_packets") > 0);
      CHECK(r.num("packets") == 4);
    }
}

TEST_CASE("100 % loss: every request fails with the transport error within the retry budget, never a hang",
          "[loss-paths]") {
  // sack.rto 20 us, backoff 2, 7 retries: the oldest packet gives up after
  // 20 us x (1 + 2 + ... + 128) = 5.1 ms
  const double budget_ns = kRtoNs * 255;
  for (const char* path : {"pcie-nic", "ub-load"}) {
    INFO(path);
    const json::Value r = run(path, {"loss.data=1", "workload.outstanding=4"}, 12);
    CHECK(r.num("failed") == 12);
    CHECK(r.num("timeouts") == 8);
    CHECK(r.num("sim_time_ns") > budget_ns);
    CHECK(r.num("sim_time_ns") < budget_ns + 10e3);
  }
}

TEST_CASE("loss on the command line: ubsim loss --path, its errors", "[loss-paths][cli]") {
  using test::run_command;
  const std::string bin = UBSIM_BIN;
  auto ok = run_command(bin + " loss --path ub-load --ops 40 --loss 0,0.5 --outstanding 2 --format json");
  INFO(ok.out);
  REQUIRE(ok.status == 0);
  CHECK(ok.out.find("\"experiment\": \"loss-paths\"") != std::string::npos);
  CHECK(ok.out.find("\"retransmitted_bytes\"") != std::string::npos);
  auto both = run_command(bin + " loss --path all --engine-only");
  CHECK(both.status == 2);
  CHECK(both.out.find("--engine-only and --path") != std::string::npos);
  auto probe = run_command(bin + " loss --path ub-load --probe-after 5parsecs");
  CHECK(probe.status == 2);
  CHECK(probe.out.find("--probe-after") != std::string::npos);
  auto many = run_command(bin + " latency --path ub-async --loss 0.01 --set workload.endpoints=100");
  CHECK(many.status == 2);
  CHECK(many.out.find("workload.endpoints") != std::string::npos);
  auto engine = run_command(bin + " loss --engine-only --loss 0 --mode sack --format json --set loss.messages=20");
  CHECK(engine.status == 0);
}

TEST_CASE("GoBackN: one lost packet among 16 outstanding is one go-back of the window behind it", "[loss-paths]") {
  // the resent window arrives back to back, a cycle apart: the receiver
  // keeps each in order although the one before is not delivered yet
  const json::Value r = run("pcie-nic", {"workload.outstanding=16", "transport.in_paths=true"}, 40);
  const json::Value d = rows_in_child([&] {
                          Config cfg;
                          cfg.apply_set("workload.ops=40");
                          cfg.apply_set("workload.outstanding=16");
                          cfg.apply_set("transport.in_paths=true");
                          LatencyOptions o;
                          o.path = "pcie-nic";
                          o.drop = {5};
                          return std::vector<json::Value>{latency_row(run_latency(cfg, o), 0)};
                        }).at(0);
  CHECK(r.num("retransmitted_packets") == 0);
  double fast = -1, drops = -1;
  for (const auto& s : d.get("stats")->items) {
    if (s.str("component").find("A_nic_gbn_tx0") != std::string::npos && s.str("name") == "fast_retransmits")
      fast = s.num("value");
    if (s.str("component").find("B_nic_gbn_rx0") != std::string::npos && s.str("name") == "gbn_drops")
      drops = s.num("value");
  }
  CHECK(fast == 1);
  // PSN 5 and the ten sent behind it (16 in flight, 5 acknowledged before)
  CHECK(d.num("retransmitted_packets") == 11);
  CHECK(drops == 10);
  CHECK(d.num("timeouts") == 0);
}
