// Scripted RTL drivers for the ordering scenarios: the verilated send
// pipelines stepped cycle by cycle with scripted requests and completions,
// every handshake of each request recorded (cycle numbers).
#pragma once
#include <string>
#include <vector>

#include "config.h"
#include "rtl_variant.h"

namespace ubsim {

// One scripted request.
struct Scripted {
  int initiator = 0;            // Jetty (UB) / port of the multi-initiator tops
  int mode = enc::MODE_ROI, tag = enc::TAG_NO;
  bool fence = false, rdat = true;
  long complete_at = -1;        // absolute cycle of its completion; -1 = issue + 100
  bool never_complete = false;
  long offer_at = 0;            // not offered before this cycle
};

// What the RTL did with it.
struct Observed {
  long in = -1, hold = -1, issue = -1, flit = -1, cpl = -1;
  bool held = false, error = false;
  int error_code = 0, slot = -1, seq = -1;
};

// The UB send pipeline on its own, requests offered in script order.
std::vector<Observed> drive_ub_pipeline(const Config& c, const std::vector<Scripted>& script, long max_cycles);

// The five-initiator tops (ub_tx_multi: a Jetty each over one TP channel;
// roce_tx_multi: one shared RC QP), requests offered per initiator in
// script order. trace_path: an FST of the run (empty = none).
std::vector<Observed> drive_ub_multi(const Config& c, const std::vector<Scripted>& script, long max_cycles,
                                     const std::string& trace_path = "");
std::vector<Observed> drive_roce_multi(const Config& c, const std::vector<Scripted>& script, long max_cycles,
                                       const std::string& trace_path = "");

}  // namespace ubsim
