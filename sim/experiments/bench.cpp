// ubsim bench: the simulator's own speed: sequential reads per path (every
// RTL block of the path in it), and the raw verilated UB send pipeline
// stepped in a bare loop, for comparison with the co-simulation.
#include <fmt/format.h>

#include "experiment.h"
#include "latency.h"
#include "raw_speed.h"

namespace ubsim {

namespace {

ResultSet run(Config& cfg, const Options& o) {
  cfg.apply_set("workload.ops=" + o.text("--ops"));
  cfg.apply_set("workload.outstanding=1");
  cfg.validate();
  using V = json::Value;
  ResultSet rs;
  for (const auto& p : select_paths(o.text("--path"), "")) {
    auto rows = rows_in_child([&] {
      LatencyOptions lo;
      lo.path = p;
      const LatencyResult r = run_latency(cfg, lo);
      return std::vector<V>{V::object()
                                .add("path", V::string(p))
                                .add("ops", V::number(static_cast<double>(r.ops)))
                                .add("wall_s", V::number(r.wall_s))
                                .add("reads_per_s", V::number(static_cast<double>(r.ops) / r.wall_s))
                                .add("peak_rss_mib", V::number(static_cast<double>(r.peak_rss_kib) / 1024.0))
                                .add("rtl_cycles_per_s", V::number(r.cycles_evaluated / r.wall_s))
                                .add("mean_ns", V::number(r.mean_ns))};
    });
    rs.rows.push_back(rows.at(0));
  }
  const RawSpeed raw = measure_raw_model_speed(5000000);
  rs.notes = fmt::format(
      "\nraw verilated UB send pipeline, stepped in a C++ loop with a request every cycle: {:.3g} cycles/s "
      "({} requests delivered)\n"
      "co-simulation (rtl_cycles_per_s) steps only cycles with work and skips idle ones.\n",
      raw.cycles_per_s, raw.delivered);
  return rs;
}

}  // namespace

const Experiment& bench_experiment() {
  static const Experiment e{
      "bench",
      "simulator speed: sequential reads per path, and the raw verilated model's cycles/s beside the co-simulation's",
      "Each path runs --ops sequential 64 B reads in its own process (wall time of the simulation only).",
      {opt_count("--ops", "N", 1, 1000000000000ULL, "1000000", "reads per path"),
       opt_choice("--path", {"pcie-nic", "ub-async", "ub-load", "all"}, "all", "the path(s) to run")},
      {"path"},
      {{"reads_per_s", "1/s", "simulated reads per wall second"},
       {"peak_rss_mib", "MiB", "peak resident memory of the simulating process"},
       {"rtl_cycles_per_s", "1/s", "RTL cycles evaluated per wall second"}},
      "bench",
      "",
      false,
      run};
  return e;
}

}  // namespace ubsim
