// CompletionQueue: node A's completion queue when software handles
// completions in batches (sw.cq_batch > 0). A completion that is visible
// (the route reached its first completion-handling stage) waits here; at
// every multiple of sw.cq_period the handler takes up to sw.cq_batch of the
// waiting completions, oldest first, and each then runs the route's
// completion-handling stages on its core (the handler's CPU time per
// completion). The handler wakes only while completions wait.
#pragma once
#include <deque>

#include "component.h"
#include "config.h"

namespace ubsim {

class CompletionQueue : public StageComponent {
 public:
  CompletionQueue(sc_core::sc_module_name name, const Config& c);
  void collect_stats(StatsTable& table) const override;

 protected:
  void accept(Transaction& t) override;

 private:
  void handle_batch();
  void schedule_from(uint64_t now);

  const uint64_t batch_, period_fs_;
  std::deque<Transaction*> waiting_;
  sc_core::sc_event tick_;
  bool tick_pending_ = false;
  OccupancyTracker depth_;
  uint64_t batches_ = 0, handled_ = 0;
};

}  // namespace ubsim
