#include "initiator_app.h"

#include <algorithm>
#include <cmath>

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

InitiatorApp::InitiatorApp(sc_core::sc_module_name name, const Route& route, WorkloadConfig w)
    : StageComponent(name), route_(route), w_(w), rng_(w.seed), record_(std::make_unique<LatencyRecord>()) {
  record_->hops.assign(route.hops.size(), HopSums{});
  SC_HAS_PROCESS(InitiatorApp);
  SC_METHOD(start);   // runs once at time 0
  SC_METHOD(on_arrival);
  sensitive << arrival_event_;
  dont_initialize();
}

void InitiatorApp::start() {
  const auto n = static_cast<size_t>(std::min<uint64_t>(static_cast<uint64_t>(w_.outstanding), w_.ops));
  for (size_t i = 0; i < n; ++i) {
    auto r = std::make_unique<Request>();
    auto* ext = new RequestExtension;
    ext->request = r.get();
    r->gp.set_extension(ext);   // owned by the payload, freed with it
    free_.push_back(r.get());
    slots_.push_back(std::move(r));
  }
  if (w_.ops == 0) {
    sc_core::sc_stop();
    return;
  }
  if (w_.rate_per_s > 0) {
    on_arrival();   // the first request arrives at time 0
    return;
  }
  arrived_ = n;
  while (!free_.empty()) {
    Request* r = free_.back();
    free_.pop_back();
    issue(*r, now_fs());
  }
}

uint64_t InitiatorApp::next_gap_fs() {
  const double mean_fs = 1e15 / w_.rate_per_s;
  if (!w_.poisson) return static_cast<uint64_t>(std::llround(mean_fs));
  std::exponential_distribution<double> gap(1.0 / mean_fs);
  return static_cast<uint64_t>(std::llround(gap(rng_)));
}

void InitiatorApp::on_arrival() {
  ++arrived_;
  if (!free_.empty()) {
    Request* r = free_.back();
    free_.pop_back();
    issue(*r, now_fs());
  } else {
    backlog_.push_back(now_fs());
    backlog_max_ = std::max(backlog_max_, backlog_.size());
  }
  if (arrived_ < w_.ops) arrival_event_.notify(sc_time(static_cast<double>(next_gap_fs()), SC_FS));
}

void InitiatorApp::issue(Request& r, uint64_t arrived_fs) {
  r.reset(&route_);
  r.id = issued_++;
  r.verb = w_.verb;
  r.payload_bytes = w_.payload_bytes;
  if (w_.endpoints > 0) {
    const uint64_t n = w_.endpoints;
    r.local_ep = static_cast<uint32_t>(r.id % n);
    r.remote_ep = static_cast<uint32_t>((r.id % n + n - (r.id / n) % n) % n);
  }
  r.ctx = r.remote_ep;   // the TP channel (UB) / QP PSN slot the send pipeline updates
  r.ord_tag = w_.tags.empty() ? 0 : w_.tags[std::min<size_t>(r.id, w_.tags.size() - 1)];
  r.issued_fs = arrived_fs;   // latency counts from arrival (incl. any backlog wait)
  launch(r);   // the first hop's arrival is now
}

void InitiatorApp::accept(Request& r) {
  r.completed_fs = now_fs();
  ++completed_;
  LatencyRecord& rec = *record_;
  if (completed_ == w_.warmup_ops) rec.window_start_fs = r.completed_fs;
  const uint64_t drain = w_.ops > 2 * w_.warmup_ops ? w_.warmup_ops : 0;
  if (completed_ > w_.warmup_ops && completed_ <= w_.ops - drain) {
    ++rec.window_ops;
    rec.window_end_fs = r.completed_fs;
  }
  if (completed_ > w_.warmup_ops) {
    ++rec.measured_ops;
    rec.total.add(r.completed_fs - r.issued_fs);
    rec.backlog_fs += r.times.front().arrive_fs - r.issued_fs;
    for (size_t i = 0; i < r.times.size(); ++i) {
      const HopTimes& t = r.times[i];
      HopSums& s = rec.hops[i];
      const uint64_t measured = t.depart_fs - t.arrive_fs;
      const uint64_t waited = t.start_fs - t.arrive_fs;
      s.measured += measured;
      s.align += t.align_fs;
      s.serialize += t.serialize_fs;
      s.ctx_wait += t.ctx_wait_fs;
      s.queue += waited - t.align_fs;
      s.service += measured - waited;
    }
  }
  if (on_complete) on_complete(r);
  if (!backlog_.empty()) {
    const uint64_t arrived_fs = backlog_.front();
    backlog_.pop_front();
    issue(r, arrived_fs);
  } else if (w_.rate_per_s == 0 && arrived_ < w_.ops) {
    ++arrived_;
    issue(r, now_fs());
  } else {
    free_.push_back(&r);
  }
  if (completed_ == w_.ops) sc_core::sc_stop();
}

void InitiatorApp::collect_stats(StatsTable& table) const {
  table.add(name(), "issued", static_cast<double>(issued_), "ops", "requests issued by the application");
  table.add(name(), "completed", static_cast<double>(completed_), "ops", "requests completed end to end");
  table.add(name(), "backlog_max", static_cast<double>(backlog_max_), "requests",
            "open loop: most arrivals waiting at once for a free send-queue slot");
}

}  // namespace ubsim
