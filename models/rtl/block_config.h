// The configuration inputs (cfg_*) of every verilated block, set from the
// runtime configuration: one function per block, used by every bridge,
// driver, experiment and test, so a block is configured one way only.
#pragma once
#include "config.h"

class Vub_tx_pipeline;
class Vroce_tx_pipeline;
class Vrx_pipeline;
class Vctx_cache;
class Vctx_cache_parallel;
class Vorder_tracker;
class Vub_tx_multi;
class Vroce_tx_multi;
class Vsack_sender;
class Vsack_receiver;

namespace ubsim {

// ctx_gate: a context cache grants each request (cache.enabled and attached).
void configure(Vub_tx_pipeline& m, const Config& c, bool ctx_gate = false);
void configure(Vroce_tx_pipeline& m, const Config& c, bool ctx_gate = false);
// full_key / short_key: the depth keys of the receive pipeline's two routes.
void configure(Vrx_pipeline& m, const Config& c, Key<Unit::Cycles> full_key, Key<Unit::Cycles> short_key, bool ctx_gate = false);
void configure(Vctx_cache& m, uint32_t entries, uint32_t ways);
void configure(Vctx_cache_parallel& m, uint32_t entries, uint32_t ways);
void configure(Vorder_tracker& m, bool strict, uint32_t mtu_bytes);
void configure(Vub_tx_multi& m, const Config& c);
void configure(Vroce_tx_multi& m, const Config& c);
// gbn: GoBackN mode (else SACK); first_psn: the PSN of the first packet.
void configure(Vsack_sender& m, const Config& c, bool gbn, uint32_t first_psn);
void configure(Vsack_receiver& m, const Config& c, bool gbn, uint32_t first_psn);

}  // namespace ubsim
