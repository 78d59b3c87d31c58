#include "fabric_link.h"

#include <algorithm>
#include <cmath>

#include "sim_time.h"

namespace ubsim {

namespace {
// The series is for plots: past this many changes it stops (the mean and
// maximum keep counting).
constexpr size_t kSeriesMax = 200000;
}  // namespace

FabricLink::FabricLink(sc_core::sc_module_name name, double rate_Bps, uint64_t delay_fs, int far_port,
                       bool record_series, uint64_t capacity)
    : sc_module(name),
      out("out"),
      rate_Bps_(rate_Bps),
      delay_fs_(delay_fs),
      far_port_(far_port),
      record_series_(record_series),
      capacity_(capacity),
      arrivals_("arrivals") {
  SC_HAS_PROCESS(FabricLink);
  SC_METHOD(serialized);
  sensitive << serialized_;
  dont_initialize();
  SC_METHOD(deliver);
  sensitive << arrivals_.get_event();
  dont_initialize();
  SC_METHOD(resume_expired);
  sensitive << resume_;
  dont_initialize();
}

uint64_t FabricLink::bytes_from_port(int in_port) const {
  uint64_t n = 0;
  for (const Frame* f : queue_)
    if (f->in_port == in_port) n += f->bytes;
  return n;
}

void FabricLink::set_ecn(const EcnPolicy& p) {
  ecn_ = p;
  ecn_rng_.seed(p.seed);
}

void FabricLink::start_if_idle(uint64_t now) {
  if (busy_) return;
  if (!control_.empty() || (!paused_ && !queue_.empty())) start_next(now);
}

void FabricLink::send_control(Frame& f) {
  control_.push_back(&f);
  ++control_frames_;
  start_if_idle(now_fs());
}

void FabricLink::pause(bool xoff, uint64_t quanta_fs) {
  const uint64_t now = now_fs();
  ++pauses_received_;
  if (xoff) {
    if (!paused_) paused_since_fs_ = now;
    paused_ = true;
    pause_until_fs_ = quanta_fs ? now + quanta_fs : 0;
    if (quanta_fs) resume_.notify(fs_time(quanta_fs));   // (a refresh moves it: resume_expired checks)
    return;
  }
  if (paused_) paused_total_fs_ += now - paused_since_fs_;
  paused_ = false;
  start_if_idle(now);
}

void FabricLink::resume_expired() {
  const uint64_t now = now_fs();
  if (!paused_ || pause_until_fs_ == 0 || now < pause_until_fs_) return;
  paused_total_fs_ += now - paused_since_fs_;
  paused_ = false;
  start_if_idle(now);
}

uint64_t FabricLink::paused_fs() const {
  return paused_total_fs_ + (paused_ ? sc_core::sc_time_stamp().value() - paused_since_fs_ : 0);
}

// The maximum counts the level each time stamp settles at: a frame that
// leaves and one that enters at the same instant (in whichever order the
// processes run) never count as both there.
void FabricLink::occupancy(uint64_t now, int64_t delta) {
  if (now != last_change_fs_) {
    max_bytes_ = std::max(max_bytes_, level_);
    if (bins_.width_fs) {   // (the level an instant settled at, as max_bytes_)
      const size_t b = bin_of(last_change_fs_);
      bins_.queue_max[b] = std::max(bins_.queue_max[b], level_);
    }
    area_ += static_cast<double>(level_) * static_cast<double>(now - last_change_fs_);
    last_change_fs_ = now;
  }
  const uint64_t before = level_;
  level_ = static_cast<uint64_t>(static_cast<int64_t>(level_) + delta);
  if (before > largest_frame_ && level_ <= largest_frame_) drained_fs_ = now;
  if (bins_.width_fs) {
    const size_t b = bin_of(now);
    bin_end_level_[b] = level_;
    bin_touched_[b] = true;
  }
  if (record_series_ && series_.size() < kSeriesMax) {
    if (!series_.empty() && series_.back().first == now) series_.back().second = level_;
    else series_.emplace_back(now, level_);
  }
}

void FabricLink::record_bins(uint64_t width_fs, size_t count) {
  bins_.width_fs = std::max<uint64_t>(1, width_fs);
  bins_.queue_max.assign(count, 0);
  bins_.departed.assign(count, 0);
  bins_.dropped.assign(count, 0);
  bin_end_level_.assign(count, 0);
  bin_touched_.assign(count, false);
}

FabricLink::Bins FabricLink::bins() const {
  Bins b = bins_;
  if (!b.queue_max.empty()) {   // the level the last instant settled at
    const size_t last = bin_of(last_change_fs_);
    b.queue_max[last] = std::max(b.queue_max[last], level_);
  }
  uint64_t level = 0;   // at the bin's start
  for (size_t i = 0; i < b.queue_max.size(); ++i) {
    b.queue_max[i] = std::max(b.queue_max[i], level);
    if (bin_touched_[i]) level = bin_end_level_[i];
  }
  return b;
}

double FabricLink::mean_queue_bytes(uint64_t end_fs) const {
  const double area = area_ + static_cast<double>(level_) * static_cast<double>(end_fs - last_change_fs_);
  return end_fs ? area / static_cast<double>(end_fs) : 0.0;
}

void FabricLink::count_drop(Frame& f, uint64_t now) {
  if (dropped_frames_ == 0) first_drop_fs_ = now;
  ++dropped_frames_;
  dropped_bytes_ += f.bytes;
  if (bins_.width_fs) bins_.dropped[bin_of(now)] += f.bytes;
  if (on_drop) on_drop(f);
}

void FabricLink::drop_shared(Frame& f) {
  ++shared_dropped_frames_;
  count_drop(f, now_fs());
}

void FabricLink::send(Frame& f) {
  const uint64_t now = now_fs();
  if (!enqueued_) {
    enqueued_ = true;
    first_enqueue_fs_ = now;
  }
  largest_frame_ = std::max<uint64_t>(largest_frame_, f.bytes);
  if (capacity_ && level_ + f.bytes > capacity_) {   // the queue is full: the frame is lost here
    count_drop(f, now);
    return;
  }
  f.enqueued_fs = now;
  note_held_change(now);
  queue_.push_back(&f);
  occupancy(now, f.bytes);
  flows_.insert(f.flow);
  start_if_idle(now);
}

void FabricLink::start_next(uint64_t now) {
  busy_ = true;
  current_control_ = !control_.empty();   // pause frames first, even on a paused link
  if (current_control_) {
    current_ = control_.front();
    control_.pop_front();
  } else {
    current_ = queue_.front();
  }
  Frame& f = *current_;
  const auto ser = static_cast<uint64_t>(std::llround(static_cast<double>(f.bytes) / rate_Bps_ * 1e15));
  f.queued_fs += now - f.enqueued_fs;
  f.serialized_fs += ser;
  f.propagated_fs += delay_fs_;
  if (!current_control_ && frames_ == 0) first_start_fs_ = now;
  if (!current_control_ && on_start) on_start(f.bytes, now + delay_fs_, now + ser + delay_fs_);
  // ECN as it leaves (so the mark does not wait behind the queue it reports):
  // the queue's occupancy now, this frame included
  if (ecn_.enabled && !current_control_ && !f.cnp && level_ > ecn_.kmin) {
    const double p = level_ >= ecn_.kmax ? 1.0
                                         : ecn_.pmax * static_cast<double>(level_ - ecn_.kmin) /
                                               static_cast<double>(ecn_.kmax - ecn_.kmin);
    if (p >= 1.0 || std::uniform_real_distribution<double>(0.0, 1.0)(ecn_rng_) < p) {
      if (!f.ecn && marked_frames_ == 0) first_mark_fs_ = now;
      if (!f.ecn) ++marked_frames_;
      f.ecn = true;
    }
  }
  busy_fs_ += ser;
  serialized_.notify(fs_time(ser));
}

void FabricLink::serialized() {
  const uint64_t now = now_fs();
  Frame* f = current_;
  current_ = nullptr;
  if (!current_control_) {
    note_held_change(now);
    queue_.pop_front();
    occupancy(now, -static_cast<int64_t>(f->bytes));
    ++frames_;
    bytes_ += f->bytes;
    last_end_fs_ = now;
    if (bins_.width_fs) bins_.departed[bin_of(now)] += f->bytes;
    if (on_departed) on_departed(*f);
  }
  arrivals_.notify(*f, fs_time(delay_fs_));
  busy_ = false;
  start_if_idle(now);
}

void FabricLink::deliver() {
  while (Frame* f = arrivals_.get_next_transaction()) out->put(*f, far_port_);
}

}  // namespace ubsim
