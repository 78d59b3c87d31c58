#include "traffic_endpoint.h"

#include <algorithm>
#include <cmath>

#include "sim_time.h"

namespace ubsim {

TrafficEndpoint::TrafficEndpoint(sc_core::sc_module_name name, int self, uint32_t mtu, uint32_t header_bytes,
                                 FramePool& pool, std::vector<FlowRecord>& flows)
    : sc_module(name), in("in"), self_(self), mtu_(mtu), header_(header_bytes), pool_(pool), flows_(flows) {
  in.bind(*this);
  SC_HAS_PROCESS(TrafficEndpoint);
  SC_METHOD(emit);
  sensitive << wake_;
  dont_initialize();
}

void TrafficEndpoint::add_flow(uint32_t flow) {
  FlowRecord& r = flows_[flow];
  r.packets = r.bytes == 0 ? 1 : (r.bytes + mtu_ - 1) / mtu_;
  next_.emplace(r.start_fs, flow);
}

void TrafficEndpoint::start_of_simulation() {
  if (!next_.empty()) wake_.notify(fs_time(next_.top().first));
}

// Packet k leaves when the wire bytes of packets 0..k-1 have had their time
// at the flow's rate (exact from the start: no rounding drift).
uint64_t TrafficEndpoint::release_fs(const FlowRecord& r, uint64_t k) const {
  const uint64_t full = std::min<uint64_t>(k, r.bytes / mtu_);
  const uint64_t before = full * (mtu_ + header_) + (k > full ? (r.bytes - full * mtu_) + header_ : 0);
  return r.start_fs + static_cast<uint64_t>(std::llround(static_cast<double>(before) / r.rate_Bps * 1e15));
}

void TrafficEndpoint::emit() {
  const uint64_t now = now_fs();
  while (!next_.empty() && next_.top().first <= now) {
    const uint32_t flow = next_.top().second;
    next_.pop();
    FlowRecord& r = flows_[flow];
    Frame& f = *pool_.acquire();
    f.src = static_cast<uint32_t>(self_);
    f.dst = r.dst;
    f.entropy = r.entropy;
    f.flow = flow;
    f.seq = static_cast<uint32_t>(r.sent);
    f.payload = static_cast<uint32_t>(std::min<uint64_t>(mtu_, r.bytes - std::min(r.bytes, r.sent * mtu_)));
    f.bytes = f.payload + header_;
    f.sent_fs = now;
    if (r.sent == 0) r.first_sent_fs = now;
    ++r.sent;
    if (gate) gate(f);
    else egress_->send(f);
    if (r.sent < r.packets) next_.emplace(release_fs(r, r.sent), flow);
  }
  if (!next_.empty()) wake_.notify(fs_time(next_.top().first - now));
}

void TrafficEndpoint::put(Frame& f, int /*port*/) {
  const uint64_t now = now_fs();
  if (f.control) {   // the switch beyond our link pauses or resumes it
    egress_->pause(f.xoff, f.quanta_fs);
    pool_.release(&f);
    return;
  }
  sc_assert(f.dst == static_cast<uint32_t>(self_));
  if (f.cnp) {   // a notification for one of our flows
    ++cnps_received_;
    if (on_cnp) on_cnp(f.flow);
    pool_.release(&f);
    return;
  }
  if (f.ecn) {   // marked on its way: notify its source, a frame back over the fabric (a controller's too)
    Frame& c = *pool_.acquire();
    c.src = static_cast<uint32_t>(self_);
    c.dst = f.src;
    c.entropy = f.entropy;
    c.flow = f.flow;
    c.cnp = true;
    c.bytes = kCnpBytes;
    c.sent_fs = now;
    ++cnps_sent_;
    egress_->send(c);
  }
  if (f.carrier) {
    sc_assert(on_carrier);
    on_carrier(f);
    return;
  }
  FlowRecord& r = flows_[f.flow];
  if (r.delivered == 0) r.first_arrival_fs = now;
  r.last_arrival_fs = now;
  ++r.delivered;
  r.delivered_bytes += f.payload;
  ++received_;
  pool_.release(&f);
}

}  // namespace ubsim
