// Seeded fuzz of the configuration: random keys of the parameter table with
// random values (valid, on the boundaries, hostile), through --set and TOML
// files, on small runs of the experiments. Every run must exit 0 with finite
// figures or 2 with one line naming the problem; never crash, hang (a
// timeout), exit otherwise, or leave files behind. Bounded: a fixed number
// of runs, the size keys (ops, messages, ...) kept small so a run is short.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include <fmt/format.h>

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
        for (const auto& row : v.get("results")->items)
          for (const auto& [k, f] : row.fields) CHECK_FALSE((f.kind == ubsim::json::Value::Null && k != "reference_ns" &&
                                                             k != "cycles" && k != "error"));
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
