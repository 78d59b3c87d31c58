// The loss experiment (spec 8): a stream of messages from node A to node B
// through the verilated SACK engine (sender on A, receiver on B) over a
// lossy link, in SACK or GoBackN mode. Measured: goodput, resent bytes,
// message latency (engine takes it -> delivered in order), timeouts, and an
// exactly-once / in-order verdict from the receiver's deliveries. Each
// point runs in its own child process.
#pragma once
#include <string>
#include <vector>

#include "config.h"
#include "json_value.h"

namespace ubsim {

struct LossPoint {
  std::string mode;            // sack | gbn
  double loss = 0;             // data-packet loss probability
  int window = 0;              // sack.window of the point
  double ack_loss = 0;
  uint64_t messages = 0, delivered = 0;   // messages (each packets_per_message packets)
  uint64_t size_bytes = 0;
  uint32_t packets_per_message = 1;
  double goodput_gbps = 0;     // delivered payload bits / (first accepted -> last delivered)
  double derived_goodput_gbps = 0;   // analytic model of the mode (labelled derived)
  double line_gbps = 0;        // payload rate of the link without loss (derived)
  uint64_t retransmitted_bytes = 0;
  double p50_ns = 0, p99_ns = 0, max_ns = 0;
  double finish_ns = 0;        // last in-order delivery, from the first message accepted
  double complete_ns = 0;      // every PSN has reached the receiver ("all deliverable"), same origin
  uint64_t timeouts = 0, retransmits = 0, duplicates = 0, lost_packets = 0;
  uint64_t reorder_peak_bytes = 0, reorder_drops = 0;   // the receiver's reorder state (sack.reorder_limit)
  bool exactly_once = false, in_order = false, failed = false;
};

struct LossOptions {
  std::vector<std::string> modes = {"sack", "gbn"};
  std::vector<double> losses = {0};
  std::vector<int> windows;          // sack.window per curve (empty: the configured one)
  std::vector<uint32_t> drop_once;   // data PSN offsets lost on their first transmission
  std::string trace_prefix;          // FSTs: PREFIX.<mode>.{sack_tx,sack_rx}.fst (first point of each mode)
};

// One point (call in a child process: one SystemC elaboration).
LossPoint run_loss_point(const Config& cfg, const std::string& mode, double loss,
                         const std::vector<uint32_t>& drop_once, const std::string& trace_prefix = "");
// Every mode x window x loss, each point in its own child process: the
// result rows (loss_row).
std::vector<json::Value> run_loss(const Config& cfg, const LossOptions& o);

json::Value loss_row(const LossPoint& p);

}  // namespace ubsim
