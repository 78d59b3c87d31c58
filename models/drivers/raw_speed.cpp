#include "raw_speed.h"

#include <time.h>

#include <chrono>

#include "block_config.h"
#include "verilated_block.h"

#include "Vctx_cache.h"
#include "Vroce_tx_pipeline.h"
#include "Vrx_pipeline.h"
#include "Vsack_receiver.h"
#include "Vsack_sender.h"
#include "Vub_tx_pipeline.h"

namespace ubsim {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

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
    ClockEdge<Vub_tx_pipeline>::rise(m);   // as the bridges step it
    next_id += in_fire;
  }
  const auto t1 = std::chrono::steady_clock::now();
  return {static_cast<double>(cycles) / std::chrono::duration<double>(t1 - t0).count(), delivered};
}

namespace {

// Idle inputs: nothing offered, every output taken (the inputs a bridge
// drives in a cycle with no work).
template <class M>
void take_outputs(M& m) {
  m.m_ready = 1;
}
void take_outputs(Vctx_cache& m) {
  m.m_ready = 1;
  m.m_refill_ready = 1;
}
void take_outputs(Vsack_receiver& m) {
  m.m_dlv_ready = 1;
  m.m_ack_ready = 1;
}

template <class Model, class Configure>
double idle_cost(uint64_t cycles, Configure&& configure_block) {
  VerilatedBlock<Model> b("idle");
  Model& m = b.model();
  configure_block(m);
  take_outputs(m);
  b.reset(4);
  // CPU time, like the co-simulation's cpu_s it is compared with (wall time
  // would count what other processes take on a loaded machine)
  const double t0 = cpu_seconds();
  for (uint64_t c = 0; c < cycles; ++c) b.cycle([] {});
  return (cpu_seconds() - t0) / static_cast<double>(cycles);
}

}  // namespace

std::optional<double> idle_cycle_cost(const std::string& model_name, const Config& c, uint64_t cycles) {
  if (model_name == "Vub_tx_pipeline") return idle_cost<Vub_tx_pipeline>(cycles, [&](auto& m) { configure(m, c, true); });
  if (model_name == "Vroce_tx_pipeline")
    return idle_cost<Vroce_tx_pipeline>(cycles, [&](auto& m) { configure(m, c, true); });
  if (model_name == "Vrx_pipeline")
    return idle_cost<Vrx_pipeline>(cycles,
                                   [&](auto& m) { configure(m, c, key::pipeline_ub_async, key::pipeline_ub_load, true); });
  if (model_name == "Vctx_cache")
    return idle_cost<Vctx_cache>(cycles, [&](auto& m) {
      configure(m, static_cast<uint32_t>(c.count(key::cache_ub_entries)), static_cast<uint32_t>(c.count(key::cache_ub_ways)));
    });
  if (model_name == "Vsack_sender") return idle_cost<Vsack_sender>(cycles, [&](auto& m) { configure(m, c, false, 0); });
  if (model_name == "Vsack_receiver")
    return idle_cost<Vsack_receiver>(cycles, [&](auto& m) { configure(m, c, false, 0); });
  return std::nullopt;
}

}  // namespace ubsim
