#include "queued_server.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace ubsim {

QueuedServer::QueuedServer(sc_core::sc_module_name name, std::string resource_description, size_t resources)
    : StageComponent(name),
      resource_description_(std::move(resource_description)),
      resources_(std::max<size_t>(1, resources)),
      resource_count_(resources_.size()) {
  // An arrival ahead of the kernel's time is served as of its time: a
  // provisional start at it, or a serve at it (nothing of it is handed on
  // from accept()).
  set_accepts_ahead();
  SC_HAS_PROCESS(QueuedServer);
  SC_METHOD(serve);
  sensitive << serve_event_;
  dont_initialize();
  SC_METHOD(tick);
  sensitive << tick_event_.event();
  dont_initialize();
}

bool QueuedServer::Waiting::operator>(const Waiting& o) const {
  if (cls != o.cls) return cls > o.cls;
  if (arrive_fs != o.arrive_fs) return arrive_fs > o.arrive_fs;
  if (t->kind != o.t->kind) return t->kind > o.t->kind;
  return t->id > o.t->id;
}

// (now: the arrival, which may lie ahead of the kernel's time: see
// accepts_ahead())
void QueuedServer::accept(Transaction& t) {
  const uint64_t now = arrival_fs();
  const size_t which = resource_of(t);
  sc_assert(which < resource_count_ && "a transaction for a resource this server does not have");
  Resource& res = resources_[which];
  if (res.provisional) {
    if (res.prov.w.arrive_fs == now) take_back(res);   // two arrivals this instant: serve picks
    else res.provisional = false;                      // its instant is over: it stands
  }
  auto& w = res.waiting;
  if (!on_busy && w.empty() && res.free_at_fs <= now) {
    const ServiceTime st = service_time(t);
    if (st.latency_fs > 0) {   // idle, nothing waiting, its departure after this instant: start it now
      const Waiting first{now, &t, class_of(t)};
      queue_.pass(now);   // (it queued for no time: the queue's statistics see it as before)
      res.prov = {first, res.free_at_fs, res.busy_fs, departure_seq_};
      res.provisional = true;
      start(res, first, now, st);
      // (in a settling process the tick it would arm is left to the
      // settle, which hands the departure on ahead or arms it then)
      if (settling_deferred()) deferred_fs_ = std::min(deferred_fs_, next_tick_fs());
      else arm_tick();
      return;
    }
  }
  w.push_back({now, &t, class_of(t)});
  std::push_heap(w.begin(), w.end(), std::greater<Waiting>());
  ++waiting_;
  queue_.change(now, +1);
  // after every arrival of its instant
  const uint64_t kernel_now = now_fs();
  serve_event_.notify(now == kernel_now ? sc_core::SC_ZERO_TIME : delay_fs(now - kernel_now));
}

void QueuedServer::start(Resource& res, const Waiting& w, uint64_t now, const ServiceTime& st) {
  HopTimes& times = w.t->now_times();
  times.start_fs = now;
  times.serialize_fs = st.serialize_fs;
  times.transfer_fs = st.transfer_fs;
  ++served_;
  if (now > w.arrive_fs) ++waited_;
  res.busy_fs += st.occupancy_fs;
  if (st.occupancy_fs > 0) {
    res.free_at_fs = now + st.occupancy_fs;
    if (on_busy) on_busy(now, res.free_at_fs);
  }
  departures_.push_back({now + st.latency_fs, departure_seq_++, w.t});
  std::push_heap(departures_.begin(), departures_.end(), std::greater<Departure>());
  if (!on_busy) touch();
}

void QueuedServer::take_back(Resource& res) {
  const Resource::Provisional& p = res.prov;
  res.provisional = false;
  auto it = std::find_if(departures_.begin(), departures_.end(), [&](const Departure& d) { return d.seq == p.seq; });
  sc_assert(it != departures_.end() && "a provisional start's departure is gone within its instant");
  departures_.erase(it);
  std::make_heap(departures_.begin(), departures_.end(), std::greater<Departure>());
  res.free_at_fs = p.free_at_before;
  res.busy_fs = p.busy_before;
  --served_;
  res.waiting.push_back(p.w);
  std::push_heap(res.waiting.begin(), res.waiting.end(), std::greater<Waiting>());
  ++waiting_;
  queue_.change(p.w.arrive_fs, +1);
  // (its tick may stay armed for the departure taken back: a tick with
  // nothing due is a no-op)
}

void QueuedServer::serve() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  const uint64_t now = now_fs();
  for (Resource& res : resources_) {
    while (!res.waiting.empty() && res.free_at_fs <= now) {
      std::pop_heap(res.waiting.begin(), res.waiting.end(), std::greater<Waiting>());
      const Waiting w = res.waiting.back();
      sc_assert(w.arrive_fs <= now && "a transaction accepted ahead is served before its arrival");
      res.waiting.pop_back();
      --waiting_;
      queue_.change(now, -1);
      start(res, w, now, service_time(*w.t));
    }
  }
  arm_tick();
  StageComponent::settle_touched();   // (its last statement: component.h)
}

// The next instant tick has work: a departure, or a release of a resource
// that has requests waiting.
uint64_t QueuedServer::next_tick_fs() const {
  const uint64_t now = now_fs();
  uint64_t next = departures_.empty() ? UINT64_MAX : departures_.front().at_fs;
  if (waiting_ != 0)
    for (const Resource& res : resources_)
      if (!res.waiting.empty() && res.free_at_fs > now) next = std::min(next, res.free_at_fs);
  return next;
}

void QueuedServer::arm_tick() {
  const uint64_t next = std::min(next_tick_fs(), std::exchange(deferred_fs_, UINT64_MAX));
  if (next != UINT64_MAX) tick_event_.notify_at(next);   // (an earlier pending one stays)
}

void QueuedServer::arm_deferred() {
  if (deferred_fs_ != UINT64_MAX) tick_event_.notify_at(std::exchange(deferred_fs_, UINT64_MAX));
}

void QueuedServer::tick() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  const uint64_t now = now_fs();
  tick_event_.fired();
  while (!departures_.empty() && departures_.front().at_fs <= now) {
    std::pop_heap(departures_.begin(), departures_.end(), std::greater<Departure>());
    Transaction* t = departures_.back().t;
    departures_.pop_back();
    forward(*t);
  }
  // a release with requests waiting: they are served one delta later, with
  // whatever else arrives at this instant
  if (waiting_ != 0)
    for (const Resource& res : resources_)
      if (!res.waiting.empty() && res.free_at_fs <= now) serve_event_.notify(sc_core::SC_ZERO_TIME);
  arm_tick();
  StageComponent::settle_touched();   // (its last statement: component.h)
}

// No process runs at this instant any more: no other arrival can share its
// instant with a provisional start (it stands), and none can come before
// the kernel's next activity. The departures before that activity go on
// now, ahead, where their next component accepts ahead; each hand-off may
// bring that activity closer (the next component's wake-up), so it is asked
// again after each. Not with requests waiting (serve decides at the
// releases' own times).
void QueuedServer::settle() {
  if (waiting_ != 0 || departures_.empty()) {
    arm_deferred();
    return;
  }
  const uint64_t now = now_fs();
  bool moved = false;
  while (!departures_.empty() && waiting_ == 0) {
    const Departure d = departures_.front();
    if (d.at_fs <= now) break;
    tick_event_.cancel();   // (its own, also one a hand-off to itself armed: the question is about everything else)
    deferred_fs_ = UINT64_MAX;   // (and the one it left to this settle)
    moved = true;
    StageComponent* to = d.at_fs < next_activity_fs(this) ? ahead_target(*d.t) : nullptr;
    if (!to) break;
    std::pop_heap(departures_.begin(), departures_.end(), std::greater<Departure>());
    departures_.pop_back();
    for (Resource& res : resources_)
      if (res.provisional && res.prov.seq == d.seq) res.provisional = false;   // it stands
    forward_to(*to, *d.t, d.at_fs);
  }
  if (moved) arm_tick();
  else arm_deferred();
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
