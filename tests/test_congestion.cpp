// Congestion, open loop (spec §17): the fluid figures dQ/dt = lambda - B
// measured at a switch's finite or unbounded output queue, packet by packet
// (4 KiB + 32 B at 50 GB/s: 82.56 ns per packet).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>

#include <fmt/format.h>
#include <unistd.h>

#include "experiment.h"
#include "fabric_link.h"
#include "json_value.h"
#include "run_command.h"

using ubsim::json::Value;
namespace json = ubsim::json;

namespace {

constexpr double kPacketUs = 0.08256;

const Value& point(const Value& rows, const std::string& label) {
  for (const auto& r : rows.items)
    if (r.str("point") == label) return r;
  FAIL("no point " << label);
  return rows.items.front();
}

}  // namespace

TEST_CASE("congestion: backlog, full time, drops and drain against the fluid model of spec 17", "[congestion]") {
  const auto run =
      ubsim::test::run_command(std::string(UBSIM_BIN) + " congestion --scenarios two-jobs,step,incast --format json");
  INFO(run.out);
  REQUIRE(run.status == 0);
  const Value rows = *ubsim::json::parse(run.out).get("results");
  // two jobs of 20 ms at 50 GB/s into 50 GB/s: 1000 MB when they coincide,
  // 250 MB with 5 ms overlap, nothing 20 ms apart; the full overlap drains
  // 20 ms after the senders stop
  CHECK(point(rows, "overlap 20 ms").num("peak_backlog_bytes") == Approx(1000e6).epsilon(0.001));
  CHECK(point(rows, "overlap 5 ms").num("peak_backlog_bytes") == Approx(250e6).epsilon(0.001));
  CHECK(point(rows, "overlap 0 ms").num("peak_backlog_bytes") <= 2 * 4128);
  CHECK(point(rows, "overlap 20 ms").num("drain_after_stop_us") == Approx(20000).epsilon(0.001));
  // 100 GB/s into 50 GB/s, 256 of 512 KiB free: full at 5.24 us; stepped to
  // 40 GB/s at 20 us: 737,856 B dropped, empty at 72.4 us; at 50 GB/s it stays full
  const Value& step40 = point(rows, "100 then 40 GB/s at 20 us");
  // (a packet that does not fit is dropped: at most one packet time before
  // the fluid instant, plus the 16 B the 256 KiB pre-fill carries over in headers)
  CHECK(std::abs(step40.num("full_at_us") - 5.24288) <= kPacketUs + 0.001);
  CHECK(step40.num("dropped_bytes") == Approx(737856).epsilon(0.015));
  CHECK(step40.num("empty_at_us") == Approx(72.4288).epsilon(0.015));
  const Value& step50 = point(rows, "100 then 50 GB/s at 20 us");
  CHECK(step50.get("empty_at_us")->kind == Value::Null);
  CHECK(step50.num("dropped_bytes") == step40.num("dropped_bytes"));
  // incast of N - 1 senders at 50 GB/s into 50 GB/s: full after free / ((N - 2) x 50 GB/s)
  struct Incast {
    const char* label;
    double full_us;
  };
  for (const Incast& c : {Incast{"N=8 with 1 MiB free", 3.50}, Incast{"N=16 with 1 MiB free", 1.50},
                          Incast{"N=64 with 1 MiB free", 0.34}, Incast{"N=8 with 4 MiB free", 13.98},
                          Incast{"N=16 with 4 MiB free", 5.99}, Incast{"N=64 with 4 MiB free", 1.35}}) {
    INFO(c.label);
    const Value& r = point(rows, c.label);
    CHECK(r.num("full_at_us_derived") == Approx(c.full_us).margin(0.006));
    // every sender's packet lands with the others': within one packet time
    CHECK(std::abs(r.num("full_at_us") - r.num("full_at_us_derived")) <= kPacketUs);
    CHECK(r.num("dropped_packets") > 0);
    // never more in the queue than it holds
    CHECK(r.num("peak_backlog_bytes") <= r.num("buffer_bytes"));
  }
}

TEST_CASE("pause: incast over 30 m cables needs the headroom the one-hop feedback takes and loses nothing with it", "[congestion]") {
  const auto run = ubsim::test::run_command(std::string(UBSIM_BIN) + " congestion --scenarios pause --format json");
  INFO(run.out);
  REQUIRE(run.status == 0);
  const Value rows = *ubsim::json::parse(run.out).get("results");
  // one hop's feedback: 150 ns of cable each way, the sender's 4128 B packet
  // in serialization (82.56 ns), the 64 B pause frame (1.28 ns) = 0.38 us (spec 17)
  constexpr double kFeedbackUs = 0.3 + kPacketUs + 0.00128;
  for (int n : {8, 16, 64}) {
    INFO("N = " << n);
    const Value& free = point(rows, "N=" + std::to_string(n));
    CHECK(free.num("feedback_us_derived") == Approx(kFeedbackUs).margin(1e-6));
    CHECK(free.num("headroom_bytes_derived") == Approx((n - 2) * 50e3 * kFeedbackUs).epsilon(1e-5));   // (6 digits in the document)
    CHECK(free.num("pauses_sent") > 0);
    CHECK(free.num("pauses_sent") == free.num("resumes_sent"));
    CHECK(free.num("dropped_packets") == 0);
    // each port takes in at most its derived headroom and the packet that crossed XOFF
    CHECK(free.num("port_headroom_bytes") <= free.num("port_headroom_bytes_derived") + 4128);
    CHECK(free.num("port_headroom_bytes") >= free.num("port_headroom_bytes_derived") - 4128);
    // the switch as a whole: the ports cross XOFF up to a packet time apart
    CHECK(free.num("headroom_bytes") >= free.num("headroom_bytes_derived") - (n - 1) * 4128);
    CHECK(free.num("headroom_bytes") <= free.num("headroom_bytes_derived") + (n - 1) * 4128);
    CHECK(free.num("feedback_us") <= kFeedbackUs + kPacketUs + 1e-6);
    // the buffer sized to XOFF alone drops; with the headroom nothing is lost
    CHECK(point(rows, "N=" + std::to_string(n) + " no headroom").num("dropped_packets") > 0);
    const Value& sized = point(rows, "N=" + std::to_string(n) + " with headroom");
    CHECK(sized.num("dropped_packets") == 0);
    CHECK(sized.num("delivered_packets") == free.num("delivered_packets"));
  }
}

TEST_CASE("pause-switch: 1500 B packets over 30 m, XOFF on the bytes held in all: the spec's headroom, and the "
          "boundary of loss within a packet of it", "[congestion]") {
  const auto run = ubsim::test::run_command(std::string(UBSIM_BIN) +
                                            " congestion --scenarios pause-switch --series-bins 0 --format json");
  INFO(run.out);
  REQUIRE(run.status == 0);
  const Value rows = *ubsim::json::parse(run.out).get("results");
  // spec 17: one-hop feedback 150 + 150 ns of cable + 30 ns for the 1500 B
  // packet on the wire = 0.33 us (and the 64 B pause frame, 1.28 ns);
  // headroom (N - 2) x 50 GB/s x 0.33 us = 99 / 231 / 1023 KB
  const std::map<int, double> spec_headroom{{8, 99e3}, {16, 231e3}, {64, 1023e3}};
  for (const auto& [n, kb] : spec_headroom) {
    INFO("N = " << n);
    const std::string at = "N=" + std::to_string(n) + " 1500 B packets, ";
    const Value& sized = point(rows, at + "XOFF = free - headroom");
    CHECK(sized.num("packet_bytes") == 1500);
    CHECK(sized.num("feedback_us_derived") == Approx(0.33128).margin(1e-5));
    CHECK(sized.num("feedback_us") == Approx(0.33).epsilon(0.01));
    CHECK(sized.num("headroom_bytes_derived") == Approx(kb).epsilon(0.01));
    // the worst phase of the senders' packets takes the derived headroom, to 1 %
    CHECK(sized.num("headroom_bytes") == Approx(sized.num("headroom_bytes_derived")).epsilon(0.01));
    CHECK(sized.num("headroom_bytes") == Approx(kb).epsilon(0.01));
    CHECK(sized.num("pause_xoff_bytes") ==
          Approx(1048576 - std::ceil(sized.num("headroom_bytes_derived"))).margin(1));
    // at most the frame the egress is still sending beyond the fluid headroom
    CHECK(sized.num("dropped_bytes") <= 1500);
    // one packet more headroom loses nothing in any phase; one packet less loses
    const Value& more = point(rows, at + "one packet more headroom");
    CHECK(more.num("dropped_bytes") == 0);
    CHECK(more.num("pauses_sent") > 0);
    CHECK(more.num("resumes_sent") == more.num("pauses_sent"));
    CHECK(point(rows, at + "one packet less headroom").num("dropped_bytes") > 0);
  }
  // at the default 4 KiB packets the feedback is 0.38 us: the headroom sized
  // for 1500 B loses about what the longer feedback brings in
  const Value& big = point(rows, "N=64 4128 B packets, XOFF = free - the 1500 B headroom");
  CHECK(big.num("feedback_us_derived") == Approx(0.38384).margin(1e-5));
  CHECK(big.num("dropped_bytes_derived") == Approx(62 * 50e3 * (0.38384 - 0.33128)).epsilon(0.001));
  CHECK(big.num("dropped_bytes") == Approx(big.num("dropped_bytes_derived")).epsilon(0.05));
}

namespace {

// Records when each frame's last byte arrived.
struct ArrivalLog : sc_core::sc_module, ubsim::FrameIn {
  std::vector<uint64_t> at;
  explicit ArrivalLog(sc_core::sc_module_name n) : sc_module(n) {}
  void put(ubsim::Frame&, int) override { at.push_back(sc_core::sc_time_stamp().value()); }
};

}  // namespace

TEST_CASE("pause: a pause that is never resumed expires after its quanta", "[congestion]") {
  const auto rows = ubsim::rows_in_child([] {
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
    // 50 GB/s, no propagation: a 5000 B frame takes 100 ns
    auto& link = *new ubsim::FabricLink("link", 50e9, 0, 0, false);
    auto& log = *new ArrivalLog("log");
    link.out.bind(log);
    auto* frames = new ubsim::Frame[3];
    for (int i = 0; i < 3; ++i) frames[i].bytes = 5000;
    // paused at 0 for 1 us, and no resume ever comes; three frames queued
    link.pause(true, 1000000000);
    for (int i = 0; i < 3; ++i) link.send(frames[i]);
    sc_core::sc_start();
    json::Value v = json::Value::object().add("paused_ns", json::Value::number(link.paused_fs() / 1e6));
    json::Value at = json::Value::array();
    for (uint64_t t : log.at) at.items.push_back(json::Value::number(static_cast<double>(t) / 1e6));
    v.add("arrivals_ns", at);
    return std::vector<json::Value>{v};
  });
  const json::Value& r = rows.at(0);
  const auto& at = r.get("arrivals_ns")->items;
  REQUIRE(at.size() == 3);
  // nothing starts before the quanta run out; then back to back
  CHECK(std::stod(at[0].text) == Approx(1100));
  CHECK(std::stod(at[1].text) == Approx(1200));
  CHECK(std::stod(at[2].text) == Approx(1300));
  CHECK(r.num("paused_ns") == Approx(1000));
}

TEST_CASE("pause: random incasts with the derived headroom lose nothing and count their pause frames", "[congestion]") {
  // N - 1 sources at line rate, random sizes and start offsets, into one
  // egress; every port's XOFF plus the one-hop headroom (two 100 ns links,
  // a 4128 B packet and the 64 B pause frame at 50 GB/s) and a packet
  const double feedback_s = 2 * 100e-9 + 4128 / 50e9 + 64 / 50e9;
  for (int seed = 1; seed <= 6; ++seed) {
    const int senders = 3 + (seed * 7) % 10;
    const uint64_t headroom = static_cast<uint64_t>(std::ceil(50e9 * feedback_s));
    const uint64_t buffer = senders * (16384 + headroom + 4128);
    const auto dir = std::filesystem::temp_directory_path() / fmt::format("ubsim-incast-{}-{}", getpid(), seed);
    std::filesystem::create_directories(dir);
    std::ofstream toml(dir / "incast.toml");
    toml << "fabric.pause = true\nfabric.buffer = \"" << buffer << "B\"\n[[topology.switch]]\nname = \"sw\"\n"
         << "[[topology.node]]\nname = \"sink\"\nkind = \"source\"\n[[topology.link]]\nfrom = \"sw\"\nto = \"sink\"\n";
    for (int s = 0; s < senders; ++s)
      toml << "[[topology.node]]\nname = \"s" << s << "\"\nkind = \"source\"\n[[topology.link]]\nfrom = \"s" << s
           << "\"\nto = \"sw\"\n[[topology.flow]]\nfrom = \"s" << s << "\"\nto = \"sink\"\nbytes = \""
           << 64 + (seed * 31 + s * 17) % 256 << "KiB\"\nstart = \"" << (seed * 13 + s * 29) % 2000 << "ns\"\n";
    toml.close();
    const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) + " fabric --no-series --format json --config " +
                                            (dir / "incast.toml").string());
    std::filesystem::remove_all(dir);
    INFO("seed " << seed << " senders " << senders << "\n" << r.out);
    REQUIRE(r.status == 0);
    double pause_frames = 0, dropped = 0, paused_us = 0;
    const Value doc = ubsim::json::parse(r.out);
    for (const auto& row : doc.get("results")->items) {
      if (row.str("row") == "flow") CHECK(row.num("delivered") == row.num("packets"));
      if (row.str("row") != "link") continue;
      dropped += row.num("dropped");
      pause_frames += row.num("pause_frames");
      paused_us += row.num("paused_us");
    }
    CHECK(dropped == 0);
    CHECK(pause_frames > 0);
    CHECK(paused_us > 0);
  }
}

TEST_CASE("pause: the controller's send pipeline stalls on its paused link and resumes without loss", "[congestion]") {
  const std::string cmd = std::string(UBSIM_BIN) + " latency --config " UBSIM_CONFIGS
                          "/pause-controller.toml --path ub-async --verb write --size 64KiB --ops 20 --outstanding 4"
                          " --format json";
  const auto r = ubsim::test::run_command(cmd);
  INFO(r.out);
  REQUIRE(r.status == 0);
  const json::Value row = ubsim::json::parse(r.out).get("results")->items.at(0);
  CHECK(row.num("ops") == 20);
  CHECK(row.num("failed") == 0);   // every write's bytes placed once (the application checks)
  std::map<std::string, double> st;
  for (const auto& s : row.get("stats")->items) st[s.str("component") + "." + s.str("name")] = s.num("value");
  // the switch paused i0's link, and its RTL pipeline waited on m_ready
  CHECK(st["sys.fabric_wire.link_i0_to_sw_0.pauses_received"] > 0);
  CHECK(st["sys.fabric_wire.link_i0_to_sw_0.paused_ns"] > 0);
  CHECK(st["sys.i0_ub_tx.output_blocked_cycles"] > 0);
  // the link held at most its transmit FIFO: one packet behind the one in serialization
  CHECK(st["sys.fabric_wire.link_i0_to_sw_0.queue_max"] <= 2 * (65536 / 16 + 32));
  // lossless: nothing dropped at the switch, every source packet delivered
  CHECK(st["sys.fabric_wire.link_sw_to_t0_1.dropped"] == 0);
  for (const char* s : {"s0", "s1", "s2"})
    CHECK(st[std::string("sys.fabric_wire.flow.") + s + "_to_t0.delivered"] == 256);
}

TEST_CASE("congestion controller: a UB controller among the senders stalls under pause and loses nothing", "[congestion]") {
  const auto run = ubsim::test::run_command(std::string(UBSIM_BIN) +
                                            " congestion --scenarios controller,controller-feedback --format json");
  INFO(run.out);
  REQUIRE(run.status == 0);
  const Value rows = *ubsim::json::parse(run.out).get("results");
  const Value& row = rows.items.at(0);
  // closed loop: t0 echoes each ECN-marked packet of i0 as a CNP over the
  // fabric, i0's verilated rate limiter cuts (at most once per
  // limiter.interval) and its pipeline waits on it as well as on the pause
  const Value& fb = rows.items.at(1);
  CHECK(fb.str("scenario") == "controller-feedback");
  CHECK(fb.num("ecn_marked") > 0);
  CHECK(fb.num("rate_cuts") >= 1);
  CHECK(fb.num("senders_rate_end_GBps") < 50);
  CHECK(fb.num("feedback_delay_us") > 0);
  CHECK(fb.num("controller_blocked_cycles") > row.num("controller_blocked_cycles"));
  CHECK(fb.num("controller_writes") == 20);
  CHECK(fb.num("controller_writes_failed") == 0);
  CHECK(fb.num("dropped_packets") == 0);
  CHECK(row.str("scenario") == "controller");
  CHECK(row.num("controller_writes") == 20);
  CHECK(row.num("controller_writes_failed") == 0);
  CHECK(row.num("controller_blocked_cycles") > 0);   // its RTL pipeline waited on m_ready
  CHECK(row.num("controller_paused_us") > 0);
  CHECK(row.num("pauses_sent") > 0);
  CHECK(row.num("dropped_packets") == 0);
  CHECK(row.num("delivered_packets") == 3 * 256);   // every source packet
  CHECK(row.num("peak_backlog_bytes") <= row.num("buffer_bytes"));
}

TEST_CASE("pause: bad buffer and threshold settings are refused in one line naming the key", "[congestion]") {
  const std::string fabric = std::string(UBSIM_BIN) + " fabric --config " UBSIM_CONFIGS "/fabric-incast.toml";
  struct Bad {
    std::string args, key;
  };
  for (const Bad& b : {Bad{" --set fabric.pause=true --set fabric.pause_xon=32KiB", "fabric.pause_xon"},
                       Bad{" --set fabric.pause=true --set fabric.pause_xon=16KiB", "fabric.pause_xon"},
                       Bad{" --set fabric.buffer=1KiB", "fabric.buffer"},
                       Bad{" --set fabric.pause=true --set fabric.buffer=16KiB", "fabric.buffer"},
                       Bad{" --set fabric.pause_xoff=-1B", "fabric.pause_xoff"}}) {
    const auto r = ubsim::test::run_command(fabric + b.args);
    INFO(b.args << "\n" << r.out);
    CHECK(r.status == 2);
    CHECK(r.out.find("key '" + b.key + "'") != std::string::npos);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') <= 1);
  }
  // the same checks guard a latency run over a fabric and the congestion runs
  const auto c = ubsim::test::run_command(std::string(UBSIM_BIN) + " congestion --set fabric.pause_xon=16KiB");
  CHECK(c.status == 2);
  CHECK(c.out.find("fabric.pause_xon") != std::string::npos);
}

TEST_CASE("congestion: the series against time follow the queue, the drops, the pauses and each sender's rate", "[congestion]") {
  const auto run = ubsim::test::run_command(std::string(UBSIM_BIN) +
                                            " congestion --scenarios two-jobs,step,pause --job-us 2000 --series-bins 100 --format json");
  INFO(run.out);
  REQUIRE(run.status == 0);
  const Value rows = *ubsim::json::parse(run.out).get("results");
  auto numbers = [](const Value& a) {
    std::vector<double> v;
    for (const auto& x : a.items) v.push_back(std::stod(x.text));
    return v;
  };
  for (const auto& r : rows.items) {
    INFO(r.str("point"));
    const Value& s = *r.get("series");
    const auto q = numbers(*s.get("queue_bytes"));
    REQUIRE(q.size() == 100);
    // the bins' largest occupancy is the point's peak
    CHECK(*std::max_element(q.begin(), q.end()) == r.num("peak_backlog_bytes"));
    // drops so far end at the point's drops; pause frames sum to its counts
    CHECK(numbers(*s.get("dropped_bytes")).back() == r.num("dropped_bytes"));
    const auto xoff = numbers(*s.get("xoff_frames")), xon = numbers(*s.get("xon_frames"));
    CHECK(std::accumulate(xoff.begin(), xoff.end(), 0.0) == r.num("pauses_sent"));
    CHECK(std::accumulate(xon.begin(), xon.end(), 0.0) == r.num("resumes_sent"));
    // the egress never runs above its 50 GB/s (a packet's rounding per bin aside)
    for (double g : numbers(*s.get("egress_GBps"))) CHECK(g <= 50 * 1.05);
    if (r.str("scenario") == "two-jobs") {
      // each job at 50 GB/s while it sends; the fluid queue's peak within 2 % of the measured one
      for (const auto& [name, v] : s.get("sender_GBps")->fields) {
        const auto rate = numbers(v);
        CHECK(*std::max_element(rate.begin(), rate.end()) == Approx(50).epsilon(0.05));
      }
      const auto fluid = numbers(*s.get("queue_bytes_derived"));
      if (r.num("peak_backlog_bytes") > 1e6)
        CHECK(*std::max_element(fluid.begin(), fluid.end()) == Approx(r.num("peak_backlog_bytes")).epsilon(0.02));
    }
    if (r.str("scenario") == "pause") CHECK(s.get("queue_bytes_derived")->kind == Value::Null);
  }
}

TEST_CASE("feedback: ECN marks, the CNP echo and the RTL rate limiter close the loop of spec 17", "[congestion]") {
  const auto run = ubsim::test::run_command(std::string(UBSIM_BIN) + " congestion --feedback --series-bins 0 --format json");
  INFO(run.out);
  REQUIRE(run.status == 0);
  const Value rows = *ubsim::json::parse(run.out).get("results");
  // the figure 7-43 case closed loop: drops = (lambda - B) x T_f - Q_free within
  // 2 %, T_f the run's own (about 20 us over this path)
  const Value& step = point(rows, "100 GB/s cut to 40 GB/s by the first CNP");
  CHECK(step.num("feedback_delay_us") == Approx(20).epsilon(0.05));
  const double lambda_minus_b = 50e9, free = 262144;
  const double derived = lambda_minus_b * step.num("feedback_delay_us") * 1e-6 - free;
  CHECK(step.num("closed_loop_dropped_bytes_derived") == Approx(derived).epsilon(1e-5));   // (6 digits in the document)
  CHECK(step.num("dropped_bytes") == Approx(derived).epsilon(0.02));
  CHECK(step.num("rate_cuts") == 1);
  CHECK(step.num("senders_rate_end_GBps") == Approx(40).epsilon(0.01));
  CHECK(step.num("ecn_marked") > 0);
  CHECK(step.num("cnps_sent") > 0);
  // each sender cut to its fair share 50 / (N - 1) GB/s by its first notification:
  // 1 MiB free holds N = 3 and loses at N = 4; 4 MiB holds N = 6 and loses at N = 7
  struct Case {
    const char* label;
    bool loses;
  };
  for (const Case& c : {Case{"N=3 with 1 MiB free cut to the fair share", false},
                        Case{"N=4 with 1 MiB free cut to the fair share", true},
                        Case{"N=6 with 4 MiB free cut to the fair share", false},
                        Case{"N=7 with 4 MiB free cut to the fair share", true}}) {
    INFO(c.label);
    const Value& r = point(rows, c.label);
    CHECK((r.num("dropped_bytes") > 0) == c.loses);
    CHECK((r.num("closed_loop_dropped_bytes_derived") > 0) == c.loses);
    CHECK(r.num("feedback_delay_us") == Approx(20).epsilon(0.05));
    CHECK(r.num("senders_rate_end_GBps") == Approx(50).epsilon(0.01));
    // packets are dropped whole, and the N - 1 senders' packets land together
    if (c.loses)
      CHECK(std::abs(r.num("dropped_bytes") - r.num("closed_loop_dropped_bytes_derived")) <=
            std::max(0.02 * r.num("closed_loop_dropped_bytes_derived"), (r.num("senders")) * 4128.0));
  }
  // the tolerable feedback delay Q_free / (lambda - B) against the measured one
  for (int n : {8, 16, 64}) {
    INFO("N = " << n);
    const Value& r = point(rows, "N=" + std::to_string(n) + " with 1 MiB free");
    CHECK(r.num("tolerable_feedback_us_derived") == Approx(1048576.0 / ((n - 2) * 50e9) * 1e6).epsilon(1e-5));
    CHECK(r.num("feedback_delay_us") > r.num("tolerable_feedback_us_derived"));
    CHECK(r.num("dropped_bytes") == Approx(r.num("closed_loop_dropped_bytes_derived")).epsilon(0.02));
  }
  // the limiter's own cut (once per 20 us): a smaller factor drops less and finishes later
  const Value& quarter = point(rows, "N=6 with 4 MiB free x0.25 per 20 us");
  const Value& half = point(rows, "N=6 with 4 MiB free x0.5 per 20 us");
  const Value& three_q = point(rows, "N=6 with 4 MiB free x0.75 per 20 us");
  CHECK(quarter.num("dropped_bytes") < half.num("dropped_bytes"));
  CHECK(half.num("dropped_bytes") < three_q.num("dropped_bytes"));
  CHECK(quarter.num("done_us") > half.num("done_us"));
  CHECK(half.num("rate_cuts") > 5);   // halved again while the queue stays marked
  for (const auto& r : rows.items) {
    INFO(r.str("point"));
    CHECK(r.num("delivered_packets") + r.num("dropped_packets") > 0);
  }
}
