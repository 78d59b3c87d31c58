// The load experiment: latency vs offered load for one path, open-loop
// arrivals (Poisson, seeded) with a bounded send queue. The path's capacity
// is measured first (arrivals far above any rate the model can serve), then
// the offered load is swept over fractions of it, so the knee appears where
// a resource of the model (CPU core, bus, DRAM, RTL pipeline port, wire)
// saturates. The bottleneck is the component with the longest mean queue.
#pragma once
#include <string>
#include <vector>

#include "config.h"
#include "json_value.h"

namespace ubsim {

struct LoadPoint {
  std::string path;
  double offered_per_us = 0, achieved_per_us = 0;
  double mean_ns = 0, p50_ns = 0, p99_ns = 0, p999_ns = 0, max_ns = 0;
  // the transport inside the paths (with --loss): resends, timeouts, failures
  double retransmitted_packets = 0, retransmitted_bytes = 0, timeouts = 0, failed = 0;
  std::string bottleneck;        // component with the longest mean input queue
  double bottleneck_queue = 0;   // its time-weighted mean queue length
};

// One open-loop run (call in a child process: one SystemC elaboration).
LoadPoint run_load_point(const Config& cfg, const std::string& path, double rate_per_s);
// Capacity, then the sweep, each point in its own child process: the
// result rows (load_row). Throws std::runtime_error with the child's
// message when a point fails.
std::vector<json::Value> run_load_sweep(const Config& cfg, const std::string& path,
                                        const std::vector<double>& fractions, double& capacity_per_us);

json::Value load_row(const LoadPoint& p);

}  // namespace ubsim
