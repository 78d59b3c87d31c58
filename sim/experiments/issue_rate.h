// The issue-rate experiment (spec §5): an ideal source offers a burst of N
// messages back-to-back at the send pipeline's input handshake; the
// segmenter cuts each into ceil(size / MTU) packets, and packets delivered
// to the wire (first flit out) are counted. The interval comes from the
// RTL's structure (context-RAM words, PSN read-modify-write, flits).
#pragma once
#include <string>

#include "config.h"
#include "json_value.h"

namespace ubsim {

struct IssueRateResult {
  std::string stack;
  uint64_t burst = 0, submitted = 0, delivered = 0;   // messages offered, taken; packets delivered
  int initiators = 1;
  uint64_t size_bytes = 0;         // each message's payload
  uint32_t packets_per_message = 1;
  uint64_t flits = 0;              // flits sent (header + payload over the datapath width)
  uint64_t latency_cycles = 0;     // first request: input handshake -> first flit
  uint64_t span_cycles = 0;        // first input handshake -> last first flit
  double span_ns = 0, rate_per_us = 0;   // packets per microsecond
  double message_rate_per_us = 0, goodput_gbytes_per_s = 0;   // messages / span, payload bytes / span
  double interval_cycles = 0, interval_ns = 0;   // steady state, between deliveries
  double ceiling_gbytes_per_s = 0;               // packet payload / interval ("derived" from measured δ)
  double link_gbytes_per_s = 0;
  // From the design parameters, not the run: the context RAM's occupancy per
  // request (UB: the record's words on the port; RoCE: the PSN update),
  // or the packet's flits if more; and L + (N-1) times that.
  double derived_interval_cycles = 0;
  double derived_span_cycles = 0;
};

// trace_path: FST waveform of the burst (empty = none).
IssueRateResult run_issue_rate(const Config& cfg, const std::string& stack, uint64_t burst, int initiators,
                               const std::string& trace_path = "");
json::Value issue_rate_row(const IssueRateResult& r);

}  // namespace ubsim
