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
  // each message sends its payload (a write / send) as ceil(size / MTU)
  // packets of header + payload bytes
  const uint64_t size = cfg.count(key::workload_size);
  const uint64_t mtu = cfg.count(key::transport_mtu);
  const uint32_t pkts = packets_of(size, mtu);
  const uint64_t pkt_payload = std::min(size, mtu);
  const uint64_t bytes = cfg.count(key::transport_header_bytes) + pkt_payload;   // the largest packet
  const BurstTrace t = send_burst(cfg, stack, static_cast<uint32_t>(burst), static_cast<uint32_t>(initiators), size,
                                  trace_path);
  IssueRateResult r;
  r.stack = stack;
  r.burst = burst;
  r.initiators = initiators;
  r.size_bytes = size;
  r.packets_per_message = pkts;
  r.flits = t.flits;
  r.submitted = static_cast<uint64_t>(std::count_if(t.in_cycle.begin(), t.in_cycle.end(), [](uint64_t c) { return c; }));
  r.delivered = t.delivered;
  if (t.delivered != burst * pkts || t.duplicates)
    throw std::runtime_error(fmt::format("issue-rate: the pipeline delivered {} of {} packets ({} duplicates)",
                                         t.delivered, burst * pkts, t.duplicates));
  const double cycle_ns = 1e9 / cfg.value(key::clock);
  const uint64_t first_in = t.in_cycle.front();
  const uint64_t last_out = t.out_cycle[t.out_order.back()];
  r.latency_cycles = t.out_cycle.front() - first_in;
  r.span_cycles = last_out - first_in;
  r.span_ns = static_cast<double>(r.span_cycles) * cycle_ns;
  r.rate_per_us = r.span_ns > 0 ? static_cast<double>(r.delivered) / (r.span_ns / 1e3) : 0;
  r.message_rate_per_us = r.span_ns > 0 ? static_cast<double>(burst) / (r.span_ns / 1e3) : 0;
  r.goodput_gbytes_per_s = r.span_ns > 0 ? static_cast<double>(burst * size) / r.span_ns : 0;
  // steady state: consecutive deliveries in the second half of the burst
  const size_t from = t.out_order.size() / 2;
  if (t.out_order.size() >= 2 && from + 1 < t.out_order.size()) {
    const uint64_t a = t.out_cycle[t.out_order[from]];
    r.interval_cycles = static_cast<double>(last_out - a) / static_cast<double>(t.out_order.size() - 1 - from);
  }
  r.interval_ns = r.interval_cycles * cycle_ns;
  r.ceiling_gbytes_per_s = r.interval_ns > 0 ? static_cast<double>(pkt_payload) / r.interval_ns : 0;
  r.link_gbytes_per_s = cfg.value(key::wire_rate) / 1e9;
  const int ram_cycles = stack == "ub" ? ub_record_words() : roce_psn_update_cycles();
  const uint64_t flit = static_cast<uint64_t>(rtl_variant::kFlitBytes);
  const uint64_t flits = std::max<uint64_t>(1, (bytes + flit - 1) / flit);
  r.derived_interval_cycles = static_cast<double>(std::max<uint64_t>(static_cast<uint64_t>(ram_cycles), flits));
  r.derived_span_cycles = static_cast<double>(cfg.count(stack == "ub" ? key::pipeline_ub_async : key::pipeline_pcie_nic)) +
                          static_cast<double>(burst * pkts - 1) * r.derived_interval_cycles;
  return r;
}

json::Value issue_rate_row(const IssueRateResult& r) {
  using V = json::Value;
  return V::object()
      .add("stack", V::string(r.stack))
      .add("burst", V::number(static_cast<double>(r.burst)))
      .add("initiators", V::number(r.initiators))
      .add("size_bytes", V::number(static_cast<double>(r.size_bytes)))
      .add("packets_per_message", V::number(r.packets_per_message))
      .add("flits", V::number(static_cast<double>(r.flits)))
      .add("submitted", V::number(static_cast<double>(r.submitted)))
      .add("delivered", V::number(static_cast<double>(r.delivered)))
      .add("latency_cycles", V::number(static_cast<double>(r.latency_cycles)))
      .add("span_cycles", V::number(static_cast<double>(r.span_cycles)))
      .add("span_ns", V::number(r.span_ns))
      .add("rate_per_us", V::number(r.rate_per_us))
      .add("message_rate_per_us", V::number(r.message_rate_per_us))
      .add("goodput_GBps", V::number(r.goodput_gbytes_per_s))
      .add("interval_cycles", V::number(r.interval_cycles))
      .add("interval_ns", V::number(r.interval_ns))
      .add("derived_interval_cycles", V::number(r.derived_interval_cycles))
      .add("derived_span_cycles", V::number(r.derived_span_cycles))
      .add("derived_ceiling_GBps", V::number(r.ceiling_gbytes_per_s))
      .add("link_GBps", V::number(r.link_gbytes_per_s));
}

namespace {

constexpr uint64_t kMaxBurstPackets = 10000000;   // the trace keeps a cycle per packet

ResultSet run(Config& cfg, const Options& o) {
  std::vector<std::string> stacks = {o.text("--stack")};
  if (stacks[0] == "both") stacks = {"ub", "roce"};
  const auto lengths = o.counts("--burst");
  const auto initiators = static_cast<int>(o.count("--initiators"));
  const std::string trace = o.text("--trace");
  validate_config(cfg);
  const uint32_t pkts = packets_of(cfg.count(key::workload_size), cfg.count(key::transport_mtu));
  for (uint64_t n : lengths)
    if (n * pkts > kMaxBurstPackets)
      throw ConfigError(cfg.source(key::workload_size), key::workload_size.name,
                        fmt::format("a burst of {} messages of {} packets each is more than {} packets", n, pkts,
                                    kMaxBurstPackets));
  ResultSet rs;
  for (const auto& s : stacks)
    for (uint64_t n : lengths)
      rs.rows.push_back(issue_rate_row(
          run_issue_rate(cfg, s, n, initiators, trace.empty() ? "" : fmt::format("{}.{}.burst{}.fst", trace, s, n))));
  rs.notes = fmt::format(
      "span = first input handshake -> last first flit out; rate = delivered packets / span; interval =\n"
      "steady-state interval between packets; derived_ceiling = packet payload / interval.\n"
      "Context RAMs of this build: {} B port, read latency {}, turnaround {} (UBSIM_RTL_CTX_*; variants change them).\n",
      rtl_variant::kCtxPortBytes, rtl_variant::kCtxRamLatency, rtl_variant::kCtxRamTurnaround);
  return rs;
}

}  // namespace

const Experiment& issue_rate_experiment() {
  static const Experiment e{
      "issue-rate",
      "send-pipeline issue interval: a back-to-back burst of messages at the pipeline's input handshake, packets counted",
      "An ideal source offers one message every cycle at the send pipeline's input handshake (every payload\n"
      "present); the segmenter cuts it into ceil(size / MTU) packets, and a packet counts as delivered at its\n"
      "first flit. The interval comes from the RTL's structure (context-RAM words, PSN update, flits).",
      {opt_choice("--stack", {"ub", "roce", "both"}, "both", "the send pipeline(s)"),
       opt_counts("--burst", "LIST", 1, 1000000, "256,1000", "burst lengths, comma-separated"),
       opt_count("--initiators", "K", 1, 4096, "1", "initiators sharing the pipeline (RoCE: one QP each)"),
       opt_key("--size", "B", "workload.size",
               "message bytes (sent: a write); ceil(size / MTU) packets, each ceil((header + payload) / flit) flits"),
       opt_out_prefix("--trace", "PREFIX", "FST waveform of each burst: PREFIX.<stack>.burst<N>.fst")},
      {"stack", "burst", "initiators", "size_bytes"},
      {{"packets_per_message", "packets", "ceil(size / transport.mtu), at least 1"},
       {"flits", "flits", "flits the pipeline put out (every packet's ceil((header + payload) / flit))"},
       {"submitted", "messages", "messages taken at the input handshake"},
       {"delivered", "packets", "packets out (counted at their first flit)"},
       {"latency_cycles", "cycles", "first message: input handshake to its first packet's first flit (L)"},
       {"span_cycles", "cycles", "first input handshake to the last packet's first flit"},
       {"span_ns", "ns", "span at the clock"},
       {"rate_per_us", "1/us", "delivered packets / span"},
       {"message_rate_per_us", "1/us", "messages / span"},
       {"goodput_GBps", "GB/s", "payload bytes / span"},
       {"interval_cycles", "cycles", "steady-state interval between packets (delta)"},
       {"interval_ns", "ns", "delta at the clock"},
       {"derived_interval_cycles", "cycles",
        "derived from the design: UB ceil(56 B record / context-RAM port) words; RoCE 1 + read latency + 1 + 1 + "
        "turnaround; or the packet's flits if more"},
       {"derived_span_cycles", "cycles", "derived: configured traversal + (packets - 1) x derived interval"},
       {"derived_ceiling_GBps", "GB/s", "packet payload / measured delta"},
       {"link_GBps", "GB/s", "wire.rate"}},
      "issue_rate",
      "plot_issue_rate.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
