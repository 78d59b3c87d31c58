#include "pipeline_limits.h"

#include <fmt/format.h>

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

namespace {
// The fixed stages are the blocks' structure (their parameters: this
// build's RTL options), not a function of the configuration: the blocks
// report them unconfigured, once per process (each probe is a model built
// and settled, its RAMs cleared).
const PipelineLimits& pipeline_limits() {
  static const PipelineLimits limits = [] {
    PipelineLimits l{};
    VerilatedBlock<Vub_tx_pipeline> ub("probe_ub");
    ub.eval();
    l.ub_tx_min_async = ub->fixed_async;
    l.ub_tx_min_load = ub->fixed_load;
    VerilatedBlock<Vroce_tx_pipeline> roce("probe_roce");
    roce.eval();
    l.roce_tx_min = roce->fixed_depth;
    VerilatedBlock<Vrx_pipeline> rx("probe_rx");
    rx.eval();
    l.rx_min = rx->fixed_depth;
    l.max_chain = rtl_variant::kMaxChain;
    return l;
  }();
  return limits;
}
}  // namespace

void validate_config(const Config& c) {
  // The controllers' experiments run one pair of controllers: over one
  // link, or over a fabric (FabricWire) without the transport in the paths.
  if (const Topology* t = c.topology(); t && !t->is_back_to_back()) {
    if (t->controller_pairs().empty())
      throw ConfigError(t->file, "topology",
                        "the topology has no pair of controller nodes (an initiator and a target) for this "
                        "experiment; traffic sources alone run under 'ubsim fabric' (docs/fabric.md)");
    for (Key<Unit::Ratio> k : {key::loss_data, key::loss_ack, key::loss_duplicate, key::loss_reorder})
      if (c.value(k) > 0)
        throw ConfigError(c.source(k), k.name,
                          "loss on a switched fabric is not modelled yet: the transport inside the paths runs over "
                          "one link (docs/fabric.md)");
    // (with link-level pause a buffer with its headroom drops nothing; a drop
    // that happens anyway ends the run, naming the queue)
    for (const TopoLink& l : t->links)
      if (l.buffer_bytes > 0 && !c.flag(key::fabric_pause))
        throw ConfigError(l.where, "topology.link",
                          "a finite buffer drops packets, and the controllers' paths over a fabric have no transport "
                          "to resend them yet: leave the buffers unbounded here, or make the fabric lossless with "
                          "fabric.pause (ubsim fabric and congestion run lossy buffers)");
    if (c.flag(key::transport_in_paths))
      throw ConfigError(c.source(key::transport_in_paths), key::transport_in_paths.name,
                        "the transport inside the paths runs over one link, not yet over a switched fabric "
                        "(docs/fabric.md)");
  }
  c.validate(pipeline_limits());
}

}  // namespace ubsim
