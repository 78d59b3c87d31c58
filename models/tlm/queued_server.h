// QueuedServer: a component whose resource serves one transaction at a time for
// an occupancy, with a per-operation latency (>= occupancy for pipelined
// resources such as a PCIe link or the bus; = latency for a CPU core).
// Transactions that find the resource busy wait in the component's FIFO.
#pragma once
#include <deque>
#include <string>

#include <tlm_utils/peq_with_get.h>

#include "component.h"

namespace ubsim {

struct ServiceTime {
  uint64_t latency_fs;    // arrival at service start -> departure
  uint64_t occupancy_fs;  // how long the resource stays busy
  uint64_t serialize_fs;  // part of latency that is serialization (itemized)
};

class QueuedServer : public StageComponent {
 public:
  QueuedServer(sc_core::sc_module_name name, std::string resource_description);
  void collect_stats(StatsTable& table) const override;

 protected:
  virtual ServiceTime service_time(const Transaction& t) const = 0;
  void accept(Transaction& t) override;

 private:
  void start_next();
  void on_resource_free();
  void on_done();

  std::string resource_description_;
  std::deque<Transaction*> waiting_;
  bool busy_ = false;
  sc_core::sc_event free_event_;
  tlm_utils::peq_with_get<Transaction> done_queue_;
  OccupancyTracker queue_;
  uint64_t busy_fs_ = 0;
  uint64_t served_ = 0;
  uint64_t waited_ = 0;
};

}  // namespace ubsim
