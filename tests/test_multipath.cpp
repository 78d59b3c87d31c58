// One transfer over several paths (spec §16): the verilated SACK sender
// spreading 4 KiB packets over paths of different delays, the verilated
// receiver's reorder state. Targets with the model's 32 B header (82.56 ns
// per packet at 50 GB/s), from the spec's table.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "json_value.h"
#include "run_command.h"

using ubsim::json::Value;

namespace {

Value results(const std::string& args) {
  const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) + " multipath " + args + " --format json");
  INFO(r.out);
  REQUIRE(r.status == 0);
  return *ubsim::json::parse(r.out).get("results");
}

const Value& row(const Value& rows, const std::string& c, const std::string& transport) {
  for (const auto& r : rows.items)
    if (r.str("case") == c && r.str("transport") == transport) return r;
  FAIL("no row " << c << " " << transport);
  return rows.items.front();
}

}  // namespace

TEST_CASE("multipath: the spec's table, measured within 1 % of the schedule by hand", "[multipath]") {
  const Value rows = results("--cases rr-2x1us,one-path,rr-1us-9us,drop0,spray-8,spray-1");
  struct Target {
    const char* name;
    double done_us, peak_bytes;   // peak < 0: not given
  };
  for (const Target& t : {Target{"rr-2x1us", 1.330, 0}, Target{"one-path", 1.660, 0}, Target{"rr-1us-9us", 9.330, 12288},
                          Target{"drop0", 21.17, 28672}, Target{"spray-8", 29.14, -1}, Target{"spray-1", 170.08, 0}}) {
    INFO(t.name);
    const Value& r = row(rows, t.name, "sack");
    CHECK(r.flag("exactly_once"));
    CHECK(r.flag("in_order"));
    CHECK(r.num("reorder_drops") == 0);
    // the hand schedule is the spec's figure (to its digits) ...
    CHECK(r.num("done_us_derived") == Approx(t.done_us).epsilon(0.0005));
    // ... and the RTL's run within 1 % of it, never faster
    CHECK(r.num("done_us") == Approx(r.num("done_us_derived")).epsilon(0.01));
    CHECK(r.num("done_us") >= r.num("done_us_derived") - 1e-6);
    if (t.peak_bytes >= 0) CHECK(r.num("peak_reorder_bytes") == t.peak_bytes);
  }
  // spraying: the receiver held about 1.35 MB after holes; the hand schedule within 3 %
  const Value& spray = row(rows, "spray-8", "sack");
  CHECK(spray.num("peak_reorder_bytes") == Approx(spray.num("peak_reorder_bytes_derived")).epsilon(0.03));
  // the loss: SACK resends the one packet, GoBackN all eight
  CHECK(row(rows, "drop0", "sack").num("resent_bytes") == 4096);
  CHECK(row(rows, "drop0", "gbn").num("resent_bytes") == 32768);
  CHECK(row(rows, "drop0", "gbn").num("done_us") == Approx(row(rows, "drop0", "gbn").num("done_us_derived")).epsilon(0.01));
  // GoBackN over skewed paths drops what arrives early and resends it
  CHECK(row(rows, "rr-1us-9us", "gbn").num("resent_bytes") > 0);
  for (const auto& r : rows.items) {
    INFO(r.str("case") << " " << r.str("transport"));
    CHECK(r.flag("exactly_once"));
    CHECK(r.flag("in_order"));
  }
}

TEST_CASE("multipath: the weighted split and a reorder limit below the spraying peak", "[multipath]") {
  const Value rows =
      results("--cases split-5-3,spray-8-limit,spray-8-fast-rtx,spray-8-thresh,drop0-fast-thresh3 --transport sack");
  // a real loss is still resent at once when enough later PSNs are SACKed:
  // one round trip (about 2 us here), not the 20 us timer
  const Value& fast = row(rows, "drop0-fast-thresh3", "sack");
  CHECK(fast.num("resent_bytes") == 4096);
  CHECK(fast.num("timeouts") == 0);
  CHECK(fast.num("done_us") < 4.0);
  // 5 : 3 over 1 us and 9 us: the slow path's three packets finish last
  const Value& split = row(rows, "split-5-3", "sack");
  CHECK(split.num("done_us") == Approx(split.num("done_us_derived")).epsilon(0.01));
  int on_slow = 0;
  for (const auto& g : split.get("gantt")->items) on_slow += g.items[1].text == "1";
  CHECK(on_slow == 3);
  // the limit: the receiver never holds more, drops what would pass it, still delivers all exactly once
  const Value& limited = row(rows, "spray-8-limit", "sack");
  CHECK(limited.num("peak_reorder_bytes") <= 524288);
  CHECK(limited.num("reorder_drops") > 0);
  CHECK(limited.flag("exactly_once"));
  CHECK(limited.flag("in_order"));
  CHECK(limited.num("done_us") > row(rows, "spray-8-fast-rtx", "sack").num("done_us"));
  // fast retransmit over skewed paths resends packets that were only late;
  // with the reorder threshold above the paths' skew (about 680 PSNs) none
  CHECK(row(rows, "spray-8-fast-rtx", "sack").num("resent_bytes") > 1e6);
  const Value& thresh = row(rows, "spray-8-thresh", "sack");
  CHECK(thresh.num("resent_bytes") == 0);
  CHECK(thresh.num("done_us") < row(rows, "spray-8-fast-rtx", "sack").num("done_us"));
  CHECK(thresh.num("done_us") == Approx(29.14).epsilon(0.01));
}

TEST_CASE("multipath: acks on the data's own path come as late as that path", "[multipath]") {
  const Value rows = results("--cases drop0-skew-fast,drop0-skew-fast-ack-data");
  // GoBackN learns of the hole from a duplicate ack: on the fastest path it
  // comes after 1 us, on the path of the data that made it (half of them
  // the 9 us path) later, so the resend and the completion come later
  CHECK(row(rows, "drop0-skew-fast-ack-data", "gbn").num("done_us") >
        row(rows, "drop0-skew-fast", "gbn").num("done_us") + 1.0);
  for (const auto& r : rows.items) {
    INFO(r.str("case") << " " << r.str("transport"));
    CHECK(r.flag("exactly_once"));
    CHECK(r.flag("in_order"));
  }
}

TEST_CASE("reorder-limit: one packet below the spraying peak drops and resends but at the peak none", "[multipath]") {
  const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) +
                                          " reorder-limit --limits 1344KiB,1348KiB --area no --format json");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const Value rows = *ubsim::json::parse(r.out).get("results");
  REQUIRE(rows.items.size() == 2);
  const Value& below = rows.items[0];
  const Value& at = rows.items[1];
  CHECK(below.num("reorder_limit_bytes") == 1344 * 1024);
  CHECK(below.num("peak_reorder_bytes") <= 1344 * 1024);
  CHECK(below.num("reorder_drops") > 0);
  CHECK(below.num("resent_bytes") >= below.num("reorder_drops") * 4096);
  CHECK(below.num("done_us") > 10 * at.num("done_us"));
  CHECK(at.num("reorder_drops") == 0);
  CHECK(at.num("resent_bytes") == 0);
  CHECK(at.num("done_us") == Approx(29.14).epsilon(0.01));
  for (const auto& x : rows.items) {
    CHECK(x.flag("exactly_once"));
    CHECK(x.num("build_maximum_bytes") == 2 * 1024 * 1024);
    CHECK(x.get("receiver_cells")->kind == Value::Null);
  }
  // a limit above this build's maximum is refused, naming the key
  const auto bad = ubsim::test::run_command(std::string(UBSIM_BIN) + " reorder-limit --limits 9GiB --area no");
  CHECK(bad.status == 2);
  CHECK(bad.out.find("sack.reorder_limit") != std::string::npos);
}

TEST_CASE("multipath: the controller as the sender is bound by its DRAM and with faster memory by its flits",
          "[multipath]") {
  const Value rows = results("--cases rr-2x1us,spray-8,spray-8-fast-memory --transport sack --sender controller");
  // each packet's payload is one DRAM read: dram.occupancy (5 ns) plus the
  // 4032 B beyond the first 64 at 51.2 GB/s
  const double dram_ns = 5 + 4032 / 51.2;
  for (const char* name : {"rr-2x1us", "spray-8"}) {
    INFO(name);
    const Value& r = row(rows, name, "sack");
    CHECK(r.str("sender") == "controller");
    CHECK(r.str("binding") == "DRAM");
    CHECK(r.num("send_interval_ns_derived") == Approx(dram_ns).epsilon(0.001));
    CHECK(r.num("send_interval_ns") == Approx(dram_ns).epsilon(0.01));
  }
  // spraying from the controller: the last packet (PSN 2047, on the 8 us
  // path) leaves 2047 intervals after the first and flies 8 us; no faster
  // than one path, the memory binds
  const Value& spray = row(rows, "spray-8", "sack");
  CHECK(spray.num("done_us") == Approx(2047 * dram_ns / 1e3 + 0.08256 + 8).epsilon(0.01));
  CHECK(spray.num("done_us") > 170.08);
  // bus and DRAM at 2 Tbit/s: the send pipeline's flits bind, 17 flits of
  // 256 B per 4 KiB packet with its header, a flit per cycle at 322 MHz
  const Value& fast = row(rows, "spray-8-fast-memory", "sack");
  CHECK(fast.str("binding") == "send-pipeline flits");
  CHECK(fast.num("send_interval_ns") == Approx(17 / 0.322).epsilon(0.01));
  for (const auto& r : rows.items) {
    INFO(r.str("case"));
    CHECK(r.flag("exactly_once"));
    CHECK(r.flag("in_order"));
  }
}

TEST_CASE("multipath.paths needs the transport in the paths and no random loss", "[multipath]") {
  const std::string bin = std::string(UBSIM_BIN) + " latency --path ub-async --ops 2 --set multipath.paths=2";
  const auto off = ubsim::test::run_command(bin);
  CHECK(off.status == 2);
  CHECK(off.out.find("multipath.paths") != std::string::npos);
  CHECK(off.out.find("transport.in_paths") != std::string::npos);
  const auto lossy = ubsim::test::run_command(bin + " --set transport.in_paths=true --set loss.data=0.01");
  CHECK(lossy.status == 2);
  CHECK(lossy.out.find("loss.data") != std::string::npos);
  // two paths of 1 us and 3 us under a 64 KiB write: delivered once, in order
  const auto ok = ubsim::test::run_command(
      bin + " --verb write --size 64KiB --set transport.in_paths=true --set wire.latency=1us"
            " --set multipath.delay_step=2us --format json");
  INFO(ok.out);
  REQUIRE(ok.status == 0);
  const Value res = *ubsim::json::parse(ok.out).get("results");
  CHECK(res.items.at(0).num("ops") == 2);
  CHECK(res.items.at(0).num("failed") == 0);
}

TEST_CASE("multipath: writes over random skewed paths with small reorder limits and a loss complete exactly once",
          "[multipath]") {
  // the controller's own packets (64 KiB writes, two in flight) over 2..8
  // paths of random skew, reorder limits from one packet up, a scripted
  // loss: the application fails a request whose bytes differ from its size
  // and the receive side one whose packet arrives twice, so a run that ends
  // with every request done and none failed delivered exactly once
  uint64_t drops = 0;
  for (int seed = 1; seed <= 8; ++seed) {
    const int paths = 2 + (seed * 5) % 7;
    const int step_ns = (seed * 977) % 3000;
    const char* limit = seed % 3 == 0 ? "4KiB" : seed % 3 == 1 ? "12KiB" : "64KiB";
    const std::string args = fmt::format(
        " latency --path ub-async --verb write --size 64KiB --ops 6 --outstanding 2 --drop {}"
        " --set transport.in_paths=true --set transport.mode={} --set multipath.paths={} --set multipath.delay_step={}ns"
        " --set sack.reorder_limit={} --format json",
        seed % 5, seed % 2 ? "sack" : "gbn", paths, step_ns, limit);
    const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) + args);
    INFO(args << "\n" << r.out);
    REQUIRE(r.status == 0);
    const Value row = ubsim::json::parse(r.out).get("results")->items.at(0);
    CHECK(row.num("ops") == 6);
    CHECK(row.num("failed") == 0);
    CHECK(row.num("retransmitted_packets") >= 1);   // the scripted loss at least
    for (const auto& s : row.get("stats")->items)
      if (s.str("name") == "reorder_drops") drops += static_cast<uint64_t>(s.num("value"));
  }
  CHECK(drops > 0);   // the one-packet limits dropped what arrived above a hole
}

TEST_CASE("multipath: --drop loses one PSN in every case and its recovery is measured beside the hand schedule",
          "[multipath]") {
  const Value rows = results("--cases rr-2x1us,one-path --drop 3 --transport sack --sender source");
  for (const auto& r : rows.items) {
    INFO(r.str("case"));
    CHECK(r.num("resent_bytes") == 4096);
    // resent one RTO (20 us) after its first send ended, then its flight
    CHECK(r.num("recovery_us") > 20.0);
    CHECK(r.num("recovery_us") == Approx(r.num("recovery_us_derived")).epsilon(0.01));
    CHECK(r.flag("exactly_once"));
  }
  const auto bad = ubsim::test::run_command(std::string(UBSIM_BIN) + " multipath --cases one-path --drop 8");
  CHECK(bad.status == 2);
  CHECK(bad.out.find("--drop") != std::string::npos);
}
