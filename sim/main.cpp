// ubsim: the command-line front end. One subcommand per experiment; every
// simulation runs in its own child process (one SystemC elaboration each).
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include <fmt/format.h>
#include <systemc>

#include "area.h"
#include "cli.h"
#include "config.h"
#include "ctx_cache_experiment.h"
#include "json.h"
#include "issue_rate.h"
#include "latency_experiment.h"
#include "load_experiment.h"
#include "loss_experiment.h"
#include "ordering_experiment.h"
#include "raw_speed.h"
#include "routes.h"
#include "sweep.h"
#include "rtl_variant.h"
#include "subprocess.h"
#include "ubsim_build_info.h"

namespace ubsim {

uint64_t parse_count(const std::string& option, const std::string& text, uint64_t min, uint64_t max) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || text[0] == '-' || v < min || v > max)
    throw CliError(fmt::format("option {}: '{}' is not a whole number in {}..{}", option, text, min, max));
  return v;
}

namespace {

const char* kUsage = R"(ubsim — cycle-level model of a bus-attached UB/URMA controller

usage: ubsim <command> [options]

commands:
  latency   measured per-stage latency breakdown of 64 B remote reads/writes
  issue-rate  send-pipeline issue interval: a back-to-back burst at the
            pipeline's input handshake, delivered requests counted
  load      latency vs offered load (open-loop arrivals): measured capacity,
            then a sweep over fractions of it, with the saturated component
  ctx-cache context-cache overflow (spec 6): all-to-all reads among N local and
            N remote endpoints; state bytes, entries needed, hit rate, refills
            and measured latency per N, for the RoCE QP cache and the UB cache
  ordering  order tracker (spec 2, 7): submit-to-wire per mode x tag, wait
            after n predecessors, isolation of 5 initiators (UB vs RoCE RC),
            end-to-end SO on the two-node model; FST of the isolation runs
  loss      SACK engine vs GoBackN under loss (spec 8): goodput, resent bytes,
            message latency, exactly-once/in-order verdict per loss rate
  compare   BASE.toml CANDIDATE.toml: the experiments with each configuration,
            every figure's absolute and relative difference
  sweep     any experiment over a grid of parameters (and RTL variants), each
            point in its own process, -j at a time, resumable, merged
  area      generic synthesis of each RTL block with yosys: cells, logic
            bits, flip-flop bits, latch bits, memory bits (cached per inputs)
  params    list every configuration parameter (unit, default, range, meaning)
  bench     simulator speed: 1,000,000 sequential reads per path, and the raw
            verilated model's cycles/s beside the co-simulation's
  help      this text

common options:
  --config FILE        TOML configuration (may repeat; later wins)
  --set KEY=VALUE      override one parameter, with units: --set wire.latency=50ns
  --format F           table (default) | json | csv
  --out DIR            write result.json, CSV, resolved config.json and plots to DIR

latency options:
  --path P             pcie-nic | ub-async | ub-load | all   (default all)
  --stack S            ub | roce | both: shorthand for the paths of a stack
  --verb V             read (default) | write (Store on ub-load)
  --ops N              requests per path (workload.ops)
  --outstanding K      requests in flight per initiator (workload.outstanding)
  --rate R             open-loop arrivals at R (e.g. 5Mops/s, 5/us; workload.rate);
                       --outstanding is then the send-queue depth
  --stats              print per-component statistics
  --timeline FILE      Chrome/Perfetto trace-event JSON of per-request stage spans
  --trace PREFIX       FST waveforms of every RTL pipeline: PREFIX.<path>.<module>.fst

load options:
  --path P             as for latency (default all)
  --points LIST        offered load as fractions of the measured capacity
                       (default 0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.95,1.0,1.1)
  --ops N              requests per point (default 20000; the first 10 % warm up)
  --queue-depth K      send-queue depth: requests in flight at most (default 256)

issue-rate options:
  --stack S            ub | roce | both (default both)
  --burst LIST         burst lengths, comma-separated (default 256,1000)
  --initiators K       initiators sharing the pipeline (RoCE: one QP each)
  --trace PREFIX       FST waveform of each burst: PREFIX.<stack>.burst<N>.fst
  --payload B          payload bytes per request (workload.payload, default 64B); a
                       packet leaves as ceil((header + payload) / flit) flits

ctx-cache options:
  --stack S            ub (ub-async and ub-load) | roce (pcie-nic) | both (default)
  --endpoints LIST     N values (default 1,2,4,8,16,22,23,24,32,64,128,256,512,
                       1024,1025,2048,4096; at most 4096)
  --ops N              measured reads per point after the warm-up (ctx_cache.ops)
  --bytes              the byte model only (derived S_pair, S_UB, overflow points
                       of cache.bytes); no simulation
  cache size and associativity: --set cache.ub_entries=4096 --set cache.ub_ways=8

ordering options:
  --scenario LIST      submit-to-wire,wait-after-predecessors,isolation,end-to-end-so
                       (default all)
  --trace PREFIX       FST of the isolation runs: PREFIX.isolation.{ub,roce}.fst
                       (open with waveforms/isolation_{ub,roce}.gtkw)
  --release-after N    isolation: cycle at which initiator 0's read completes (400)

loss options:
  --mode M             sack | gbn | both (default both)
  --loss LIST          data-packet loss probabilities (default 0,0.001,0.002,0.005,
                       0.01,0.02,0.03,0.05,0.07,0.1); acks lose at the same rate
                       unless loss.ack is set
  --drop LIST          PSN offsets lost on their first transmission (scripted)
  --window LIST        sack.window per curve, e.g. 32,128,1024 (default: sack.window)
  --messages N         messages per point (loss.messages)
  --worked-case        spec 8's case: 8 x 4 KiB, 1 us propagation, PSN 0 lost once,
                       fast retransmit off, then on (SACK)
  --trace PREFIX       FSTs of the engines, the first point of each mode:
                       PREFIX.<mode>.{sack_tx,sack_rx}.fst (waveforms/sack_*.gtkw)

area options:
  --blocks LIST        ub_tx_pipeline,roce_tx_pipeline,rx_pipeline,ctx_cache,
                       order_tracker,sack_sender,sack_receiver | all (default all)
  --rtl KEY=VALUE      synthesize with an RTL build option changed, without building
                       it (e.g. --rtl UBSIM_RTL_CACHE_ENTRIES=2048); may repeat
  --cache DIR          where results are kept by their inputs' hash (default
                       build-area/ in the source tree, shared by every build)

compare: ubsim compare BASE.toml CANDIDATE.toml [--experiments latency,ctx-cache,...]
                   [--all] [-- EXPERIMENT OPTIONS]
  --experiments LIST   experiments to run with both files (default latency)
  --all                list every figure, not only those that differ

sweep:  ubsim sweep EXPERIMENT --grid KEY=SPEC [--grid ...] [-j N] [--out DIR]
                   [--metric COLUMN --x KEY] [--emit-jobs] [--area BLOCKS]
                   [-- EXPERIMENT OPTIONS]
        ubsim sweep --merge DIR
  --grid KEY=SPEC      SPEC: a list "a,b,c" or a range "lo..hi:step" in the key's unit
                       (wire.latency=50ns..500ns:50ns, clock=250MHz,322MHz); grids are
                       crossed; KEY "variant" takes RTL variants from rtl/variants.toml
  -j N                 points run at once (default: the number of cores)
  --out DIR            points, plan, merged sweep.csv / sweep.json (default sweep-out);
                       rerunning into the same DIR runs only the missing points
  --metric C --x KEY   also plot column C of sweep.csv against KEY (sweep.png)
  --emit-jobs          write DIR/jobs.txt (one shell command per missing point, for GNU
                       parallel or a Slurm array) and print the merge command
  --merge DIR          merge the finished points of DIR (after running jobs.txt)
  --area BLOCKS        also synthesize BLOCKS (see area, or all) once per variant with
                       yosys; their cells, logic/FF/latch/memory bits become columns
                       area.<block>.<figure> beside each row's measured figures

bench options:
  --ops N              reads per path (default 1000000)
  --path P             as above (default all)

Exit status: 0 ok, 2 bad input (message names the key and the file), 3 failure.
)";

struct Common {
  Config cfg;
  std::string format = "table";
  std::string out_dir;
};

bool common_option(Args& a, Common& c) {
  std::string v;
  if (a.option("--config", v)) { c.cfg.load_file(v); return true; }
  if (a.option("--set", v)) { c.cfg.apply_set(v); return true; }
  if (a.option("--format", v)) {
    if (v != "table" && v != "json" && v != "csv") throw CliError("option --format: '" + v + "' is not table, json or csv");
    c.format = v;
    return true;
  }
  if (a.option("--out", v)) { c.out_dir = v; return true; }
  return false;
}

std::vector<std::string> select_paths(const std::string& path, const std::string& stack) {
  if (!stack.empty()) {
    if (stack == "ub") return {"ub-async", "ub-load"};
    if (stack == "roce") return {"pcie-nic"};
    if (stack == "both") return kPathIds;
    throw CliError("option --stack: '" + stack + "' is not ub, roce or both");
  }
  if (path == "all") return kPathIds;
  for (const auto& p : kPathIds)
    if (p == path) return {p};
  throw CliError("option --path: '" + path + "' is not pcie-nic, ub-async, ub-load or all");
}

std::string config_json(const Config& cfg) {
  std::vector<std::pair<std::string, std::string>> kv;
  for (const auto& [k, v] : cfg.resolved()) kv.emplace_back(k, json::str(v));
  for (const auto& [k, hops] : cfg.resolved_routes()) {
    std::vector<std::string> items;
    for (const auto& h : hops) items.push_back(json::str(h));
    kv.emplace_back(k, json::array(items));
  }
  return json::object(kv);
}

std::string document(const std::string& experiment, const Config& cfg, const std::vector<std::string>& results) {
  return "{\"experiment\": " + json::str(experiment) + ",\n\"config\": " + config_json(cfg) +
         ",\n\"provenance\": " +
         json::object({{"git", json::str(build_info::kGitHash)},
                       {"variant", json::str(build_info::kVariant)},
                       {"seed", json::num(cfg.value("seed"))}}) +
         ",\n\"results\": " + json::array(results, true) + "}\n";
}

// Writes every file of a result set, or none: files go to a staging folder
// that replaces DIR's files only once all are written.
void write_outputs(const std::string& dir, const std::map<std::string, std::string>& files) {
  namespace fs = std::filesystem;
  const fs::path target(dir);
  const fs::path staging = target.string() + ".partial";
  std::error_code ec;
  fs::remove_all(staging, ec);
  fs::create_directories(staging, ec);
  if (ec) throw CliError("option --out: cannot create " + staging.string() + ": " + ec.message());
  for (const auto& [name, text] : files) {
    std::ofstream f(staging / name);
    f << text;
    if (!f) throw CliError("option --out: cannot write " + (staging / name).string());
  }
  fs::create_directories(target, ec);
  for (const auto& [name, text] : files) fs::rename(staging / name, target / name);
  fs::remove_all(staging, ec);
}

std::string reference_csv_path() {
  return std::string(build_info::kSourceDir) + "/docs/published_reference.csv";
}

// Prints one result set in the chosen format and, with --out, writes
// <stem>.json/.csv/.txt, the resolved config.json and <stem>.png (drawn by
// scripts/<plot_script> from the CSV).
void emit(const Common& c, const std::string& stem, const std::string& doc, const std::string& table,
          const std::string& csv, const std::string& plot_script) {
  if (c.format == "json") std::cout << doc;
  else if (c.format == "csv") std::cout << csv;
  else std::cout << table;
  if (c.out_dir.empty()) return;
  write_outputs(c.out_dir, {{stem + ".json", doc}, {stem + ".csv", csv}, {stem + ".txt", table},
                            {"config.json", config_json(c.cfg) + "\n"}});
  const std::string plot = fmt::format("/usr/bin/python3 {}/scripts/{} {}/{}.csv {}/{}.png", build_info::kSourceDir,
                                       plot_script, c.out_dir, stem, c.out_dir, stem);
  if (!plot_script.empty() && std::system(plot.c_str()) != 0) std::fprintf(stderr, "ubsim: warning: plot not written (%s)\n", plot.c_str());
  std::cout << std::flush;
  // the plot script may draw more than one figure (<stem>_*.png)
  std::string pngs;
  for (const auto& entry : std::filesystem::directory_iterator(c.out_dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(stem, 0) == 0 && entry.path().extension() == ".png") pngs += "," + name;
  }
  std::fprintf(stderr, "ubsim: wrote %s/{%s.json,%s.csv,%s.txt,config.json%s}\n", c.out_dir.c_str(), stem.c_str(),
               stem.c_str(), stem.c_str(), pngs.c_str());
}

int cmd_latency(Args& a) {
  Common c;
  std::string path = "all", stack, verb_text = "read", timeline, trace;
  bool show_stats = false;
  while (!a.done()) {
    std::string v;
    if (common_option(a, c)) continue;
    if (a.option("--path", path) || a.option("--stack", stack) || a.option("--verb", verb_text) ||
        a.option("--timeline", timeline) || a.option("--trace", trace))
      continue;
    if (a.option("--ops", v)) { c.cfg.apply_set("workload.ops=" + std::to_string(parse_count("--ops", v, 1, 1000000000000ULL))); continue; }
    if (a.option("--outstanding", v)) { c.cfg.apply_set("workload.outstanding=" + std::to_string(parse_count("--outstanding", v, 1, 65536))); continue; }
    if (a.option("--rate", v)) { c.cfg.apply_set("workload.rate=" + v); continue; }
    if (a.flag("--stats")) { show_stats = true; continue; }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim latency' (see ubsim help)");
  }
  if (verb_text != "read" && verb_text != "write") throw CliError("option --verb: '" + verb_text + "' is not read or write");
  const auto paths = select_paths(path, stack);
  c.cfg.validate();   // bad input fails here, before anything runs or is written

  const auto reference = load_published_reference(reference_csv_path());
  std::vector<std::string> results;
  std::string table, csv;
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string& p = paths[i];
    LatencyOptions o;
    o.path = p;
    o.verb = verb_text == "read" ? Verb::Read : Verb::Write;
    if (!trace.empty()) o.trace_prefix = trace + "." + p;
    if (!timeline.empty()) o.timeline_path = paths.size() == 1 ? timeline : timeline + "." + p + ".json";
    const double ref = (o.verb == Verb::Read && reference.count(p)) ? reference.at(p) : 0.0;
    ChildResult child = run_in_child([&] {
      const LatencyResult r = run_latency(c.cfg, o);
      std::string text = latency_table(r, ref);
      if (show_stats) text += "  per-component statistics:\n" + stats_table_text(r.stats);
      return latency_json(r, ref) + '\x1e' + text + '\x1e' + latency_csv(r, i == 0);
    });
    if (child.exit_code != 0) {
      std::fprintf(stderr, "ubsim: error: %s\n", child.output.c_str());
      return child.exit_code;
    }
    const auto s1 = child.output.find('\x1e');
    const auto s2 = child.output.find('\x1e', s1 + 1);
    results.push_back(child.output.substr(0, s1));
    table += child.output.substr(s1 + 1, s2 - s1 - 1);
    csv += child.output.substr(s2 + 1);
  }
  emit(c, "latency", document("latency", c.cfg, results), table, csv, "plot_latency.py");
  return 0;
}

int cmd_params(Args& a) {
  std::string format = "table";
  while (!a.done()) {
    if (a.option("--format", format)) continue;
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim params'");
  }
  if (format == "json") {
    std::vector<std::string> rows;
    for (const auto& p : param_table())
      rows.push_back(json::object({{"key", json::str(p.key)}, {"unit", json::str(unit_name(p.unit))},
                                   {"default", json::str(p.default_text)}, {"used_by", json::str(p.used_by)},
                                   {"description", json::str(p.description)}}));
    std::cout << json::array(rows, true) << "\n";
    return 0;
  }
  std::cout << fmt::format("{:<24} {:<9} {:<11} {:<26} {}\n", "key", "unit", "default", "used by", "meaning");
  for (const auto& p : param_table())
    std::cout << fmt::format("{:<24} {:<9} {:<11} {:<26} {}\n", p.key, unit_name(p.unit), p.default_text, p.used_by,
                             p.description);
  std::cout << "\nAll keys are runtime values (config file or --set). RTL build options (re-verilation):\n"
            << fmt::format("  UBSIM_RTL_MAX_CHAIN={}  UBSIM_RTL_CTX_W={}  UBSIM_RTL_MAX_BEATS={}  UBSIM_RTL_FLIT_BYTES={}"
                           "  (variant '{}')\n",
                           build_info::kMaxChain, build_info::kCtxBits, build_info::kMaxBeats, build_info::kFlitBytes,
                           build_info::kVariant);
  return 0;
}

int cmd_issue_rate(Args& a) {
  Common c;
  std::string stack = "both", bursts = "256,1000", trace, v;
  int initiators = 1;
  while (!a.done()) {
    if (common_option(a, c)) continue;
    if (a.option("--stack", stack) || a.option("--burst", bursts) || a.option("--trace", trace)) continue;
    if (a.option("--initiators", v)) { initiators = static_cast<int>(parse_count("--initiators", v, 1, 4096)); continue; }
    if (a.option("--payload", v)) { c.cfg.apply_set("workload.payload=" + v); continue; }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim issue-rate'");
  }
  std::vector<std::string> stacks;
  if (stack == "both") stacks = {"ub", "roce"};
  else if (stack == "ub" || stack == "roce") stacks = {stack};
  else throw CliError("option --stack: '" + stack + "' is not ub, roce or both");
  std::vector<uint64_t> lengths;
  for (const auto& item : split_list(bursts)) lengths.push_back(parse_count("--burst", item, 1, 1000000));
  c.cfg.validate();
  std::vector<IssueRateResult> rs;
  std::vector<std::string> results;
  for (const auto& s : stacks)
    for (uint64_t n : lengths) {
      rs.push_back(run_issue_rate(c.cfg, s, n, initiators,
                                  trace.empty() ? "" : fmt::format("{}.{}.burst{}.fst", trace, s, n)));
      results.push_back(issue_rate_json(rs.back()));
    }
  emit(c, "issue_rate", document("issue-rate", c.cfg, results), issue_rate_table(rs), issue_rate_csv(rs),
       "plot_issue_rate.py");
  return 0;
}

int cmd_load(Args& a) {
  Common c;
  std::string path = "all", points = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.95,1.0,1.1", v;
  uint64_t ops = 20000, depth = 256;
  while (!a.done()) {
    if (common_option(a, c)) continue;
    if (a.option("--path", path) || a.option("--points", points)) continue;
    if (a.option("--ops", v)) { ops = parse_count("--ops", v, 100, 100000000); continue; }
    if (a.option("--queue-depth", v)) { depth = parse_count("--queue-depth", v, 1, 65536); continue; }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim load'");
  }
  std::vector<double> fractions;
  for (const auto& item : split_list(points)) {
    char* end = nullptr;
    const double f = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !(f > 0) || f > 100)
      throw CliError("option --points: '" + item + "' is not a fraction of capacity in (0, 100]");
    fractions.push_back(f);
  }
  const auto paths = select_paths(path, "");
  c.cfg.apply_set(fmt::format("workload.ops={}", ops));
  c.cfg.apply_set(fmt::format("workload.warmup={}", ops / 10));
  c.cfg.apply_set(fmt::format("workload.outstanding={}", depth));
  c.cfg.validate();
  std::vector<std::string> results;
  std::string table, csv;
  for (size_t i = 0; i < paths.size(); ++i) {
    double capacity = 0;
    const auto pts = run_load_sweep(c.cfg, paths[i], fractions, capacity);
    for (const auto& p : pts) results.push_back(load_json(p));
    table += load_table(pts, capacity);
    csv += load_csv(pts, i == 0);
  }
  emit(c, "load", document("load", c.cfg, results), table, csv, "plot_load.py");
  return 0;
}

int cmd_ctx_cache(Args& a) {
  Common c;
  std::string stack = "both", endpoints = "1,2,4,8,16,22,23,24,32,64,128,256,512,1024,1025,2048,4096", v;
  bool bytes_only = false;
  while (!a.done()) {
    if (common_option(a, c)) continue;
    if (a.option("--stack", stack) || a.option("--endpoints", endpoints)) continue;
    if (a.flag("--bytes")) { bytes_only = true; continue; }
    if (a.option("--ops", v)) { c.cfg.apply_set("ctx_cache.ops=" + std::to_string(parse_count("--ops", v, 1, 1000000000))); continue; }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim ctx-cache'");
  }
  std::vector<uint64_t> ns;
  for (const auto& item : split_list(endpoints))
    ns.push_back(parse_count("--endpoints", item, 1, 4096));
  if (ns.empty()) throw CliError("option --endpoints: empty list");
  const auto paths = select_paths("all", stack);
  c.cfg.validate();
  std::string table = ctx_cache_bytes_table(c.cfg, ns);
  std::vector<std::string> results = {ctx_cache_bytes_json(c.cfg)};
  std::vector<CtxCachePoint> pts;
  if (!bytes_only) {
    pts = run_ctx_cache(c.cfg, paths, ns);
    for (const auto& p : pts) results.push_back(ctx_cache_json(p));
    table += ctx_cache_table(c.cfg, pts);
  }
  emit(c, "ctx_cache", document("ctx-cache", c.cfg, results), table, ctx_cache_csv(c.cfg, pts, ns), "plot_ctx_cache.py");
  return 0;
}

int cmd_ordering(Args& a) {
  Common c;
  std::string scenarios, v;
  OrderingOptions o;
  while (!a.done()) {
    if (common_option(a, c)) continue;
    if (a.option("--scenario", scenarios) || a.option("--trace", o.trace_prefix)) continue;
    if (a.option("--release-after", v)) { o.release_after_cycles = parse_count("--release-after", v, 100, 100000); continue; }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim ordering'");
  }
  for (const auto& item : scenarios.empty() ? std::vector<std::string>{} : split_list(scenarios)) {
    const auto& known = ordering_scenarios();
    if (std::find(known.begin(), known.end(), item) == known.end())
      throw CliError("option --scenario: '" + item + "' is not submit-to-wire, wait-after-predecessors, isolation "
                     "or end-to-end-so");
    o.scenarios.push_back(item);
  }
  c.cfg.validate();
  const auto rows = run_ordering(c.cfg, o);
  std::vector<std::string> results;
  for (const auto& r : rows) results.push_back(ordering_json(r));
  emit(c, "ordering", document("ordering", c.cfg, results), ordering_table(rows), ordering_csv(rows),
       "plot_ordering.py");
  return 0;
}

int cmd_loss(Args& a) {
  Common c;
  std::string mode = "both", losses = "0,0.001,0.002,0.005,0.01,0.02,0.03,0.05,0.07,0.1", drops, windows, trace, v;
  bool worked = false;
  while (!a.done()) {
    if (common_option(a, c)) continue;
    if (a.option("--mode", mode) || a.option("--loss", losses) || a.option("--drop", drops) ||
        a.option("--window", windows) || a.option("--trace", trace))
      continue;
    if (a.option("--messages", v)) { c.cfg.apply_set("loss.messages=" + std::to_string(parse_count("--messages", v, 1, 10000000))); continue; }
    if (a.flag("--worked-case")) { worked = true; continue; }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim loss'");
  }
  LossOptions o;
  o.trace_prefix = trace;
  if (mode == "both") o.modes = {"sack", "gbn"};
  else if (mode == "sack" || mode == "gbn") o.modes = {mode};
  else throw CliError("option --mode: '" + mode + "' is not sack, gbn or both");
  o.losses.clear();
  for (const auto& item : split_list(losses)) {
    char* end = nullptr;
    const double f = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !(f >= 0) || f >= 1)
      throw CliError("option --loss: '" + item + "' is not a probability in [0, 1)");
    o.losses.push_back(f);
  }
  for (const auto& item : windows.empty() ? std::vector<std::string>{} : split_list(windows))
    o.windows.push_back(static_cast<int>(parse_count("--window", item, 128, static_cast<uint64_t>(rtl_variant::kSackMaxWindow))));
  for (const auto& item : drops.empty() ? std::vector<std::string>{} : split_list(drops))
    o.drop_once.push_back(static_cast<uint32_t>(parse_count("--drop", item, 0, 16777215)));
  std::vector<LossPoint> pts;
  std::string table;
  if (worked) {
    c.cfg.apply_set("loss.messages=8");
    c.cfg.apply_set("loss.message_bytes=4KiB");
    c.cfg.apply_set("loss.wire_latency=1us");
    c.cfg.apply_set("sack.rto=20us");
    o.losses = {0};
    o.drop_once = {0};
    c.cfg.validate();
    Config off = c.cfg;
    off.apply_set("sack.fast_retransmit=false");
    pts = run_loss(off, o);
    table = "\nworked case, fast retransmit off (recovery by the retransmit timer):" + loss_table(pts, off);
    LossOptions sack_only = o;
    sack_only.modes = {"sack"};
    if (!trace.empty()) sack_only.trace_prefix = trace + ".fast";
    Config on = c.cfg;
    on.apply_set("sack.fast_retransmit=true");
    const auto fast = run_loss(on, sack_only);
    table += "\nworked case, fast retransmit on:" + loss_table(fast, on);
    pts.insert(pts.end(), fast.begin(), fast.end());
  } else {
    c.cfg.validate();
    pts = run_loss(c.cfg, o);
    table = loss_table(pts, c.cfg);
  }
  std::vector<std::string> results;
  for (const auto& p : pts) results.push_back(loss_json(p));
  emit(c, "loss", document("loss", c.cfg, results), table, loss_csv(pts), "plot_loss.py");
  return 0;
}

// A command's own options, and those after "--" that it hands to the experiments it runs.
std::pair<std::vector<std::string>, std::vector<std::string>> split_at_dashes(const std::vector<std::string>& args) {
  const auto dashes = std::find(args.begin(), args.end(), "--");
  return {std::vector<std::string>(args.begin(), dashes),
          std::vector<std::string>(dashes == args.end() ? dashes : dashes + 1, args.end())};
}

int cmd_sweep(const std::vector<std::string>& args) {
  const auto [own, exp_args] = split_at_dashes(args);
  Args a(own);
  std::string experiment, out = "sweep-out", merge_dir, metric, x_key, area, v;
  std::vector<std::string> grids;
  int jobs = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  bool emit = false;
  while (!a.done()) {
    if (a.option("--grid", v)) { grids.push_back(v); continue; }
    if (a.option("-j", v)) { jobs = static_cast<int>(parse_count("-j", v, 1, 256)); continue; }
    if (a.option("--out", out) || a.option("--merge", merge_dir) || a.option("--metric", metric) ||
        a.option("--x", x_key) || a.option("--area", area))
      continue;
    if (a.flag("--emit-jobs")) { emit = true; continue; }
    if (!a.peek().empty() && a.peek()[0] != '-' && experiment.empty()) {
      std::string e;
      a.positional(e);
      experiment = e;
      continue;
    }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim sweep'");
  }
  SweepPlan plan;
  if (!merge_dir.empty()) {
    plan = load_plan(merge_dir);
  } else {
    static const std::vector<std::string> kExperiments = {"latency", "load", "issue-rate", "ctx-cache", "ordering", "loss"};
    if (std::find(kExperiments.begin(), kExperiments.end(), experiment) == kExperiments.end())
      throw CliError("sweep: '" + experiment + "' is not an experiment (latency, load, issue-rate, ctx-cache, ordering, loss)");
    if (grids.empty()) throw CliError("sweep: no --grid KEY=SPEC given");
    std::vector<SweepAxis> axes;
    for (const auto& g : grids) axes.push_back(parse_grid(g));   // every grid checked before any point runs
    if (!x_key.empty() && std::none_of(axes.begin(), axes.end(), [&](const SweepAxis& ax) { return ax.key == x_key; }))
      throw CliError("option --x: '" + x_key + "' is not a swept key");
    if (!area.empty()) select_area_blocks(this_build_rtl_options(), area);   // a bad block name fails here
    plan = make_plan(experiment, exp_args, axes, out, true, area);
    plan.metric = metric;
    plan.x_key = x_key;
    save_plan(plan);
    if (emit) {
      std::cout << emit_jobs(plan);
      return 0;
    }
    const SweepRun run = run_points(plan, jobs);
    std::fprintf(stderr, "sweep: %zu points: %zu reused, %zu run, %zu failed\n", run.total, run.reused, run.ran,
                 run.failed);
    if (!plan.area_jobs.empty())
      std::fprintf(stderr, "sweep: (of which %zu area jobs, one per variant)\n", plan.area_jobs.size());
  }
  const auto failures = merge_points(plan);
  for (const auto& f : failures) std::fprintf(stderr, "sweep: point failed: %s\n", f.c_str());
  std::fprintf(stderr, "ubsim: wrote %s/{sweep.csv,sweep.json,plan.json,points/}\n", plan.dir.c_str());
  if (!plan.metric.empty() && !plan.x_key.empty()) {
    const std::string cmd = fmt::format("/usr/bin/python3 {}/scripts/plot_sweep.py {}/sweep.csv '{}' '{}' {}/sweep.png",
                                        build_info::kSourceDir, plan.dir, plan.metric, plan.x_key, plan.dir);
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "ubsim: warning: plot not written (%s)\n", cmd.c_str());
  }
  return failures.empty() ? 0 : 3;
}

int cmd_compare(const std::vector<std::string>& args) {
  const auto [own, exp_args] = split_at_dashes(args);
  Args a(own);
  Common c;
  std::string experiments = "latency";
  std::vector<std::string> files;
  bool all = false;
  while (!a.done()) {
    if (a.option("--experiments", experiments)) continue;
    if (a.flag("--all")) { all = true; continue; }
    if (a.option("--format", c.format) || a.option("--out", c.out_dir)) continue;
    if (!a.peek().empty() && a.peek()[0] != '-') {
      std::string f;
      a.positional(f);
      files.push_back(f);
      continue;
    }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim compare'");
  }
  if (files.size() != 2) throw CliError("compare: give two configuration files: BASE.toml CANDIDATE.toml");
  for (const auto& f : files) {
    Config check;
    check.load_file(f);   // a bad file fails here, naming the key and the file
    check.validate();
  }
  std::vector<std::string> exps = split_list(experiments);
  const auto rows = compare_configs(files[0], files[1], exps, exp_args);
  std::string table = fmt::format("\ncompare: base {} vs candidate {}\n  {:<10} {:<26} {:<36} {:>14} {:>14} {:>12} {:>9}\n",
                                  files[0], files[1], "experiment", "row", "figure", "base", "candidate", "diff",
                                  "rel");
  std::string csv = "experiment,row,figure,base,candidate,diff,rel\n";
  std::vector<std::string> results;
  size_t shown = 0;
  for (const auto& r : rows) {
    const double diff = r.candidate - r.base;
    const double rel = r.base != 0 ? diff / std::fabs(r.base) : 0;
    csv += fmt::format("{},\"{}\",{},{:.10g},{:.10g},{:.10g},{:.6g}\n", r.experiment, r.row, r.figure, r.base,
                       r.candidate, diff, rel);
    results.push_back(json::object({{"experiment", json::str(r.experiment)}, {"row", json::str(r.row)},
                                    {"figure", json::str(r.figure)}, {"base", json::num(r.base)},
                                    {"candidate", json::num(r.candidate)}, {"diff", json::num(diff)},
                                    {"rel", json::num(rel)}}));
    if (!all && diff == 0) continue;
    ++shown;
    table += fmt::format("  {:<10} {:<26} {:<36} {:>14.6g} {:>14.6g} {:>+12.6g} {:>+8.2f}%\n", r.experiment,
                         r.row.substr(0, 26), r.figure.substr(0, 36), r.base, r.candidate, diff, 100 * rel);
  }
  table += fmt::format("  {} figures compared, {} differ{}\n", rows.size(),
                       std::count_if(rows.begin(), rows.end(), [](const CompareRow& r) { return r.candidate != r.base; }),
                       all ? "" : " (shown; --all lists every one)");
  (void)shown;
  emit(c, "compare", document("compare", c.cfg, results), table, csv, "plot_compare.py");
  return 0;
}

int cmd_area(Args& a) {
  Common c;
  std::string blocks = "all", cache_dir, v;
  RtlOptions opts = this_build_rtl_options();
  while (!a.done()) {
    if (common_option(a, c)) continue;
    if (a.option("--blocks", blocks) || a.option("--cache", cache_dir)) continue;
    if (a.option("--rtl", v)) { apply_rtl_override(opts, v); continue; }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim area'");
  }
  const auto selected = select_area_blocks(opts, blocks);   // a bad name fails before any synthesis
  if (cache_dir.empty()) cache_dir = default_area_cache_dir();
  std::string options;
  for (const auto& [k, val] : opts) options += fmt::format(" {}={}", k, val);
  std::string table = fmt::format(
      "\nRTL area: generic coarse synthesis (yosys proc/flatten/opt/memory_collect; SYNTHESIS defined), variant {}\n"
      "RTL build options:{}\n"
      "  {:<17} {:<62} {:>9} {:>11} {:>9} {:>7} {:>9} {:>8}\n",
      build_info::kVariant, options, "block", "parameters", "cells", "logic bits", "FF bits", "latches", "mem bits",
      "yosys s");
  std::string csv = "block,params,cells,logic_bits,ff_bits,latch_bits,mem_bits\n";
  std::vector<std::string> results;
  for (const auto& b : selected) {
    const AreaFigures f = synthesize_area(b, cache_dir);
    table += fmt::format("  {:<17} {:<62} {:>9} {:>11} {:>9} {:>7} {:>9} {:>8}\n", f.block, f.params,
                         f.coarse_cells, f.logic_bits, f.ff_bits, f.latch_bits, f.mem_bits,
                         f.cached ? std::string("cached") : fmt::format("{:.1f}", f.yosys_s));
    csv += fmt::format("{},\"{}\",{},{},{},{},{}\n", f.block, f.params, f.coarse_cells, f.logic_bits, f.ff_bits,
                       f.latch_bits, f.mem_bits);
    results.push_back(json::object({{"block", json::str(f.block)},
                                    {"params", json::str(f.params)},
                                    {"cells", json::num(static_cast<double>(f.coarse_cells))},
                                    {"logic_bits", json::num(static_cast<double>(f.logic_bits))},
                                    {"ff_bits", json::num(static_cast<double>(f.ff_bits))},
                                    {"latch_bits", json::num(static_cast<double>(f.latch_bits))},
                                    {"mem_bits", json::num(static_cast<double>(f.mem_bits))},
                                    {"sim", json::object({{"yosys_s", json::num(f.yosys_s)},
                                                          {"cached", f.cached ? "true" : "false"}})}}));
  }
  table += "  cells: word-level cells; logic bits: their summed widths (flip-flops and memories excluded);\n"
           "  ctx_cache in its parallel form (one comparator per entry), the hint table and checks left out.\n";
  emit(c, "area", document("area", c.cfg, results), table, csv, "");
  return 0;
}

int cmd_bench(Args& a) {
  Common c;
  std::string path = "all", v;
  uint64_t ops = 1000000;
  while (!a.done()) {
    if (common_option(a, c)) continue;
    if (a.option("--path", path)) continue;
    if (a.option("--ops", v)) { ops = parse_count("--ops", v, 1, 1000000000000ULL); continue; }
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim bench'");
  }
  c.cfg.apply_set("workload.ops=" + std::to_string(ops));
  c.cfg.apply_set("workload.outstanding=1");
  c.cfg.validate();
  std::cout << fmt::format("{:<10} {:>10} {:>10} {:>14} {:>12} {:>16} {:>12}\n", "path", "ops", "wall s",
                           "sim reads/s", "peak RSS MiB", "RTL cycles/s", "mean ns");
  std::vector<std::string> results;
  for (const auto& p : select_paths(path, "")) {
    ChildResult child = run_in_child([&] {
      LatencyOptions o;
      o.path = p;
      const LatencyResult r = run_latency(c.cfg, o);
      return fmt::format("{:<10} {:>10} {:>10.2f} {:>14.0f} {:>12.1f} {:>16.3g} {:>12.2f}\n", p, r.ops, r.wall_s,
                         static_cast<double>(r.ops) / r.wall_s, static_cast<double>(r.peak_rss_kib) / 1024.0,
                         r.cycles_evaluated / r.wall_s, r.mean_ns);
    });
    if (child.exit_code != 0) {
      std::fprintf(stderr, "ubsim: error: %s\n", child.output.c_str());
      return child.exit_code;
    }
    std::cout << child.output << std::flush;
  }
  const RawSpeed raw = measure_raw_model_speed(5000000);
  std::cout << fmt::format(
      "\nraw verilated UB send pipeline, stepped in a C++ loop with a request every cycle: {:.3g} cycles/s "
      "({} requests delivered)\n"
      "co-simulation (RTL cycles/s above) steps only cycles with work and skips idle ones.\n",
      raw.cycles_per_s, raw.delivered);
  return 0;
}

}  // namespace
}  // namespace ubsim

extern "C" int sc_main(int argc, char** argv) {
  using namespace ubsim;
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string cmd = args[0];
  Args a(std::vector<std::string>(args.begin() + 1, args.end()));
  try {
    if (cmd == "latency") return cmd_latency(a);
    if (cmd == "params") return cmd_params(a);
    if (cmd == "issue-rate") return cmd_issue_rate(a);
    if (cmd == "load") return cmd_load(a);
    if (cmd == "bench") return cmd_bench(a);
    if (cmd == "area") return cmd_area(a);
    if (cmd == "ctx-cache") return cmd_ctx_cache(a);
    if (cmd == "ordering") return cmd_ordering(a);
    if (cmd == "loss") return cmd_loss(a);
    if (cmd == "sweep") return cmd_sweep(std::vector<std::string>(args.begin() + 1, args.end()));
    if (cmd == "compare") return cmd_compare(std::vector<std::string>(args.begin() + 1, args.end()));
    throw CliError("unknown command '" + cmd +
                   "' (commands: latency, load, issue-rate, ctx-cache, ordering, loss, sweep, compare, area, params, bench, help)");
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "ubsim: error: %s\n", e.what());
    return 2;
  } catch (const CliError& e) {
    std::fprintf(stderr, "ubsim: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ubsim: error: %s\n", e.what());
    return 3;
  }
}

// Own entry point so the SystemC banner is off before the library prints it.
int main(int argc, char** argv) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
