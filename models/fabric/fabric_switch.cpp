#include "fabric_switch.h"

#include "flow_hash.h"
#include "sim_time.h"

#include <algorithm>

namespace ubsim {

FabricSwitch::FabricSwitch(sc_core::sc_module_name name, const Topology& topo, int self, EcmpMode mode,
                           uint64_t seed, const PausePolicy& pause, FramePool* pool, uint64_t shared_buffer)
    : sc_module(name),
      in("in"),
      topo_(topo),
      self_(self),
      mode_(mode),
      seed_(seed),
      egress_(topo.ports()[self].size(), nullptr),
      pause_(pause),
      pool_(pool),
      shared_buffer_(shared_buffer),
      in_bytes_(egress_.size(), 0),
      in_peak_(egress_.size(), 0),
      xoff_(egress_.size(), false),
      refresh_at_(egress_.size(), 0),
      ramps_(topo.ports()[self].size()) {
  in.bind(*this);
  sc_assert(!pause_.enabled || pool_);
  SC_HAS_PROCESS(FabricSwitch);
  SC_METHOD(refresh);
  sensitive << refresh_event_;
  dont_initialize();
  SC_METHOD(check_xoff);
  sensitive << xoff_check_;
  dont_initialize();
  SC_METHOD(arbitrate);
  sensitive << arbitrate_event_;
  dont_initialize();
}

double FabricSwitch::held_at(uint64_t t) const {
  double held = static_cast<double>(held_);
  for (const auto& port : ramps_)
    for (const Ramp& r : port) {
      if (t <= r.head_fs) break;   // later frames on this port start later still
      held += t >= r.tail_fs ? static_cast<double>(r.bytes)
                             : static_cast<double>(r.bytes) * static_cast<double>(t - r.head_fs) /
                                   static_cast<double>(r.tail_fs - r.head_fs);
    }
  return held;
}

// Between changes the bytes held only grow (departures are changes), so the
// crossing lies between two of the frames' head or tail times, on a line.
void FabricSwitch::predict_xoff() {
  xoff_check_.cancel();
  if (paused_all_) return;
  const uint64_t now = sc_core::sc_time_stamp().value();
  const double xoff = static_cast<double>(pause_.xoff);
  double before = held_at(now);
  if (before > xoff) {
    pause_all();
    return;
  }
  std::vector<uint64_t> times;
  for (const auto& port : ramps_)
    for (const Ramp& r : port) {
      if (r.head_fs > now) times.push_back(r.head_fs);
      if (r.tail_fs > now) times.push_back(r.tail_fs);
    }
  std::sort(times.begin(), times.end());
  uint64_t from = now;
  for (uint64_t t : times) {
    const double after = held_at(t);
    if (after > xoff) {
      const double cross = static_cast<double>(from) + (xoff - before) / (after - before) * static_cast<double>(t - from);
      const uint64_t at = std::min(t, std::max(now + 1, static_cast<uint64_t>(cross) + 1));
      xoff_check_.notify(fs_time(at - now));
      return;
    }
    from = t;
    before = after;
  }
}

void FabricSwitch::check_xoff() {
  if (!paused_all_ && held_at(sc_core::sc_time_stamp().value()) > static_cast<double>(pause_.xoff)) pause_all();
  else predict_xoff();
}

void FabricSwitch::pause_all() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  note_first_xoff(static_cast<uint64_t>(held_at(now)));
  paused_all_ = true;
  for (size_t q = 0; q < xoff_.size(); ++q)
    if (!xoff_[q] && (in_bytes_[q] > 0 || !ramps_[q].empty())) {
      xoff_[q] = true;
      send_pause(static_cast<int>(q), true);
    }
}

void FabricSwitch::incoming(int port, uint64_t bytes, uint64_t head_fs, uint64_t tail_fs) {
  ramps_[static_cast<size_t>(port)].push_back({bytes, head_fs, tail_fs});
  if (paused_all_ && !xoff_[static_cast<size_t>(port)]) {   // a port starting to receive while paused
    xoff_[static_cast<size_t>(port)] = true;
    send_pause(port, true);
  }
  predict_xoff();
}

void FabricSwitch::send_pause(int port, bool xoff) {
  Frame& p = *pool_->acquire();
  p.control = true;
  p.xoff = xoff;
  p.quanta_fs = pause_.quanta_fs;
  p.bytes = pause_.frame_bytes;
  p.src = static_cast<uint32_t>(self_);
  egress_[port]->send_control(p);
  pause_events_.push_back({sc_core::sc_time_stamp().value(), port, xoff});
  if (xoff) {
    ++xoffs_;
    if (pause_.quanta_fs) {
      refresh_at_[port] = sc_core::sc_time_stamp().value() + pause_.quanta_fs / 2;
      refresh_event_.notify(fs_time(pause_.quanta_fs / 2));
    }
  } else {
    ++xons_;
    refresh_at_[port] = 0;
  }
}

// Quanta: a pause still wanted is sent again before the last one expires.
void FabricSwitch::refresh() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  uint64_t next = 0;
  for (size_t p = 0; p < refresh_at_.size(); ++p) {
    if (refresh_at_[p] == 0) continue;
    if (refresh_at_[p] <= now && xoff_[p]) send_pause(static_cast<int>(p), true);
    if (refresh_at_[p] > now && (next == 0 || refresh_at_[p] < next)) next = refresh_at_[p];
  }
  if (next) refresh_event_.notify(fs_time(next - now));
}

void FabricSwitch::departed(const Frame& f) {
  if (f.in_port < 0) return;
  const auto p = static_cast<size_t>(f.in_port);
  in_bytes_[p] -= f.bytes;
  held_ -= f.bytes;
  if (!pause_.enabled) return;
  if (!pause_.switch_wide) {
    if (xoff_[p] && in_bytes_[p] <= pause_.xon) {
      xoff_[p] = false;
      send_pause(static_cast<int>(p), false);
    }
    return;
  }
  if (!paused_all_) {
    predict_xoff();
    return;
  }
  if (held_at(sc_core::sc_time_stamp().value()) > static_cast<double>(pause_.xon)) return;
  paused_all_ = false;
  for (size_t q = 0; q < xoff_.size(); ++q)
    if (xoff_[q]) {
      xoff_[q] = false;
      send_pause(static_cast<int>(q), false);
    }
  predict_xoff();
}

void FabricSwitch::note_first_xoff(uint64_t held) {
  if (xoffs_ != 0) return;
  first_xoff_fs_ = sc_core::sc_time_stamp().value();
  held_at_first_xoff_ = held;
}

int FabricSwitch::hash_choice(uint32_t src, uint32_t dst, uint32_t entropy, const std::vector<int>& group,
                              uint64_t seed, uint32_t switch_id) {
  return group[ecmp_hash(src, dst, entropy, seed, switch_id) % group.size()];
}

int FabricSwitch::choose(const Frame& f, const std::vector<int>& group) {
  if (group.size() == 1) return group[0];
  if (mode_ == EcmpMode::Hash)
    return hash_choice(f.src, f.dst, f.entropy, group, seed_, static_cast<uint32_t>(self_));
  const uint64_t key = static_cast<uint64_t>(f.dst) << 32 | f.flow;
  const auto it = flow_port_.find(key);
  if (it != flow_port_.end()) return it->second;
  const int port = group[next_in_group_[group]++ % group.size()];
  flow_port_.emplace(key, port);
  return port;
}

void FabricSwitch::put(Frame& f, int port) {
  if (f.control) {   // our link on that port is paused or resumed by the device beyond it
    egress_[port]->pause(f.xoff, f.quanta_fs);
    pool_->release(&f);
    return;
  }
  // Frames that arrive at one instant are taken in the order of their ports
  // (then of arrival on one port), whatever order the links' processes ran
  // in: the arbitration of a switch's input ports, not a kernel race.
  if (arriving_.empty()) arbitrate_event_.notify(sc_core::SC_ZERO_TIME);
  arriving_.push_back({port, arriving_.size(), &f});
}

void FabricSwitch::arbitrate() {
  std::vector<Arrival> now;
  now.swap(arriving_);
  std::sort(now.begin(), now.end(),
            [](const Arrival& a, const Arrival& b) { return a.port != b.port ? a.port < b.port : a.seq < b.seq; });
  for (const Arrival& a : now) take(*a.frame, a.port);
  if (arriving_.empty()) arriving_.swap(now), arriving_.clear();   // keep the capacity
}

void FabricSwitch::take(Frame& f, int port) {
  f.in_port = port;
  in_bytes_[port] += f.bytes;
  in_peak_[port] = std::max(in_peak_[port], in_bytes_[port]);
  held_ += f.bytes;
  if (held_ > held_peak_) {
    held_peak_ = held_;
    held_peak_fs_ = sc_core::sc_time_stamp().value();
  }
  if (pause_.enabled && pause_.switch_wide) {
    auto& ramps = ramps_[static_cast<size_t>(port)];
    if (!ramps.empty()) ramps.pop_front();   // its bytes are in held_ now
    if (paused_all_ && !xoff_[port]) {       // (a frame no ramp announced)
      xoff_[port] = true;
      send_pause(port, true);
    }
    predict_xoff();
  } else if (pause_.enabled && !xoff_[port] && in_bytes_[port] > pause_.xoff) {
    note_first_xoff(held_);
    xoff_[port] = true;
    send_pause(port, true);
  }
  const std::vector<int>& group = topo_.next_ports(self_, static_cast<int>(f.dst));
  sc_assert(!group.empty());   // Topology::finish refuses a destination without a route
  ++forwarded_;
  FabricLink& out = *egress_[choose(f, group)];
  // the shared buffer full: dropped, counted at the queue it was for (its
  // bytes leave the accounting there, as a full queue's drop does)
  if (shared_buffer_ && held_ > shared_buffer_) {
    out.drop_shared(f);
    return;
  }
  out.send(f);
}

}  // namespace ubsim
