#include "link_stage.h"

#include <algorithm>
#include <string>

#include "packet.h"
#include "request.h"

namespace ubsim {

LinkStage::LinkStage(sc_core::sc_module_name name, const Config& c, const LinkParams& p)
    : StageComponent(name),
      link_("link", p),
      mtu_(c.count(key::transport_mtu)),
      params_(p),
      ordered_(p.keys == "pcie" && c.choice(key::nic_cqe_after) == "ordered") {
  // The link acts as of a hand-off's time ahead (PcieLink::enter_ahead),
  // and calls back only from its own event list: except with ordered CQEs,
  // whose write goes on as soon as it is queued (from inside accept()).
  if (!ordered_) {
    set_accepts_ahead();
    link_.settle_with(this);
  }
  SC_HAS_PROCESS(LinkStage);
  SC_METHOD(deliver_late);
  sensitive << late_event_.event();
  dont_initialize();
}

// The bytes a stage moves: a descriptor fetch k descriptors of 64 B, a
// read's first packet at the target, a packet's payload (per-packet stages,
// payload fetches, context records), else one 64 B access.
uint32_t LinkStage::bytes_of(const Transaction& t) const {
  if (t.kind != Transaction::Kind::Request) return 64;
  const Request& r = static_cast<const Request&>(t);
  const Route& rt = *r.route;
  if (static_cast<int>(r.hop) == rt.descriptor_hop) return r.descriptors * 64;
  if (!rt.fetch.empty() && rt.fetch[r.hop]) return static_cast<uint32_t>(packet_payload(r.size, mtu_, 0));
  if (rt.hops[r.hop].per_packet) return std::max<uint32_t>(r.payload_bytes, 64);   // below 64 B: one access
  return 64;
}

// PCIe stages say what they are; a bus stage is a read where it fetches
// (a route's read of the target's data, a context refill, a payload
// fetch), the CPU's write into the controller before the send pipeline,
// else a posted write to memory.
LinkStage::Use LinkStage::use_of(const Transaction& t) const {
  const Route& rt = *t.route;
  switch (t.current().op) {
    case Op::PcieDmaRead: return Use::Read;
    case Op::PcieDmaWrite: return Use::Write;
    case Op::PcieDoorbell: return Use::Into;
    default: break;
  }
  if (rt.link_use != Route::LinkUse::Auto) return rt.link_use == Route::LinkUse::Read ? Use::Read : Use::Write;
  if (!rt.fetch.empty() && rt.fetch[t.hop]) return Use::Read;
  for (size_t i = 0; i < t.hop; ++i)
    if (is_send_op(rt.hops[i].op)) return Use::Write;
  return Use::Into;   // before any send pipeline: the CPU submits into the controller
}

void LinkStage::accept(Transaction& t) {
  HopTimes& times = t.now_times();
  times.start_fs = times.arrive_fs;   // the link's own queues are inside the stage
  // page-aligned buffers: completions split by max_payload alone
  const uint64_t addr = (next_addr_++ % 4096) * 8192;
  const bool ahead = arrival_fs() > now_fs();
  const uint64_t before = ahead ? link_.enter_ahead(arrival_fs()) : 0;
  switch (use_of(t)) {
    case Use::Read:
      link_.dma_read(addr, bytes_of(t), [this, &t] { done(t, params_.read_fs); });
      break;
    case Use::Write: {
      const Route& rt = *t.route;
      const size_t next = t.hop + 1;
      if (ordered_ && next < rt.hops.size() && rt.hops[next].op == Op::PcieDmaWrite &&
          rt.hops[next].node == t.current().node)
        link_.dma_write(addr, bytes_of(t), [] {}, [this, &t] { done(t, params_.write_fs); });
      else
        link_.dma_write(addr, bytes_of(t), [this, &t] { done(t, params_.write_fs); });
      break;
    }
    case Use::Into:
      link_.host_write(link_.doorbell_bytes(), [this, &t] { done(t, params_.doorbell_fs); });
      break;
  }
  if (ahead) link_.leave_ahead(before);
}

void LinkStage::done(Transaction& t, uint64_t base) {
  const uint64_t at = link_.now();   // (later than now: a callback the link runs ahead)
  HopTimes& times = t.now_times();
  const uint64_t took = at - times.arrive_fs;
  times.link_fs = took > base ? took - base : 0;
  times.early_fs = took < base ? base - took : 0;
  if (at == now_fs()) {
    forward(t);
  } else if (!forward_if_ahead(t, at)) {   // its next component takes it at its time only
    late_.push_back({at, &t});
    late_event_.notify_at(at);
  }
}

void LinkStage::deliver_late() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  late_event_.fired();
  const uint64_t now = now_fs();
  while (!late_.empty() && late_.front().first <= now) {
    Transaction* t = late_.front().second;
    late_.pop_front();
    forward(*t);
  }
  if (!late_.empty()) late_event_.notify_at(late_.front().first);
  settle_touched();   // (its last statement: component.h)
}

void LinkStage::holdings(std::vector<Holding>& out) const {
  link_.holdings(out);
  if (!late_.empty())
    out.push_back({std::to_string(late_.size()) + " transfer(s) done, each handed on at its own time", "", nullptr});
}

void LinkStage::collect_stats(StatsTable& table) const { link_.collect_stats(table); }

}  // namespace ubsim
