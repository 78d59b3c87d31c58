// Structural limits the RTL reports for a configuration: the fixed stages
// of each route (which depend on runtime structure such as the TP-context
// beats) and the build's longest chain. The configuration check uses them.
#pragma once
#include "config.h"

namespace ubsim {

// The context RAMs' occupancy per request, derived from this build's RAM
// macro (rtl_variant) and the record layouts (ubsim_pkg): what the send
// pipelines' issue intervals should be. Labelled "derived" wherever shown.
int ub_record_words();          // TP-channel record words on the context-RAM port
int roce_psn_update_cycles();   // PSN read-modify-write: issue, latency, increment, write, turnaround

struct PipelineLimits {
  int ub_tx_min_async, ub_tx_min_load, roce_tx_min, rx_min, max_chain;
};
PipelineLimits query_pipeline_limits(const Config& c);

}  // namespace ubsim
