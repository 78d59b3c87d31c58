#include "issue_rate.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "burst.h"
#include "experiment.h"
#include "pipeline_limits.h"
#include "rtl_variant.h"

namespace ubsim {

IssueRateResult run_issue_rate(const Config& cfg, const std::string& stack, uint64_t burst, int initiators,
                               const std::string& trace_path) {
  // each request sends its payload (a write / send): header + payload bytes
  const uint64_t payload = cfg.count("workload.payload");
  const auto bytes = static_cast<uint32_t>(cfg.count("transport.header_bytes") + payload);
  const BurstTrace t = send_burst(cfg, stack, static_cast<uint32_t>(burst), static_cast<uint32_t>(initiators), bytes,
                                  trace_path);
  IssueRateResult r;
  r.stack = stack;
  r.burst = burst;
  r.initiators = initiators;
  r.payload_bytes = static_cast<uint32_t>(payload);
  r.flits = t.flits;
  r.submitted = static_cast<uint64_t>(std::count_if(t.in_cycle.begin(), t.in_cycle.end(), [](uint64_t c) { return c; }));
  r.delivered = t.delivered;
  if (t.delivered == 0 || t.duplicates) throw std::runtime_error("issue-rate: the pipeline lost or duplicated requests");
  const double cycle_ns = 1e9 / cfg.value("clock");
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
  r.ceiling_gbytes_per_s = r.interval_ns > 0 ? static_cast<double>(payload) / r.interval_ns : 0;
  r.link_gbytes_per_s = cfg.value("wire.rate") / 1e9;
  const int ram_cycles = stack == "ub" ? ub_record_words() : roce_psn_update_cycles();
  const uint64_t flit = static_cast<uint64_t>(rtl_variant::kFlitBytes);
  const uint64_t flits = std::max<uint64_t>(1, (bytes + flit - 1) / flit);
  r.derived_interval_cycles = static_cast<double>(std::max<uint64_t>(static_cast<uint64_t>(ram_cycles), flits));
  r.derived_span_cycles = static_cast<double>(cfg.count(stack == "ub" ? "pipeline.ub_async" : "pipeline.pcie_nic")) +
                          static_cast<double>(burst - 1) * r.derived_interval_cycles;
  return r;
}

json::Value issue_rate_row(const IssueRateResult& r) {
  using V = json::Value;
  return V::object()
      .add("stack", V::string(r.stack))
      .add("burst", V::number(static_cast<double>(r.burst)))
      .add("initiators", V::number(r.initiators))
      .add("payload_bytes", V::number(r.payload_bytes))
      .add("flits", V::number(static_cast<double>(r.flits)))
      .add("submitted", V::number(static_cast<double>(r.submitted)))
      .add("delivered", V::number(static_cast<double>(r.delivered)))
      .add("latency_cycles", V::number(static_cast<double>(r.latency_cycles)))
      .add("span_cycles", V::number(static_cast<double>(r.span_cycles)))
      .add("span_ns", V::number(r.span_ns))
      .add("rate_per_us", V::number(r.rate_per_us))
      .add("interval_cycles", V::number(r.interval_cycles))
      .add("interval_ns", V::number(r.interval_ns))
      .add("derived_interval_cycles", V::number(r.derived_interval_cycles))
      .add("derived_span_cycles", V::number(r.derived_span_cycles))
      .add("derived_ceiling_GBps", V::number(r.ceiling_gbytes_per_s))
      .add("link_GBps", V::number(r.link_gbytes_per_s));
}

namespace {

ResultSet run(Config& cfg, const Options& o) {
  std::vector<std::string> stacks = {o.text("--stack")};
  if (stacks[0] == "both") stacks = {"ub", "roce"};
  const auto lengths = o.counts("--burst");
  const auto initiators = static_cast<int>(o.count("--initiators"));
  const std::string trace = o.text("--trace");
  cfg.validate();
  ResultSet rs;
  for (const auto& s : stacks)
    for (uint64_t n : lengths)
      rs.rows.push_back(issue_rate_row(
          run_issue_rate(cfg, s, n, initiators, trace.empty() ? "" : fmt::format("{}.{}.burst{}.fst", trace, s, n))));
  rs.notes = fmt::format(
      "span = first input handshake -> last first flit out; rate = delivered / span; interval = steady-state\n"
      "interval between deliveries; derived_ceiling = payload / interval (request-rate bound of small messages).\n"
      "Context RAMs of this build: {} B port, read latency {}, turnaround {} (UBSIM_RTL_CTX_*; variants change them).\n",
      rtl_variant::kCtxPortBytes, rtl_variant::kCtxRamLatency, rtl_variant::kCtxRamTurnaround);
  return rs;
}

}  // namespace

const Experiment& issue_rate_experiment() {
  static const Experiment e{
      "issue-rate",
      "send-pipeline issue interval: a back-to-back burst at the pipeline's input handshake, delivered requests counted",
      "An ideal source offers one request every cycle at the send pipeline's input handshake; a request counts\n"
      "as delivered at its packet's first flit. The interval comes from the RTL's structure.",
      {opt_choice("--stack", {"ub", "roce", "both"}, "both", "the send pipeline(s)"),
       opt_counts("--burst", "LIST", 1, 1000000, "256,1000", "burst lengths, comma-separated"),
       opt_count("--initiators", "K", 1, 4096, "1", "initiators sharing the pipeline (RoCE: one QP each)"),
       opt_key("--payload", "B", "workload.payload",
               "payload bytes per request; a packet leaves as ceil((header + payload) / flit) flits"),
       opt_out_prefix("--trace", "PREFIX", "FST waveform of each burst: PREFIX.<stack>.burst<N>.fst")},
      {"stack", "burst", "initiators", "payload_bytes"},
      {{"latency_cycles", "cycles", "first request: input handshake to first flit (L)"},
       {"span_cycles", "cycles", "first input handshake to the last first flit"},
       {"rate_per_us", "1/us", "delivered / span"},
       {"interval_cycles", "cycles", "steady-state interval between deliveries (delta)"},
       {"interval_ns", "ns", "delta at the clock"},
       {"derived_interval_cycles", "cycles",
        "derived from the design: UB ceil(56 B record / context-RAM port) words; RoCE 1 + read latency + 1 + 1 + "
        "turnaround; or the packet's flits if more"},
       {"derived_span_cycles", "cycles", "derived: configured traversal + (N - 1) x derived interval"},
       {"derived_ceiling_GBps", "GB/s", "derived: payload / delta"},
       {"link_GBps", "GB/s", "wire.rate"}},
      "issue_rate",
      "plot_issue_rate.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
