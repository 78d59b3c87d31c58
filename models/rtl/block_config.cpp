#include "block_config.h"

#include <algorithm>
#include <cmath>

#include "verilated_compat.h"

#include "Vctx_cache.h"
#include "Vctx_cache_parallel.h"
#include "Vorder_tracker.h"
#include "Vroce_tx_multi.h"
#include "Vroce_tx_pipeline.h"
#include "Vrx_pipeline.h"
#include "Vsack_receiver.h"
#include "Vsack_sender.h"
#include "Vub_tx_multi.h"
#include "Vub_tx_pipeline.h"

namespace ubsim {

namespace {
// the send pipelines' segmenters take the MTU as 17 bits (up to 64 KiB)
uint32_t mtu17(const Config& c) { return static_cast<uint32_t>(std::min<uint64_t>(c.count(key::transport_mtu), 0x1ffff)); }
uint16_t header16(const Config& c) { return static_cast<uint16_t>(c.count(key::transport_header_bytes)); }
}  // namespace

void configure(Vub_tx_pipeline& m, const Config& c, bool ctx_gate) {
  m.cfg_depth_async = static_cast<uint8_t>(c.count(key::pipeline_ub_async));
  m.cfg_depth_load = static_cast<uint8_t>(c.count(key::pipeline_ub_load));
  m.cfg_ctx_gate = ctx_gate;
  m.cfg_mtu = mtu17(c);
  m.cfg_header_bytes = header16(c);
}

void configure(Vroce_tx_pipeline& m, const Config& c, bool ctx_gate) {
  m.cfg_depth = static_cast<uint8_t>(c.count(key::pipeline_pcie_nic));
  m.cfg_ctx_gate = ctx_gate;
  m.cfg_mtu = mtu17(c);
  m.cfg_header_bytes = header16(c);
}

void configure(Vrx_pipeline& m, const Config& c, Key<Unit::Cycles> full_key, Key<Unit::Cycles> short_key, bool ctx_gate) {
  m.cfg_depth_full = static_cast<uint8_t>(c.count(full_key));
  m.cfg_depth_short = static_cast<uint8_t>(c.count(short_key));
  m.cfg_ctx_gate = ctx_gate;
}

void configure(Vctx_cache& m, uint32_t entries, uint32_t ways) {
  m.cfg_entries = static_cast<uint16_t>(entries);
  m.cfg_ways = static_cast<uint16_t>(ways);
}

void configure(Vctx_cache_parallel& m, uint32_t entries, uint32_t ways) {
  m.cfg_entries = static_cast<uint16_t>(entries);
  m.cfg_ways = static_cast<uint16_t>(ways);
}

void configure(Vorder_tracker& m, bool strict, uint32_t mtu_bytes) {
  m.cfg_strict = strict;
  m.cfg_mtu = static_cast<uint16_t>(std::min<uint32_t>(mtu_bytes, 0xffff));
}

void configure(Vub_tx_multi& m, const Config& c) {
  m.cfg_depth_async = static_cast<uint8_t>(c.count(key::pipeline_ub_async));
  m.cfg_mtu = mtu17(c);
}

void configure(Vroce_tx_multi& m, const Config& c) {
  m.cfg_depth = static_cast<uint8_t>(c.count(key::pipeline_pcie_nic));
}

void configure(Vsack_sender& m, const Config& c, bool gbn, uint32_t first_psn) {
  m.cfg_window = static_cast<uint16_t>(c.count(key::sack_window));
  m.cfg_gbn = gbn;
  m.cfg_fast_rtx = c.flag(key::sack_fast_retransmit);
  m.cfg_rto_cycles = std::max<uint64_t>(1, c.fs(key::sack_rto) / c.clock_period_fs());
  m.cfg_backoff_shift = static_cast<uint8_t>(std::lround(std::log2(c.value(key::sack_rto_backoff))));
  m.cfg_max_retries = static_cast<uint8_t>(c.count(key::sack_max_retries));
  m.cfg_first_psn = first_psn;
  // 0 stays off; a probe time shorter than a cycle probes after one cycle
  const uint64_t probe_fs = c.fs(key::sack_probe_after);
  m.cfg_probe_cycles = probe_fs == 0 ? 0 : std::max<uint64_t>(1, probe_fs / c.clock_period_fs());
  m.cfg_now = 0;
  m.cfg_reorder_thresh = static_cast<uint16_t>(c.count(key::sack_reorder_threshold));
  m.cfg_paths = 1;                 // one path (ubsim multipath spreads packets over several)
  m.cfg_path_weights = 0x11111111;
}

void configure(Vsack_receiver& m, const Config& c, bool gbn, uint32_t first_psn) {
  m.cfg_window = static_cast<uint16_t>(c.count(key::sack_window));
  m.cfg_gbn = gbn;
  m.cfg_first_psn = first_psn;
  m.cfg_reorder_limit = static_cast<uint32_t>(c.count(key::sack_reorder_limit));
}

}  // namespace ubsim
