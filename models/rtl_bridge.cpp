#include "rtl_bridge.h"

#include "ctx_cache_bridge.h"
#include "verilated_compat.h"

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

ClockedRtlBridge::ClockedRtlBridge(sc_core::sc_module_name name, const ModelParams& p)
    : ClockedComponent(name, p), output_queue_("output_queue"), error_queue_("error_queue") {
  SC_HAS_PROCESS(ClockedRtlBridge);
  SC_METHOD(on_output);
  sensitive << output_queue_.get_event();
  dont_initialize();
  SC_METHOD(on_error);
  sensitive << error_queue_.get_event();
  dont_initialize();
}

void ClockedRtlBridge::complete(const Request& r, uint64_t at_fs) {
  completions_.push_back({at_fs, r.ord_slot, r.ord_seq});
  wake(at_fs);
}

void ClockedRtlBridge::on_error() {
  while (Request* r = error_queue_.get_next_transaction()) finish_early(*r);
}

void ClockedRtlBridge::reset_model() {
  configure();
  set_output_ready(true);
  drive_input(nullptr);
  drive_grant(false, 0);
  drive_completion(false, 0, 0);
  for (int i = 0; i < 4; ++i) {   // reset is applied before time 0, off the grid
    set_clock_and_reset(false, true);
    eval();
    set_clock_and_reset(true, true);
    eval();
  }
  set_clock_and_reset(false, false);
  eval();
}

void ClockedRtlBridge::attach_cache(CtxCacheBridge* cache) {
  cache_ = cache;
  reset_model();   // cfg_ctx_gate is a configuration input loaded at reset
}

void ClockedRtlBridge::grant(uint32_t id, uint64_t at_fs) {
  grants_.emplace_back(at_fs, id);
  wake(at_fs);
}

void ClockedRtlBridge::accept(Request& r) {
  input_queue_.push_back(&r);
  queue_.change(now_fs(), +1);
  if (cache_) cache_->lookup(r, this);
  wake(now_fs());
}

bool ClockedRtlBridge::step_edge(uint64_t k) {
  const uint64_t e = edge_fs(k);
  Request* head = nullptr;
  if (!input_queue_.empty() && input_queue_.front()->now_times().arrive_fs < e)
    head = input_queue_.front();
  const bool grant_offered = !grants_.empty() && grants_.front().first < e;
  const bool cpl_offered = !completions_.empty() && completions_.front().arrive_fs < e;

  // step: drive and settle with the clock low, decide the handshakes
  set_clock_and_reset(false, false);
  drive_input(head);
  drive_grant(grant_offered, grant_offered ? grants_.front().second : 0);
  drive_completion(cpl_offered, cpl_offered ? completions_.front().slot : 0,
                   cpl_offered ? completions_.front().seq : 0);
  eval();
  trace_dump(e - period_fs_ / 2);
  const bool in_fire = head && input_ready();
  const bool grant_fire = grant_offered && grant_ready();
  // m_ready is held high: the fabric never refuses. Only a packet's first
  // flit hands the request on; the wire model serializes the whole packet.
  const bool out_fire = output_valid() && output_first();
  const uint32_t out_id = out_fire ? output_id() : 0;
  uint32_t waiting_id = 0;
  if (ctx_waiting(waiting_id)) {
    ++ctx_wait_cycles_;
    auto it = in_flight_.find(waiting_id);
    sc_assert(it != in_flight_.end() && "RTL reports a context wait for an unknown id");
    it->second->now_times().ctx_wait_fs += period_fs_;
  }
  if (head && !in_fire) ++stall_cycles_;
  const OrderEvents ord = order_events();
  Request* errored = nullptr;
  if (ord.issue) {   // the order tracker numbered a request in its queue
    Request* r = in_flight(ord.issue_id);
    sc_assert(r && "order tracker issued an id it was never given");
    r->ord_slot = ord.slot;
    r->ord_seq = ord.seq;
    if (ord.released) r->ord_release_fs = e;
  }
  if (ord.in_hold) {   // the tracker takes a request into its hold window
    Request* r = in_flight(ord.in_id);
    sc_assert(r && "order tracker holds an id it was never given");
    r->ord_hold_fs = e;
  }
  if (ord.error) {
    errored = in_flight(ord.error_id);
    sc_assert(errored && "order tracker rejected an id it was never given");
  }
  reports_ += ord.report;

  // apply: the clock edge
  set_clock_and_reset(true, false);
  eval();
  trace_dump(e);

  if (grant_fire) grants_.pop_front();
  if (cpl_offered) {   // the tracker takes a completion every cycle
    completions_.pop_front();
    ++completions_taken_;
  }
  if (errored) {   // an error completion: the request ends here, visibly
    errored->error = true;
    errored->error_code = ord.error_code;
    in_flight_.erase(static_cast<uint32_t>(errored->id));
    error_queue_.notify(*errored, sc_time(static_cast<double>(e - now_fs()), SC_FS));
    ++errors_;
  }
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
    Request* r = it->second;
    output_queue_.notify(*r, sc_time(static_cast<double>(e - now_fs()), SC_FS));
    in_flight_.erase(it);
    ++delivered_;
    // a response of a tracked request: its completion is known to the
    // controller's send side from this edge on
    if (completion_sink_ && r->ord_slot >= 0) completion_sink_->complete(*r, e);
  }
  return out_fire || errored;
}

void ClockedRtlBridge::settle_idle() {
  set_clock_and_reset(false, false);
  drive_input(nullptr);
  drive_grant(false, 0);
  eval();
}

void ClockedRtlBridge::on_output() {
  while (Request* r = output_queue_.get_next_transaction()) forward(*r);
}

void ClockedRtlBridge::collect_stats(StatsTable& table) const {
  const uint64_t end = now_fs();
  const std::string n = name();
  table.add(n, "accepted", static_cast<double>(accepted_), "ops", "input handshakes of the RTL pipeline");
  table.add(n, "delivered", static_cast<double>(delivered_), "ops", "packets out of the RTL pipeline (first flits)");
  collect_clock_stats(table);
  table.add(n, "stall_cycles", static_cast<double>(stall_cycles_), "cycles",
            "cycles a queued request was refused by s_ready (back-pressure)");
  table.add(n, "order_errors", static_cast<double>(errors_), "ops",
            "requests rejected by the order tracker (error completion)");
  table.add(n, "order_completions", static_cast<double>(completions_taken_), "ops",
            "completions taken by the order tracker");
  table.add(n, "ctx_wait_cycles", static_cast<double>(ctx_wait_cycles_), "cycles",
            "cycles a request waited at ctx_gate for its context records (cache refill)");
  table.add(n, "queue_mean", queue_.mean(end), "requests", "time-weighted mean of requests waiting at the input");
  table.add(n, "queue_max", queue_.max(), "requests", "most requests waiting at the input at once");
}

}  // namespace ubsim
