// The ordering experiment (spec 2 and 7): scenarios that drive the verilated
// send pipelines cycle by cycle with scripted requests and completions and
// measure, from the RTL's own handshakes, what the order tracker does:
//  - submit-to-wire: one request into an idle pipeline, every service mode
//    x tag (and Fence): cycles from entering the send pipeline (after the
//    bus interface) to its first flit, or its error completion;
//  - wait-after-predecessors: a request behind n = 0..4 outstanding reads of
//    its Jetty: how long after the last predecessor's completion reaches the
//    tracker it reaches the wire, beyond the no-wait latency;
//  - isolation: five initiators to one remote (UB: a Jetty each over one
//    shared TP channel; RoCE RC: one shared QP); initiator 0's SO is held;
//    when the 8 NO requests of initiators 1-4 reach the wire, with and
//    without the held request;
//  - end-to-end-so: on the two-node model, an SO read behind n outstanding
//    reads of its Jetty, with the real round trip.
#pragma once
#include <string>
#include <vector>

#include "config.h"
#include "json_value.h"

namespace ubsim {

struct OrderingRow {
  std::string scenario, stack;
  // submit-to-wire
  std::string mode, tag;
  long cycles = -1;                 // -1: rejected (error completion)
  int error_code = 0;
  // wait-after-predecessors / end-to-end-so
  int predecessors = 0;
  long extra_wait_cycles = 0;
  long held_cycles = 0;
  long submit_to_wire_cycles = 0;
  double wait_ns = 0, latency_ns = 0, lone_latency_ns = 0;
  // isolation
  bool held = false;
  long last_unordered_delivery_cycles = 0;
  long held_request_wire_cycles = 0;   // the held request's first flit, from the same origin
  int unordered_delivered = 0;
};

struct OrderingOptions {
  std::vector<std::string> scenarios;   // empty = all
  std::string trace_prefix;             // FST of the isolation runs (empty = none)
  uint64_t release_after_cycles = 400;  // isolation: when initiator 0's read completes
};

std::vector<OrderingRow> run_ordering(const Config& cfg, const OrderingOptions& o);
const std::vector<std::string>& ordering_scenarios();

json::Value ordering_row(const OrderingRow& r);
OrderingRow ordering_row_of(const json::Value& row);   // end-to-end-so rows

}  // namespace ubsim
