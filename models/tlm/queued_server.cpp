#include "queued_server.h"

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

QueuedServer::QueuedServer(sc_core::sc_module_name name, std::string resource_description)
    : StageComponent(name),
      resource_description_(std::move(resource_description)),
      done_queue_("done_queue") {
  SC_HAS_PROCESS(QueuedServer);
  SC_METHOD(on_resource_free);
  sensitive << free_event_;
  dont_initialize();
  SC_METHOD(on_done);
  sensitive << done_queue_.get_event();
  dont_initialize();
}

void QueuedServer::accept(Transaction& t) {
  waiting_.push_back(&t);
  queue_.change(now_fs(), +1);
  if (busy_) ++waited_;
  else start_next();
}

void QueuedServer::start_next() {
  Transaction* r = waiting_.front();
  waiting_.pop_front();
  queue_.change(now_fs(), -1);
  const ServiceTime st = service_time(*r);
  HopTimes& times = r->now_times();
  times.start_fs = now_fs();
  times.serialize_fs = st.serialize_fs;
  ++served_;
  busy_fs_ += st.occupancy_fs;
  if (st.occupancy_fs > 0) {
    busy_ = true;
    free_event_.notify(sc_time(static_cast<double>(st.occupancy_fs), SC_FS));
  }
  done_queue_.notify(*r, sc_time(static_cast<double>(st.latency_fs), SC_FS));
  if (!busy_ && !waiting_.empty()) start_next();
}

void QueuedServer::on_resource_free() {
  busy_ = false;
  if (!waiting_.empty()) start_next();
}

void QueuedServer::on_done() {
  while (Transaction* t = done_queue_.get_next_transaction()) forward(*t);
}

void QueuedServer::collect_stats(StatsTable& table) const {
  const uint64_t end = now_fs();
  const std::string n = name();
  table.add(n, "ops", static_cast<double>(served_), "ops", "requests served by " + resource_description_);
  table.add(n, "utilization", end ? static_cast<double>(busy_fs_) / static_cast<double>(end) : 0.0,
            "fraction", "share of simulated time the resource was occupied");
  table.add(n, "queued", static_cast<double>(waited_), "ops", "requests that found the resource busy");
  table.add(n, "queue_mean", queue_.mean(end), "requests", "time-weighted mean of requests waiting");
  table.add(n, "queue_max", queue_.max(), "requests", "most requests waiting at once");
}

}  // namespace ubsim
