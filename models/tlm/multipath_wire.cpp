#include "multipath_wire.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace ubsim {

MultiPathWire::MultiPathWire(sc_core::sc_module_name name, const Config& c, std::vector<uint64_t> delays_fs,
                             std::set<uint32_t> drop_once)
    : TransportWire(name), bytes_per_s_(c.value(key::wire_rate)), drop_once_(std::move(drop_once)), arrivals_("arrivals") {
  for (uint64_t d : delays_fs) paths_.push_back(Path{d});
  SC_HAS_PROCESS(MultiPathWire);
  SC_METHOD(deliver);
  sensitive << arrivals_.get_event();
  dont_initialize();
}

bool MultiPathWire::free_at_edge(uint64_t edge_fs, uint32_t path) const {
  const Path& p = paths_.at(path < paths_.size() ? path : 0);
  // (a hand-over at edge_fs itself, another sender's in the same time
  // step, is not seen: the answer must not depend on process order)
  int busy = 0;
  for (const auto& [handed, end] : p.pending)
    if (handed < edge_fs && end > edge_fs) ++busy;
  return busy <= 1;
}

void MultiPathWire::accept(Transaction& t) {
  Packet& r = as_packet(t);
  // (an ack direction has one path: every ack takes it)
  Path& p = paths_[r.path < paths_.size() ? r.path : 0];
  const uint64_t now = now_fs();
  while (!p.pending.empty() && p.pending.front().second <= now) p.pending.pop_front();
  const uint64_t start = std::max(now, p.free_at_fs);
  const auto ser = static_cast<uint64_t>(std::llround(static_cast<double>(r.wire_bytes) / bytes_per_s_ * 1e15));
  const uint64_t end = start + ser;
  p.free_at_fs = end;
  p.pending.emplace_back(now, end);
  ++p.packets;
  p.bytes += r.wire_bytes;
  r.now_times().start_fs = start;
  r.now_times().serialize_fs = ser;
  if (!r.is_ack && on_sent) on_sent(r, start, end);
  if (!r.is_ack && drop_once_.count(r.psn) && !dropped_once_.count(r.psn)) {
    dropped_once_.insert(r.psn);
    ++lost_;
    r.lost = true;   // handed on at once so its owner recycles it
    arrivals_.notify(r, sc_core::SC_ZERO_TIME);
    return;
  }
  arrivals_.notify(r, fs_from_now(end + p.delay_fs));
}

void MultiPathWire::deliver() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  while (Transaction* t = arrivals_.get_next_transaction()) forward(*t);
  StageComponent::settle_touched();   // (its last statement: component.h)
}

void MultiPathWire::collect_stats(StatsTable& t) const {
  const std::string n = name();
  for (size_t i = 0; i < paths_.size(); ++i) {
    t.add(n, fmt::format("path{}.packets", i), static_cast<double>(paths_[i].packets), "packets",
          fmt::format("packets serialized on path {} ({} ns)", i, paths_[i].delay_fs / 1e6));
    t.add(n, fmt::format("path{}.bytes", i), static_cast<double>(paths_[i].bytes), "bytes", "their bytes with headers");
  }
  t.add(n, "lost", static_cast<double>(lost_), "packets", "first transmissions lost (scripted)");
}

}  // namespace ubsim
