#include "sack_bridges.h"

#include <fmt/format.h>

#include "block_config.h"
#include "rtl_variant.h"

namespace ubsim {

namespace {
constexpr int kSackWords = rtl_variant::kSackMaxWindow / 32;   // 32-bit words of the bitmap port
}  // namespace

// ---------------- sender ----------------

SackSenderBridge::SackSenderBridge(sc_core::sc_module_name name, const Config& c, SackMode mode, Pool<Packet>& pool)
    : VerilatedBridge(name, c),
      mode_(mode),
      header_bytes_(static_cast<uint32_t>(c.count(key::transport_header_bytes))),
      pool_(pool) {}

void SackSenderBridge::configure() {
  ubsim::configure(model(), cfg_, mode_.gbn, mode_.first_psn);
  m_->cfg_paths = mode_.paths;
  m_->cfg_path_weights = mode_.path_weights;
}

void SackSenderBridge::drive_idle() {
  m_->s_valid = 0;
  m_->m_ready = 1;
  m_->s_ack_valid = 0;
  m_->s_txdone_valid = 0;
}

void SackSenderBridge::submit(uint32_t msg, uint32_t bytes, uint64_t at_fs) {
  msgs_.push(at_fs, {msg, bytes});
  wake(at_fs);
}

void SackSenderBridge::sent(uint32_t psn, uint64_t at_fs) {
  txdone_.push(at_fs, psn);
  wake(at_fs);
}

void SackSenderBridge::accept(Transaction& t) {
  Packet& p = as_packet(t);
  if (p.lost) {
    pool_.release(&p);
    return;
  }
  acks_.push(now_fs(), &p);
  wake(now_fs());
}

bool SackSenderBridge::has_work() const {
  // With packets outstanding and nothing else to do only the retransmit
  // timer (and the probe) runs: the engine says when it fires (wake_in) and
  // the bridge sleeps until that edge. A failure (m_fail, one cycle after the
  // engine stopped) is still to be seen.
  return !failed_ && (!msgs_.empty() || !acks_.empty() || !txdone_.empty() || m_->active);
}

uint64_t SackSenderBridge::wake_in() const { return failed_ ? 0 : m_->wake_in; }

void SackSenderBridge::drive(uint64_t e) {
  Edge& x = edge_ = Edge{};
  x.msg = msgs_.offered(e);
  Packet* const* ack = acks_.offered(e);
  x.ack = ack ? *ack : nullptr;
  x.td = txdone_.offered(e);
  m_->s_valid = x.msg != nullptr;
  if (x.msg) {
    m_->s_id = x.msg->id;
    m_->s_bytes = static_cast<uint16_t>(x.msg->bytes);
  }
  m_->s_ack_valid = x.ack != nullptr;
  if (x.ack) {
    m_->s_ack_cum = x.ack->ack_cum;
    m_->s_ack_dup = x.ack->ack_dup;
    for (int w = 0; w < kSackWords; ++w)
      m_->s_ack_sack[w] = static_cast<uint32_t>(w / 2 < static_cast<int>(x.ack->sack.size())
                                                    ? x.ack->sack[static_cast<size_t>(w / 2)] >> (32 * (w % 2))
                                                    : 0);
  }
  m_->s_txdone_valid = x.td != nullptr;
  m_->s_txdone_psn = x.td ? *x.td : 0;
  // the link takes the next packet once it has finished the previous one
  m_->m_ready = wire_->free_at_edge(e, m_->m_path);   // the path of the packet on m_*
}

void SackSenderBridge::sample(uint64_t) {
  Edge& x = edge_;
  x.took = x.msg && m_->s_ready;
  if (m_->m_valid && m_->m_ready) {
    Packet* pkt = pool_.acquire();
    pkt->start_route(data_route_);
    pkt->id = m_->m_id;
    pkt->psn = m_->m_psn;
    pkt->payload_bytes = m_->m_bytes;
    pkt->wire_bytes = header_bytes_ + m_->m_bytes;
    pkt->is_ack = false;
    pkt->lost = false;
    pkt->retransmit = m_->m_retransmit;
    pkt->channel = channel_;
    pkt->path = m_->m_path;
    if (pkt->retransmit) rtx_bytes_ += m_->m_bytes;
    x.pkt = pkt;
  }
  x.fail = m_->m_fail;
  x.fail_id = m_->m_fail_id;
}

bool SackSenderBridge::apply(uint64_t e) {
  Edge& x = edge_;
  if (x.took) {
    if (on_accepted) on_accepted(x.msg->id, e);
    msgs_.pop();
  }
  if (x.ack) {
    acks_.pop();
    pool_.release(x.ack);
  }
  if (x.td) txdone_.pop();
  if (x.pkt) hand_off(e, *x.pkt, Handoff::LaunchArriving);
  if (x.fail) {
    failed_ = true;
    if (on_fail) on_fail(x.fail_id, e);
  }
  return x.pkt != nullptr;
}

void SackSenderBridge::collect_stats(StatsTable& t) const {
  const std::string n = name();
  t.add(n, "sent", static_cast<double>(m_->cnt_sent), "packets", "new packets sent");
  t.add(n, "retransmits", static_cast<double>(m_->cnt_retransmits), "packets", "packets resent");
  t.add(n, "retransmitted_bytes", static_cast<double>(rtx_bytes_), "bytes", "payload bytes resent");
  t.add(n, "timeouts", static_cast<double>(m_->cnt_timeouts), "events", "retransmit timer expiries");
  t.add(n, "fast_retransmits", static_cast<double>(m_->cnt_fast_rtx), "events",
        "acks that triggered a resend (SACK holes or GoBackN duplicate acks)");
  t.add(n, "stale_acks", static_cast<double>(m_->cnt_stale_acks), "acks", "acks older than the window base");
  t.add(n, "probes", static_cast<double>(m_->cnt_probes), "packets", "tail-loss probes sent (sack.probe_after)");
  collect_clock_stats(t);
}

// ---------------- receiver ----------------

SackReceiverBridge::SackReceiverBridge(sc_core::sc_module_name name, const Config& c, SackMode mode,
                                       Pool<Packet>& pool)
    : VerilatedBridge(name, c),
      mode_(mode),
      header_bytes_(static_cast<uint32_t>(c.count(key::transport_header_bytes))),
      // a SACK carries the bitmap of the window; GoBackN acks are header only
      ack_bytes_(header_bytes_ + (mode.gbn ? 0 : static_cast<uint32_t>(c.count(key::sack_window) / 8))),
      pool_(pool) {}

void SackReceiverBridge::configure() { ubsim::configure(model(), cfg_, mode_.gbn, mode_.first_psn); }

void SackReceiverBridge::drive_idle() {
  m_->s_valid = 0;
  m_->m_dlv_ready = 1;
  m_->m_ack_ready = 1;
}

void SackReceiverBridge::accept(Transaction& t) {
  Packet& p = as_packet(t);
  if (p.lost) {
    pool_.release(&p);
    return;
  }
  in_.push(now_fs(), &p);
  wake(now_fs());
}

void SackReceiverBridge::drive(uint64_t e) {
  Edge& x = edge_ = Edge{};
  Packet* const* in = in_.offered(e);
  x.pkt = in ? *in : nullptr;
  m_->s_valid = x.pkt != nullptr;
  if (x.pkt) {
    m_->s_psn = x.pkt->psn;
    m_->s_id = static_cast<uint32_t>(x.pkt->id);
    m_->s_bytes = static_cast<uint16_t>(x.pkt->payload_bytes);
  }
}

void SackReceiverBridge::sample(uint64_t) {
  Edge& x = edge_;
  x.took = x.pkt && m_->s_ready;
  x.kept = m_->s_kept;
  x.dlv = m_->m_dlv_valid;
  x.dlv_id = m_->m_dlv_id;
  x.dlv_psn = m_->m_dlv_psn;
  if (m_->m_ack_valid) {
    Packet* ack = pool_.acquire();
    ack->start_route(ack_route_);
    ack->id = acks_++;
    ack->is_ack = true;
    ack->lost = false;
    ack->retransmit = false;
    ack->channel = channel_;
    // an ack registered at this edge covers the packets taken before it
    ack->path = ack_on_data_path_ ? last_taken_path_ : 0;
    ack->ack_cum = m_->m_ack_cum;
    ack->ack_dup = m_->m_ack_dup;
    ack->sack.assign(static_cast<size_t>(kSackWords / 2), 0);
    for (int w = 0; w < kSackWords; ++w)
      ack->sack[static_cast<size_t>(w / 2)] |= static_cast<uint64_t>(m_->m_ack_sack[w]) << (32 * (w % 2));
    ack->payload_bytes = 0;
    ack->wire_bytes = ack_bytes_;
    x.ack = ack;
  }
}

bool SackReceiverBridge::apply(uint64_t e) {
  Edge& x = edge_;
  if (x.took) {
    if (x.kept && on_arrive) on_arrive(*x.pkt, e);
    last_taken_path_ = x.pkt->path;
    in_.pop();
    pool_.release(x.pkt);
  }
  if (x.dlv && on_deliver) on_deliver(x.dlv_id, x.dlv_psn, e);
  if (x.ack) hand_off(e, *x.ack, Handoff::LaunchArriving);
  return x.ack != nullptr;
}

void SackReceiverBridge::collect_stats(StatsTable& t) const {
  const std::string n = name();
  t.add(n, "delivered", static_cast<double>(m_->cnt_delivered), "packets", "packets delivered in order");
  t.add(n, "duplicates", static_cast<double>(m_->cnt_duplicates), "packets", "packets received again (dropped)");
  t.add(n, "out_of_window", static_cast<double>(m_->cnt_out_of_window), "packets", "packets beyond the window (dropped)");
  t.add(n, "gbn_drops", static_cast<double>(m_->cnt_gbn_drops), "packets", "GoBackN: out-of-order packets dropped");
  t.add(n, "reorder_drops", static_cast<double>(m_->cnt_reorder_drops), "packets",
        "packets dropped at the reorder limit (sack.reorder_limit)");
  t.add(n, "reorder_peak", static_cast<double>(m_->reorder_peak), "bytes",
        "most payload bytes held at once (kept, not yet delivered in order)");
  t.add(n, "acks", static_cast<double>(acks_), "acks", "acks sent");
  collect_clock_stats(t);
}

void SackSenderBridge::holdings(std::vector<Holding>& out) const {
  if (m_->outstanding > 0)
    out.push_back({fmt::format("{} unacknowledged packet(s) in its window", static_cast<unsigned>(m_->outstanding)),
                   m_->active ? std::string("their acks from the peer's receiver")
                              : fmt::format("their acks from the peer's receiver, or its retransmit timer ({} cycles)",
                                            static_cast<unsigned>(m_->wake_in))});
  if (!msgs_.empty()) out.push_back({"", fmt::format("its input: {} message(s) queued", msgs_.size())});
}

}  // namespace ubsim
