// The commands of the ubsim front end: help, the experiments (each from
// its descriptor in the registry, sim/experiments/), and the tools around
// them (sweep, compare, params, report). sim/cli/main.cpp dispatches.
#include "commands.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <fstream>
#include <filesystem>

#include <fmt/format.h>
#include <systemc>

#include "area.h"
#include "args.h"
#include "config.h"
#include "data_dir.h"
#include "experiment.h"
#include "json.h"
#include "output.h"
#include "params.h"
#include "pipeline_limits.h"
#include "rtl_variant.h"
#include "safe_file.h"
#include "watchdog.h"
#include "subprocess.h"
#include "sweep.h"
#include "ubsim_build_info.h"

namespace ubsim::cli {

// ---------------- the tools' option tables ----------------

std::vector<OptionSpec> sweep_options() {
  OptionSpec grid = opt_text("--grid", "KEY=SPEC", "",
                             "SPEC: a list \"a,b,c\" or a range \"lo..hi:step\" in the key's unit\n"
                             "(wire.latency=50ns..500ns:50ns, clock=250MHz,322MHz); grids are crossed;\n"
                             "KEY \"variant\" takes RTL variants from rtl/variants.toml");
  grid.repeat = true;
  return {grid,
          opt_count("-j", "N", 1, 256, std::to_string(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN))),
                    "points run at once (default: the number of cores)"),
          opt_text("--out", "DIR", "sweep-out",
                   "points, plan, merged sweep.csv / sweep.json; rerunning into the same DIR runs\n"
                   "only the missing points"),
          opt_text("--metric", "COLUMN", "", "also plot column COLUMN of sweep.csv against --x (sweep.png)"),
          opt_text("--x", "KEY", "", "the swept key on the plot's x axis"),
          opt_flag("--emit-jobs", "write DIR/jobs.txt (one shell command per missing point, for GNU parallel or a\n"
                                  "Slurm array) and print the merge command"),
          opt_text("--merge", "DIR", "", "merge the finished points of DIR (after running jobs.txt)"),
          opt_count("--timeout", "SECONDS", 0, 1000000, "3600",
                    "a point running longer is stopped and counted as failed (0: no limit)"),
          opt_text("--area", "BLOCKS", "",
                   "also synthesize BLOCKS (see ubsim help area, or all) once per variant with yosys;\n"
                   "their cells, logic/FF/latch/memory bits become columns area.<block>.<figure>")};
}

std::vector<OptionSpec> compare_options() {
  return {opt_text("--experiments", "LIST", "latency", "experiments to run with both files"),
          opt_flag("--all", "list every figure, not only those that differ"),
          opt_choice("--format", {"table", "json", "csv"}, "table", "output format"),
          opt_text("--out", "DIR", "", "write compare.json/.csv/.txt and the plot to DIR")};
}

std::vector<OptionSpec> params_options() {
  return {opt_choice("--format", {"table", "json"}, "table", "output format")};
}

std::vector<OptionSpec> report_options() { return {}; }

// ---------------- usage and help ----------------

std::string usage() {
  std::string out =
      "ubsim — cycle-level model of a bus-attached UB/URMA controller\n\n"
      "usage: ubsim <command> [options]      (ubsim help <command>: its options and result fields)\n\n"
      "experiments:\n";
  for (const Experiment* e : experiments())
    out += fmt::format("  {:<11} {}\n", e->name, e->summary);
  out += "\ntools:\n"
         "  sweep       any experiment over a grid of parameters (and RTL variants), each point in its own\n"
         "              process, -j at a time, resumable, merged\n"
         "  compare     BASE.toml CANDIDATE.toml: the experiments with each configuration, every figure's\n"
         "              absolute and relative difference\n"
         "  params      every configuration parameter (unit, default, range, meaning) and RTL build option\n"
         "  report      DIR: one self-contained DIR/index.html over a reproduce output (tables, plots, spec\n"
         "              targets, configuration, waveforms, timelines)\n"
         "  help        this text, or: ubsim help <command>\n"
         "  --version   version, git hash, RTL variant and where the scripts and docs are read from\n\n"
         "common options of the experiments:\n"
         "  --config FILE        TOML configuration (may repeat; later wins)\n"
         "  --set KEY=VALUE      override one parameter, with units: --set wire.latency=50ns\n"
         "  --format F           table (default) | json | csv\n"
         "  --out DIR            write the JSON, CSV, table, resolved config.json and plots to DIR\n\n"
         "Exit status: 0 done (also when every request failed), 2 bad input (the message names the key and the\n"
         "file), 3 I/O or runtime failure, 4 no progress (the watchdog stopped a stuck run;\n"
         "deadlock: the cycle of waits it found, after writing its results).\n";
  return out;
}

std::string sweep_help() {
  return command_help("ubsim sweep EXPERIMENT --grid KEY=SPEC [--grid ...] [options] [-- EXPERIMENT OPTIONS]\n"
                      "       ubsim sweep --merge DIR",
                      "Runs an experiment over a grid of parameters: every point as its own\n"
                      "`ubsim EXPERIMENT --format json --set ...` process, -j at a time; each point's document is\n"
                      "kept in DIR/points/, so a rerun runs only the missing points. The merge writes sweep.csv and\n"
                      "sweep.json with every swept key a column.",
                      sweep_options(), false);
}

std::string compare_help() {
  return command_help("ubsim compare BASE.toml CANDIDATE.toml [options] [-- EXPERIMENT OPTIONS]",
                      "Runs the experiments with each configuration file (each run its own process) and lists\n"
                      "every figure that differs, rows paired by their key fields.",
                      compare_options(), false);
}

std::string report_help() {
  return command_help("ubsim report DIR",
                      "Writes DIR/index.html, one page that works offline, over the experiments' output folders in\n"
                      "DIR (as scripts/reproduce writes them): first every spec target of the experiments there\n"
                      "(docs/targets.csv: figure | tolerance | measured | within?) and how many are within; then per\n"
                      "experiment its plots (embedded), one table per kind of row (units in the headers, figures\n"
                      "rounded to what their unit resolves), its configuration's difference from the defaults and\n"
                      "its provenance; the waveforms with the gtkwave command and save file that open them; the\n"
                      "timelines. Paths are relative to DIR.",
                      report_options(), false);
}

std::string params_help() {
  return command_help("ubsim params [--format table|json]",
                      "Every runtime parameter (config file key or --set) with its unit, default, range and\n"
                      "meaning, and every RTL build option of this build (rtl/blocks.json) with its range.",
                      params_options(), false);
}

int cmd_help(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cout << usage();
    return 0;
  }
  const std::string& what = args[0];
  if (const Experiment* e = find_experiment(what)) std::cout << experiment_help(*e);
  else if (what == "sweep") std::cout << sweep_help();
  else if (what == "compare") std::cout << compare_help();
  else if (what == "params") std::cout << params_help();
  else if (what == "report") std::cout << report_help();
  else if (what == "help") std::cout << usage();
  else throw CliError("help: '" + what + "' is not a command (ubsim help lists them)");
  return 0;
}

// ---------------- experiments ----------------

int cmd_experiment(const Experiment& e, const std::vector<std::string>& args) {
  Config cfg;
  const ParsedArgs p = parse_args(e.name, e.options, args, &cfg);
  if (p.help) {
    std::cout << experiment_help(e);
    return 0;
  }
  const ResultSet rs = e.run(cfg, p.options);
  emit(e, cfg, rs, p.format, p.out_dir, p.point);
  return rs.exit_status;
}

// ---------------- report ----------------

int cmd_report(const std::vector<std::string>& args) {
  const ParsedArgs p = parse_args("report", report_options(), args, nullptr, true);
  if (p.help) {
    std::cout << report_help();
    return 0;
  }
  if (p.positional.size() != 1) throw CliError("report: name one output folder (ubsim help report)");
  const std::string dir = p.positional[0];
  if (!std::filesystem::is_directory(dir)) throw CliError("report: '" + dir + "' is not a directory");
  // the defaults (for each experiment's configuration difference) and the
  // page go to private temporaries (mkstemp); the page is renamed to
  // DIR/index.html only once report.py has written all of it
  namespace fs = std::filesystem;
  int fd = -1;
  const safe_file::Temporary defaults = safe_file::temp_file(fs::temp_directory_path() / "ubsim-report-defaults.json", &fd);
  safe_file::write_and_close(fd, config_json(Config{}) + "\n", defaults.path());
  // every experiment's documented result fields (name, unit, meaning), for
  // the page's column headers and per-kind tables
  json::Value docs = json::Value::object();
  for (const Experiment* e : experiments()) {
    json::Value fields = json::Value::object();
    for (const FieldDoc& f : e->fields)
      fields.add(f.name, json::Value::object().add("unit", json::Value::string(f.unit)).add("meaning", json::Value::string(f.doc)));
    json::Value keys = json::Value::array();
    for (const std::string& k : e->keys) keys.items.push_back(json::Value::string(k));
    docs.add(e->name, json::Value::object().add("fields", fields).add("keys", keys));
  }
  const safe_file::Temporary field_docs = safe_file::temp_file(fs::temp_directory_path() / "ubsim-report-fields.json", &fd);
  safe_file::write_and_close(fd, json::pretty(docs) + "\n", field_docs.path());
  const fs::path index = fs::path(dir) / "index.html";
  safe_file::Temporary page = safe_file::temp_file(index);
  run_checked({"/usr/bin/python3", data_path("scripts/report.py"), dir, defaults.path(), field_docs.path(), data_dir(),
               page.path()},
              "report: writing " + index.string() + " failed");
  if (fs::file_size(page.path()) == 0) throw safe_file::IoError("report: writing " + index.string() + " failed: empty page");
  safe_file::rename_checked(page.path(), index, "report");
  page.keep();
  std::fprintf(stderr, "report: wrote %s\n", index.c_str());
  return 0;
}

// ---------------- params ----------------

int cmd_params(const std::vector<std::string>& args) {
  const ParsedArgs p = parse_args("params", params_options(), args, nullptr);
  if (p.help) {
    std::cout << params_help();
    return 0;
  }
  auto range = [](const ParamDef& d) {
    if (d.unit == Unit::Routes || d.unit == Unit::Bool) return std::string();
    if (d.unit == Unit::Choice) {
      std::string names;
      for (const auto& c : d.choices) names += (names.empty() ? "" : " | ") + c;
      return names;
    }
    std::string hi = std::isinf(d.max) ? "" : format_value(d.unit, d.max);
    return format_value(d.unit, d.min) + ".." + hi + (d.max_is.empty() ? "" : " (" + d.max_is + ")") +
           (d.power_of_two ? ", a power of two" : "");
  };
  const json::Value manifest = json::parse(rtl_variant::kManifest);
  if (p.options.text("--format") == "json") {
    std::vector<std::string> rows;
    for (const auto& d : param_table())
      rows.push_back(json::object({{"key", json::str(d.key)}, {"unit", json::str(unit_name(d.unit))},
                                   {"default", json::str(d.default_text)}, {"range", json::str(range(d))},
                                   {"used_by", json::str(d.used_by)}, {"description", json::str(d.description)}}));
    for (const auto& [name, value] : rtl_variant::kOptions) {
      const json::Value* o = manifest.get("options")->get(name);
      rows.push_back(json::object({{"build_option", json::str(name)}, {"value", json::num(static_cast<double>(value))},
                                   {"default", o->get("default")->text},
                                   {"range", json::str(o->get("min")->text + ".." + o->get("max")->text +
                                                       (o->get("pow2")->text == "true" ? ", a power of two" : ""))},
                                   {"description", json::str(o->get("doc")->text)}}));
    }
    std::cout << json::array(rows, true) << "\n";
    return 0;
  }
  std::cout << fmt::format("{:<24} {:<9} {:<11} {:<34} {:<26} {}\n", "key", "unit", "default", "range", "used by",
                           "meaning");
  for (const auto& d : param_table())
    std::cout << fmt::format("{:<24} {:<9} {:<11} {:<34} {:<26} {}\n", d.key, unit_name(d.unit), d.default_text,
                             range(d), d.used_by, d.description);
  std::cout << fmt::format("\nAll keys are runtime values (config file or --set). RTL build options of this build "
                           "(variant '{}'; rtl/blocks.json, re-verilation):\n",
                           rtl_variant::kName);
  for (const auto& [name, value] : rtl_variant::kOptions) {
    const json::Value* o = manifest.get("options")->get(name);
    std::cout << fmt::format("  {:<29} {:>6}  (default {}, {}..{}{})  {}\n", name, value, o->get("default")->text,
                             o->get("min")->text, o->get("max")->text,
                             o->get("pow2")->text == "true" ? ", a power of two" : "", o->get("doc")->text);
  }
  std::cout << fmt::format(
      "\nDerived from this build's RTL (read-only; ub.tpc_read_beats, roce.qpc_read_latency and roce.qpc_turnaround\n"
      "were runtime keys once):\n"
      "  UB TP-channel lookup     {} words per {} B record over a {} B context-RAM port: issue interval {} cycles\n"
      "  RoCE PSN update          1 issue + {} read latency + 1 increment + 1 write + {} turnaround = {} cycles\n",
      ub_record_words(), enc::TP_RECORD_BITS / 8, rtl_variant::kCtxPortBytes, ub_record_words(),
      rtl_variant::kCtxRamLatency, rtl_variant::kCtxRamTurnaround, roce_psn_update_cycles());
  return 0;
}

// ---------------- sweep ----------------

// A command's own options, and those after "--" that it hands to the experiments it runs.
std::pair<std::vector<std::string>, std::vector<std::string>> split_at_dashes(const std::vector<std::string>& args) {
  const auto dashes = std::find(args.begin(), args.end(), "--");
  return {std::vector<std::string>(args.begin(), dashes),
          std::vector<std::string>(dashes == args.end() ? dashes : dashes + 1, args.end())};
}

// One sweep at a time per output folder: an exclusive lock on DIR/.lock,
// held until this process ends (the kernel drops it however it ends).
void lock_sweep_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path = (std::filesystem::path(dir) / ".lock").string();
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    throw safe_file::IoError("sweep: cannot open the lock " + path + ": " + safe_file::describe_errno(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
    throw safe_file::IoError("sweep: " + dir + " is in use by another sweep (its lock " + path +
                             " is held): wait for it to end, or choose another --out");
}

int cmd_sweep(const std::vector<std::string>& args) {
  const auto [own, exp_args] = split_at_dashes(args);
  const ParsedArgs p = parse_args("sweep", sweep_options(), own, nullptr, true);
  if (p.help) {
    std::cout << sweep_help();
    return 0;
  }
  const Options& o = p.options;
  SweepPlan plan;
  if (o.given("--merge")) {
    if (std::filesystem::is_directory(o.text("--merge"))) lock_sweep_dir(o.text("--merge"));
    plan = load_plan(o.text("--merge"));
  } else {
    if (p.positional.size() != 1) throw CliError("sweep: name one experiment (ubsim help sweep)");
    const std::string& experiment = p.positional[0];
    const Experiment* e = find_experiment(experiment);
    if (!e || !e->model) {
      std::string known;
      for (const Experiment* x : experiments())
        if (x->model) known += (known.empty() ? "" : ", ") + x->name;
      throw CliError("sweep: '" + experiment + "' is not an experiment (" + known + ")");
    }
    if (o.all("--grid").empty()) throw CliError("sweep: no --grid KEY=SPEC given");
    std::vector<SweepAxis> axes;
    for (const auto& g : o.all("--grid")) axes.push_back(parse_grid(g));   // every grid checked before any point runs
    // every point is planned (checked and hashed) before any runs: bound the cross product
    double points = 1;
    std::string sizes;
    for (const auto& ax : axes) {
      points *= static_cast<double>(ax.values.size());
      sizes += (sizes.empty() ? "" : " x ") + std::to_string(ax.values.size());
    }
    if (points > static_cast<double>(kMaxSweepPoints))
      throw CliError(fmt::format("option --grid: the grids cross to {:.0f} points ({}), more than a sweep's limit of {} "
                                 "(split it into several sweeps)",
                                 points, sizes, kMaxSweepPoints));
    const std::string x_key = o.text("--x");
    if (!x_key.empty() && std::none_of(axes.begin(), axes.end(), [&](const SweepAxis& ax) { return ax.key == x_key; }))
      throw CliError("option --x: '" + x_key + "' is not a swept key");
    const std::string area = o.text("--area");
    if (!area.empty()) select_area_blocks(this_build_rtl_options(), area);   // a bad block name fails here
    plan = make_plan(experiment, exp_args, axes, o.text("--out"), true, area);   // bad input: nothing written
    lock_sweep_dir(o.text("--out"));
    plan.metric = o.text("--metric");
    plan.x_key = x_key;
    save_plan(plan);
    if (o.flag("--emit-jobs")) {
      std::cout << emit_jobs(plan);
      return 0;
    }
    const SweepRun run = run_points(plan, static_cast<int>(o.count("-j")), static_cast<double>(o.count("--timeout")));
    std::fprintf(stderr, "sweep: %zu points: %zu reused, %zu run, %zu failed\n", run.total, run.reused, run.ran,
                 run.failed);
    if (!plan.area_jobs.empty())
      std::fprintf(stderr, "sweep: (of which %zu area jobs, one per variant)\n", plan.area_jobs.size());
  }
  const SweepMerge merged = merge_points(plan, o.given("--merge"));
  const auto& failures = merged.failures;
  for (const auto& f : failures) std::fprintf(stderr, "sweep: point failed: %s\n", f.c_str());
  std::fprintf(stderr, "ubsim: wrote %s/{sweep.csv,sweep.json,plan.json,points/}\n", plan.dir.c_str());
  // a column that is not there would draw an empty plot
  if (!plan.metric.empty() &&
      std::find(merged.columns.begin(), merged.columns.end(), plan.metric) == merged.columns.end())
    throw CliError("option --metric: '" + plan.metric + "' is not a column of " + plan.dir +
                   "/sweep.csv (its first line lists them)");
  if (!plan.metric.empty() && !plan.x_key.empty()) {
    const std::vector<std::string> argv = {"/usr/bin/python3", data_path("scripts/plot_sweep.py"),
                                           plan.dir + "/sweep.csv", plan.metric, plan.x_key, plan.dir + "/sweep.png"};
    if (run_program(argv) != 0) std::fprintf(stderr, "ubsim: warning: plot not written (%s)\n", argv[1].c_str());
  }
  return failures.empty() ? 0 : 3;
}

// ---------------- compare ----------------

int cmd_compare(const std::vector<std::string>& args) {
  const auto [own, exp_args] = split_at_dashes(args);
  const ParsedArgs p = parse_args("compare", compare_options(), own, nullptr, true);
  if (p.help) {
    std::cout << compare_help();
    return 0;
  }
  const Options& o = p.options;
  if (p.positional.size() != 2) throw CliError("compare: give two configuration files: BASE.toml CANDIDATE.toml");
  for (const char* own : {"--out", "--format", "--point"})   // each side's run is compare's to direct
    for (const auto& a : exp_args)
      if (a == own || a.rfind(std::string(own) + "=", 0) == 0)
        throw CliError(std::string("compare: ") + own + " after -- would apply to both runs (the candidate would "
                       "overwrite the base): give compare's own --out or --format before --");
  for (const auto& f : p.positional) {
    Config check;
    check.load_file(f);   // a bad file fails here, naming the key and the file
    validate_config(check);
  }
  const auto exps = o.list("--experiments");
  for (const auto& x : exps)
    if (!find_experiment(x) || !find_experiment(x)->model) throw CliError("option --experiments: '" + x + "' is not an experiment");
  const auto rows = compare_configs(p.positional[0], p.positional[1], exps, exp_args);
  using V = json::Value;
  ResultSet rs;
  size_t differ = 0;
  size_t one_sided = 0;
  for (const auto& r : rows) {
    if (r.base_null || r.candidate_null) {   // a value on one side only: always listed, never a difference of 0
      ++one_sided;
      ++differ;
      rs.rows.push_back(V::object()
                            .add("experiment", V::string(r.experiment))
                            .add("row", V::string(r.row))
                            .add("figure", V::string(r.figure))
                            .add("base", r.base_null ? V::null() : V::number(r.base))
                            .add("candidate", r.candidate_null ? V::null() : V::number(r.candidate))
                            .add("diff", V::null())
                            .add("rel", V::null()));
      continue;
    }
    const double diff = r.candidate - r.base;
    const double rel = r.base != 0 ? diff / std::fabs(r.base) : 0;
    differ += diff != 0;
    if (!o.flag("--all") && diff == 0) continue;
    rs.rows.push_back(V::object()
                          .add("experiment", V::string(r.experiment))
                          .add("row", V::string(r.row))
                          .add("figure", V::string(r.figure))
                          .add("base", V::number(r.base))
                          .add("candidate", V::number(r.candidate))
                          .add("diff", V::number(diff))
                          .add("rel", V::number(rel)));
  }
  rs.notes = fmt::format("base {} vs candidate {}: {} figures compared, {} differ{}\n", p.positional[0],
                         p.positional[1], rows.size(), differ, o.flag("--all") ? "" : " (shown; --all lists every one)");
  if (one_sided)
    rs.notes += fmt::format("{} of them have a value on one side only (null, shown as -: e.g. no request succeeded)\n",
                            one_sided);
  static const Experiment compare_e{"compare", "", "", {}, {"experiment", "row", "figure"}, {}, "compare",
                                    "plot_compare.py", false, nullptr};
  Config cfg;
  emit(compare_e, cfg, rs, o.text("--format"), o.text("--out"));
  return 0;
}

// `ubsim loss --path P` is the loss experiment inside the paths
// (loss-paths); `ubsim loss` alone, or with --engine-only, the two-engine one.
int cmd_loss(const std::vector<std::string>& args) {
  const bool on_paths = std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a == "--path" || a.rfind("--path=", 0) == 0;
  });
  std::vector<std::string> own;
  bool engine_only = false;
  for (const auto& a : args) {
    if (a == "--engine-only") engine_only = true;
    else own.push_back(a);
  }
  if (on_paths && engine_only) throw CliError("ubsim loss: --engine-only and --path exclude each other");
  if (on_paths) return cmd_experiment(*find_experiment("loss-paths"), args);
  return cmd_experiment(*find_experiment("loss"), own);
}

}  // namespace ubsim::cli
