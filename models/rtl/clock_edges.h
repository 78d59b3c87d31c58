// The blocks whose rising edge skips the input-combinational region and
// whose clock-low evaluation records the triggers' inputs directly
// (clock_edge.h; both generated from the model: V*_ports.h). Included by verilated_block.h, so every translation unit
// that steps a block sees the same ClockEdge<M>. The blocks whose units
// gate their own clocks (clock_gate.sv: the send and receive pipelines,
// the context cache, the SACK sender's window bitmaps)
// take the gated edge (rise_gated: the gated clocks set from their latches,
// one pass of the active and NBA regions). The pipelines' and the context
// cache's edge also leaves the input logic to the next settle (EdgeNba: the
// NBA region without the combinational functions that only recompute it
// with the inputs still held); their bridges read after an edge only ports
// the edge leaves exact (busy, quiet, wake_in, mshr_used), which they check
// at compile time (exact_after_edge).
#pragma once
#include "clock_edge.h"
#include "port_table.h"
#include "Vroce_tx_pipeline_ports.h"
#include "Vroce_tx_multi_ports.h"
#include "Vsack_sender_ports.h"
#include "Vub_tx_multi_ports.h"
#include "Vub_tx_pipeline_ports.h"

#include "Vctx_cache_ports.h"
#include "Vrx_pipeline_ports.h"
#include "Vsack_receiver_ports.h"

UBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE(Vctx_cache)
UBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE(Vrx_pipeline)
UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION(Vsack_receiver)
UBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE(Vroce_tx_pipeline)
UBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE(Vub_tx_pipeline)
UBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE(Vroce_tx_multi)
UBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE(Vub_tx_multi)
UBSIM_CLOCK_EDGE_GATED(Vsack_sender)
