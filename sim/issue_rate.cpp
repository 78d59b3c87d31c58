#include "issue_rate.h"

#include <algorithm>

#include <fmt/format.h>

#include "burst_driver.h"
#include "json.h"
#include "verilated_compat.h"
#include "Vroce_tx_pipeline.h"
#include "Vub_tx_pipeline.h"

namespace ubsim {

IssueRateResult run_issue_rate(const Config& cfg, const std::string& stack, uint64_t burst, int initiators,
                               const std::string& trace_path) {
  const ModelParams p = cfg.model_params();
  VerilatedContext ctx;
  ctx.traceEverOn(true);
  ctx.timeunit(-12);        // FST time stamps below are in ps
  ctx.timeprecision(-12);
  VerilatedFstC fst;
  // FST time unit is 1 ps: the clock low phase is dumped half a period before the edge.
  const uint64_t period_ps = p.clock_period_fs / 1000;
  auto dump = [&](uint64_t cycle, bool high) {
    if (fst.isOpen()) fst.dump(cycle * period_ps - (high ? 0 : period_ps / 2));
  };
  auto open_trace = [&](auto& model) {
    if (trace_path.empty()) return;
    model.trace(&fst, 99);
    fst.open(trace_path.c_str());
  };
  const auto n = static_cast<uint32_t>(burst);
  const auto k = static_cast<uint32_t>(initiators);
  auto always_ready = [](uint64_t) { return true; };
  // each request sends its payload (a write / send): header + payload bytes
  const auto bytes = static_cast<uint16_t>(p.header_bytes + p.payload_bytes);
  BurstTrace t;
  if (stack == "ub") {
    Vub_tx_pipeline m(&ctx, "dut");
    open_trace(m);
    m.cfg_depth_async = static_cast<uint8_t>(p.cycles("pipeline.ub_async"));
    m.cfg_depth_load = static_cast<uint8_t>(p.cycles("pipeline.ub_load"));
    m.cfg_tpc_beats = static_cast<uint8_t>(p.ub_tpc_beats);
    // initiators each own a Jetty; all reach one remote over one shared TP channel
    t = drive_burst(m, n, [bytes](Vub_tx_pipeline& mm, uint32_t) {
      mm.s_ctx = 0;
      mm.s_load = 0;
      mm.s_bytes = bytes;
    }, always_ready, 10000000, IgnoreOutput{}, dump);
  } else {
    Vroce_tx_pipeline m(&ctx, "dut");
    open_trace(m);
    m.cfg_depth = static_cast<uint8_t>(p.cycles("pipeline.pcie_nic"));
    m.cfg_qpc_rd_latency = static_cast<uint8_t>(p.roce_qpc_rd_latency);
    m.cfg_qpc_turnaround = static_cast<uint8_t>(p.roce_qpc_turnaround);
    // one RC QP per initiator to the remote: request i belongs to QP i mod K
    t = drive_burst(m, n, [k, bytes](Vroce_tx_pipeline& mm, uint32_t id) {
      mm.s_ctx = id % k;
      mm.s_bytes = bytes;
    }, always_ready, 10000000, IgnoreOutput{}, dump);
  }
  if (fst.isOpen()) fst.close();
  IssueRateResult r;
  r.stack = stack;
  r.burst = burst;
  r.initiators = initiators;
  r.payload_bytes = p.payload_bytes;
  r.flits = t.flits;
  r.submitted = static_cast<uint64_t>(std::count_if(t.in_cycle.begin(), t.in_cycle.end(), [](uint64_t c) { return c; }));
  r.delivered = t.delivered;
  if (t.delivered == 0 || t.duplicates) throw std::runtime_error("issue-rate: the pipeline lost or duplicated requests");
  const double cycle_ns = 1e9 / p.clock_hz;
  const uint64_t first_in = t.in_cycle.front();
  const uint64_t last_out = t.out_cycle[t.out_order.back()];
  r.latency_cycles = t.out_cycle.front() - first_in;
  r.span_cycles = last_out - first_in;
  r.span_ns = static_cast<double>(r.span_cycles) * cycle_ns;
  r.rate_per_us = static_cast<double>(r.delivered) / (r.span_ns / 1e3);
  // steady state: consecutive deliveries in the second half of the burst
  const size_t from = t.out_order.size() / 2;
  if (t.out_order.size() >= 2 && from + 1 < t.out_order.size()) {
    const uint64_t a = t.out_cycle[t.out_order[from]];
    r.interval_cycles = static_cast<double>(last_out - a) / static_cast<double>(t.out_order.size() - 1 - from);
  }
  r.interval_ns = r.interval_cycles * cycle_ns;
  r.ceiling_gbytes_per_s = r.interval_ns > 0 ? cfg.value("workload.payload") / r.interval_ns : 0;
  r.link_gbytes_per_s = p.wire_bytes_per_s / 1e9;
  r.derived_span_cycles = static_cast<double>(r.latency_cycles) + static_cast<double>(burst - 1) * r.interval_cycles;
  return r;
}

std::string issue_rate_json(const IssueRateResult& r) {
  return json::object({{"stack", json::str(r.stack)},
                       {"burst", json::num(static_cast<double>(r.burst))},
                       {"initiators", json::num(r.initiators)},
                       {"payload_bytes", json::num(r.payload_bytes)},
                       {"flits", json::num(static_cast<double>(r.flits))},
                       {"submitted", json::num(static_cast<double>(r.submitted))},
                       {"delivered", json::num(static_cast<double>(r.delivered))},
                       {"latency_cycles", json::num(static_cast<double>(r.latency_cycles))},
                       {"span_cycles", json::num(static_cast<double>(r.span_cycles))},
                       {"span_ns", json::num(r.span_ns)},
                       {"rate_per_us", json::num(r.rate_per_us)},
                       {"interval_cycles", json::num(r.interval_cycles)},
                       {"interval_ns", json::num(r.interval_ns)},
                       {"derived_span_cycles", json::num(r.derived_span_cycles)},
                       {"derived_ceiling_GBps", json::num(r.ceiling_gbytes_per_s)},
                       {"link_GBps", json::num(r.link_gbytes_per_s)}});
}

std::string issue_rate_table(const std::vector<IssueRateResult>& rs) {
  std::string out = fmt::format("\n{:<6} {:>6} {:>5} {:>10} {:>5} {:>11} {:>10} {:>11} {:>9} {:>9} {:>22}\n", "stack",
                                "burst", "init", "delivered", "L cyc", "span cyc", "span ns", "rate /us",
                                "delta cyc", "delta ns", "ceiling (derived) GB/s");
  for (const auto& r : rs)
    out += fmt::format("{:<6} {:>6} {:>5} {:>4}/{:<5} {:>5} {:>11} {:>10.1f} {:>11.2f} {:>9.2f} {:>9.2f} {:>10.2f} (link {:.0f})\n",
                       r.stack, r.burst, r.initiators, r.delivered, r.submitted, r.latency_cycles, r.span_cycles,
                       r.span_ns, r.rate_per_us, r.interval_cycles, r.interval_ns, r.ceiling_gbytes_per_s,
                       r.link_gbytes_per_s);
  out += "span = first input handshake -> last first flit out; rate = delivered / span; delta = steady-state\n"
         "interval between deliveries; ceiling = payload / delta (request-rate bound of small messages).\n";
  return out;
}

std::string issue_rate_csv(const std::vector<IssueRateResult>& rs) {
  std::string out = "stack,burst,initiators,submitted,delivered,latency_cycles,span_cycles,span_ns,rate_per_us,interval_cycles,interval_ns\n";
  for (const auto& r : rs)
    out += fmt::format("{},{},{},{},{},{},{},{:.4f},{:.4f},{:.4f},{:.4f}\n", r.stack, r.burst, r.initiators,
                       r.submitted, r.delivered, r.latency_cycles, r.span_cycles, r.span_ns, r.rate_per_us,
                       r.interval_cycles, r.interval_ns);
  return out;
}

}  // namespace ubsim
