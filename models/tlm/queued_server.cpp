#include "queued_server.h"

#include <algorithm>
#include <functional>

namespace ubsim {

QueuedServer::QueuedServer(sc_core::sc_module_name name, std::string resource_description, size_t resources)
    : StageComponent(name),
      resource_description_(std::move(resource_description)),
      resources_(std::max<size_t>(1, resources)),
      done_queue_("done_queue") {
  SC_HAS_PROCESS(QueuedServer);
  SC_METHOD(serve);
  sensitive << serve_event_;
  dont_initialize();
  SC_METHOD(on_resource_free);
  sensitive << free_event_;
  dont_initialize();
  SC_METHOD(on_done);
  sensitive << done_queue_.get_event();
  dont_initialize();
}

bool QueuedServer::Waiting::operator>(const Waiting& o) const {
  if (cls != o.cls) return cls > o.cls;
  if (arrive_fs != o.arrive_fs) return arrive_fs > o.arrive_fs;
  if (t->kind != o.t->kind) return t->kind > o.t->kind;
  return t->id > o.t->id;
}

void QueuedServer::accept(Transaction& t) {
  auto& w = resources_.at(resource_of(t)).waiting;
  w.push_back({now_fs(), &t, class_of(t)});
  std::push_heap(w.begin(), w.end(), std::greater<Waiting>());
  queue_.change(now_fs(), +1);
  serve_event_.notify(sc_core::SC_ZERO_TIME);   // after every arrival of this instant
}

void QueuedServer::on_resource_free() { serve_event_.notify(sc_core::SC_ZERO_TIME); }

void QueuedServer::serve() {
  const uint64_t now = now_fs();
  uint64_t next_free = UINT64_MAX;   // a busy resource with requests waiting: wake when it frees
  for (Resource& res : resources_) {
    while (!res.waiting.empty() && res.free_at_fs <= now) {
      std::pop_heap(res.waiting.begin(), res.waiting.end(), std::greater<Waiting>());
      const Waiting w = res.waiting.back();
      res.waiting.pop_back();
      queue_.change(now, -1);
      const ServiceTime st = service_time(*w.t);
      HopTimes& times = w.t->now_times();
      times.start_fs = now;
      times.serialize_fs = st.serialize_fs;
      times.transfer_fs = st.transfer_fs;
      ++served_;
      if (now > w.arrive_fs) ++waited_;
      res.busy_fs += st.occupancy_fs;
      if (st.occupancy_fs > 0) {
        res.free_at_fs = now + st.occupancy_fs;
        free_event_.notify(delay_fs(st.occupancy_fs));
        if (on_busy) on_busy(now, res.free_at_fs);
      }
      done_queue_.notify(*w.t, delay_fs(st.latency_fs));
    }
    if (!res.waiting.empty()) next_free = std::min(next_free, res.free_at_fs);
  }
  // one event for all resources: it keeps only its earliest notification, so
  // re-arm it for the next resource to free that has requests waiting
  if (next_free != UINT64_MAX && next_free > now) free_event_.notify(delay_fs(next_free - now));
}

void QueuedServer::on_done() {
  while (Transaction* t = done_queue_.get_next_transaction()) forward(*t);
}

void QueuedServer::collect_stats(StatsTable& table) const {
  const uint64_t end = now_fs();
  const std::string n = name();
  table.add(n, "ops", static_cast<double>(served_), "ops", "requests served by " + resource_description_);
  uint64_t busy = 0;
  for (const Resource& r : resources_) busy += r.busy_fs;
  const double k = static_cast<double>(resources_.size());
  table.add(n, "utilization", end ? static_cast<double>(busy) / static_cast<double>(end) / k : 0.0, "fraction",
            resources_.size() > 1 ? "share of simulated time its resources were occupied (mean over them)"
                                  : "share of simulated time the resource was occupied");
  table.add(n, "queued", static_cast<double>(waited_), "ops", "requests that waited for the resource");
  table.add(n, "queue_mean", queue_.mean(end), "requests", "time-weighted mean of requests waiting");
  table.add(n, "queue_max", queue_.max(), "requests", "most requests waiting at once");
}

}  // namespace ubsim
