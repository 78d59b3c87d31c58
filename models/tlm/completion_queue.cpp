#include "completion_queue.h"

namespace ubsim {

CompletionQueue::CompletionQueue(sc_core::sc_module_name name, const Config& c)
    : StageComponent(name), batch_(c.count(key::sw_cq_batch)), period_fs_(c.fs(key::sw_cq_period)) {
  SC_HAS_PROCESS(CompletionQueue);
  SC_METHOD(handle_batch);
  sensitive << tick_;
  dont_initialize();
}

// The next handler run at or after `from` (runs are at multiples of the period).
void CompletionQueue::schedule_from(uint64_t from) {
  const uint64_t now = now_fs();
  const uint64_t next = (from + period_fs_ - 1) / period_fs_ * period_fs_;
  tick_.notify(delay_fs(next - now));
  tick_pending_ = true;
}

void CompletionQueue::accept(Transaction& t) {
  t.now_times().start_fs = t.now_times().arrive_fs;   // the wait is the stage's time, not a queue for a server
  waiting_.push_back(&t);
  depth_.change(now_fs(), +1);
  if (!tick_pending_) schedule_from(now_fs());
}

void CompletionQueue::handle_batch() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  tick_pending_ = false;
  const uint64_t now = now_fs();
  ++batches_;
  for (uint64_t k = 0; k < batch_ && !waiting_.empty(); ++k) {
    Transaction* t = waiting_.front();
    waiting_.pop_front();
    depth_.change(now, -1);
    ++handled_;
    forward(*t);
  }
  if (!waiting_.empty()) schedule_from(now + 1);
  StageComponent::settle_touched();   // (its last statement: component.h)
}

void CompletionQueue::collect_stats(StatsTable& table) const {
  table.add(name(), "batches", static_cast<double>(batches_), "runs", "completion-handler runs that found work");
  table.add(name(), "handled", static_cast<double>(handled_), "completions", "completions handed to software");
  table.add(name(), "depth_max", static_cast<double>(depth_.max()), "completions",
            "most completions visible and waiting for the handler at once");
  table.add(name(), "depth_mean", depth_.mean(now_fs()), "completions",
            "time-weighted mean of completions waiting for the handler");
}

}  // namespace ubsim
