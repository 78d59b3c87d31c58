// InitiatorApp: the application on node A that issues remote reads or writes
// along a path, and the sink where finished requests come back.
//
// Closed loop (rate 0): keeps `outstanding` requests in flight, issuing the
// next one when one completes. Open loop (rate > 0): requests arrive at the
// offered rate (Poisson or evenly spaced, seeded); at most `outstanding` are
// in flight (the send-queue depth), later arrivals wait in a backlog, and
// their latency counts from arrival. Records every request's hop timestamps
// into per-hop sums and a latency histogram.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "component.h"
#include "histogram.h"

namespace ubsim {

struct WorkloadConfig {
  uint64_t ops = 1000;
  int outstanding = 1;
  Verb verb = Verb::Read;
  uint32_t payload_bytes = 64;
  uint64_t warmup_ops = 0;       // excluded from the statistics
  double rate_per_s = 0;         // offered load; 0 = closed loop
  bool poisson = true;           // open loop: exponential inter-arrival times
  uint64_t seed = 1;
  // All-to-all endpoints: N local endpoints on A each reaching N remote ones
  // on B (0 = one endpoint pair). Request k goes from local i = k mod N to
  // remote (i - k div N) mod N: every pair once per N*N requests, every
  // endpoint once per N requests, and each endpoint's records are reused
  // only after (almost) all other records were touched: the order that keeps
  // every context live, so a cache one entry short misses every time.
  uint32_t endpoints = 0;
  // Execution tag of request k (0 NO, 1 RO, 2 SO): tags[k], the last entry
  // for later requests; empty = all NO. All requests are Jetty-ordered ROI.
  std::vector<uint8_t> tags;
};

// Sums over measured requests, per hop of the route (fs).
struct HopSums {
  long double measured = 0, align = 0, serialize = 0, queue = 0, service = 0, ctx_wait = 0;
};

struct LatencyRecord {
  std::vector<HopSums> hops;
  LatencyHistogram total;
  uint64_t measured_ops = 0;
  long double backlog_fs = 0;    // open loop: waiting for a free send-queue slot
  // Throughput window: from the last warm-up completion to the completion
  // `warmup` before the end, so neither the ramp-up nor the drain (when only
  // completion-side stages are left) counts.
  uint64_t window_start_fs = 0;
  uint64_t window_end_fs = 0;
  uint64_t window_ops = 0;
};

class InitiatorApp : public StageComponent {
 public:
  InitiatorApp(sc_core::sc_module_name name, const Route& route, WorkloadConfig w);
  void collect_stats(StatsTable& table) const override;
  const LatencyRecord& record() const { return *record_; }
  uint64_t completed() const { return completed_; }
  // Called with every finished request before it is reused (e.g. a timeline).
  std::function<void(const Request&)> on_complete;

 protected:
  void accept(Request& r) override;   // a finished request

 private:
  void start();
  void on_arrival();
  void issue(Request& r, uint64_t arrived_fs);
  uint64_t next_gap_fs();

  const Route& route_;
  WorkloadConfig w_;
  std::vector<std::unique_ptr<Request>> slots_;
  std::vector<Request*> free_;
  std::deque<uint64_t> backlog_;     // arrival times of requests waiting for a slot
  sc_core::sc_event arrival_event_;
  std::mt19937_64 rng_;
  uint64_t arrived_ = 0;
  uint64_t issued_ = 0;
  uint64_t completed_ = 0;
  size_t backlog_max_ = 0;
  std::unique_ptr<LatencyRecord> record_;
};

}  // namespace ubsim
