// InitiatorApp: the application thread(s) on node A that issue remote reads
// or writes along a path, keeping `outstanding` requests in flight, and the
// sink where finished requests come back. Records every request's hop
// timestamps into per-hop sums and a latency histogram.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "component.h"
#include "histogram.h"

namespace ubsim {

struct WorkloadConfig {
  uint64_t ops = 1000;
  int outstanding = 1;
  Verb verb = Verb::Read;
  uint32_t payload_bytes = 64;
  uint64_t warmup_ops = 0;   // excluded from the statistics
};

// Sums over measured requests, per hop of the route (fs).
struct HopSums {
  long double measured = 0, align = 0, serialize = 0, queue = 0, service = 0;
};

struct LatencyRecord {
  std::vector<HopSums> hops;
  LatencyHistogram total;
  uint64_t measured_ops = 0;
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
  void issue(Request& r);

  const Route& route_;
  WorkloadConfig w_;
  std::vector<std::unique_ptr<Request>> slots_;
  uint64_t issued_ = 0;
  uint64_t completed_ = 0;
  std::unique_ptr<LatencyRecord> record_;
};

}  // namespace ubsim
