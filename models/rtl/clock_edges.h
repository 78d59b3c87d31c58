// The blocks whose rising edge skips the input-combinational region
// (clock_edge.h). Included by verilated_block.h, so every translation unit
// that steps a block sees the same ClockEdge<M>.
#pragma once
#include "clock_edge.h"

#include "Vctx_cache.h"
#include "Vctx_cache___024root.h"
#include "Vroce_tx_pipeline.h"
#include "Vroce_tx_pipeline___024root.h"
#include "Vrx_pipeline.h"
#include "Vrx_pipeline___024root.h"
#include "Vsack_receiver.h"
#include "Vsack_receiver___024root.h"
#include "Vsack_sender.h"
#include "Vsack_sender___024root.h"
#include "Vub_tx_pipeline.h"
#include "Vub_tx_pipeline___024root.h"

UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION(Vctx_cache)
UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION(Vroce_tx_pipeline)
UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION(Vrx_pipeline)
UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION(Vsack_receiver)
UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION(Vsack_sender)
UBSIM_CLOCK_EDGE_WITHOUT_INPUT_REGION(Vub_tx_pipeline)
