#include "sweep.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "args.h"
#include "config.h"
#include "experiment.h"
#include "subprocess.h"
#include "file_util.h"
#include "json.h"
#include "json_value.h"
#include "params.h"
#include "ubsim_build_info.h"
#include "units.h"

namespace ubsim {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void grid_error(const std::string& key, const std::string& msg) {
  throw CliError("option --grid: key '" + key + "': " + msg);
}

using file_util::fnv_hex;
using file_util::read_file;
using file_util::self_binary;
using file_util::shell_quote;
using file_util::write_file_atomic;

}  // namespace

// ---------------- variants ----------------

std::vector<RtlVariant> load_variants() {
  const std::string path = std::string(build_info::kSourceDir) + "/rtl/variants.toml";
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
  const fs::path dir = fs::path(build_info::kSourceDir) / "build-variants" / v.name;
  const fs::path bin = dir / "sim" / "ubsim";
  if (!build) return bin.string();
  fs::create_directories(dir);
  std::vector<std::string> configure = {"cmake", "-S", build_info::kSourceDir, "-B", dir.string(),
                                        "-DCMAKE_BUILD_TYPE=Release", "-DUBSIM_VARIANT=" + v.name};
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
  auto parse = [&](const std::string& text) {
    const Parsed v = parse_value(def->unit, text);
    if (!v.error.empty()) grid_error(axis.key, "'" + text + "': " + v.error);
    return v.value;
  };
  const auto dots = rest.find("..");
  if (dots != std::string::npos) {
    const auto colon = rest.find(':', dots);
    if (colon == std::string::npos) grid_error(axis.key, "range '" + rest + "' needs a step: LO..HI:STEP");
    const double lo = parse(rest.substr(0, dots));
    const double hi = parse(rest.substr(dots + 2, colon - dots - 2));
    const double step = parse(rest.substr(colon + 1));
    if (!(step > 0)) grid_error(axis.key, "range '" + rest + "': the step must be positive");
    if (lo > hi) grid_error(axis.key, "range '" + rest + "' is empty (LO above HI)");
    const double n = std::floor((hi - lo) / step + 1e-9) + 1;
    if (n > 100000) grid_error(axis.key, "range '" + rest + "' has more than 100000 values");
    for (int i = 0; i < static_cast<int>(n); ++i) axis.values.push_back(format_value(def->unit, lo + i * step));
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

namespace {
// A job's file stem: a hash of what makes it (its variant and its command
// without the binary's path), so a rerun finds the job's finished document.
std::string job_id(const std::string& prefix, const std::vector<std::string>& argv) {
  std::string key = prefix;
  for (size_t i = 1; i < argv.size(); ++i) key += '\x1f' + argv[i];
  return fnv_hex(key);
}

// Steps idx to the next point of the cross product; false after the last.
bool next_point(std::vector<size_t>& idx, const std::vector<SweepAxis>& axes) {
  for (size_t a = axes.size(); a > 0; --a) {
    if (++idx[a - 1] < axes[a - 1].values.size()) return true;
    idx[a - 1] = 0;
  }
  return false;
}

void add_area_jobs(SweepPlan& plan, const std::map<std::string, std::string>& binaries) {
  if (plan.area.empty()) return;
  for (const auto& [variant, binary] : binaries) {
    SweepPoint job;
    job.variant = variant;
    job.argv = {binary, "area", "--format", "json", "--blocks", plan.area};
    job.id = "area-" + job_id("area\x1fvariant=" + variant, job.argv);
    plan.area_jobs.push_back(job);
  }
}
}  // namespace

SweepPlan make_plan(const std::string& experiment, const std::vector<std::string>& experiment_args,
                    const std::vector<SweepAxis>& axes, const std::string& dir, bool build_variants,
                    const std::string& area) {
  SweepPlan plan;
  plan.experiment = experiment;
  plan.experiment_args = experiment_args;
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
    std::vector<std::string> sets;
    std::string variant = "default";
    for (size_t a = 0; a < axes.size(); ++a) {
      const std::string& v = axes[a].values[idx[a]];
      p.values.push_back(v);
      if (axes[a].key == "variant") variant = v;
      else sets.push_back(axes[a].key + "=" + v);
    }
    if (!binaries.count(variant))
      binaries[variant] = variant == "default" ? self : variant_binary(variants.at(variant), build_variants);
    p.variant = variant;
    p.argv = {binaries[variant], experiment};
    p.argv.insert(p.argv.end(), experiment_args.begin(), experiment_args.end());
    p.argv.insert(p.argv.end(), {"--format", "json"});
    for (const auto& s : variants.count(variant) ? variants.at(variant).sets : std::vector<std::string>{})
      p.argv.insert(p.argv.end(), {"--set", s});
    for (const auto& s : sets) p.argv.insert(p.argv.end(), {"--set", s});
    p.id = job_id("variant=" + variant, p.argv);
    plan.points.push_back(p);
  } while (next_point(idx, axes));
  add_area_jobs(plan, binaries);
  return plan;
}

// ---------------- running ----------------

SweepRun run_points(const SweepPlan& plan, int jobs) {
  const fs::path pts = fs::path(plan.dir) / "points";
  fs::create_directories(pts);
  SweepRun run;
  run.total = plan.points.size() + plan.area_jobs.size();
  std::vector<const SweepPoint*> todo;
  // area jobs first: one synthesis can outlast many points
  for (const auto* list : {&plan.area_jobs, &plan.points})
    for (const auto& p : *list) {
      if (fs::exists(pts / (p.id + ".json"))) ++run.reused;
      else todo.push_back(&p);
    }
  const auto t0 = std::chrono::steady_clock::now();
  auto progress = [&] {
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const size_t done = run.ran + run.failed;
    const double left = done ? el / static_cast<double>(done) * static_cast<double>(todo.size() - done) : 0;
    std::fprintf(stderr, "\rsweep: %zu/%zu points done (%zu reused, %zu failed), %.0f s elapsed, ~%.0f s left   ",
                 run.reused + done, run.total, run.reused, run.failed, el, left);
    std::fflush(stderr);
  };
  progress();
  std::map<pid_t, const SweepPoint*> running;
  size_t next = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && static_cast<int>(running.size()) < jobs) {
      const SweepPoint& p = *todo[next++];
      const std::string out = (pts / (p.id + ".json.tmp")).string();
      const std::string err = (pts / (p.id + ".err.tmp")).string();
      const pid_t pid = ::fork();
      if (pid < 0) throw std::runtime_error("sweep: fork failed");
      if (pid == 0) {
        const int fo = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int fe = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0) ::_exit(127);
        ::dup2(fo, 1);
        ::dup2(fe, 2);
        std::vector<char*> argv;
        for (const auto& a : p.argv) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
      }
      running[pid] = &p;
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const SweepPoint& p = *it->second;
    running.erase(it);
    const fs::path out = pts / (p.id + ".json.tmp"), err = pts / (p.id + ".err.tmp");
    std::error_code ec;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      fs::rename(out, pts / (p.id + ".json"));
      fs::remove(err, ec);
      fs::remove(pts / (p.id + ".err"), ec);
      ++run.ran;
    } else {
      fs::remove(out, ec);
      fs::rename(err, pts / (p.id + ".err"));
      ++run.failed;
    }
    progress();
  }
  std::fprintf(stderr, "\n");
  return run;
}

// ---------------- plan files and job lists ----------------

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
    return json::object({{"id", json::str(p.id)}, {"variant", json::str(p.variant)}, {"values", json::array(vals)},
                         {"argv", json::array(argv)}});
  };
  std::vector<std::string> area_jobs;
  for (const auto& p : plan.points) points.push_back(point_json(p));
  for (const auto& p : plan.area_jobs) area_jobs.push_back(point_json(p));
  for (const auto& a : plan.experiment_args) args.push_back(json::str(a));
  write_file_atomic(fs::path(plan.dir) / "plan.json",
                    json::object({{"experiment", json::str(plan.experiment)},
                                  {"experiment_args", json::array(args)},
                                  {"metric", json::str(plan.metric)},
                                  {"x", json::str(plan.x_key)},
                                  {"axes", json::array(axes)},
                                  {"area", json::str(plan.area)},
                                  {"area_jobs", json::array(area_jobs, true)},
                                  {"points", json::array(points, true)}}) + "\n");
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
    pt.values = strings(need(p, "values", json::Value::Array));
    pt.argv = strings(need(p, "argv", json::Value::Array));
    if (pt.values.size() != values || pt.argv.empty() || pt.id.empty() ||
        pt.id.find_first_of("/\\") != std::string::npos)
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
    const SweepPoint& p = *pp;
    if (fs::exists(fs::path(plan.dir) / "points" / (p.id + ".json"))) continue;
    std::string cmd;
    for (const auto& a : p.argv) cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
    const std::string base = shell_quote(plan.dir + "/points/" + p.id);
    jobs += fmt::format("{} > {}.json.tmp 2> {}.err.tmp && mv {}.json.tmp {}.json && rm -f {}.err.tmp || mv {}.err.tmp {}.err\n",
                        cmd, base, base, base, base, base, base, base);
    ++n;
  }
  write_file_atomic(fs::path(plan.dir) / "jobs.txt", jobs);
  return fmt::format("{}/jobs.txt: {} commands (one per point or area job still missing)\nmerge: {} sweep --merge {}\n",
                     plan.dir, n, shell_quote(self_binary()), shell_quote(plan.dir));
}

// ---------------- merge ----------------

namespace {

// Flattens a result object into (column, value) pairs: nested objects as
// "a.b"; arrays and the run's own wall-time figures ("sim") are left out,
// so the merge depends only on simulated results.
void flatten(const json::Value& v, const std::string& prefix, std::vector<std::pair<std::string, const json::Value*>>& out) {
  for (const auto& [k, f] : v.fields) {
    if (k == "sim" || f.kind == json::Value::Array) continue;
    const std::string name = prefix.empty() ? k : prefix + "." + k;
    if (f.kind == json::Value::Object) flatten(f, name, out);
    else out.emplace_back(name, &f);
  }
}

std::string csv_cell(const json::Value& v) {
  if (v.kind == json::Value::Null) return "";
  if (v.kind != json::Value::String) return v.text;
  if (v.text.find_first_of(",\"\n") == std::string::npos) return v.text;
  std::string out = "\"";
  for (char c : v.text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string json_text(const json::Value& v) {
  switch (v.kind) {
    case json::Value::Null: return "null";
    case json::Value::String: return json::str(v.text);
    default: return v.text;
  }
}

}  // namespace

namespace {
// The last line a failed job wrote on stderr (its error), or "not run".
std::string failure_of(const fs::path& pts, const std::string& id) {
  const fs::path err = pts / (id + ".err");
  std::string why = fs::exists(err) ? read_file(err) : std::string("not run");
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  const auto nl = why.rfind('\n');
  return nl == std::string::npos ? why : why.substr(nl + 1);
}
}  // namespace

std::vector<std::string> merge_points(const SweepPlan& plan) {
  const fs::path pts = fs::path(plan.dir) / "points";
  std::vector<std::string> failures, columns, rows_json;
  std::map<std::string, bool> known;
  struct Row {
    const SweepPoint* point;
    std::vector<std::pair<std::string, const json::Value*>> cells;
  };
  std::vector<json::Value> docs;   // keep the parsed documents alive
  docs.reserve(plan.points.size());
  std::vector<Row> rows;
  // area jobs: per variant, columns area.<block>.<figure>
  std::vector<json::Value> area_docs;
  area_docs.reserve(plan.area_jobs.size());
  std::map<std::string, std::vector<std::pair<std::string, const json::Value*>>> area_cols;
  for (const auto& job : plan.area_jobs) {
    const fs::path doc = pts / (job.id + ".json");
    if (!fs::exists(doc)) {
      const std::string why = failure_of(pts, job.id);
      failures.push_back("area of variant " + job.variant + ": " + why);
      continue;
    }
    area_docs.push_back(json::parse(read_file(doc)));
    if (const json::Value* results = area_docs.back().get("results"))
      for (const auto& r : results->items) {
        const json::Value* block = r.get("block");
        if (!block) throw std::runtime_error("sweep --merge: " + doc.string() + ": an area row without 'block'");
        for (const char* figure : {"cells", "logic_bits", "ff_bits", "latch_bits", "mem_bits"}) {
          const json::Value* f = r.get(figure);
          if (!f) throw std::runtime_error("sweep --merge: " + doc.string() + ": an area row without '" + figure + "'");
          area_cols[job.variant].emplace_back("area." + block->text + "." + figure, f);
        }
      }
  }
  for (const auto& p : plan.points) {
    const fs::path doc = pts / (p.id + ".json");
    std::string point_obj;
    {
      std::vector<std::pair<std::string, std::string>> kv;
      for (size_t a = 0; a < plan.axes.size(); ++a) kv.emplace_back(plan.axes[a].key, json::str(p.values[a]));
      point_obj = json::object(kv);
    }
    if (!fs::exists(doc)) {
      const std::string why = failure_of(pts, p.id);
      std::string label;
      for (size_t a = 0; a < plan.axes.size(); ++a) label += (a ? " " : "") + plan.axes[a].key + "=" + p.values[a];
      failures.push_back(label + ": " + why);
      rows_json.push_back(json::object({{"point", point_obj}, {"status", json::str("failed")}, {"error", json::str(why)}}));
      continue;
    }
    docs.push_back(json::parse(read_file(doc)));
    const json::Value* results = docs.back().get("results");
    std::vector<std::string> res_json;
    if (results)
      for (const auto& r : results->items) {
        Row row{&p, {}};
        flatten(r, "", row.cells);
        if (area_cols.count(p.variant))
          row.cells.insert(row.cells.end(), area_cols[p.variant].begin(), area_cols[p.variant].end());
        std::vector<std::pair<std::string, std::string>> kv;
        for (const auto& [k, v] : row.cells) {
          if (!known[k]) {
            known[k] = true;
            columns.push_back(k);
          }
          kv.emplace_back(k, json_text(*v));
        }
        res_json.push_back(json::object(kv));
        rows.push_back(std::move(row));
      }
    rows_json.push_back(json::object({{"point", point_obj}, {"status", json::str("ok")}, {"results", json::array(res_json)}}));
  }
  std::string csv;
  for (const auto& a : plan.axes) csv += a.key + ",";
  for (size_t c = 0; c < columns.size(); ++c) csv += (c ? "," : "") + columns[c];
  csv += "\n";
  for (const auto& row : rows) {
    for (const auto& v : row.point->values) csv += v + ",";
    for (size_t c = 0; c < columns.size(); ++c) {
      if (c) csv += ",";
      for (const auto& [k, v] : row.cells)
        if (k == columns[c]) {
          csv += csv_cell(*v);
          break;
        }
    }
    csv += "\n";
  }
  std::vector<std::string> axes;
  for (const auto& a : plan.axes) axes.push_back(json::str(a.key));
  write_file_atomic(fs::path(plan.dir) / "sweep.csv", csv);
  write_file_atomic(fs::path(plan.dir) / "sweep.json",
                    json::object({{"experiment", json::str(plan.experiment)},
                                  {"swept", json::array(axes)},
                                  {"points", json::array(rows_json, true)}}) + "\n");
  return failures;
}

// ---------------- compare ----------------

namespace {

// Runs argv, returns its stdout; throws with its stderr's last line on failure.
std::string capture(const std::vector<std::string>& argv) {
  char out_path[] = "/tmp/ubsim_compare_XXXXXX";
  char err_path[] = "/tmp/ubsim_compare_err_XXXXXX";
  const int fo = ::mkstemp(out_path), fe = ::mkstemp(err_path);
  if (fo < 0 || fe < 0) throw std::runtime_error("compare: cannot create a temporary file");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fo, 1);
    ::dup2(fe, 2);
    std::vector<char*> a;
    for (const auto& x : argv) a.push_back(const_cast<char*>(x.c_str()));
    a.push_back(nullptr);
    ::execv(a[0], a.data());
    ::_exit(127);
  }
  ::close(fo);
  ::close(fe);
  int status = 0;
  ::waitpid(pid, &status, 0);
  std::string out = read_file(out_path), err = read_file(err_path);
  ::unlink(out_path);
  ::unlink(err_path);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    while (!err.empty() && err.back() == '\n') err.pop_back();
    const auto nl = err.rfind('\n');
    throw CliError(nl == std::string::npos ? err : err.substr(nl + 1));
  }
  return out;
}

}  // namespace

std::vector<CompareRow> compare_configs(const std::string& base_config, const std::string& candidate_config,
                                        const std::vector<std::string>& experiments,
                                        const std::vector<std::string>& experiment_args) {
  std::vector<CompareRow> out;
  const std::string self = self_binary();
  for (const auto& exp : experiments) {
    const Experiment* e = find_experiment(exp);
    json::Value docs[2];
    const std::string configs[2] = {base_config, candidate_config};
    for (int k = 0; k < 2; ++k) {
      std::vector<std::string> argv = {self, exp};
      argv.insert(argv.end(), experiment_args.begin(), experiment_args.end());
      argv.insert(argv.end(), {"--config", configs[k], "--format", "json"});
      docs[k] = json::parse(capture(argv));
    }
    const json::Value* rb = docs[0].get("results");
    const json::Value* rc = docs[1].get("results");
    if (!rb || !rc) continue;
    // a row's identity: its key fields' values (the experiment's descriptor names them)
    auto key_of = [&](const json::Value& row) {
      std::string label;
      for (const auto& k : e->keys)
        if (const json::Value* f = row.find(k))
          label += (label.empty() ? "" : " ") + k + "=" + (f->kind == json::Value::Null ? "-" : f->text);
      return label;
    };
    for (const auto& row_b : rb->items) {
      const std::string label = key_of(row_b);
      const json::Value* row_c = nullptr;
      for (const auto& r : rc->items)
        if (key_of(r) == label) {
          row_c = &r;
          break;
        }
      if (!row_c) continue;
      std::vector<std::pair<std::string, const json::Value*>> fb, fc;
      flatten(row_b, "", fb);
      flatten(*row_c, "", fc);
      for (const auto& [k, v] : fb) {
        if (v->kind != json::Value::Number) continue;
        for (const auto& [kc, vc] : fc)
          if (kc == k && vc->kind == json::Value::Number) {
            out.push_back({exp, label, k, std::stod(v->text), std::stod(vc->text)});
            break;
          }
      }
    }
  }
  return out;
}

}  // namespace ubsim
