// Golden results: every experiment at its defaults (small op counts) must
// give exactly the figures stored in tests/golden/, so a change that moves a
// default figure is seen, and the golden files change only on purpose
// (scripts/golden rewrites them; its commit says why).
//
// Compared after normalization: the provenance (git hash, variant), the
// runs' wall-clock figures ("sim" objects) and the simulator's own cost
// statistics (cycles evaluated or skipped, kernel wake-ups, the share of
// cycles stepped) are left out: they describe the simulator, not the model.
// The resolved configuration is kept as its difference from the defaults
// (config_changed), so adding a parameter changes no golden file while a
// changed default still shows.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "config.h"
#include "experiment.h"
#include "json_value.h"
#include "run_command.h"

namespace {

namespace fs = std::filesystem;
using ubsim::json::Value;

const fs::path kDir = fs::path(UBSIM_TEST_DATA).parent_path() / "golden";

// Simulator-cost statistics of the clocked (verilated) components.
const std::set<std::string> kCostStats = {"cycles_evaluated", "cycles_skipped", "cycles_in_flight", "kernel_wakeups"};

bool is_cost_stat(const Value& row, const std::set<std::string>& clocked) {
  const Value* name = row.get("name");
  const Value* comp = row.get("component");
  if (!name || !comp) return false;
  if (kCostStats.count(name->text)) return true;
  return name->text == "utilization" && clocked.count(comp->text);   // share of cycles stepped
}

// The resolved configuration, kept only where it differs from the defaults
// (a new parameter then changes no golden file): key -> value as written.
Value config_changes(const Value& config) {
  static const ubsim::Config defaults;
  static const auto scalars = defaults.resolved();
  static const auto routes = defaults.resolved_routes();
  Value out = Value::object();
  for (const auto& [k, v] : config.fields) {
    bool same = false;
    if (v.kind == Value::Array) {
      const auto r = routes.find(k);
      if (r != routes.end() && r->second.size() == v.items.size()) {
        same = true;
        for (size_t i = 0; i < v.items.size(); ++i) same = same && v.items[i].text == r->second[i];
      }
    } else {
      const auto d = scalars.find(k);
      same = d != scalars.end() && d->second == v.text;
    }
    if (!same) out.add(k, v);
  }
  return out;
}

Value normalize(const Value& v) {
  Value out = v;
  if (v.kind == Value::Object) {
    out.fields.clear();
    for (const auto& [k, f] : v.fields) {
      if (k == "provenance" || k == "sim") continue;
      if (k == "config" && f.kind == Value::Object) {
        out.fields.emplace_back("config_changed", config_changes(f));
        continue;
      }
      if (k == "stats" && f.kind == Value::Array) {
        std::set<std::string> clocked;
        for (const auto& row : f.items)
          if (row.get("name") && row.get("name")->text == "cycles_evaluated") clocked.insert(row.get("component")->text);
        Value kept = f;
        kept.items.clear();
        for (const auto& row : f.items)
          if (!is_cost_stat(row, clocked)) kept.items.push_back(row);
        out.fields.emplace_back(k, kept);
        continue;
      }
      out.fields.emplace_back(k, normalize(f));
    }
  } else if (v.kind == Value::Array) {
    out.items.clear();
    for (const auto& i : v.items) out.items.push_back(normalize(i));
  }
  return out;
}

using ubsim::test::read_text;

struct Case {
  std::string name, args;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  std::istringstream in(read_text(kDir / "commands.txt"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(':');
    std::string args = line.substr(colon + 2);
    if (const auto at = args.find("@CONFIGS@"); at != std::string::npos) args.replace(at, 9, UBSIM_CONFIGS);
    out.push_back({line.substr(0, colon), args});
  }
  return out;
}

// The first line where two texts differ, with a little context.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ea = !std::getline(a, la), eb = !std::getline(b, lb);
    if (ea && eb) return "identical";
    if (ea != eb || la != lb)
      return "line " + std::to_string(line) + ":\n  golden: " + (ea ? "<end>" : la) + "\n  now:    " + (eb ? "<end>" : lb);
  }
}

}  // namespace

TEST_CASE("golden results: every experiment's default figures are unchanged", "[golden]") {
  const bool update = std::getenv("UBSIM_GOLDEN_UPDATE") != nullptr;
  const auto all = cases();
  REQUIRE(all.size() >= 10);
  for (const auto& c : all) {
    SECTION(c.name) {
      // (UBSIM_CHECK_AHEAD: every hand-off annotated ahead asserts that
      // nothing else was pending in the kernel before its arrival)
      const auto r = ubsim::test::run_command("(UBSIM_CHECK_AHEAD=1 " + std::string(UBSIM_BIN) + " " + c.args +
                                              " --format json 2>/dev/null)");
      INFO(c.name << ": ubsim " << c.args);
      REQUIRE(r.status == 0);
      const std::string got = ubsim::json::pretty(normalize(ubsim::json::parse(r.out)));
      const fs::path file = kDir / (c.name + ".json");
      if (update) {
        std::ofstream(file) << got;
        continue;
      }
      REQUIRE(fs::exists(file));
      const std::string want = read_text(file);
      INFO(first_difference(want, got));
      CHECK(want == got);
    }
  }
}

// Every field a row of an experiment carries is documented in its
// descriptor (`ubsim help NAME` lists it), checked on the golden results,
// which the case above holds equal to what the experiments emit.
TEST_CASE("every result field an experiment emits is documented in its descriptor", "[golden][cli]") {
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(kDir)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    const Value doc = ubsim::json::parse(read_text(entry.path()));
    const Value* name = doc.get("experiment");
    REQUIRE(name);
    const ubsim::Experiment* e = ubsim::find_experiment(name->text);
    INFO(entry.path().filename().string() << ": experiment " << name->text);
    REQUIRE(e);
    std::set<std::string> documented(e->keys.begin(), e->keys.end());
    for (const auto& f : e->fields) documented.insert(f.name);
    for (const auto& row : doc.get("results")->items)
      for (const auto& [field, value] : row.fields) {
        INFO("field " << field);
        CHECK(documented.count(field) == 1);
      }
  }
  CHECK(files >= 17);
}

// The figures do not depend on the order in which SystemC runs the processes
// of one instant: with UBSIM_ONE_EDGE every RTL bridge steps one clock edge
// per activation instead of running ahead to the kernel's next activity, so
// every process wakes at other times and in another order; every
// experiment's figures must still be the golden ones.
namespace {
// Every golden case, run with the environment setting `env`, gives the
// golden figures.
void check_cases_under(const std::string& env) {
  for (const auto& c : cases()) {
    SECTION(c.name) {
      const auto r = ubsim::test::run_command("(" + env + " " + std::string(UBSIM_BIN) + " " + c.args +
                                              " --format json 2>/dev/null)");
      INFO(c.name << ": " << env << " ubsim " << c.args);
      REQUIRE(r.status == 0);
      const std::string got = ubsim::json::pretty(normalize(ubsim::json::parse(r.out)));
      const std::string want = read_text(kDir / (c.name + ".json"));
      INFO(first_difference(want, got));
      CHECK(want == got);
    }
  }
}
}  // namespace

TEST_CASE("golden results: the same figures when every bridge steps one edge per activation", "[golden]") {
  check_cases_under("UBSIM_ONE_EDGE=1");
}

// The figures do not depend on settling (StageComponent::settle_touched:
// queued servers, links, the initiator, bridges): with UBSIM_NO_SETTLE each
// departure goes from its own process at its own time and each bridge steps
// from its own activation, and every experiment's figures must still be the
// golden ones.
TEST_CASE("golden results: the same figures when nothing is settled ahead", "[golden]") {
  check_cases_under("UBSIM_NO_SETTLE=1");
}

// A release reaching a sleeping context cache with nothing else to do is
// stepped at the cache's next activation (or at the end of the run)
// instead of waking it: the caches must step exactly the cycles they step
// when every input is stepped at its own edge's time (UBSIM_ONE_EDGE
// defers nothing), and count every release.
TEST_CASE("deferred cache releases: the caches step the same cycles and count the same releases", "[golden]") {
  auto cache_stats = [](const std::string& env) {
    const auto r = ubsim::test::run_command("(" + env + std::string(UBSIM_BIN) +
                                            " latency --path all --ops 200 --format json 2>/dev/null)");
    REQUIRE(r.status == 0);
    std::multiset<std::string> rows;
    std::function<void(const Value&)> walk = [&](const Value& v) {
      if (v.kind == Value::Object) {
        const Value* name = v.get("name");
        const Value* comp = v.get("component");
        if (name && comp && comp->text.find("_cache") != std::string::npos &&
            (name->text == "cycles_evaluated" || name->text == "releases"))
          rows.insert(comp->text + " " + name->text + " " + v.get("value")->text);
        for (const auto& [k, f] : v.fields) walk(f);
      } else if (v.kind == Value::Array) {
        for (const auto& i : v.items) walk(i);
      }
    };
    walk(ubsim::json::parse(r.out));
    return rows;
  };
  const auto deferred = cache_stats("");
  const auto each_at_its_edge = cache_stats("UBSIM_ONE_EDGE=1 ");
  CHECK(deferred.size() >= 24);   // 3 paths x 4 caches x 2 figures
  CHECK(deferred == each_at_its_edge);
  CHECK(std::count_if(deferred.begin(), deferred.end(), [](const std::string& s) {
          return s.find("releases 400") != std::string::npos;   // 200 reads: 2 pipeline passes per node
        }) >= 3);
}
