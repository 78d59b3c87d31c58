#include "burst.h"

#include "block_config.h"

#include "Vroce_tx_pipeline.h"
#include "Vub_tx_pipeline.h"

namespace ubsim {

BurstTrace send_burst(const Config& c, const std::string& stack, uint32_t n, uint32_t initiators,
                      uint64_t message_bytes, const std::string& trace_path) {
  const uint64_t period_ps = c.clock_period_fs() / 1000;
  const uint32_t pkts = packets_of(message_bytes, c.count(key::transport_mtu));
  const auto len = static_cast<uint32_t>(message_bytes);
  auto always_ready = [](uint64_t) { return true; };
  if (stack == "ub") {
    VerilatedBlock<Vub_tx_pipeline> b;
    if (!trace_path.empty()) b.open_trace(trace_path);
    configure(b.model(), c);
    // initiators each own a Jetty; all reach one remote over one shared TP channel
    return drive_burst(b, n, [len, pkts](Vub_tx_pipeline& m, uint32_t) {
      m.s_ctx = 0;
      m.s_load = 0;
      m.s_len = len;
      m.s_data_pkts = pkts;
      m.s_ord_payload = len;
    }, always_ready, 100000000, IgnoreOutput{}, period_ps, pkts);
  }
  VerilatedBlock<Vroce_tx_pipeline> b;
  if (!trace_path.empty()) b.open_trace(trace_path);
  configure(b.model(), c);
  // one RC QP per initiator to the remote: message i belongs to QP i mod K
  return drive_burst(b, n, [initiators, len, pkts](Vroce_tx_pipeline& m, uint32_t id) {
    m.s_ctx = id % initiators;
    m.s_len = len;
    m.s_data_pkts = pkts;
  }, always_ready, 100000000, IgnoreOutput{}, period_ps, pkts);
}

}  // namespace ubsim
