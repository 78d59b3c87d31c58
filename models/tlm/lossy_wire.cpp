#include "lossy_wire.h"

#include <algorithm>
#include <cmath>

namespace ubsim {

LossyWire::LossyWire(sc_core::sc_module_name name, const Config& c, Pool<Packet>& pool, double p_data, double p_ack,
                     uint64_t propagation_fs, std::set<uint32_t> drop_once, uint64_t seed)
    : TransportWire(name),
      pool_(pool),
      bytes_per_s_(c.value("wire.rate")),
      p_data_(p_data),
      p_ack_(p_ack),
      p_dup_(c.value("loss.duplicate")),
      p_reorder_(c.value("loss.reorder")),
      propagation_fs_(propagation_fs),
      reorder_max_fs_(c.fs("loss.reorder_delay")),
      drop_once_(std::move(drop_once)),
      rng_(seed),
      arrivals_("arrivals") {
  SC_HAS_PROCESS(LossyWire);
  SC_METHOD(deliver);
  sensitive << arrivals_.get_event();
  dont_initialize();
}

void LossyWire::accept(Transaction& t) {
  Packet& r = as_packet(t);
  const uint64_t now = now_fs();
  if (now != last_accept_fs_) {
    free_before_last_fs_ = free_at_fs_;
    last_accept_fs_ = now;
  }
  const uint64_t start = std::max(now, free_at_fs_);
  const auto ser = static_cast<uint64_t>(std::llround(static_cast<double>(r.wire_bytes) / bytes_per_s_ * 1e15));
  const uint64_t end = start + ser;
  free_at_fs_ = end;
  ++packets_;
  bytes_ += r.wire_bytes;
  r.now_times().start_fs = start;
  r.now_times().serialize_fs = ser;
  const bool data = !r.is_ack;
  if (data && on_sent) on_sent(r, start, end);
  // fate: scripted drop of a PSN's first transmission, else at random
  bool lose = false;
  if (data && drop_once_.count(r.psn) && !dropped_once_.count(r.psn)) {
    dropped_once_.insert(r.psn);
    lose = true;
  } else {
    lose = u_(rng_) < (data ? p_data_ : p_ack_);
  }
  uint64_t arrive = end + propagation_fs_;
  if (!lose && p_reorder_ > 0 && u_(rng_) < p_reorder_) {
    arrive += static_cast<uint64_t>(u_(rng_) * static_cast<double>(reorder_max_fs_));
    ++delayed_;
  }
  if (lose) {
    ++lost_;
    r.lost = true;   // still handed on (at once) so its owner recycles it
    arrivals_.notify(r, sc_core::SC_ZERO_TIME);
    return;
  }
  if (p_dup_ > 0 && u_(rng_) < p_dup_) {
    Packet* d = pool_.acquire();
    d->copy_from(r);
    ++duplicated_;
    arrivals_.notify(*d, fs_from_now(arrive + ser));   // the copy follows one packet time later
  }
  arrivals_.notify(r, fs_from_now(arrive));
}

void LossyWire::deliver() {
  while (Transaction* t = arrivals_.get_next_transaction()) forward(*t);
}

void LossyWire::collect_stats(StatsTable& t) const {
  const std::string n = name();
  t.add(n, "packets", static_cast<double>(packets_), "packets", "packets serialized");
  t.add(n, "bytes", static_cast<double>(bytes_), "bytes", "bytes serialized (headers, payload, SACK bitmaps)");
  t.add(n, "lost", static_cast<double>(lost_), "packets", "packets lost (random or scripted)");
  t.add(n, "duplicated", static_cast<double>(duplicated_), "packets", "packets delivered twice");
  t.add(n, "delayed", static_cast<double>(delayed_), "packets", "packets delayed at random (reordering)");
}

}  // namespace ubsim
