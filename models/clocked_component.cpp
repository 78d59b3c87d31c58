#include "clocked_component.h"

#include "verilated_compat.h"

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

ClockedComponent::ClockedComponent(sc_core::sc_module_name name, const ModelParams& p)
    : StageComponent(name),
      params_(p),
      period_fs_(p.clock_period_fs),
      context_(std::make_unique<VerilatedContext>()) {
  context_->traceEverOn(true);
  context_->timeunit(-12);        // FST time stamps are dumped in ps
  context_->timeprecision(-12);
  SC_HAS_PROCESS(ClockedComponent);
  SC_THREAD(run);
}

ClockedComponent::~ClockedComponent() { close_trace(); }

VerilatedContext* ClockedComponent::context() { return context_.get(); }

void ClockedComponent::open_trace(const std::string& path) {
  trace_ = std::make_unique<VerilatedFstC>();
  trace_model(trace_.get());
  trace_->open(path.c_str());
}

void ClockedComponent::close_trace() {
  if (trace_) trace_->close();
  trace_.reset();
}

void ClockedComponent::trace_dump(uint64_t fs) {
  if (trace_) trace_->dump(fs / 1000);
}

void ClockedComponent::wake(uint64_t at_fs) {
  const uint64_t now = now_fs();
  wake_event_.notify(sc_time(static_cast<double>(at_fs > now ? at_fs - now : 0), SC_FS));
}

void ClockedComponent::run() {
  for (;;) {
    if (!has_work()) {
      if (trace_ && next_edge_ > 1) {
        // 1 ps after the last evaluated edge: never the time of a later dump
        settle_idle();
        trace_dump(edge_fs(next_edge_ - 1) + 1000);
      }
      wait(wake_event_);
      // Skip the idle cycles: the first edge that may sample the new input.
      const uint64_t first = now_fs() / period_fs_ + 1;
      if (first > next_edge_) {
        cycles_skipped_ += first - next_edge_;
        next_edge_ = first;
      }
    }
    ++wakeups_;
    const uint64_t now = now_fs();
    const uint64_t ahead = static_cast<uint64_t>(sc_core::sc_time_to_pending_activity().value());
    const uint64_t limit = ahead > UINT64_MAX - now ? UINT64_MAX : now + ahead;
    bool emitted = false;
    while (!emitted && has_work() && edge_fs(next_edge_) <= limit) {
      emitted = step_edge(next_edge_);
      ++next_edge_;
      ++cycles_evaluated_;
    }
    if (has_work()) wait(sc_time(static_cast<double>(edge_fs(next_edge_) - now), SC_FS), wake_event_);
  }
}

void ClockedComponent::collect_clock_stats(StatsTable& table) const {
  const uint64_t end = now_fs();
  const std::string n = name();
  const double total_cycles = static_cast<double>(end / period_fs_);
  table.add(n, "cycles_total", total_cycles, "cycles", "controller cycles in the simulated time");
  table.add(n, "cycles_evaluated", static_cast<double>(cycles_evaluated_), "cycles",
            "cycles the verilated model was stepped (it had work)");
  table.add(n, "cycles_skipped", static_cast<double>(cycles_skipped_), "cycles",
            "idle cycles skipped (nothing queued or in flight in the model)");
  table.add(n, "utilization", total_cycles > 0 ? static_cast<double>(cycles_evaluated_) / total_cycles : 0.0,
            "fraction", "share of cycles with work in the model");
  table.add(n, "kernel_wakeups", static_cast<double>(wakeups_), "wakeups",
            "times the stepping process ran (cost of co-simulation)");
}

}  // namespace ubsim
