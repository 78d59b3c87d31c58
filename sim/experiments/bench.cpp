// ubsim bench: the simulator's own speed: sequential reads per path (every
// RTL block of the path in it), and the raw verilated UB send pipeline
// stepped in a bare loop, for comparison with the co-simulation.
#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "data_dir.h"
#include "pipeline_limits.h"
#include "experiment.h"
#include "latency.h"
#include "raw_speed.h"
#include "routes.h"

namespace ubsim {

namespace {

using V = json::Value;

std::string reference_path() { return data_path("docs/bench_reference.csv"); }

ResultSet run(Config& cfg, const Options& o) {
  cfg.set_by_experiment(key::workload_ops, "bench", o.text("--ops"));
  cfg.set_by_experiment(key::workload_outstanding, "bench", "1");
  validate_config(cfg);
  const uint64_t repeat = o.count("--repeat");
  const auto reference = load_reference_csv(reference_path());   // path -> reads/s recorded
  // the cost of one evaluated cycle of each block the paths stepped (idle:
  // a lower bound), measured once per block
  std::map<std::string, std::optional<double>> cycle_cost;
  auto cost_of = [&](const std::string& block) -> const std::optional<double>& {
    auto it = cycle_cost.find(block);
    if (it == cycle_cost.end()) it = cycle_cost.emplace(block, idle_cycle_cost(block, cfg, 1000000)).first;
    return it->second;
  };
  ResultSet rs;
  for (const auto& p : select_paths(o.text("--path"), "")) {
    std::vector<V> runs;
    for (uint64_t i = 0; i < repeat; ++i) {
      auto rows = rows_in_child([&] {
        LatencyOptions lo;
        lo.path = p;
        const LatencyResult r = run_latency(cfg, lo);
        V by_block = V::object();
        for (const auto& [block, cycles] : r.cycles_by_block) by_block.add(block, V::number(cycles));
        return std::vector<V>{V::object()
                                  .add("cpu_s", V::number(r.cpu_s))
                                  .add("wall_s", V::number(r.wall_s))
                                  .add("peak_rss_bytes", V::number(static_cast<double>(r.peak_rss_kib) * 1024.0))
                                  .add("rtl_cycles", V::number(r.cycles_evaluated))
                                  .add("rtl_cycles_by_block", by_block)
                                  .add("mean_ns", V::number(r.mean_ns))};
      });
      runs.push_back(rows.at(0));
    }
    // the run with the median CPU time
    std::sort(runs.begin(), runs.end(), [](const V& a, const V& b) { return a.num("cpu_s") < b.num("cpu_s"); });
    const V& m = runs[runs.size() / 2];
    const double ops = static_cast<double>(cfg.count(key::workload_ops));
    // A run shorter than the CPU clock's tick can read 0 s of CPU time
    // (the process clock of some kernels advances in ticks of a few ms):
    // then there is no rate, not an infinite one.
    const bool timed = m.num("cpu_s") > 0;
    const double rate = timed ? ops / m.num("cpu_s") : 0.0;
    if (!timed)
      std::fprintf(stderr,
                   "ubsim: warning: bench: %s: %.0f read(s) took less CPU time than the process clock resolves: no "
                   "reads/s (use more --ops)\n",
                   p.c_str(), ops);
    // derived: CPU time per read if evaluating the path's RTL cycles cost
    // no more than idle cycles and nothing else cost anything
    double floor_s = 0;
    V blocks = V::array();
    for (const auto& [block, cycles] : m.get("rtl_cycles_by_block")->fields) {
      const double per_read = std::stod(cycles.text) / ops;
      const std::optional<double>& cost = cost_of(block);
      floor_s += per_read * cost.value_or(0.0);
      blocks.items.push_back(V::object()
                                 .add("block", V::string(block))
                                 .add("cycles_per_read", V::number(per_read))
                                 .add("idle_cycle_ns", cost ? V::number(*cost * 1e9) : V::null()));
    }
    V cpu_runs = V::array();
    for (const V& r : runs) cpu_runs.items.push_back(V::number(r.num("cpu_s")));
    rs.rows.push_back(V::object()
                          .add("path", V::string(p))
                          .add("ops", V::number(ops))
                          .add("runs", V::number(static_cast<double>(repeat)))
                          .add("cpu_s", V::number(m.num("cpu_s")))
                          .add("cpu_s_runs", cpu_runs)
                          .add("wall_s", V::number(m.num("wall_s")))
                          .add("reads_per_s", timed ? V::number(rate) : V::null())
                          .add("peak_rss_bytes", V::number(m.num("peak_rss_bytes")))
                          .add("rtl_cycles_per_read", V::number(m.num("rtl_cycles") / ops))
                          .add("rtl_cycles_per_s", timed ? V::number(m.num("rtl_cycles") / m.num("cpu_s")) : V::null())
                          .add("derived_rtl_floor_reads_per_s", V::number(floor_s > 0 ? 1.0 / floor_s : 0.0))
                          .add("derived_rtl_floor_share", timed ? V::number(floor_s * rate) : V::null())
                          .add("rtl_blocks", blocks)
                          .add("mean_ns", V::number(m.num("mean_ns"))));
    if (o.flag("--check") && timed && reference.count(p) && rate < reference.at(p))
      std::fprintf(stderr, "ubsim: warning: bench: %s ran %.0f reads/s, below the %.0f recorded in %s\n", p.c_str(),
                   rate, reference.at(p), reference_path().c_str());
  }
  const RawSpeed raw = measure_raw_model_speed(5000000);
  rs.notes = fmt::format(
      "\nreads_per_s: reads per CPU second of the simulation (median of --repeat runs).\n"
      "raw verilated UB send pipeline, stepped in a C++ loop with a request every cycle: {:.3g} cycles/s "
      "({} requests delivered)\n"
      "co-simulation (rtl_cycles_per_s) steps only cycles with work and skips idle ones.\n"
      "rtl_blocks: each block's RTL cycles evaluated per read, and the CPU time of one of its cycles stepped idle\n"
      "in a C++ loop (idle_cycle_ns: a lower bound on what a cycle costs; Verilator evaluates the whole model\n"
      "on every edge). derived_rtl_floor_reads_per_s: the reads/s a path could reach if its cycles cost only\n"
      "that and nothing else cost anything; derived_rtl_floor_share: that floor's share of the measured CPU time.\n",
      raw.cycles_per_s, raw.delivered);
  return rs;
}

}  // namespace

const Experiment& bench_experiment() {
  static const Experiment e{
      "bench",
      "simulator speed: sequential reads per path, and the raw verilated model's cycles/s beside the co-simulation's",
      "Each path runs --ops sequential 64 B reads in its own process, --repeat times; the run with the median CPU\n"
      "time of the simulation is reported. --check warns (never fails) when a path is below the figure recorded\n"
      "in docs/bench_reference.csv. Each block of the paths is also stepped idle in a bare loop:\n"
      "its cycles per read times that cost give the derived RTL floor: the cost of the RTL code as written\n"
      "(a block restructured for simulation lowers it), not a limit of the simulator. Instruction counts, which\n"
      "do not move with the machine's load, come from scripts/bench-instructions (docs/performance.md).",
      {opt_count("--ops", "N", 1, 1000000000000ULL, "1000000", "reads per path"),
       opt_choice("--path", {"pcie-nic", "ub-async", "ub-load", "all"}, "all", "the path(s) to run"),
       opt_count("--repeat", "N", 1, 100, "1", "runs per path (the median is reported)"),
       opt_flag("--check", "warn when below the recorded reads/s (docs/bench_reference.csv)")},
      {"path"},
      {{"reads_per_s", "1/s", "reads per CPU second of the simulation (median run); null when it took less CPU time than the process clock resolves"},
       {"cpu_s", "s", "CPU time of the simulation (median run); cpu_s_runs: every run's"},
       {"wall_s", "s", "wall time of the simulation (median run)"},
       {"peak_rss_bytes", "bytes", "peak resident memory of the simulating process"},
       {"rtl_cycles_per_read", "cycles", "RTL cycles evaluated per read (every verilated block of the path)"},
       {"rtl_cycles_per_s", "1/s", "RTL cycles evaluated per CPU second"},
       {"derived_rtl_floor_reads_per_s", "1/s",
        "derived: reads/s if only evaluating the path's RTL cycles cost CPU time (each block's cycles per read x its "
        "idle-cycle cost, measured in a bare loop): the cost of the RTL code as written, not a simulator limit"},
       {"derived_rtl_floor_share", "fraction", "derived: the RTL floor's share of the measured CPU time per read"},
       {"rtl_blocks", "", "per block of the path (model class): cycles_per_read, idle_cycle_ns (one cycle stepped idle "
                          "in a bare loop)"}},
      "bench",
      "",
      false,
      run};
  return e;
}

}  // namespace ubsim
