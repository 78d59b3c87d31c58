// Sweep plans: points and their identity, the plan file, job lists, and the
// integrity of a point's document.
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "args.h"
#include "pipeline_limits.h"
#include "area.h"
#include "config.h"
#include "experiment.h"
#include "file_util.h"
#include "safe_file.h"
#include "json.h"
#include "json_value.h"
#include "output.h"
#include "sweep.h"
#include "ubsim_build_info.h"

namespace ubsim {

namespace fs = std::filesystem;
using file_util::fnv_hex;
using file_util::read_file;
using file_util::self_binary;
using file_util::shell_quote;

namespace {

// Steps idx to the next point of the cross product; false after the last.
bool next_point(std::vector<size_t>& idx, const std::vector<SweepAxis>& axes) {
  for (size_t a = axes.size(); a > 0; --a) {
    if (++idx[a - 1] < axes[a - 1].values.size()) return true;
    idx[a - 1] = 0;
  }
  return false;
}

// The build a point runs on: its variant, this source's git hash and the
// binary itself (a rebuild is a new build even at the same commit).
std::string build_identity(const std::string& variant, const std::string& binary) {
  static std::map<std::string, std::string> hashes;
  auto it = hashes.find(binary);
  if (it == hashes.end()) it = hashes.emplace(binary, fnv_hex(read_file(binary))).first;
  return "variant=" + variant + "\ngit=" + build_info::kGitHash + "\nbinary=" + it->second + "\n";
}

void add_area_jobs(SweepPlan& plan, const std::map<std::string, std::string>& binaries) {
  if (plan.area.empty()) return;
  for (const auto& [variant, binary] : binaries) {
    SweepPoint job;
    job.variant = variant;
    job.argv = {binary, "area", "--format", "json", "--blocks", plan.area};
    job.id = "area-" + fnv_hex("area\n" + plan.area + "\n" + build_identity(variant, binary));
    job.label = "area of variant " + variant;
    plan.area_jobs.push_back(job);
  }
}

}  // namespace

SweepPlan make_plan(const std::string& experiment, const std::vector<std::string>& experiment_args,
                    const std::vector<SweepAxis>& axes, const std::string& dir, bool build_variants,
                    const std::string& area) {
  const Experiment* e = find_experiment(experiment);
  for (const char* own : {"--out", "--format", "--point"})
    for (const auto& a : experiment_args)
      if (a == own || a.rfind(std::string(own) + "=", 0) == 0)
        throw CliError(std::string("sweep: ") + own + " after -- is the sweep's to set (its points write DIR/points/)");
  SweepPlan plan;
  plan.experiment = experiment;
  // a configuration file is named by its absolute path: a job run from
  // another folder (jobs.txt, a cluster) reads the same file
  plan.experiment_args = experiment_args;
  for (size_t i = 0; i < plan.experiment_args.size(); ++i) {
    std::string& a = plan.experiment_args[i];
    if (a == "--config" && i + 1 < plan.experiment_args.size()) {
      std::string& f = plan.experiment_args[++i];
      f = fs::absolute(f).lexically_normal().string();
    } else if (a.rfind("--config=", 0) == 0) {
      a = "--config=" + fs::absolute(a.substr(9)).lexically_normal().string();
    }
  }
  plan.axes = axes;
  plan.area = area;
  plan.dir = fs::absolute(dir).string();
  std::map<std::string, RtlVariant> variants;
  for (const auto& v : load_variants()) variants[v.name] = v;
  std::map<std::string, std::string> binaries;   // built once per variant
  std::vector<size_t> idx(axes.size(), 0);
  const std::string self = self_binary();
  do {
    SweepPoint p;
    std::vector<std::string> args = plan.experiment_args;
    for (size_t a = 0; a < axes.size(); ++a) {
      const std::string& v = axes[a].values[idx[a]];
      p.values.push_back(v);
      p.label += (a ? " " : "") + axes[a].key + "=" + v;
      if (axes[a].key == "variant") p.variant = v;
    }
    for (const auto& s : variants.count(p.variant) ? variants.at(p.variant).sets : std::vector<std::string>{})
      args.insert(args.end(), {"--set", s});
    for (size_t a = 0; a < axes.size(); ++a)
      if (axes[a].key != "variant") args.insert(args.end(), {"--set", axes[a].key + "=" + p.values[a]});
    // The point's options and configuration, checked as its run will check
    // them (bad input fails here, before any point runs), and resolved:
    // config files are read now, so their contents are part of the id.
    Config cfg;
    const ParsedArgs parsed = parse_args(experiment, e->options, args, &cfg);
    if (p.variant == "default") validate_config(cfg);   // a variant's maxima are its binary's to check
    if (!binaries.count(p.variant))
      binaries[p.variant] = p.variant == "default" ? self : variant_binary(variants.at(p.variant), build_variants);
    p.argv = {binaries[p.variant], experiment};
    p.argv.insert(p.argv.end(), args.begin(), args.end());
    p.argv.insert(p.argv.end(), {"--format", "json"});
    const std::string resolved = config_json(cfg);
    p.config = json::write(json::parse(resolved));   // canonical: compared with each document's at the merge
    p.id = fnv_hex(experiment + "\n" + parsed.options.canonical() + resolved + "\n" +
                   build_identity(p.variant, binaries[p.variant]));
    plan.points.push_back(p);
  } while (next_point(idx, axes));
  add_area_jobs(plan, binaries);
  return plan;
}

bool point_intact(const std::string& dir, const std::string& id, std::string& why) {
  const fs::path doc = fs::path(dir) / "points" / (id + ".json");
  std::error_code ec;
  if (!fs::exists(doc, ec)) {
    why = "missing";
    return false;
  }
  const std::string text = read_file(doc);
  const fs::path sum = doc.string() + ".sum";
  if (!fs::exists(sum, ec)) {
    why = doc.string() + " has no checksum (" + sum.filename().string() + "): left unfinished";
    return false;
  }
  if (read_file(sum) != point_checksum(text)) {
    why = doc.string() + " does not match its checksum: changed or half-written";
    return false;
  }
  try {
    const json::Value v = json::parse(text);
    if (!v.get("results") || v.get("results")->kind != json::Value::Array) throw std::runtime_error("no results");
  } catch (const std::exception& ex) {
    why = doc.string() + " is not a result document (" + ex.what() + ")";
    return false;
  }
  return true;
}

void save_plan(const SweepPlan& plan) {
  fs::create_directories(fs::path(plan.dir) / "points");
  std::vector<std::string> axes, points, args;
  for (const auto& a : plan.axes) {
    std::vector<std::string> vals;
    for (const auto& v : a.values) vals.push_back(json::str(v));
    axes.push_back(json::object({{"key", json::str(a.key)}, {"values", json::array(vals)}}));
  }
  auto point_json = [](const SweepPoint& p) {
    std::vector<std::string> vals, argv;
    for (const auto& v : p.values) vals.push_back(json::str(v));
    for (const auto& a : p.argv) argv.push_back(json::str(a));
    return json::object({{"id", json::str(p.id)}, {"variant", json::str(p.variant)}, {"label", json::str(p.label)},
                         {"values", json::array(vals)}, {"argv", json::array(argv)},
                         {"config", p.config.empty() ? "null" : p.config}});
  };
  std::vector<std::string> area_jobs;
  for (const auto& p : plan.points) points.push_back(point_json(p));
  for (const auto& p : plan.area_jobs) area_jobs.push_back(point_json(p));
  for (const auto& a : plan.experiment_args) args.push_back(json::str(a));
  safe_file::write_whole(fs::path(plan.dir) / "plan.json",
                    json::object({{"experiment", json::str(plan.experiment)},
                                  {"experiment_args", json::array(args)},
                                  {"metric", json::str(plan.metric)},
                                  {"x", json::str(plan.x_key)},
                                  {"axes", json::array(axes)},
                                  {"area", json::str(plan.area)},
                                  {"area_jobs", json::array(area_jobs, true)},
                                  {"points", json::array(points, true)}}) + "\n",
                         "sweep");
}

SweepPlan load_plan(const std::string& dir) {
  const fs::path path = fs::path(dir) / "plan.json";
  if (!fs::exists(path)) throw CliError("sweep --merge: " + path.string() + " does not exist (run the sweep or --emit-jobs first)");
  json::Value v;
  try {
    v = json::parse(read_file(path));
  } catch (const std::exception& e) {
    throw CliError("sweep --merge: " + path.string() + ": not a plan (" + e.what() + ")");
  }
  // every field checked: a damaged plan is one line naming what is wrong
  auto need = [&](const json::Value& obj, const char* key, json::Value::Kind kind) -> const json::Value& {
    const json::Value* f = obj.kind == json::Value::Object ? obj.get(key) : nullptr;
    if (!f || f->kind != kind)
      throw CliError("sweep --merge: " + path.string() + ": damaged plan (field '" + key + "' missing or of the wrong type)");
    return *f;
  };
  auto strings = [&](const json::Value& arr) {
    std::vector<std::string> out;
    for (const auto& x : arr.items) {
      if (x.kind != json::Value::String)
        throw CliError("sweep --merge: " + path.string() + ": damaged plan (a value is not a string)");
      out.push_back(x.text);
    }
    return out;
  };
  SweepPlan plan;
  plan.dir = fs::absolute(dir).string();
  plan.experiment = need(v, "experiment", json::Value::String).text;
  plan.metric = need(v, "metric", json::Value::String).text;
  plan.x_key = need(v, "x", json::Value::String).text;
  plan.experiment_args = strings(need(v, "experiment_args", json::Value::Array));
  for (const auto& a : need(v, "axes", json::Value::Array).items) {
    SweepAxis axis;
    axis.key = need(a, "key", json::Value::String).text;
    axis.values = strings(need(a, "values", json::Value::Array));
    plan.axes.push_back(axis);
  }
  auto point_of = [&](const json::Value& p, size_t values) {
    SweepPoint pt;
    pt.id = need(p, "id", json::Value::String).text;
    pt.variant = need(p, "variant", json::Value::String).text;
    pt.label = need(p, "label", json::Value::String).text;
    pt.values = strings(need(p, "values", json::Value::Array));
    pt.argv = strings(need(p, "argv", json::Value::Array));
    if (const json::Value* c = p.get("config"); c && c->kind == json::Value::Object) pt.config = json::write(*c);
    if (pt.values.size() != values || pt.argv.empty() || pt.id.empty() ||
        pt.id.find_first_of("/\\.") != std::string::npos)
      throw CliError("sweep --merge: " + path.string() + ": damaged plan (point '" + pt.id + "')");
    return pt;
  };
  for (const auto& p : need(v, "points", json::Value::Array).items) plan.points.push_back(point_of(p, plan.axes.size()));
  plan.area = need(v, "area", json::Value::String).text;
  for (const auto& p : need(v, "area_jobs", json::Value::Array).items) plan.area_jobs.push_back(point_of(p, 0));
  return plan;
}

std::string emit_jobs(const SweepPlan& plan) {
  save_plan(plan);
  std::string jobs;
  size_t n = 0;
  std::vector<const SweepPoint*> all;
  for (const auto& p : plan.area_jobs) all.push_back(&p);
  for (const auto& p : plan.points) all.push_back(&p);
  for (const SweepPoint* pp : all) {
    std::string why;
    if (point_intact(plan.dir, pp->id, why)) continue;
    // the point process writes its document whole, with its checksum
    std::string cmd;
    for (const auto& a : pp->argv) cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
    const std::string base = plan.dir + "/points/" + pp->id;
    jobs += fmt::format("{} --point {} 2> {}\n", cmd, shell_quote(base + ".json"), shell_quote(base + ".err"));
    ++n;
  }
  safe_file::write_whole(fs::path(plan.dir) / "jobs.txt", jobs, "sweep --emit-jobs");
  return fmt::format("{}/jobs.txt: {} commands (one per point or area job still missing)\nmerge: {} sweep --merge {}\n",
                     plan.dir, n, shell_quote(self_binary()), shell_quote(plan.dir));
}

}  // namespace ubsim
