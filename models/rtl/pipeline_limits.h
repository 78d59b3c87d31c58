// The structural limits the RTL reports for a configuration (PipelineLimits,
// config.h) and the derived context-RAM occupancies.
#pragma once
#include "config.h"

namespace ubsim {

// The context RAMs' occupancy per request, derived from this build's RAM
// macro (rtl_variant) and the record layouts (ubsim_pkg): what the send
// pipelines' issue intervals should be. Labelled "derived" wherever shown.
int ub_record_words();          // TP-channel record words on the context-RAM port
int roce_psn_update_cycles();   // PSN read-modify-write: issue, latency, increment, write, turnaround

// The configuration check every run makes: c.validate() with the fixed
// stages the verilated pipelines report (a property of the build, asked
// once per process).
void validate_config(const Config& c);

}  // namespace ubsim
