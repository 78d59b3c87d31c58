#include "rtl_bridge.h"

#include "verilated_compat.h"

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

ClockedRtlBridge::ClockedRtlBridge(sc_core::sc_module_name name, const ModelParams& p)
    : StageComponent(name),
      params_(p),
      period_fs_(p.clock_period_fs),
      output_queue_("output_queue"),
      context_(std::make_unique<VerilatedContext>()) {
  context_->traceEverOn(true);
  context_->timeunit(-12);        // FST time stamps are dumped in ps
  context_->timeprecision(-12);
  SC_HAS_PROCESS(ClockedRtlBridge);
  SC_THREAD(run);
  SC_METHOD(on_output);
  sensitive << output_queue_.get_event();
  dont_initialize();
}

ClockedRtlBridge::~ClockedRtlBridge() { close_trace(); }

void ClockedRtlBridge::close_trace() {
  if (trace_) trace_->close();
  trace_.reset();
}

VerilatedContext* ClockedRtlBridge::context() { return context_.get(); }

void ClockedRtlBridge::reset_model() {
  configure();
  set_output_ready(true);
  drive_input(nullptr);
  for (int i = 0; i < 4; ++i) {   // reset is applied before time 0, off the grid
    set_clock_and_reset(false, true);
    eval();
    set_clock_and_reset(true, true);
    eval();
  }
  set_clock_and_reset(false, false);
  eval();
}

void ClockedRtlBridge::open_trace(const std::string& path) {
  trace_ = std::make_unique<VerilatedFstC>();
  trace_model(trace_.get());
  trace_->open(path.c_str());
}

void ClockedRtlBridge::accept(Request& r) {
  input_queue_.push_back(&r);
  queue_.change(now_fs(), +1);
  input_event_.notify(sc_core::SC_ZERO_TIME);
}

bool ClockedRtlBridge::step_edge(uint64_t k) {
  const uint64_t e = edge_fs(k);
  Request* head = nullptr;
  if (!input_queue_.empty() && input_queue_.front()->now_times().arrive_fs < e)
    head = input_queue_.front();

  // step: drive and settle with the clock low, decide the handshakes
  set_clock_and_reset(false, false);
  drive_input(head);
  eval();
  if (trace_) trace_->dump((e - period_fs_ / 2) / 1000);
  const bool in_fire = head && input_ready();
  // m_ready is held high: the fabric never refuses. Only a packet's first
  // flit hands the request on; the wire model serializes the whole packet.
  const bool out_fire = output_valid() && output_first();
  const uint32_t out_id = out_fire ? output_id() : 0;
  if (head && !in_fire) ++stall_cycles_;

  // apply: the clock edge
  set_clock_and_reset(true, false);
  eval();
  if (trace_) trace_->dump(e / 1000);
  ++cycles_evaluated_;
  next_edge_ = k + 1;

  if (in_fire) {
    HopTimes& t = head->now_times();
    t.start_fs = e;
    t.align_fs = (t.arrive_fs / period_fs_ + 1) * period_fs_ - t.arrive_fs;
    in_flight_.emplace(static_cast<uint32_t>(head->id), head);
    input_queue_.pop_front();
    queue_.change(now_fs(), -1);
    ++accepted_;
  }
  if (out_fire) {
    auto it = in_flight_.find(out_id);
    sc_assert(it != in_flight_.end() && "RTL emitted an id it was never given");
    output_queue_.notify(*it->second, sc_time(static_cast<double>(e - now_fs()), SC_FS));
    in_flight_.erase(it);
    ++delivered_;
  }
  return out_fire;
}

void ClockedRtlBridge::run() {
  for (;;) {
    if (!has_work()) {
      wait(input_event_);
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
    while (!emitted && has_work() && edge_fs(next_edge_) <= limit) emitted = step_edge(next_edge_);
    if (has_work()) wait(sc_time(static_cast<double>(edge_fs(next_edge_) - now), SC_FS), input_event_);
  }
}

void ClockedRtlBridge::on_output() {
  while (Request* r = output_queue_.get_next_transaction()) forward(*r);
}

void ClockedRtlBridge::collect_stats(StatsTable& table) const {
  const uint64_t end = now_fs();
  const std::string n = name();
  const double total_cycles = static_cast<double>(end / period_fs_);
  table.add(n, "accepted", static_cast<double>(accepted_), "ops", "input handshakes of the RTL pipeline");
  table.add(n, "delivered", static_cast<double>(delivered_), "ops", "packets out of the RTL pipeline (first flits)");
  table.add(n, "cycles_total", total_cycles, "cycles", "controller cycles in the simulated time");
  table.add(n, "cycles_evaluated", static_cast<double>(cycles_evaluated_), "cycles",
            "cycles the verilated model was stepped (it had work)");
  table.add(n, "cycles_skipped", static_cast<double>(cycles_skipped_), "cycles",
            "idle cycles skipped (no request queued or in the pipeline)");
  table.add(n, "utilization", total_cycles > 0 ? static_cast<double>(cycles_evaluated_) / total_cycles : 0.0,
            "fraction", "share of cycles with work in the pipeline");
  table.add(n, "stall_cycles", static_cast<double>(stall_cycles_), "cycles",
            "cycles a queued request was refused by s_ready (back-pressure)");
  table.add(n, "queue_mean", queue_.mean(end), "requests", "time-weighted mean of requests waiting at the input");
  table.add(n, "queue_max", queue_.max(), "requests", "most requests waiting at the input at once");
  table.add(n, "kernel_wakeups", static_cast<double>(wakeups_), "wakeups",
            "times the bridge process ran (cost of co-simulation)");
}

}  // namespace ubsim
