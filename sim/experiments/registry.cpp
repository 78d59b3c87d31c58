#include "experiment.h"

namespace ubsim {

// Every experiment, in the order `ubsim help` lists them.
const std::vector<const Experiment*>& experiments() {
  static const std::vector<const Experiment*> all = {
      &latency_experiment(),   &issue_rate_experiment(), &load_experiment(), &throughput_experiment(), &slots_experiment(), &pcie_experiment(), &pcie_contention_experiment(),
      &ctx_cache_experiment(),
      &ordering_experiment(),  &loss_experiment(),       &loss_paths_experiment(), &ecmp_experiment(), &fabric_experiment(), &multipath_experiment(), &reorder_limit_experiment(), &congestion_experiment(), &deadlock_experiment(), &area_experiment(), &bench_experiment(),
  };
  return all;
}

const Experiment* find_experiment(const std::string& name) {
  for (const Experiment* e : experiments())
    if (e->name == name) return e;
  return nullptr;
}

}  // namespace ubsim
