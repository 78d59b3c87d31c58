#include "fabric_switch.h"

#include "flow_hash.h"

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
      refresh_at_(egress_.size(), 0) {
  in.bind(*this);
  sc_assert(!pause_.enabled || pool_);
  SC_HAS_PROCESS(FabricSwitch);
  SC_METHOD(refresh);
  sensitive << refresh_event_;
  dont_initialize();
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
      refresh_event_.notify(sc_core::sc_time::from_value(pause_.quanta_fs / 2));
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
  if (next) refresh_event_.notify(sc_core::sc_time::from_value(next - now));
}

void FabricSwitch::departed(const Frame& f) {
  if (f.in_port < 0) return;
  const auto p = static_cast<size_t>(f.in_port);
  in_bytes_[p] -= f.bytes;
  held_ -= f.bytes;
  if (pause_.enabled && xoff_[p] && in_bytes_[p] <= pause_.xon) {
    xoff_[p] = false;
    send_pause(static_cast<int>(p), false);
  }
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
  f.in_port = port;
  in_bytes_[port] += f.bytes;
  in_peak_[port] = std::max(in_peak_[port], in_bytes_[port]);
  held_ += f.bytes;
  if (held_ > held_peak_) {
    held_peak_ = held_;
    held_peak_fs_ = sc_core::sc_time_stamp().value();
  }
  if (pause_.enabled && !xoff_[port] && in_bytes_[port] > pause_.xoff) {
    if (xoffs_ == 0) {
      first_xoff_fs_ = sc_core::sc_time_stamp().value();
      held_at_first_xoff_ = held_;
    }
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
