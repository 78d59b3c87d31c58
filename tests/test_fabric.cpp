// The switched fabric (spec §16): the ECMP table from the textbook's balls
// into bins, packet-level completion against the busiest uplink, the
// topology file's checks, and today's two nodes written as a topology.
// Packet times from the spec: 4 KiB + the 32 B header at 50 GB/s = 82.56 ns.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "json_value.h"
#include "run_command.h"

namespace fs = std::filesystem;
using ubsim::json::Value;
using ubsim::test::Run;

namespace {

constexpr double kPacketNs = 82.56;   // 4128 B at 50 GB/s
constexpr double kLinkDelayNs = 100;  // wire.latency, every fabric link by default

Run ubsim_run(const std::string& args) { return ubsim::test::run_command(std::string(UBSIM_BIN) + " " + args); }

Value results(const std::string& args) {
  const Run r = ubsim_run(args + " --format json");
  INFO(args << "\n" << r.out);
  REQUIRE(r.status == 0);
  const Value doc = ubsim::json::parse(r.out);
  REQUIRE(doc.get("results"));
  return *doc.get("results");
}

const Value& row_where(const Value& rows, const std::string& field, const std::string& value) {
  for (const auto& r : rows.items)
    if (r.get(field) && r.get(field)->text == value) return r;
  FAIL("no row with " << field << " = " << value);
  return rows.items.front();
}

fs::path write_topology(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("ubsim_fabric_test_{}", ::getpid());
  fs::create_directories(dir);
  const fs::path p = dir / (name + ".toml");
  std::ofstream(p) << text;
  return p;
}

std::string node(const std::string& name, const std::string& kind = "source") {
  return fmt::format("[[topology.node]]\nname = \"{}\"\nkind = \"{}\"\n", name, kind);
}
std::string sw(const std::string& name) { return fmt::format("[[topology.switch]]\nname = \"{}\"\n", name); }
std::string cable(const std::string& a, const std::string& b, const std::string& extra = "") {
  return fmt::format("[[topology.link]]\nfrom = \"{}\"\nto = \"{}\"\n{}", a, b, extra);
}

}  // namespace

TEST_CASE("ecmp: E[L_max] and the group's speed are the balls-into-bins table of spec 16", "[fabric][ecmp]") {
  const Value rows = results("ecmp");
  struct Target {
    int n, m;
    double e_lmax, speed, p_none;   // p_none < 0: not given
  };
  const Target targets[] = {{8, 32, 1.665, 0.601, 0.386},
                            {8, 16, 2.063, 0.485, 0.121},
                            {32, 32, 3.533, 0.283, -1},
                            {32, 16, 4.830, 0.414, -1},
                            {128, 16, 13.357, 0.599, -1}};
  REQUIRE(rows.items.size() == 5);
  for (const Target& t : targets) {
    INFO(t.n << " flows on " << t.m << " uplinks");
    const Value* row = nullptr;
    for (const auto& r : rows.items)
      if (r.num("flows") == t.n && r.num("uplinks") == t.m) row = &r;
    REQUIRE(row);
    CHECK(row->num("seeds") >= 2000);
    // the switch's hash over the seeds, within 2 % of the table
    CHECK(row->num("e_lmax") == Approx(t.e_lmax).epsilon(0.02));
    CHECK(row->num("speed_hash") == Approx(t.speed).epsilon(0.02));
    if (t.p_none >= 0) CHECK(row->num("p_ideal") == Approx(t.p_none).margin(0.02));
    // the exact uniform value beside it, to the table's digits
    CHECK(row->num("e_lmax_derived") == Approx(t.e_lmax).epsilon(0.001));
    // packet level: every seed's busiest uplink carried the flows the hash
    // put there, and finished L_max times one flow's uplink time
    CHECK(row->num("sim_seeds") == 20);
    CHECK(row->num("sim_agrees") == 20);
    CHECK(row->num("uplink_error_packets") <= 1.0);
    CHECK(row->num("t_error_packets") <= 1.0);
    CHECK(row->num("lost") == 0);
    // one flow of 64 packets alone: 64 packet times on the first link,
    // then three more store-and-forward hops, four propagation delays
    CHECK(row->num("t1_us") * 1e3 == Approx((64 + 3) * kPacketNs + 4 * kLinkDelayNs).margin(0.01));
    // collision-free: ceil(n/m) flows per uplink, each adding its 64 packets
    const int per_uplink = (t.n + t.m - 1) / t.m;
    CHECK(row->num("t_free_us") * 1e3 ==
          Approx((64 + 3) * kPacketNs + 4 * kLinkDelayNs + (per_uplink - 1) * 64 * kPacketNs).margin(0.01));
    // the packets see collisions: slower than collision-free on average
    CHECK(row->num("t_mean_us") > row->num("t_free_us"));
  }
}

TEST_CASE("fabric: incast through one switch fills the egress queue at twice the line rate", "[fabric]") {
  const Value rows = results("fabric --config " UBSIM_CONFIGS "/fabric-incast.toml");
  const Value& egress = row_where(rows, "name", "link_sw_to_sink_3");
  CHECK(egress.num("frames") == 192);
  CHECK(egress.num("flows") == 3);
  // three packets arrive per packet time and one leaves: after the last
  // arrivals (64 rounds) 129 frames are queued or in serialization
  CHECK(egress.num("queue_max_bytes") == 129 * 4128);
  double last = 0;
  for (const auto& r : rows.items)
    if (r.str("row") == "flow") {
      CHECK(r.num("delivered") == 64);
      last = std::max(last, r.num("done_us"));
    }
  // the egress is busy from the first arrival (one packet time + delay) for 192 packet times
  CHECK(last * 1e3 == Approx(193 * kPacketNs + 2 * kLinkDelayNs).margin(0.01));
  // the sources' own links never queue beyond the frame in serialization
  CHECK(row_where(rows, "name", "link_s0_to_sw_0").num("queue_max_bytes") == 4128);
}

TEST_CASE("fabric: flow_rr places the leaf-spine example's four flows two per uplink", "[fabric]") {
  const Value rows = results("fabric --config " UBSIM_CONFIGS "/fabric-leaf-spine.toml --set fabric.ecmp=flow_rr");
  CHECK(row_where(rows, "name", "link_leaf0_to_spine0_4").num("flows") == 2);
  CHECK(row_where(rows, "name", "link_leaf0_to_spine1_5").num("flows") == 2);
}

TEST_CASE("topology: today's two nodes written as a topology give the default's figures byte for byte", "[fabric][cli]") {
  for (const char* exp : {"latency --path all --ops 300", "latency --path ub-async --ops 200 --outstanding 8 --drop 3"}) {
    INFO(exp);
    // (each row's "sim" block is the simulator's own cost: wall time, memory)
    auto figures = [](Value rows) {
      for (auto& r : rows.items)
        r.fields.erase(std::remove_if(r.fields.begin(), r.fields.end(), [](const auto& f) { return f.first == "sim"; }),
                       r.fields.end());
      return rows;
    };
    const Value plain = figures(results(exp));
    const Value topo = figures(results(std::string(exp) + " --config " UBSIM_CONFIGS "/two-node.toml"));
    CHECK(plain.items.size() == (std::string(exp).find("all") != std::string::npos ? 3u : 1u));
    CHECK(ubsim::json::write(plain, true) == ubsim::json::write(topo, true));
  }
}

TEST_CASE("topology: a bad topology is refused with one line naming the file and the entry", "[fabric][cli]") {
  const std::string two = node("a") + node("b");
  struct Bad {
    std::string name, text, needle;
  };
  const Bad bad[] = {
      {"unknown_node", two + sw("s") + cable("a", "s") + cable("s", "c"), "topology.link[1]': unknown node or switch 'c'"},
      {"rate_zero", two + cable("a", "b", "rate = \"0GB/s\"\n"), "topology.link[0]': rate 0GB/s is not above 0"},
      {"no_route", two + sw("s0") + sw("s1") + cable("a", "s0") + cable("b", "s1"), "node 'a' has no route to node 'b'"},
      {"self_loop", two + sw("s") + cable("a", "s") + cable("b", "s") + cable("s", "s"),
       "topology.link[2]': a loop: a link from 's' to itself"},
      {"island_loop", two + cable("a", "b") + sw("x") + sw("y") + sw("z") + cable("x", "y") + cable("y", "z") + cable("z", "x"),
       "switch 'x' is reached from no node"},
      {"duplicate", two + node("a") + cable("a", "b"), "topology.node[2]': duplicate name 'a'"},
      {"unknown_field", two + cable("a", "b", "rat = \"50GB/s\"\n"), "unknown field 'rat'"},
      {"bad_name", node("a.b") + node("c") + cable("a.b", "c"), "name 'a.b' is not 1..64 letters"},
      {"two_ports", two + node("c") + sw("s") + cable("a", "b") + cable("a", "s") + cable("c", "s"), "a node has one port"},
  };
  for (const Bad& b : bad) {
    INFO(b.name);
    const fs::path p = write_topology(b.name, b.text);
    for (const char* exp : {"fabric", "latency --ops 5"}) {
      const Run r = ubsim_run(std::string(exp) + " --config " + p.string());
      INFO(exp << "\n" << r.out);
      CHECK(r.status == 2);
      CHECK(r.out.find(p.string()) != std::string::npos);
      CHECK(r.out.find(b.needle) != std::string::npos);
      CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    }
  }
  // a fabric of traffic sources has no controllers to run: the latency experiment says so
  const Run r = ubsim_run("latency --ops 5 --config " UBSIM_CONFIGS "/fabric-incast.toml");
  INFO(r.out);
  CHECK(r.status == 2);
  CHECK(r.out.find("has no pair of controller nodes") != std::string::npos);
  // what the fabric does not carry yet is refused, not run over one link
  for (const auto& [args, needle] : std::vector<std::pair<std::string, std::string>>{
           {"--loss 0.01", "key 'loss.data': loss on a switched fabric is not modelled yet"},
           {"--set transport.in_paths=true", "key 'transport.in_paths'"},
           {"--pair i0:i1", "option --pair: 'i0:i1' is not INITIATOR:TARGET"}}) {
    const Run f = ubsim_run("latency --ops 5 --config " UBSIM_CONFIGS "/four-node.toml " + args);
    INFO(args << "\n" << f.out);
    CHECK(f.status == 2);
    CHECK(f.out.find(needle) != std::string::npos);
  }
  // at once, a controller is an initiator or a target, not both
  const fs::path both = write_topology("both", node("a", "controller") + node("b", "controller") + sw("s") +
                                                   cable("a", "s") + cable("b", "s"));
  const Run c = ubsim_run("latency --ops 5 --concurrent --config " + both.string());
  INFO(c.out);
  CHECK(c.status == 2);
  CHECK(c.out.find("controller 'a' would be an initiator and a target in one run") != std::string::npos);
  CHECK(ubsim_run("latency --ops 5 --config " + both.string()).status == 0);   // each pair alone: fine
  fs::remove_all(write_topology("x", "").parent_path());
}

TEST_CASE("topology: four controllers on a switch read each other at today's latency plus one link each way", "[fabric]") {
  // Over one link (the default) and over the switch: a read's request (the
  // 32 B header) and response (64 B + header) each cross one more link of
  // 100 ns at 50 GB/s, store and forward.
  constexpr double kExtraNs = 2 * kLinkDelayNs + (32 + 96) / 50.0;
  constexpr double kCycleNs = 1e3 / 322.0;
  const Value one_link = results("latency --ops 300");
  const Value fabric = results("latency --ops 300 --config " UBSIM_CONFIGS "/four-node.toml");
  REQUIRE(fabric.items.size() == 12);   // three paths x (i0, i1) x (t0, t1)
  std::set<std::string> pairs;
  for (const auto& row : fabric.items) {
    const std::string path = row.str("path"), initiator = row.str("initiator"), target = row.str("target");
    INFO(path << " " << initiator << " -> " << target);
    pairs.insert(initiator + ">" + target);
    const Value& base = row_where(one_link, "path", path);
    const double p50 = row.get("measured_total_ns")->num("p50"), base_p50 = base.get("measured_total_ns")->num("p50");
    // measured: the extra within the clock-edge alignment of the RTL blocks after the wire
    CHECK(p50 - base_p50 == Approx(kExtraNs).margin(2 * kCycleNs));
    CHECK(row.num("derived_fabric_ns") == Approx(kExtraNs).margin(1e-6));
    CHECK(row.num("derived_total_ns") == Approx(base.num("derived_total_ns")).margin(1e-9));
    double hops = -1, ser = -1, base_ser = -1;
    for (const auto& e : row.get("effects")->items) {
      if (e.str("cause").rfind("switch hops", 0) == 0) hops = e.num("ns");
      if (e.str("cause") == "wire serialization") ser = e.num("ns");
    }
    for (const auto& e : base.get("effects")->items)
      if (e.str("cause") == "wire serialization") base_ser = e.num("ns");
    CHECK(hops == Approx(2 * kLinkDelayNs).margin(1e-6));
    CHECK(ser == Approx(2 * base_ser).margin(1e-6));
    CHECK(std::abs(row.num("unexplained_ns")) < 0.01);
    // the pair's own links carried every request and response; the other initiator's none
    double mine = -1, other = -1;
    const std::string other_initiator = initiator == "i0" ? "i1" : "i0";
    for (const auto& s : row.get("stats")->items) {
      if (s.str("name") == "link_" + initiator + "_to_sw_0.frames") mine = s.num("value");
      if (s.str("name") == "link_" + other_initiator + "_to_sw_0.frames") other = s.num("value");
    }
    CHECK(mine == 300);
    CHECK(other == -1);
  }
  CHECK(pairs == std::set<std::string>{"i0>t0", "i0>t1", "i1>t0", "i1>t1"});
}

TEST_CASE("topology: every initiator reads every target at once over the switch", "[fabric]") {
  const Value alone = results("latency --ops 300 --config " UBSIM_CONFIGS "/four-node.toml");
  const Value together = results("latency --ops 300 --concurrent --config " UBSIM_CONFIGS "/four-node.toml");
  REQUIRE(together.items.size() == 12);
  constexpr double kCycleNs = 1e3 / 322.0;
  for (const auto& row : together.items) {
    const std::string path = row.str("path"), initiator = row.str("initiator"), target = row.str("target");
    INFO(path << " " << initiator << " -> " << target);
    CHECK(row.num("failed") == 0);
    CHECK(std::abs(row.num("unexplained_ns")) < 0.01);
    const Value* same = nullptr;
    for (const auto& r : alone.items)
      if (r.str("path") == path && r.str("initiator") == initiator && r.str("target") == target) same = &r;
    REQUIRE(same);
    const double p50 = row.get("measured_total_ns")->num("p50"), alone_p50 = same->get("measured_total_ns")->num("p50");
    double queueing = -1;
    for (const auto& e : row.get("effects")->items)
      if (e.str("cause") == "queueing") queueing = e.num("ns");
    // never faster than alone; what it adds is itemized as queueing (each
    // initiator's two sessions share its one CPU core and its links)
    CHECK(p50 >= alone_p50 - kCycleNs);
    CHECK(queueing >= 0);
    if (path != "pcie-nic") CHECK(p50 == Approx(alone_p50).margin(2 * kCycleNs));
    // each node's context cache holds one TP channel (QP) per peer:
    // ub-load reads only the channel, so two records at every node
    if (path == "ub-load")
      for (const auto& s : row.get("stats")->items)
        if (s.str("name") == "fills" && s.str("component").find("_ub_cache") != std::string::npos) CHECK(s.num("value") == 2);
  }
}

TEST_CASE("fabric: a finite switch buffer drops the incast and pause with quanta makes it lossless", "[fabric][congestion]") {
  const std::string base = "fabric --no-series --config " UBSIM_CONFIGS "/fabric-incast.toml --set fabric.buffer=128KiB";
  const Value lossy = results(base);
  const Value& egress = row_where(lossy, "name", "link_sw_to_sink_3");
  CHECK(egress.num("dropped") > 0);
  CHECK(egress.num("queue_max_bytes") <= 131072);
  // the sources' own queues never drop (their senders wait)
  CHECK(row_where(lossy, "name", "link_s0_to_sw_0").num("dropped") == 0);
  const Value paused = results(base + " --set fabric.pause=true --set fabric.pause_quanta=1us");
  CHECK(row_where(paused, "name", "link_sw_to_sink_3").num("dropped") == 0);
  for (const char* s : {"s0", "s1", "s2"}) {
    INFO(s);
    CHECK(row_where(paused, "name", std::string("link_") + s + "_to_sw_0").num("paused_us") > 0);
    // quanta of 1 us, refreshed every 0.5 us while above XON: more frames than pause/resume pairs alone
    const std::string port(1, s[1]);   // sN is the switch's port N
    const double frames = row_where(paused, "name", std::string("link_sw_to_") + s + "_" + port).num("pause_frames");
    CHECK(frames > 2);
  }
  for (const auto& r : paused.items)
    if (r.str("row") == "flow") CHECK(r.num("delivered") == 64);
}

TEST_CASE("fabric: a shared switch buffer drops what would pass it and counts it at the queue it was for", "[fabric][congestion]") {
  // the incast's egress queue alone could take 1 MiB; the switch's shared 64 KiB binds
  const Value r = results("fabric --no-series --config " UBSIM_CONFIGS
                          "/fabric-incast.toml --set fabric.buffer=1MiB --set fabric.shared_buffer=64KiB");
  const Value& egress = row_where(r, "name", "link_sw_to_sink_3");
  CHECK(egress.num("queue_max_bytes") <= 65536);
  CHECK(egress.num("dropped") > 0);
  CHECK(egress.num("shared_dropped") == egress.num("dropped"));
  double delivered = 0, dropped = 0;
  for (const auto& x : r.items)
    if (x.str("row") == "flow") {
      CHECK(x.num("delivered") + x.num("dropped") == 64);
      delivered += x.num("delivered");
      dropped += x.num("dropped");
    }
  CHECK(dropped == egress.num("dropped"));
  CHECK(delivered == egress.num("frames"));
}
