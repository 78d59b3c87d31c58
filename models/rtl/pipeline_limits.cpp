#include "pipeline_limits.h"

#include "block_config.h"
#include "rtl_variant.h"
#include "verilated_block.h"

#include "Vroce_tx_pipeline.h"
#include "Vrx_pipeline.h"
#include "Vub_tx_pipeline.h"

namespace ubsim {

int ub_record_words() {
  const int port = rtl_variant::kCtxPortBytes;
  return (enc::TP_RECORD_BITS / 8 + port - 1) / port;
}

int roce_psn_update_cycles() { return 1 + rtl_variant::kCtxRamLatency + 1 + 1 + rtl_variant::kCtxRamTurnaround; }

PipelineLimits query_pipeline_limits(const Config& c) {
  PipelineLimits l{};
  VerilatedBlock<Vub_tx_pipeline> ub("probe_ub");
  configure(ub.model(), c);
  ub.eval();
  l.ub_tx_min_async = ub->fixed_async;
  l.ub_tx_min_load = ub->fixed_load;
  VerilatedBlock<Vroce_tx_pipeline> roce("probe_roce");
  configure(roce.model(), c);
  roce.eval();
  l.roce_tx_min = roce->fixed_depth;
  VerilatedBlock<Vrx_pipeline> rx("probe_rx");
  rx.eval();
  l.rx_min = rx->fixed_depth;
  l.max_chain = rtl_variant::kMaxChain;
  return l;
}

void validate_config(const Config& c) { c.validate(query_pipeline_limits(c)); }

}  // namespace ubsim
