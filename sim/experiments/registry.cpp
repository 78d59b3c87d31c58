#include "experiment.h"

namespace ubsim {

// Every experiment, in the order `ubsim help` lists them. Adding one is a
// file that defines `const Experiment& NAME_experiment()` and its NAME here.
#define UBSIM_EXPERIMENTS(X)                                                                                         \
  X(latency) X(issue_rate) X(load) X(throughput) X(slots) X(pcie) X(pcie_contention) X(ctx_cache) X(ordering)         \
  X(loss) X(loss_paths) X(ecmp) X(fabric) X(multipath) X(reorder_limit) X(congestion) X(deadlock) X(area) X(bench)

#define UBSIM_DECLARE(name) const Experiment& name##_experiment();
UBSIM_EXPERIMENTS(UBSIM_DECLARE)
#undef UBSIM_DECLARE

const std::vector<const Experiment*>& experiments() {
#define UBSIM_LIST(name) &name##_experiment(),
  static const std::vector<const Experiment*> all = {UBSIM_EXPERIMENTS(UBSIM_LIST)};
#undef UBSIM_LIST
  return all;
}

const Experiment* find_experiment(const std::string& name) {
  for (const Experiment* e : experiments())
    if (e->name == name) return e;
  return nullptr;
}

}  // namespace ubsim
