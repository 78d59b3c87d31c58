// Structural limits the RTL reports for a configuration: the fixed stages
// of each route (which depend on runtime structure such as the TP-context
// beats) and the build's longest chain. The configuration check uses them.
#pragma once
#include "config.h"

namespace ubsim {

struct PipelineLimits {
  int ub_tx_min_async, ub_tx_min_load, roce_tx_min, rx_min, max_chain;
};
PipelineLimits query_pipeline_limits(const Config& c);

}  // namespace ubsim
