#include "initiator_app.h"

#include "watchdog.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

uint32_t InitiatorApp::endpoint_span(const Config& c) {
  return static_cast<uint32_t>(std::max<uint64_t>({1, c.count(key::workload_endpoints), c.count(key::host_cores)}));
}

InitiatorApp::InitiatorApp(sc_core::sc_module_name name, const Config& c, const Route& route, Workload w,
                           uint32_t session)
    : StageComponent(name),
      route_(route),
      w_(std::move(w)),
      ops_(c.count(key::workload_ops)),
      warmup_(c.count(key::workload_warmup)),
      outstanding_(static_cast<int>(c.count(key::workload_outstanding))),
      size_(c.count(key::workload_size)),
      cores_(static_cast<uint32_t>(c.count(key::host_cores))),
      endpoints_(static_cast<uint32_t>(c.count(key::workload_endpoints))),
      id_base_(session * kIdSpan),
      ep_base_(session * endpoint_span(c)),
      rate_per_s_(c.value(key::workload_rate)),
      poisson_(c.flag(key::workload_poisson)),
      roce_(std::any_of(route.hops.begin(), route.hops.end(), [](const HopSpec& h) { return h.op == Op::NicTx; })),
      per_core_slots_(std::any_of(route.hops.begin(), route.hops.end(),
                                  [](const HopSpec& h) { return h.op == Op::UbLoadTx; })),
      submit_interval_fs_(c.fs(key::slots_submit_interval)),
      free_slots_(per_core_slots_ ? cores_ : 1,
                  per_core_slots_ ? c.count(key::core_outstanding_loads) : c.count(key::slots_count)),
      slot_waiting_(free_slots_.size()),
      rng_(c.count(key::seed) + session),
      record_(std::make_unique<LatencyRecord>()) {
  record_->hops.assign(route.hops.size(), HopSums{});
  pending_hops_.assign(route.hops.size(), HopTimes{});
  ++running_;
  SC_HAS_PROCESS(InitiatorApp);
  SC_METHOD(start);   // runs once at time 0
  SC_METHOD(on_arrival);
  sensitive << arrival_event_;
  dont_initialize();
  SC_METHOD(submit_waiting);
  sensitive << submit_event_;
  dont_initialize();
}

void InitiatorApp::start() {
  const auto n = static_cast<size_t>(std::min<uint64_t>(static_cast<uint64_t>(outstanding_), ops_));
  for (size_t i = 0; i < n; ++i) {
    auto r = std::make_unique<Request>();
    attach_carrier(*r);   // owned by the payload, freed with it
    free_.push_back(r.get());
    slots_.push_back(std::move(r));
  }
  if (ops_ == 0) {
    finished();
    return;
  }
  if (rate_per_s_ > 0) {
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
  const double mean_fs = 1e15 / rate_per_s_;
  if (!poisson_) return static_cast<uint64_t>(std::llround(mean_fs));
  std::exponential_distribution<double> gap(1.0 / mean_fs);
  return static_cast<uint64_t>(std::llround(gap(rng_)));
}

void InitiatorApp::on_arrival() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  ++arrived_;
  if (!free_.empty()) {
    Request* r = free_.back();
    free_.pop_back();
    issue(*r, now_fs());
  } else {
    backlog_.push_back(now_fs());
    backlog_max_ = std::max(backlog_max_, backlog_.size());
  }
  if (arrived_ < ops_) arrival_event_.notify(delay_fs(next_gap_fs()));
  StageComponent::settle_touched();   // (its last statement: component.h)
}

namespace {
// Adds every field of a request's hop times into a sum (fold_hop_sums).
inline void add_fields(HopTimes& s, const HopTimes& t) {
  s.arrive_fs += t.arrive_fs;
  s.start_fs += t.start_fs;
  s.depart_fs += t.depart_fs;
  s.align_fs += t.align_fs;
  s.serialize_fs += t.serialize_fs;
  s.ctx_wait_fs += t.ctx_wait_fs;
  s.transfer_fs += t.transfer_fs;
  s.reassembly_fs += t.reassembly_fs;
  s.link_fs += t.link_fs;
  s.early_fs += t.early_fs;
  s.retransmit_fs += t.retransmit_fs;
  s.reorder_fs += t.reorder_fs;
  s.transport_fs += t.transport_fs;
  s.fabric_fs += t.fabric_fs;
}
}  // namespace

void InitiatorApp::issue_at(Request& r, uint64_t arrived_fs, uint64_t now, int core) {
  r.reset(&route_);
  const uint64_t seq = issued_++;
  r.id = id_base_ + seq;
  r.verb = w_.verb;
  r.size = size_;
  r.payload_bytes = static_cast<uint32_t>(std::min<uint64_t>(size_, 64));   // until a send pipeline cuts it
  if (endpoints_ > 0) {
    const uint64_t n = endpoints_;
    r.local_ep = static_cast<uint32_t>(seq % n);
    r.remote_ep = static_cast<uint32_t>((seq % n + n - (seq / n) % n) % n);
  }
  // the cores submit in turn; in a closed loop the core that handled a
  // completion submits the next request (each core runs its own loop)
  r.core = core >= 0 ? static_cast<uint32_t>(core) : static_cast<uint32_t>(seq % cores_);
  if (cores_ > 1 && endpoints_ == 0) r.local_ep = r.core;   // each core its own Jetty / QP
  if (ep_base_ > 0) {   // a later session: its endpoints above the earlier sessions'
    if (endpoints_ == 0) {   // (not set above: this slot's last values, base included)
      r.remote_ep = 0;
      if (cores_ <= 1) r.local_ep = 0;
    }
    r.local_ep += ep_base_;
    r.remote_ep += ep_base_;
  }
  // The context the send pipeline updates: UB, the TP channel to the remote
  // (shared by the Jettys that reach it); the NIC, the RC QP: with one pair
  // of endpoints, the core's own QP.
  r.ctx = roce_ && endpoints_ == 0 ? r.local_ep : r.remote_ep;
  r.ord_tag = w_.tags.empty() ? 0 : w_.tags[std::min<size_t>(seq, w_.tags.size() - 1)];
  r.issued_fs = arrived_fs;   // latency counts from arrival (incl. any backlog and slot wait)
  r.queued_fs = now;
  r.paced_fs = 0;
  slot_waiting_[pool_of(r)].push_back(&r);
  submit_waiting_at(now);
}

void InitiatorApp::submit_waiting_at(uint64_t now) {
  if (submit_pending_ && now >= next_submit_fs_) submit_pending_ = false;
  for (size_t p = 0; p < slot_waiting_.size(); ++p) {
    auto& waiting = slot_waiting_[p];
    while (!waiting.empty() && free_slots_[p] > 0) {
      if (submit_interval_fs_ > 0 && now < next_submit_fs_) {
        Request& head = *waiting.front();
        if (head.paced_fs == 0) head.paced_fs = now;   // from here it waits for the interval, not a slot
        if (!submit_pending_) {
          submit_event_.notify(delay_fs(next_submit_fs_ - now_fs()));   // (now is the kernel's time here: accepts_ahead_of)
          submit_pending_ = true;
        }
        return;
      }
      Request& r = *waiting.front();
      waiting.pop_front();
      --free_slots_[p];
      slots_in_use_.change(now, +1);
      if ((r.paced_fs ? r.paced_fs : now) > r.queued_fs) ++slot_waits_;   // it waited for a slot, not only for pacing
      r.slot_fs = now;
      next_submit_fs_ = now + submit_interval_fs_;
      if (on_submit) on_submit(r);
      launch(r, now);   // the first hop's arrival is now
    }
  }
}

bool InitiatorApp::accepts_ahead_of(const Transaction& t) const {
  // (a closed loop reissues the finished request itself to the first hop)
  return rate_per_s_ == 0 && submit_interval_fs_ == 0 && !on_submit && completed_ + 1 < ops_ &&
         backlog_.empty() && peer_accepts_ahead(route_.component[0], t);
}

void InitiatorApp::accept(Transaction& t) {
  Request& r = as_request(t);
  const uint64_t now = arrival_fs();   // (later than the kernel's time: accepts_ahead_of)
  r.completed_fs = now;
  // every byte of the message arrived exactly once where it goes (the
  // target's memory for a write, the initiator's for a read)
  if (!r.error && r.placed_bytes != r.size)
    throw std::runtime_error(fmt::format("request {}: {} of its {} bytes were delivered", r.id, r.placed_bytes, r.size));
  ++completed_;
  ProgressWatchdog::note(now);
  LatencyRecord& rec = *record_;
  if (completed_ == warmup_) rec.window_start_fs = r.completed_fs;
  const uint64_t drain = ops_ > 2 * warmup_ ? warmup_ : 0;
  if (r.error) ++failed_;   // an error completion: no latency, no delivered bytes
  if (completed_ > warmup_ && completed_ <= ops_ - drain && !r.error) {
    ++rec.window_ops;
    rec.window_end_fs = r.completed_fs;
  }
  if (completed_ > warmup_ && !r.error) {
    ++rec.measured_ops;
    rec.total.add(r.completed_fs - r.issued_fs);
    rec.backlog_fs += r.queued_fs - r.issued_fs;
    const uint64_t paced_from = r.paced_fs ? r.paced_fs : r.slot_fs;
    rec.slot_wait_fs += paced_from - r.queued_fs;
    rec.pacing_fs += r.slot_fs - paced_from;
    rec.slot_time.add(r.completed_fs - r.slot_fs);
    for (size_t i = 0; i < r.times.size(); ++i) add_fields(pending_hops_[i], r.times[i]);
    if (++pending_ops_ == kFoldOps) fold_hop_sums();
  }
  if (on_complete) on_complete(r);
  ++free_slots_[pool_of(r)];   // software has handled the completion: its slot is free
  slots_in_use_.change(now, -1);
  if (!backlog_.empty()) {
    const uint64_t arrived_fs = backlog_.front();
    backlog_.pop_front();
    issue_at(r, arrived_fs, now, -1);
  } else if (rate_per_s_ == 0 && arrived_ < ops_) {
    ++arrived_;
    issue_at(r, now, now, static_cast<int>(r.core));
  } else {
    free_.push_back(&r);
  }
  submit_waiting_at(now);   // the freed slot goes to the first request waiting for one
  if (completed_ == ops_) finished();
}

void InitiatorApp::fold_hop_sums() const {
  if (pending_ops_ == 0) return;
  for (size_t i = 0; i < pending_hops_.size(); ++i) {
    HopSums& s = record_->hops[i];
    HopTimes& p = pending_hops_[i];
    // (sums of time stamps modulo 2^64: their differences are exact)
    const uint64_t measured = p.depart_fs - p.arrive_fs;
    const uint64_t waited = p.start_fs - p.arrive_fs;
    s.measured += measured;
    s.align += p.align_fs;
    s.serialize += p.serialize_fs;
    s.queue += waited - p.align_fs;
    s.service += measured - waited;
    s.ctx_wait += p.ctx_wait_fs;
    s.transfer += p.transfer_fs;
    s.reassembly += p.reassembly_fs;
    s.link += p.link_fs;
    s.early += p.early_fs;
    s.retransmit += p.retransmit_fs;
    s.reorder += p.reorder_fs;
    s.transport += p.transport_fs;
    s.fabric += p.fabric_fs;
    p = HopTimes{};
  }
  pending_ops_ = 0;
}

// The run ends when the last application running has finished.
void InitiatorApp::finished() {
  if (--running_ == 0) sc_core::sc_stop();
}

void InitiatorApp::collect_stats(StatsTable& table) const {
  table.add(name(), "issued", static_cast<double>(issued_), "ops", "requests issued by the application");
  table.add(name(), "completed", static_cast<double>(completed_), "ops", "requests completed end to end");
  table.add(name(), "failed", static_cast<double>(failed_), "ops",
            "requests completed with an error status (transport retries exhausted, ordering errors)");
  table.add(name(), "backlog_max", static_cast<double>(backlog_max_), "requests",
            "open loop: most arrivals waiting at once for a free send-queue slot");
  table.add(name(), "slot_waits", static_cast<double>(slot_waits_), "requests",
            per_core_slots_ ? "Loads that waited for a free miss buffer of their core"
                            : "requests that waited for a free request slot");
  table.add(name(), "slots_in_use_max", static_cast<double>(slots_in_use_.max()), "slots",
            "most request slots (miss buffers) in use at once");
  table.add(name(), "slots_in_use_mean", slots_in_use_.mean(now_fs()), "slots",
            "time-weighted mean of request slots (miss buffers) in use");
}

}  // namespace ubsim
