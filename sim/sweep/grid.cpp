#include "sweep.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "args.h"
#include "config.h"
#include "data_dir.h"
#include "file_util.h"
#include "params.h"
#include "subprocess.h"
#include "ubsim_build_info.h"
#include "units.h"

namespace ubsim {

namespace fs = std::filesystem;
using file_util::self_binary;

namespace {
[[noreturn]] void grid_error(const std::string& key, const std::string& msg) {
  throw CliError("option --grid: key '" + key + "': " + msg);
}
}  // namespace

// ---------------- variants ----------------

std::vector<RtlVariant> load_variants() {
  const std::string path = data_path("rtl/variants.toml");
  std::vector<RtlVariant> out;
  toml::table t;
  try {
    t = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw CliError(path + ": " + std::string(e.description()));
  }
  for (const auto& [name, node] : t) {
    RtlVariant v;
    v.name = std::string(name.str());
    const auto* tab = node.as_table();
    if (!tab) throw CliError(path + ": variant '" + v.name + "' is not a table");
    if (const auto* b = (*tab)["build"].as_table())
      for (const auto& [k, val] : *b) {
        const auto n = val.value<int64_t>();
        const auto s = val.value<std::string>();
        if (!n && !s) throw CliError(path + ": variant '" + v.name + "': build." + std::string(k.str()) + " is not a value");
        v.build.emplace_back(std::string(k.str()), n ? std::to_string(*n) : *s);
      }
    if (const auto* s = (*tab)["set"].as_array())
      for (const auto& e : *s)
        if (auto txt = e.value<std::string>()) v.sets.push_back(*txt);
    v.description = (*tab)["description"].value_or(std::string());
    out.push_back(v);
  }
  return out;
}

std::string variant_binary(const RtlVariant& v, bool build) {
  if (v.name == "default") return self_binary();
  if (!running_from_source())
    throw CliError("RTL variant '" + v.name + "': variant builds need the source tree (" +
                   std::string(build_info::kSourceDir) + "); this ubsim runs from " + data_dir());
  // beside build/, at its depth: ccache then hashes the source tree's paths
  // alike and reuses the main build's objects that the variant leaves alone
  const fs::path dir = fs::path(build_info::kSourceDir) / ("build-variant-" + v.name);
  const fs::path bin = dir / "sim" / "ubsim";
  if (!build) return bin.string();
  fs::create_directories(dir);
  std::vector<std::string> configure = {"cmake", "-S", build_info::kSourceDir, "-B", dir.string(),
                                        "-DCMAKE_BUILD_TYPE=Release", "-DUBSIM_VARIANT=" + v.name,
                                        "-DUBSIM_TEST_BLOCKS=OFF"};   // ubsim alone: no test-only references
  for (const auto& [k, val] : v.build) configure.push_back("-D" + k + "=" + val);
  const std::string log = (dir / "build.log").string(), build_log = (dir / "build2.log").string();
  std::fprintf(stderr, "sweep: RTL variant '%s': building (or reusing) %s\n", v.name.c_str(), dir.c_str());
  if (run_program(configure, log, log + ".err") != 0 ||
      run_program({"cmake", "--build", dir.string(), "--target", "ubsim", "-j", "2"}, build_log, build_log + ".err") != 0)
    throw std::runtime_error("sweep: building RTL variant '" + v.name + "' failed: see " + log + " and " + build_log);
  return bin.string();
}

// ---------------- grid ----------------

SweepAxis parse_grid(const std::string& spec) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw CliError("option --grid: '" + spec + "' is not KEY=LIST or KEY=LO..HI:STEP");
  SweepAxis axis;
  axis.key = spec.substr(0, eq);
  const std::string rest = spec.substr(eq + 1);
  if (axis.key == "variant") {
    const auto variants = load_variants();
    for (const auto& name : split_list(rest)) {
      bool found = false;
      for (const auto& v : variants) found = found || v.name == name;
      if (!found) grid_error("variant", "'" + name + "' is not declared in rtl/variants.toml");
      axis.values.push_back(name);
    }
    return axis;
  }
  const ParamDef* def = find_param(axis.key);
  if (!def) grid_error(axis.key, "unknown key (ubsim params lists them)");
  if (def->unit == Unit::Routes) grid_error(axis.key, "routes cannot be swept");
  if (def->unit == Unit::Choice) {
    for (const auto& item : split_list(rest)) {
      if (std::find(def->choices.begin(), def->choices.end(), item) == def->choices.end())
        grid_error(axis.key, "'" + item + "' is not one of its names");
      axis.values.push_back(item);
    }
    return axis;
  }
  auto parse = [&](const std::string& text) {
    const Parsed v = parse_value(def->unit, text);
    if (!v.error.empty()) grid_error(axis.key, "'" + text + "': " + v.error);
    return v.exact;
  };
  const auto dots = rest.find("..");
  if (dots != std::string::npos) {
    const auto colon = rest.find(':', dots);
    if (colon == std::string::npos) grid_error(axis.key, "range '" + rest + "' needs a step: LO..HI:STEP");
    const Decimal lo = parse(rest.substr(0, dots));
    const Decimal hi = parse(rest.substr(dots + 2, colon - dots - 2));
    const Decimal step = parse(rest.substr(colon + 1));
    if (step.compare(Decimal()) <= 0) grid_error(axis.key, "range '" + rest + "': the step must be positive");
    if (lo.compare(hi) > 0) grid_error(axis.key, "range '" + rest + "' is empty (LO above HI)");
    // exact decimal steps: lo, lo + step, ... up to hi
    for (std::optional<Decimal> v = lo; v && v->compare(hi) <= 0; v = v->plus(step)) {
      if (axis.values.size() == 100000) grid_error(axis.key, "range '" + rest + "' has more than 100000 values");
      axis.values.push_back(format_value(def->unit, *v));
    }
  } else {
    for (const auto& item : split_list(rest)) {
      if (item.empty()) grid_error(axis.key, "empty value in '" + rest + "'");
      axis.values.push_back(format_value(def->unit, parse(item)));
    }
  }
  // the value's range and cross checks, as a run would see them
  for (const auto& v : axis.values) {
    Config scratch;
    try {
      scratch.apply_set(axis.key + "=" + v);
    } catch (const ConfigError& e) {
      grid_error(axis.key, e.what());
    }
  }
  return axis;
}

}  // namespace ubsim
