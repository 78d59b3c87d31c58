#include "lossy_wire.h"

#include <algorithm>
#include <cmath>

#include "rtl_variant.h"

namespace ubsim {

namespace {
// splitmix64: a well-mixed 64-bit value of its argument
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
// A uniform draw in [0, 1) for the draw `salt` of transmission `key`.
double draw(uint64_t seed, uint64_t key, uint64_t salt) {
  return static_cast<double>(mix(mix(seed ^ mix(key)) + salt) >> 11) * 0x1.0p-53;
}
}  // namespace

LossyWire::LossyWire(sc_core::sc_module_name name, const Config& c, Pool<Packet>& pool, double p_data, double p_ack,
                     uint64_t propagation_fs, std::set<uint32_t> drop_once, uint64_t seed)
    : TransportWire(name),
      pool_(pool),
      bytes_per_s_(c.value(key::wire_rate)),
      p_data_(p_data),
      p_ack_(p_ack),
      p_dup_(c.value(key::loss_duplicate)),
      p_reorder_(c.value(key::loss_reorder)),
      propagation_fs_(propagation_fs),
      reorder_max_fs_(c.fs(key::loss_reorder_delay)),
      drop_once_(std::move(drop_once)),
      seed_(seed),
      arrivals_("arrivals") {
  SC_HAS_PROCESS(LossyWire);
  SC_METHOD(deliver);
  sensitive << arrivals_.get_event();
  dont_initialize();
  SC_METHOD(serialize);
  sensitive << serialize_event_;
  dont_initialize();
}

void LossyWire::accept(Transaction& t) {
  Packet& r = as_packet(t);
  const uint64_t now = now_fs();
  if (now != last_accept_fs_) {
    free_before_last_fs_ = free_at_fs_;
    last_accept_fs_ = now;
  }
  // the link is busy for this packet's serialization whatever its place
  // among this instant's hand-overs
  const auto ser = static_cast<uint64_t>(std::llround(static_cast<double>(r.wire_bytes) / bytes_per_s_ * 1e15));
  free_at_fs_ = std::max(now, free_at_fs_) + ser;
  handed_.push_back(&r);
  serialize_event_.notify(sc_core::SC_ZERO_TIME);
}

void LossyWire::serialize() {
  std::sort(handed_.begin(), handed_.end(), [](const Packet* a, const Packet* b) {
    if (a->is_ack != b->is_ack) return !a->is_ack;
    if (a->channel != b->channel) return a->channel < b->channel;
    const uint32_t pa = a->is_ack ? a->ack_cum : a->psn, pb = b->is_ack ? b->ack_cum : b->psn;
    if (pa != pb) return pa < pb;
    return a->id < b->id;
  });
  for (Packet* r : handed_) {
    place(*r, std::max(now_fs(), placed_until_fs_));
    placed_until_fs_ = r->now_times().start_fs + r->now_times().serialize_fs;
  }
  handed_.clear();
}

void LossyWire::place(Packet& r, uint64_t start) {
  const auto ser = static_cast<uint64_t>(std::llround(static_cast<double>(r.wire_bytes) / bytes_per_s_ * 1e15));
  const uint64_t end = start + ser;
  ++packets_;
  bytes_ += r.wire_bytes;
  r.now_times().start_fs = start;
  r.now_times().serialize_fs = ser;
  const bool data = !r.is_ack;
  if (data && on_sent) on_sent(r, start, end);
  // the transmission's identity: kind, connection, PSN (an ack's: the PSN
  // it acknowledges up to), and how many times that one was sent before
  const uint32_t psn = data ? r.psn : r.ack_cum;
  const uint64_t id = (static_cast<uint64_t>(data ? 0 : 1) << 63) | (static_cast<uint64_t>(r.channel) << 32) | psn;
  const uint64_t key = mix(id) + transmissions_before(data, r.channel, psn);
  // fate: scripted drop of a PSN's first transmission, else at random
  bool lose = false;
  if (data && drop_once_.count(r.psn) && !dropped_once_.count(r.psn)) {
    dropped_once_.insert(r.psn);
    lose = true;
  } else {
    lose = draw(seed_, key, 1) < (data ? p_data_ : p_ack_);
  }
  uint64_t arrive = end + propagation_fs_;
  if (!lose && p_reorder_ > 0 && draw(seed_, key, 2) < p_reorder_) {
    arrive += static_cast<uint64_t>(draw(seed_, key, 3) * static_cast<double>(reorder_max_fs_));
    ++delayed_;
  }
  if (lose) {
    ++lost_;
    r.lost = true;   // still handed on (at once) so its owner recycles it
    arrivals_.notify(r, sc_core::SC_ZERO_TIME);
    return;
  }
  if (p_dup_ > 0 && draw(seed_, key, 4) < p_dup_) {
    Packet* d = pool_.acquire();
    d->copy_from(r);
    ++duplicated_;
    arrivals_.notify(*d, fs_from_now(arrive + ser));   // the copy follows one packet time later
  }
  arrivals_.notify(r, fs_from_now(arrive));
}

uint32_t LossyWire::transmissions_before(bool data, uint32_t channel, uint32_t psn) {
  std::vector<Sent>& ring = sent_[(static_cast<uint64_t>(data) << 32) | channel];
  if (ring.empty()) ring.resize(2 * static_cast<size_t>(rtl_variant::kSackMaxWindow));
  Sent& s = ring[psn & (ring.size() - 1)];
  if (s.psn != psn) s = Sent{psn, 0};
  return s.count++;
}

void LossyWire::deliver() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  while (Transaction* t = arrivals_.get_next_transaction()) forward(*t);
  StageComponent::settle_touched();   // (its last statement: component.h)
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
