#include "pcie_stage.h"

#include <algorithm>

#include "packet.h"
#include "request.h"

namespace ubsim {

PcieStage::PcieStage(sc_core::sc_module_name name, const Config& c)
    : StageComponent(name),
      link_("link", c),
      mtu_(c.count("transport.mtu")),
      read_fs_(c.fs("pcie.dma_read")),
      write_fs_(c.fs("pcie.dma_write")),
      doorbell_fs_(c.fs("pcie.doorbell")),
      ordered_(c.choice("nic.cqe_after") == "ordered") {}

// The bytes a stage moves: a descriptor fetch k descriptors of 64 B, a
// read's first packet at the target, a packet's payload (per-packet stages,
// payload fetches, context records), else one 64 B access.
uint32_t PcieStage::bytes_of(const Transaction& t) const {
  if (t.kind != Transaction::Kind::Request) return 64;
  const Request& r = static_cast<const Request&>(t);
  const Route& rt = *r.route;
  if (static_cast<int>(r.hop) == rt.descriptor_hop) return r.descriptors * 64;
  if (!rt.fetch.empty() && rt.fetch[r.hop]) return static_cast<uint32_t>(packet_payload(r.size, mtu_, 0));
  if (rt.hops[r.hop].per_packet) return std::max<uint32_t>(r.payload_bytes, 64);   // below 64 B: one access
  return 64;
}

void PcieStage::accept(Transaction& t) {
  HopTimes& times = t.now_times();
  times.start_fs = times.arrive_fs;   // the link's own queues are inside the stage
  // page-aligned buffers: completions split by max_payload alone
  const uint64_t addr = (next_addr_++ % 4096) * 8192;
  switch (t.current().op) {
    case Op::PcieDmaRead: link_.dma_read(addr, bytes_of(t), [this, &t] { done(t); }); break;
    case Op::PcieDmaWrite: {
      const Route& rt = *t.route;
      const size_t next = t.hop + 1;
      if (ordered_ && next < rt.hops.size() && rt.hops[next].op == Op::PcieDmaWrite &&
          rt.hops[next].node == t.current().node)
        link_.dma_write(addr, bytes_of(t), [] {}, [this, &t] { done(t); });
      else
        link_.dma_write(addr, bytes_of(t), [this, &t] { done(t); });
      break;
    }
    default: link_.host_write(PcieLink::kDoorbellBytes, [this, &t] { done(t); }); break;   // the doorbell
  }
}

void PcieStage::done(Transaction& t) {
  HopTimes& times = t.now_times();
  const Op op = t.current().op;
  const uint64_t base = op == Op::PcieDmaRead ? read_fs_ : op == Op::PcieDmaWrite ? write_fs_ : doorbell_fs_;
  const uint64_t took = now_fs() - times.arrive_fs;
  times.link_fs = took > base ? took - base : 0;
  times.early_fs = took < base ? base - took : 0;
  forward(t);
}

void PcieStage::collect_stats(StatsTable& table) const { link_.collect_stats(table); }

}  // namespace ubsim
