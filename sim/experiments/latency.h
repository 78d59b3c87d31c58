// The latency experiment: N remote reads (or writes) along one path of the
// two-node system, every stage measured from event timestamps and shown
// beside its derived (configured) value, with measured - derived itemized.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "config.h"
#include "ctx_cache_bridge.h"
#include "initiator_app.h"
#include "json_value.h"
#include "stats.h"
#include "two_node_system.h"

namespace ubsim {

struct LatencyOptions {
  std::string path;                 // pcie-nic | ub-async | ub-load
  Verb verb = Verb::Read;
  std::string trace_prefix;         // FST files, empty = none
  std::string timeline_path;        // Chrome trace-event JSON, empty = none
  uint64_t timeline_ops = 100;      // requests recorded in the timeline
  int timeline_index = 0;           // the path's place in the run's trace (its processes)
  // Called with every finished request (before it is reused), e.g. to keep
  // its submit / completion times.
  std::function<void(const Request&)> observe;
  // Node A's data packets lost on their first transmission (PSNs; the
  // transport must be in the paths).
  std::vector<uint32_t> drop;
  // Over a switched fabric: the controllers that are node A and node B
  // (topology device indices; {-1, -1}: its first pair).
  std::pair<int, int> pair{-1, -1};
  // Over a switched fabric: these pairs at once, one initiator application
  // each (run_latency_sessions gives a result per pair).
  std::vector<std::pair<int, int>> concurrent;
  // Called with the system once it is built, before the simulation runs.
  std::function<void(TwoNodeSystem&)> on_system;
};

struct StageResult {
  std::string stage, category;
  double derived_ns = 0, measured_ns = 0;
  double align_ns = 0, serialize_ns = 0, queue_ns = 0;   // means per op
  double hazard_ns = 0;   // RTL: stalls inside the pipeline beyond its configured depth
  double ctx_wait_ns = 0; // RTL: waiting at ctx_gate for a context-cache refill
  bool rtl = false;
};

struct LatencyResult {
  std::string path, verb;
  std::string initiator, target;   // over a switched fabric: the pair's node names (else empty)
  uint64_t ops = 0;
  uint64_t measured = 0;   // requests measured (after the warm-up) that succeeded: 0 = no latency to show
  int outstanding = 1;
  double clock_mhz = 0;
  std::vector<StageResult> stages;
  std::vector<HopSpec> hops;   // the route as run (stages[i] is hops[i])
  double derived_total_ns = 0;
  // A message of `size` bytes: its packets in the payload direction, and the
  // derived time to stream them through the slowest resource on the way
  // (the wire with every packet's header, the send pipeline's flits, the
  // bus / DRAM / PCIe moving the bytes), named; derived_message_ns =
  // derived_total_ns + that.
  uint64_t size_bytes = 0;
  uint32_t packets = 1;
  double derived_stream_ns = 0, derived_message_ns = 0;
  // Over a switched fabric, derived: what its path adds to the wire stages
  // over one link (-1 over one link).
  double derived_fabric_ns = -1;
  std::string binding;
  double mean_ns = 0, p50_ns = 0, p99_ns = 0, p999_ns = 0, max_ns = 0, min_ns = 0;
  // The transport inside the paths (transport.in_paths; 0 without it): its
  // engines' resends over the run, and requests completed with an error.
  bool transport = false;
  std::string transport_mode;    // sack | gbn (the path's engines)
  uint64_t retransmitted_packets = 0, retransmitted_bytes = 0, timeouts = 0, failed = 0;
  double slot_mean_ns = 0, slot_p99_ns = 0;   // slot occupancy T (submit -> completion handled)
  std::vector<std::pair<std::string, double>> effects;   // cause, mean ns per op
  double unexplained_ns = 0;     // measured - derived - sum(effects): rounding only
  double offered_per_us = 0;     // open loop: configured arrival rate (0 = closed loop)
  double achieved_per_us = 0;    // completions per µs over the measured window
  int rtl_entries = 0;
  double sim_time_ns = 0;
  double wall_s = 0;
  double cpu_s = 0;   // CPU time of the simulation (this process, sc_start only)
  double cycles_evaluated = 0, cycles_total = 0;
  std::map<std::string, double> cycles_by_block;   // RTL cycles evaluated, by model class
  long peak_rss_kib = 0;
  StatsTable stats;
  // Context-cache counters over the measured requests (after the warm-up),
  // by cache ("A_ub_cache", ...).
  std::vector<std::pair<std::string, CacheCounters>> cache_window;
};

// Refuses (ConfigError on workload.ops) a run whose simulated span, estimated
// from the configured stages, would come near the end of the simulator's
// 64-bit fs time.
void check_horizon(const Config& cfg, const std::string& path, Verb verb);
// Runs one path in this process (one SystemC elaboration: call it in a child).
LatencyResult run_latency(const Config& cfg, const LatencyOptions& o);
// Every session of the run (several with LatencyOptions::concurrent), in order.
std::vector<LatencyResult> run_latency_sessions(const Config& cfg, const LatencyOptions& o);
// The result row (spec §10 keys); reference_ns 0 = none.
json::Value latency_row(const LatencyResult& r, double reference_ns);

}  // namespace ubsim
