#include "raw_speed.h"

#include <chrono>

#include "block_config.h"
#include "verilated_block.h"

#include "Vub_tx_pipeline.h"

namespace ubsim {

// Deliberately a bare loop, not drive_burst(): the figure is the model's own
// speed, without the per-request bookkeeping a test driver keeps.
RawSpeed measure_raw_model_speed(uint64_t cycles) {
  VerilatedBlock<Vub_tx_pipeline> b("raw");
  Vub_tx_pipeline& m = b.model();
  configure(m, Config{});
  m.m_ready = 1;
  m.s_valid = 0;
  b.reset(4);
  uint64_t delivered = 0;
  uint32_t next_id = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t c = 0; c < cycles; ++c) {
    m.cfg_now = static_cast<uint16_t>(c + 1);
    m.clk = 0;
    m.s_valid = 1;
    m.s_id = next_id;
    m.s_ctx = 0;
    m.s_load = 0;
    m.s_len = 64;          // a 64 B message, its payload with it (one packet)
    m.s_data_pkts = 1;
    m.s_ord_payload = 64;
    m.eval();
    const bool in_fire = m.s_ready;
    delivered += m.m_valid && m.m_first;
    m.clk = 1;
    m.eval();
    next_id += in_fire;
  }
  const auto t1 = std::chrono::steady_clock::now();
  return {static_cast<double>(cycles) / std::chrono::duration<double>(t1 - t0).count(), delivered};
}

}  // namespace ubsim
