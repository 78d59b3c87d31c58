// Request slots and slot release (spec §11, §13): the slot-release
// experiment against the spec's figures, the slot wait, Load/Store miss
// buffers and batched completion handling as bounds. Expected values come
// from the spec's scenario and default stage times, not from the model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "json_value.h"
#include "run_command.h"

namespace json = ubsim::json;

namespace {

json::Value run_json(const std::string& command) {
  const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) + " " + command + " --format json");
  INFO(command << "\n" << r.out);
  REQUIRE(r.status == 0);
  return json::parse(r.out);
}

const json::Value& row_with_slots(const json::Value& doc, double slots) {
  for (const auto& row : doc.get("results")->items)
    if (row.num("slots") == slots) return row;
  FAIL("no row with " << slots << " slots");
  throw;
}

double effect(const json::Value& row, const std::string& cause) {
  for (const auto& e : row.get("effects")->items)
    if (e.str("cause") == cause) return e.num("ns");
  FAIL("no effect " << cause);
  return 0;
}

double stat(const json::Value& row, const std::string& component, const std::string& name) {
  for (const auto& s : row.get("stats")->items)
    if (s.str("component") == component && s.str("name") == name) return s.num("value");
  FAIL("no stat " << component << " " << name);
  return 0;
}

// Checks every operation's times: submit <= done <= freed, submits at least
// `interval` apart, never more than `slots` slots held at once.
void check_ops(const json::Value& row, double slots, double interval_us) {
  std::vector<std::pair<double, int>> events;   // time, +1 take / -1 free
  double last_submit = -1e9;
  for (const auto& op : row.get("ops")->items) {
    const double s = op.num("submit_us"), d = op.num("done_us"), f = op.num("freed_us");
    CHECK(s <= d);
    CHECK(d <= f);
    CHECK(s - last_submit >= interval_us - 1e-9);
    last_submit = s;
    events.emplace_back(s, +1);
    events.emplace_back(f, -1);
  }
  std::sort(events.begin(), events.end());   // a free before a take at the same instant
  int held = 0, most = 0;
  for (const auto& [t, d] : events) most = std::max(most, held += d);
  CHECK(most <= slots);
  CHECK(held == 0);
}

}  // namespace

TEST_CASE("slots: the textbook's slot-release figures, 20 / 48 / 80 us", "[slots]") {
  const json::Value doc = run_json(std::string("slots --config ") + UBSIM_CONFIGS + "/seed-7-4.toml");
  const auto& s16 = row_with_slots(doc, 16);
  CHECK(s16.num("op_time_us") == Approx(5.0).margin(0.1));
  CHECK(s16.num("transfers_done_us") == Approx(20.0).margin(0.1));
  CHECK(s16.num("all_free_us") == Approx(80.0).margin(0.1));
  check_ops(s16, 16, 1.0);
  const auto& s8 = row_with_slots(doc, 8);
  CHECK(s8.num("transfers_done_us") == Approx(48.0).margin(0.1));
  CHECK(s8.num("all_free_us") == Approx(80.0).margin(0.1));
  check_ops(s8, 8, 1.0);
  // the 9th submit waits for the first batch at 20 us
  const auto& ninth = s8.get("ops")->items.at(8);
  CHECK(ninth.num("submit_us") == Approx(20.0).margin(0.01));
  // with no handler cost a slot is freed exactly at a batch instant
  for (const auto& op : s8.get("ops")->items) {
    const double k = op.num("freed_us") / 20.0;
    CHECK(k == Approx(std::round(k)).margin(1e-6));
  }
  CHECK(s8.num("derived_completions_per_us") == Approx(4 / 20.0));
}

TEST_CASE("slots: a handler cost per completion shifts the figures by the batch's handling time", "[slots]") {
  // the default completion handling on ub-async: a 5 ns completion-queue
  // poll and a 30 ns library poll per completion, 4 per batch on one core
  const json::Value doc =
      run_json(std::string("slots --slots 8 --config ") + UBSIM_CONFIGS +
               "/seed-7-4.toml --set sw.cq_poll_bus=5ns --set sw.lib_poll=30ns");
  const auto& s8 = row_with_slots(doc, 8);
  CHECK(s8.num("handler_ns") == Approx(35.0));
  CHECK(s8.num("batch_handling_us") == Approx(4 * 0.035).margin(1e-6));
  CHECK(s8.num("shift_all_free_us") == Approx(s8.num("batch_handling_us")).margin(1e-6));
  CHECK(s8.num("all_free_us") == Approx(80.0 + 4 * 0.035).margin(1e-6));
  CHECK(s8.num("shift_transfers_done_us") > 0);
  CHECK(s8.num("shift_transfers_done_us") < s8.num("batch_handling_us"));
  check_ops(s8, 8, 1.0);
}

TEST_CASE("slots: a submitter finding no free slot waits, and the wait is itemized", "[slots]") {
  // 8 requests ready, 2 slots: 2 in flight, so each request waits about
  // 3 slot times for a slot (Little's law: 8 = rate x latency)
  const json::Value doc = run_json(
      "latency --path ub-async --ops 400 --set workload.warmup=40 --set workload.outstanding=8 --set slots.count=2 "
      "--stats");
  const auto& row = doc.get("results")->items.at(0);
  const json::Value seq = run_json("latency --path ub-async --ops 100 --set workload.warmup=10");
  const double t0 = seq.get("results")->items.at(0).num("measured_total_ns.p50");
  CHECK(row.num("achieved_per_us") == Approx(2 / t0 * 1e3).epsilon(0.02));
  CHECK(effect(row, "slot wait") == Approx(3 * t0).epsilon(0.03));
  CHECK(row.num("measured_total_ns.mean") == Approx(4 * t0).epsilon(0.03));
  CHECK(std::abs(row.num("unexplained_ns")) < 1e-3);
  CHECK(stat(row, "sys.A_app", "slots_in_use_max") == 2);
  CHECK(stat(row, "sys.A_app", "slot_waits") > 300);
}

TEST_CASE("slots: a core's outstanding-miss buffers are the Load/Store path's slots", "[slots]") {
  const json::Value seq = run_json("latency --path ub-load --ops 100 --set workload.warmup=10");
  const double t0 = seq.get("results")->items.at(0).num("measured_total_ns.p50");
  for (int buffers : {4, 16}) {
    const json::Value doc = run_json("latency --path ub-load --ops 1000 --set workload.warmup=100 "
                                     "--set workload.outstanding=64 --set core.outstanding_loads=" +
                                     std::to_string(buffers) + " --stats");
    const auto& row = doc.get("results")->items.at(0);
    INFO(buffers << " miss buffers");
    CHECK(stat(row, "sys.A_app", "slots_in_use_max") == buffers);
    CHECK(row.num("achieved_per_us") == Approx(buffers / t0 * 1e3).epsilon(0.03));
  }
  // two cores: twice the buffers
  const json::Value two = run_json("latency --path ub-load --ops 1000 --set workload.warmup=100 "
                                   "--set workload.outstanding=64 --set core.outstanding_loads=4 --set host.cores=2");
  CHECK(two.get("results")->items.at(0).num("achieved_per_us") == Approx(8 / t0 * 1e3).epsilon(0.03));
}

TEST_CASE("slots: batched completion handling bounds the throughput and is named", "[slots]") {
  // 4 completions every 1 us: 4 x 64 B / 1000 ns = 0.256 GB/s
  const json::Value doc = run_json(
      "throughput --path ub-async --size 64B --slots 64 --set sw.cq_batch=4 --set sw.cq_period=1us");
  const auto& row = doc.get("results")->items.at(0);
  CHECK(row.str("bound") == "completion");
  CHECK(row.num("bound_gbytes_per_s") == Approx(0.256).epsilon(1e-6));
  CHECK(row.num("gbytes_per_s") == Approx(0.256).epsilon(0.02));
}

TEST_CASE("slots: the batch wait is not written in a route, and bad slot keys fail in one line", "[slots]") {
  const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) +
                                          " latency --set path.ub-load.read=A:sw.cq_batch_wait,A:bus.traversal");
  CHECK(r.status == 2);
  CHECK(r.out.find("path.ub-load.read") != std::string::npos);
  CHECK(r.out.find("sw.cq_batch") != std::string::npos);
  const auto z = ubsim::test::run_command(std::string(UBSIM_BIN) + " latency --set slots.count=0");
  CHECK(z.status == 2);
  CHECK(z.out.find("slots.count") != std::string::npos);
  const auto p = ubsim::test::run_command(std::string(UBSIM_BIN) + " slots --set sw.cq_period=0us");
  CHECK(p.status == 2);
  CHECK(p.out.find("sw.cq_period") != std::string::npos);
}

TEST_CASE("slots: k work requests per doorbell ring one doorbell and fetch k descriptors at once", "[slots]") {
  // 16 reads in flight on one core: every batch of 4 posted work requests
  // shares one doorbell write and one descriptor fetch; the payload write
  // and the completion record stay per request. Node A's PCIe link then
  // carries 2 + 2 / 4 transactions per read (plus the one QP-context refill).
  const std::string base = "latency --path pcie-nic --ops 400 --outstanding 16 --stats";
  const json::Value one = run_json(base);
  const json::Value four = run_json(base + " --set sw.wr_per_doorbell=4");
  const auto& r1 = one.get("results")->items.at(0);
  const auto& r4 = four.get("results")->items.at(0);
  auto transactions = [](const json::Value& r) {
    return stat(r, "sys.A_pcie.link", "host_writes") + stat(r, "sys.A_pcie.link", "reads") +
           stat(r, "sys.A_pcie.link", "writes");
  };
  CHECK(transactions(r1) == 4 * 400 + 1);
  CHECK(transactions(r4) == 2 * 400 + 2 * 100 + 1);
  CHECK(stat(r4, "sys.A_pcie.link", "host_writes") == 100);
  CHECK(stat(r4, "sys.A_doorbells", "doorbells") == 100);
  CHECK(stat(r4, "sys.A_doorbells", "requests_per_doorbell") == 4);
  CHECK(effect(r4, "doorbell batch wait") > 0);
  CHECK(std::abs(r4.num("unexplained_ns")) < 1e-3);
  // the software stays per request: node A's core runs 5 stages per read either way
  CHECK(stat(r4, "sys.A_cpu", "ops") == stat(r1, "sys.A_cpu", "ops"));
  // one read at a time: nothing else is in submission, the doorbell rings
  // at once and the read is exactly as before
  const json::Value s1 = run_json("latency --path pcie-nic --ops 50");
  const json::Value s4 = run_json("latency --path pcie-nic --ops 50 --set sw.wr_per_doorbell=4");
  CHECK(s4.get("results")->items.at(0).num("measured_total_ns.mean") ==
        s1.get("results")->items.at(0).num("measured_total_ns.mean"));
}
