// The SACK engine on the lossy two-node link (spec 8): the worked case,
// goodput against loss, and a soak of many seeds with loss, duplication and
// reordering of data and acks, across PSN wrap-around.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "loss.h"

using namespace ubsim;

namespace {
Config worked_case(bool fast) {
  Config c;
  c.apply_set("loss.messages=8");
  c.apply_set("workload.size=4KiB");
  c.apply_set("loss.wire_latency=1us");
  c.apply_set("sack.rto=20us");
  c.apply_set(fast ? "sack.fast_retransmit=true" : "sack.fast_retransmit=false");
  return c;
}
}  // namespace

TEST_CASE("worked case: PSN 0 lost once, 8 x 4 KiB at 50 GB/s, 1 us propagation", "[loss]") {
  LossOptions o;
  o.drop_once = {0};
  const auto pts = run_loss(worked_case(false), o);
  REQUIRE(pts.size() == 2);
  const json::Value& sack = pts[0];
  const json::Value& gbn = pts[1];
  REQUIRE(sack.str("mode") == "sack");
  CHECK(sack.flag("exactly_once"));
  CHECK(sack.flag("in_order"));
  CHECK(sack.num("timeouts") == 1);
  CHECK(sack.num("retransmitted_bytes") == 4096);           // only the hole
  CHECK(sack.num("all_deliverable_ns") == Approx(21160).epsilon(0.01));
  CHECK(gbn.flag("exactly_once"));
  CHECK(gbn.num("retransmitted_bytes") == 32768);           // everything from the hole
  CHECK(gbn.num("all_deliverable_ns") == Approx(21740).epsilon(0.01));
  o.modes = {"sack"};
  const auto fast = run_loss(worked_case(true), o);
  CHECK(fast[0].num("timeouts") == 0);
  CHECK(fast[0].num("retransmitted_bytes") == 4096);
  CHECK(fast[0].num("all_deliverable_ns") == Approx(3250).epsilon(0.02));
}

TEST_CASE("goodput vs loss: SACK stays near (1-p) of the line, GoBackN falls away", "[loss]") {
  Config c;
  c.apply_set("loss.messages=1500");
  LossOptions o;
  o.losses = {0, 0.01, 0.05, 0.1};
  const auto pts = run_loss(c, o);
  double sack5 = 0, gbn5 = 0;
  for (const auto& p : pts) {
    INFO(p.str("mode") << " loss " << p.num("loss"));
    CHECK(p.flag("exactly_once"));
    CHECK(p.flag("in_order"));
    INFO("timeouts " << p.num("timeouts"));
    // within 10 % of (1-p) x line up to 5 % loss; at 10 % a lost tail packet
    // (no later SACK reports it) waits for the 20 us timer, a fixed cost that
    // weighs on a short run, so there the bound is 25 %
    if (p.str("mode") == "sack")
      CHECK(p.num("goodput_gbps") == Approx(p.num("line_gbps") * (1 - p.num("loss"))).epsilon(p.num("loss") <= 0.05 ? 0.10 : 0.25));
    if (p.num("loss") == 0.05) (p.str("mode") == "sack" ? sack5 : gbn5) = p.num("goodput_gbps");
    if (p.num("loss") == 0) CHECK(p.num("retransmitted_bytes") == 0);
  }
  CHECK(gbn5 < 0.6 * sack5);
}

TEST_CASE("soak: exactly once and in order over 100 seeds with loss, duplication and reordering", "[loss]") {
  uint64_t timeouts = 0, dups = 0, lost = 0, runs = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    Config c;
    c.apply_set("loss.messages=150");
    c.apply_set("sack.window=128");
    c.apply_set("loss.duplicate=0.05");
    c.apply_set("loss.reorder=0.1");
    c.apply_set("loss.first_psn=16777150");   // the PSNs wrap past 2^24 mid-run
    c.apply_set(fmt::format("seed={}", seed));
    LossOptions o;
    o.losses = {0.05};                        // data and acks (SACKs) alike
    o.modes = {seed % 2 ? "sack" : "gbn"};
    for (const auto& p : run_loss(c, o)) {    // a stuck run throws with its state (watchdog)
      INFO("seed " << seed << " " << p.str("mode"));
      CHECK(p.flag("exactly_once"));
      CHECK(p.flag("in_order"));
      CHECK_FALSE(p.flag("failed"));
      timeouts += p.num("timeouts");
      dups += p.num("duplicates_received");
      lost += p.num("lost_packets");
      ++runs;
    }
  }
  CHECK(runs == 100);
  CHECK(lost > 1000);        // losses of data and acks happened
  CHECK(dups > 100);         // the receiver saw duplicates and dropped them
  CHECK(timeouts > 10);      // some recoveries needed the timer (lost resends, lost tails)
}

TEST_CASE("multi-packet messages: 64 KiB = 16 packets, every PSN through the SACK engine, drops inside a message",
          "[loss]") {
  Config c;
  c.apply_set("loss.messages=40");
  c.apply_set("workload.size=64KiB");
  c.apply_set("loss.wire_latency=1us");
  LossOptions o;
  o.losses = {0};
  o.modes = {"sack"};
  o.drop_once = {5, 20, 639};   // packet 5 of message 0, packet 4 of message 1, the last packet of the last message
  const auto pts = run_loss(c, o);
  REQUIRE(pts.size() == 1);
  const auto& p = pts[0];
  CHECK(p.num("packets_per_message") == 16);   // ceil(65536 / 4096)
  CHECK(p.num("delivered") == 40);
  CHECK(p.flag("exactly_once"));
  CHECK(p.flag("in_order"));
  CHECK(p.num("retransmitted_bytes") == 3 * 4096);   // the three dropped packets, resent once each
  // 640 packets of 4096 + 32 B at 50 GB/s cannot be faster than their serialization
  const double serialization_ns = 640.0 * (4096 + 32) / 50.0;
  CHECK(p.num("finish_ns") > serialization_ns);
  // goodput counts messages' bytes: below the line's payload rate, within the retransmission cost
  CHECK(p.num("goodput_gbps") < p.num("line_gbps"));
}

TEST_CASE("a message size not a multiple of the MTU: the last packet is shorter", "[loss]") {
  Config c;
  c.apply_set("loss.messages=10");
  c.apply_set("workload.size=10000B");
  LossOptions o;
  o.losses = {0};
  o.modes = {"gbn"};
  o.drop_once = {2};   // the 1808 B tail of message 0
  const auto pts = run_loss(c, o);
  CHECK(pts[0].num("packets_per_message") == 3);
  CHECK(pts[0].flag("exactly_once"));
  CHECK(pts[0].num("retransmitted_bytes") >= 10000 - 2 * 4096);
}

TEST_CASE("reorder limit: small limits drop and resend yet deliver exactly once and in order and never stall", "[loss]") {
  // limits of one packet, three packets and unlimited over loss,
  // duplication and reordering, SACK and GoBackN
  uint64_t drops_small = 0, runs = 0;
  for (const char* limit : {"4KiB", "12KiB", "8MiB"})
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      Config c;
      c.apply_set("loss.messages=120");
      c.apply_set("workload.size=4KiB");
      c.apply_set("sack.window=128");
      c.apply_set("loss.duplicate=0.05");
      c.apply_set("loss.reorder=0.3");
      c.apply_set(std::string("sack.reorder_limit=") + limit);
      c.apply_set(fmt::format("seed={}", seed));
      LossOptions o;
      o.losses = {0.02};
      o.modes = {seed % 2 ? "sack" : "gbn"};
      for (const auto& p : run_loss(c, o)) {   // a stuck run throws with its state (watchdog)
        INFO(limit << " seed " << seed << " " << p.str("mode"));
        CHECK(p.flag("exactly_once"));
        CHECK(p.flag("in_order"));
        CHECK_FALSE(p.flag("failed"));
        // held after a hole: never above the limit
        const double limit_bytes = std::string(limit) == "4KiB" ? 4096 : std::string(limit) == "12KiB" ? 12288 : 8388608;
        CHECK(p.num("reorder_peak_bytes") <= limit_bytes);
        // SACK holds what arrives above a hole; GoBackN keeps only the next in order
        if (p.str("mode") == "sack") CHECK(p.num("reorder_peak_bytes") >= 4096);
        else CHECK(p.num("reorder_peak_bytes") == 0);
        if (std::string(limit) == "8MiB") CHECK(p.num("reorder_drops") == 0);
        if (std::string(limit) == "4KiB") drops_small += static_cast<uint64_t>(p.num("reorder_drops"));
        ++runs;
      }
    }
  CHECK(runs == 36);
  CHECK(drops_small > 50);   // a one-packet limit drops whatever arrives above a hole
}
