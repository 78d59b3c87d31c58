// The issue-rate experiment (spec §5): an ideal source offers a burst of N
// requests back-to-back at the send pipeline's input handshake; requests
// delivered to the wire (first flit out) are counted. The interval comes
// from the RTL's structure (TP-context port beats, PSN read-modify-write).
#pragma once
#include <string>

#include "config.h"
#include "json_value.h"

namespace ubsim {

struct IssueRateResult {
  std::string stack;
  uint64_t burst = 0, submitted = 0, delivered = 0;
  int initiators = 1;
  uint32_t payload_bytes = 0;
  uint64_t flits = 0;              // flits sent (header + payload over the datapath width)
  uint64_t latency_cycles = 0;     // first request: input handshake -> first flit
  uint64_t span_cycles = 0;        // first input handshake -> last first flit
  double span_ns = 0, rate_per_us = 0;
  double interval_cycles = 0, interval_ns = 0;   // steady state, between deliveries
  double ceiling_gbytes_per_s = 0;               // payload / interval ("derived" from measured δ)
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
