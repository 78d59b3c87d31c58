// Seeded fuzz of the configuration: random keys of the parameter table with
// random values (valid, on the boundaries, hostile), through --set and TOML
// files, on small runs of the experiments. Every run must exit 0 with finite
// figures or 2 with one line naming the problem; never crash, hang (a
// timeout), exit otherwise, or leave files behind. Bounded: a fixed number
// of runs, the size keys (ops, messages, ...) kept small so a run is short.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include <fmt/format.h>

#include "config.h"
#include "json_value.h"
#include "params.h"
#include "run_command.h"

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kHostile = {
    "", "-1", "0", "1", "1e400", "nan", "inf", "0x10", "3 0ns", "1e-20", "abc", "true", "false",
    "18446744073709551616", "999999999999999999999999999999999999999", "0.5", "-0ns", "1ns", "1s", "7us",
    "322MHz", "1Hz", "50GB/s", "1bit/s", "4KiB", "1MiB", "2.5", "1e3", "+4", ".5", "5.", "1e", "--", "💥"};

// Keys whose value sets the run's length: small values only (a realistic
// run of a billion reads is slow, not wrong).
const std::set<std::string> kSizeKeys = {"workload.ops", "ctx_cache.ops", "ctx_cache.max_warmup", "loss.messages",
                                         "workload.size", "workload.outstanding", "workload.endpoints", "workload.warmup"};

std::string value_for(const ubsim::ParamDef& d, std::mt19937_64& rng) {
  using ubsim::Unit;
  auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
  if (kSizeKeys.count(d.key)) return pick({"0", "1", "2", "3", "5", "-1", "1.5", "x", "", "0x3"});
  if (d.unit == Unit::Routes)
    return pick({"A:sw.submit", "A:ub.tx,A:wire.request,B:ub.rx,B:ub.tx,B:wire.response,A:ub.rx",
                 "A:ub.load_tx,A:wire.request,B:ub.load_rx,B:bus.traversal,B:ub.load_tx,B:wire.response,A:ub.load_rx",
                 "A:nope", "C:sw.submit", "", "A:wire.request,B:wire.response", "A:ub.tx,A:ub.tx"});
  switch (rng() % 4) {
    case 0: return d.default_text;
    case 1: return ubsim::format_value(d.unit, d.min);
    case 2: {
      if (std::isinf(d.max)) return d.default_text;
      return ubsim::format_value(d.unit, d.max);
    }
    default: return pick(kHostile);
  }
}

struct Experiment {
  std::string args;
};
const std::vector<Experiment> kRuns = {
    {"latency --path ub-load --ops 20"}, {"latency --path ub-async --ops 10"}, {"latency --path pcie-nic --ops 10"},
    {"issue-rate --stack both --burst 8"}, {"loss --messages 20 --loss 0.01 --mode sack"},
    {"ordering --scenario submit-to-wire"}};

}  // namespace

TEST_CASE("fuzz: random keys and values through --set and TOML: exit 0 with finite figures or 2 in one line",
          "[fuzz]") {
  std::mt19937_64 rng(20261130);
  const auto& table = ubsim::param_table();
  const fs::path dir = fs::temp_directory_path() / "ubsim_fuzz";
  fs::remove_all(dir);
  fs::create_directories(dir);
  int ok = 0, rejected = 0;
  for (int i = 0; i < 150; ++i) {
    const auto& exp = kRuns[rng() % kRuns.size()];
    std::string sets;
    std::string toml;
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < n; ++k) {
      const auto& d = table[rng() % table.size()];
      const std::string v = value_for(d, rng);
      if (i % 3 == 0) {   // through a TOML file: a string, or a bare number / bool
        const bool bare = !v.empty() && v.find_first_not_of("0123456789.-+e") == std::string::npos && rng() % 2;
        std::string quoted;
        for (char c : v) quoted += c == '"' ? std::string("\\\"") : std::string(1, c);
        toml += d.key + " = " + (bare ? v : (v == "true" || v == "false") && rng() % 2 ? v : "\"" + quoted + "\"") + "\n";
      } else {
        std::string q;
        for (char c : d.key + "=" + v) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        sets += " --set '" + q + "'";
      }
    }
    std::string config;
    if (!toml.empty()) {
      std::ofstream(dir / "c.toml") << toml;
      config = " --config c.toml";
    }
    const std::string cmd = "cd " + dir.string() + " && timeout 60 " + UBSIM_BIN + " " + exp.args + config + sets +
                            " --format json";
    const auto r = ubsim::test::run_command(cmd);
    INFO("run " << i << ": " << cmd << "\n" << toml << r.out.substr(0, 600));
    CHECK((r.status == 0 || r.status == 2));
    if (r.status == 2) {
      ++rejected;
      CHECK(r.out.rfind("ubsim: error: ", 0) == 0);
      CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    } else if (r.status == 0) {
      ++ok;
      // a valid document (a non-finite figure would be written as null, a
      // bare nan or inf would not parse) with its results
      bool parsed = false;
      try {
        const auto v = ubsim::json::parse(r.out);
        parsed = v.get("results") && !v.get("results")->items.empty();
        for (const auto& row : v.get("results")->items) {
          // a run in which every request failed has no latency (null), and says so
          const bool all_failed = row.get("failed") && row.get("ops") && row.get("failed")->text == row.get("ops")->text;
          for (const auto& [k, f] : row.fields)
            CHECK_FALSE((f.kind == ubsim::json::Value::Null && k != "reference_ns" && k != "cycles" && k != "error" &&
                         !(all_failed && (k == "unexplained_ns" || k == "latency_ns"))));
        }
      } catch (const std::exception&) {
      }
      CHECK(parsed);
    }
    fs::remove(dir / "c.toml");
    CHECK(fs::is_empty(dir));   // nothing left behind
  }
  // the mix exercised both outcomes
  CHECK(ok > 10);
  CHECK(rejected > 10);
}

// In process, no simulation: the value parsers of every key, and the TOML
// loader, over 100000 generated inputs (mutations of valid and hostile
// values, random bytes, numbers with every unit; TOML documents built from
// them). Each input is taken or refused with a ConfigError of one line that
// names the key; nothing else may be thrown, and the sanitizer build runs
// the same loop under ASan and UBSan.
TEST_CASE("fuzz: 100000 values and TOML documents through the configuration parsers - in process", "[fuzz]") {
  std::mt19937_64 rng(20261201);
  const auto& table = ubsim::param_table();
  const std::vector<std::string> units = {"", "ns", "us", "ms", "s", "fs", "ps", "MHz", "GHz", "Hz", "B", "KiB",
                                          "MiB", "GB/s", "Gbit/s", "ops/s", "Mops/s", "/us", "%", "x", "cycles"};
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  auto value = [&]() -> std::string {
    std::string v;
    switch (pick(6)) {
      case 0: v = kHostile[pick(kHostile.size())]; break;
      case 1: v = table[pick(table.size())].default_text; break;
      case 2: v = std::to_string(static_cast<int64_t>(rng()) >> pick(64)) + units[pick(units.size())]; break;
      case 3: v = fmt::format("{}{}", std::ldexp(static_cast<double>(rng() % 100000), static_cast<int>(pick(80)) - 40),
                              units[pick(units.size())]);
        break;
      case 4:
        for (size_t k = pick(12); k > 0; --k) v += static_cast<char>(rng() & 0xff);
        break;
      default: v = table[pick(table.size())].default_text + kHostile[pick(kHostile.size())]; break;
    }
    if (pick(8) == 0 && !v.empty()) v[pick(v.size())] = static_cast<char>(rng() & 0xff);   // one byte flipped
    return v;
  };
  const fs::path toml = fs::temp_directory_path() / "ubsim_fuzz_inprocess.toml";
  uint64_t accepted = 0, refused = 0;
  constexpr int kInputs = 100000;
  for (int i = 0; i < kInputs; ++i) {
    const ubsim::ParamDef& def = table[pick(table.size())];
    const std::string v = value();
    ubsim::Config cfg;
    try {
      if (i % 10 != 0) {
        cfg.apply_set(def.key + "=" + v);
      } else {   // one in ten: a TOML document (as a string, a bare value, or broken syntax)
        const auto dot = def.key.rfind('.');
        std::string text = dot == std::string::npos ? "" : "[" + def.key.substr(0, dot) + "]\n";
        const std::string leaf = dot == std::string::npos ? def.key : def.key.substr(dot + 1);
        switch (pick(3)) {
          case 0: text += leaf + " = \"" + v + "\"\n"; break;
          case 1: text += leaf + " = " + v + "\n"; break;
          default: text += v + "\n"; break;
        }
        std::ofstream(toml, std::ios::binary) << text;
        cfg.load_file(toml.string());
      }
      ++accepted;
    } catch (const ubsim::ConfigError& e) {
      const std::string what = e.what();
      INFO(def.key << " = '" << v << "': " << what);
      CHECK(what.find('\n') == std::string::npos);
      CHECK(!what.empty());
      ++refused;
    }
  }
  CHECK(accepted + refused == kInputs);
  CHECK(accepted > 1000);
  CHECK(refused > 1000);
  WARN("in-process fuzz: " << kInputs << " inputs, " << accepted << " accepted, " << refused << " refused");
}

// Random topologies: devices, links (hostile names, rates, delays, buffers,
// self links, unknown ends, missing fields) and flows; every document is
// read whole and either accepted (then every node reaches every other one
// and forwarding never loops) or refused with one line naming the file.
TEST_CASE("fuzz: 3000 random topologies through the topology checks - in process", "[fuzz][fabric]") {
  std::mt19937_64 rng(20261202);
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  const std::vector<std::string> rates = {"50GB/s", "0GB/s", "-1GB/s", "1bit/s", "", "50", "x", "1e30GB/s", "400Gbit/s"};
  const std::vector<std::string> delays = {"100ns", "0ns", "-5ns", "1s", "", "7", "1e400ns"};
  const fs::path toml = fs::temp_directory_path() / "ubsim_fuzz_topology.toml";
  uint64_t accepted = 0, refused = 0;
  for (int i = 0; i < 3000; ++i) {
    const size_t nodes = pick(6), switches = pick(4), links = pick(10), flows = pick(3);
    std::vector<std::string> names;
    std::string text;
    auto name = [&](size_t k) {
      switch (pick(60)) {
        case 0: return std::string("a.b");
        case 1: return std::string("");
        case 2: return std::string("\x01" "x");
        default: return fmt::format("d{}", k);
      }
    };
    for (size_t k = 0; k < nodes; ++k) {
      names.push_back(name(k));
      text += fmt::format("[[topology.node]]\nname = \"{}\"\nkind = \"{}\"\n", names.back(),
                          pick(40) == 0 ? "router" : pick(2) ? "controller" : "source");
      if (pick(6) == 0) text += "role = \"target\"\n";
    }
    for (size_t k = 0; k < switches; ++k) {
      names.push_back(name(nodes + k));
      text += fmt::format("[[topology.switch]]\nname = \"{}\"\n", names.back());
    }
    auto end = [&]() { return names.empty() || pick(10) == 0 ? std::string("nowhere") : names[pick(names.size())]; };
    if (pick(2) && switches > 0) {   // half of them a plausible fabric: each node on a switch, the switches chained
      for (size_t k = 0; k < nodes; ++k)
        text += fmt::format("[[topology.link]]\nfrom = \"{}\"\nto = \"{}\"\n", names[k], names[nodes + pick(switches)]);
      for (size_t k = 1; k < switches; ++k)
        text += fmt::format("[[topology.link]]\nfrom = \"{}\"\nto = \"{}\"\n", names[nodes + pick(k)], names[nodes + k]);
    }
    for (size_t k = 0; k < links; ++k) {
      if (pick(3) == 0) break;
      text += fmt::format("[[topology.link]]\nfrom = \"{}\"\nto = \"{}\"\n", end(), end());
      if (pick(2)) text += fmt::format("rate = \"{}\"\n", rates[pick(rates.size())]);
      if (pick(2)) text += fmt::format("delay = \"{}\"\n", delays[pick(delays.size())]);
      if (pick(4) == 0) text += fmt::format("buffer = \"{}KiB\"\n", static_cast<int64_t>(pick(2000)) - 10);
      if (pick(15) == 0) text += "speed = 3\n";
    }
    for (size_t k = 0; k < flows; ++k)
      text += fmt::format("[[topology.flow]]\nfrom = \"{}\"\nto = \"{}\"\nbytes = \"{}\"\n", end(), end(),
                          pick(3) ? "64KiB" : pick(2) ? "0B" : "1e30B");
    std::ofstream(toml, std::ios::binary) << text;
    ubsim::Config cfg;
    try {
      cfg.load_file(toml.string());
      ++accepted;
      if (const ubsim::Topology* t = cfg.topology()) {
        const auto eps = t->endpoints();
        for (int a : eps)
          for (int b : eps)
            if (a != b) {
              // follow the first equal-cost port from a to b: it must get there in hops(a, b) links
              int at = a, steps = 0;
              while (at != b && steps <= static_cast<int>(t->devices.size())) {
                const int port = t->devices[at].is_switch() ? t->next_ports(at, b).at(0) : 0;
                at = t->ports()[at][port].peer;
                ++steps;
              }
              CHECK(at == b);
              CHECK(steps == t->hops(a, b));
            }
      }
    } catch (const ubsim::ConfigError& e) {
      const std::string what = e.what();
      INFO(text << "\n" << what);
      CHECK(what.find('\n') == std::string::npos);
      CHECK(what.find(toml.string()) != std::string::npos);
      ++refused;
    }
  }
  fs::remove(toml);
  CHECK(accepted > 50);
  CHECK(refused > 1000);
  WARN("topology fuzz: " << accepted << " accepted, " << refused << " refused");
}
