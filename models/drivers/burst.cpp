#include "burst.h"

#include "block_config.h"

#include "Vroce_tx_pipeline.h"
#include "Vub_tx_pipeline.h"

namespace ubsim {

BurstTrace send_burst(const Config& c, const std::string& stack, uint32_t n, uint32_t initiators,
                      uint32_t packet_bytes, const std::string& trace_path) {
  const uint64_t period_ps = c.clock_period_fs() / 1000;
  const auto bytes = static_cast<uint16_t>(packet_bytes);
  auto always_ready = [](uint64_t) { return true; };
  if (stack == "ub") {
    VerilatedBlock<Vub_tx_pipeline> b;
    if (!trace_path.empty()) b.open_trace(trace_path);
    configure(b.model(), c);
    // initiators each own a Jetty; all reach one remote over one shared TP channel
    return drive_burst(b, n, [bytes](Vub_tx_pipeline& m, uint32_t) {
      m.s_ctx = 0;
      m.s_load = 0;
      m.s_bytes = bytes;
    }, always_ready, 10000000, IgnoreOutput{}, period_ps);
  }
  VerilatedBlock<Vroce_tx_pipeline> b;
  if (!trace_path.empty()) b.open_trace(trace_path);
  configure(b.model(), c);
  // one RC QP per initiator to the remote: request i belongs to QP i mod K
  return drive_burst(b, n, [initiators, bytes](Vroce_tx_pipeline& m, uint32_t id) {
    m.s_ctx = id % initiators;
    m.s_bytes = bytes;
  }, always_ready, 10000000, IgnoreOutput{}, period_ps);
}

}  // namespace ubsim
