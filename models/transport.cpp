#include "transport.h"

#include "rtl_variant.h"

#include <algorithm>
#include <cmath>

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

namespace {
sc_time delay_until(uint64_t at_fs) {
  const uint64_t now = now_fs();
  return sc_time(static_cast<double>(at_fs > now ? at_fs - now : 0), SC_FS);
}
constexpr int kSackWords = rtl_variant::kSackMaxWindow / 32;   // 32-bit words of the bitmap port
}  // namespace

// ---------------- LossyWire ----------------

LossyWire::LossyWire(sc_core::sc_module_name name, const TransportParams& p, PacketPool& pool, bool data,
                     uint64_t seed)
    : StageComponent(name), p_(p), pool_(pool), data_(data), rng_(seed), arrivals_("arrivals") {
  SC_HAS_PROCESS(LossyWire);
  SC_METHOD(deliver);
  sensitive << arrivals_.get_event();
  dont_initialize();
}

void LossyWire::accept(Request& r) {
  const uint64_t now = now_fs();
  const uint64_t start = std::max(now, free_at_fs_);
  const auto ser = static_cast<uint64_t>(std::llround(static_cast<double>(r.wire_bytes) / p_.link_bytes_per_s * 1e15));
  const uint64_t end = start + ser;
  free_at_fs_ = end;
  ++packets_;
  bytes_ += r.wire_bytes;
  r.now_times().start_fs = start;
  r.now_times().serialize_fs = ser;
  if (data_ && on_sent) on_sent(r.psn, end);
  // fate: scripted drop of a PSN's first transmission, else at random
  bool lose = false;
  if (data_ && p_.drop_once.count(r.psn) && !dropped_once_.count(r.psn)) {
    dropped_once_.insert(r.psn);
    lose = true;
  } else {
    lose = u_(rng_) < (data_ ? p_.p_loss_data : p_.p_loss_ack);
  }
  uint64_t arrive = end + p_.propagation_fs;
  if (!lose && p_.p_reorder > 0 && u_(rng_) < p_.p_reorder) {
    arrive += static_cast<uint64_t>(u_(rng_) * static_cast<double>(p_.reorder_max_fs));
    ++delayed_;
  }
  if (lose) {
    ++lost_;
    r.lost = true;   // still handed on (at once) so its owner recycles it
    arrivals_.notify(r, sc_core::SC_ZERO_TIME);
    return;
  }
  if (p_.p_dup > 0 && u_(rng_) < p_.p_dup) {
    Request* d = pool_.acquire();
    d->lost = false;
    d->route = r.route;
    d->times = r.times;
    d->hop = r.hop;
    d->id = r.id;
    d->psn = r.psn;
    d->ack_cum = r.ack_cum;
    d->wire_bytes = r.wire_bytes;
    d->is_ack = r.is_ack;
    d->ack_dup = r.ack_dup;
    d->retransmit = r.retransmit;
    d->sack = r.sack;
    d->payload_bytes = r.payload_bytes;
    ++duplicated_;
    arrivals_.notify(*d, delay_until(arrive + ser));   // the copy follows one packet time later
  }
  arrivals_.notify(r, delay_until(arrive));
}

void LossyWire::deliver() {
  while (Request* r = arrivals_.get_next_transaction()) forward(*r);
}

void LossyWire::collect_stats(StatsTable& t) const {
  const std::string n = name();
  t.add(n, "packets", static_cast<double>(packets_), "packets", "packets serialized");
  t.add(n, "bytes", static_cast<double>(bytes_), "bytes", "bytes serialized (headers, payload, SACK bitmaps)");
  t.add(n, "lost", static_cast<double>(lost_), "packets", "packets lost (random or scripted)");
  t.add(n, "duplicated", static_cast<double>(duplicated_), "packets", "packets delivered twice");
  t.add(n, "delayed", static_cast<double>(delayed_), "packets", "packets delayed at random (reordering)");
}

// ---------------- SackSenderBridge ----------------

SackSenderBridge::SackSenderBridge(sc_core::sc_module_name name, const ModelParams& mp, const TransportParams& p,
                                   PacketPool& pool)
    : ClockedComponent(name, mp), p_(p), pool_(pool), m_(std::make_unique<Vsack_sender>(context(), "dut")),
      out_("packet_queue") {
  SC_HAS_PROCESS(SackSenderBridge);
  SC_METHOD(launch_packets);
  sensitive << out_.get_event();
  dont_initialize();
  m_->cfg_window = static_cast<uint16_t>(p.window);
  m_->cfg_gbn = p.gbn;
  m_->cfg_fast_rtx = p.fast_retransmit;
  m_->cfg_rto_cycles = std::max<uint64_t>(1, p.rto_fs / mp.clock_period_fs);
  m_->cfg_backoff_shift = static_cast<uint8_t>(p.backoff_shift);
  m_->cfg_max_retries = static_cast<uint8_t>(p.max_retries);
  m_->cfg_first_psn = p.first_psn;
  m_->cfg_now = 0;
  m_->s_valid = 0;
  m_->m_ready = 1;
  m_->s_ack_valid = 0;
  m_->s_txdone_valid = 0;
  for (int i = 0; i < 4; ++i) { m_->clk = 0; m_->rst = 1; m_->eval(); m_->clk = 1; m_->eval(); }
  m_->clk = 0; m_->rst = 0; m_->eval();
}

void SackSenderBridge::submit(uint32_t msg, uint32_t bytes, uint64_t at_fs) {
  msgs_.push_back({at_fs, msg, bytes});
  wake(at_fs);
}

void SackSenderBridge::sent(uint32_t psn, uint64_t at_fs) {
  txdone_.push_back({at_fs, psn});
  wake(at_fs);
}

void SackSenderBridge::accept(Request& r) {
  if (r.lost) {
    pool_.release(&r);
    return;
  }
  r.now_times().arrive_fs = now_fs();
  acks_.push_back(&r);
  wake(now_fs());
}

bool SackSenderBridge::has_work() const {
  // the timer runs while packets are outstanding
  return !failed_ && (!msgs_.empty() || !acks_.empty() || !txdone_.empty() || m_->busy || m_->m_valid);
}

bool SackSenderBridge::step_edge(uint64_t k) {
  const uint64_t e = edge_fs(k);
  const Msg* msg = !msgs_.empty() && msgs_.front().at < e ? &msgs_.front() : nullptr;
  Request* ack = !acks_.empty() && acks_.front()->now_times().arrive_fs < e ? acks_.front() : nullptr;
  const TxDone* td = !txdone_.empty() && txdone_.front().at < e ? &txdone_.front() : nullptr;

  m_->clk = 0;
  m_->cfg_now = k;
  m_->s_valid = msg != nullptr;
  if (msg) {
    m_->s_id = msg->id;
    m_->s_bytes = static_cast<uint16_t>(msg->bytes);
  }
  m_->s_ack_valid = ack != nullptr;
  if (ack) {
    m_->s_ack_cum = ack->ack_cum;
    m_->s_ack_dup = ack->ack_dup;
    for (int w = 0; w < kSackWords; ++w)
      m_->s_ack_sack[w] = static_cast<uint32_t>(w / 2 < static_cast<int>(ack->sack.size())
                                                    ? ack->sack[static_cast<size_t>(w / 2)] >> (32 * (w % 2))
                                                    : 0);
  }
  m_->s_txdone_valid = td != nullptr;
  m_->s_txdone_psn = td ? td->psn : 0;
  // the link takes the next packet once it has finished the previous one
  m_->m_ready = wire_->free_at_fs() <= e;
  m_->eval();
  trace_dump(e - period_fs_ / 2);
  const bool took = msg && m_->s_ready;
  const bool out = m_->m_valid && m_->m_ready;
  Request* pkt = nullptr;
  if (out) {
    pkt = pool_.acquire();
    pkt->reset(data_route_);
    pkt->id = m_->m_id;
    pkt->psn = m_->m_psn;
    pkt->payload_bytes = m_->m_bytes;
    pkt->wire_bytes = p_.header_bytes + m_->m_bytes;
    pkt->is_ack = false;
    pkt->retransmit = m_->m_retransmit;
    if (pkt->retransmit) rtx_bytes_ += m_->m_bytes;
  }
  const bool fail = m_->m_fail;
  const uint32_t fail_id = m_->m_fail_id;

  m_->clk = 1;
  m_->eval();
  trace_dump(e);

  if (took) {
    if (on_accepted) on_accepted(msg->id, e);
    msgs_.pop_front();
  }
  if (ack) {
    acks_.pop_front();
    pool_.release(ack);
  }
  if (td) txdone_.pop_front();
  if (pkt) out_.notify(*pkt, delay_until(e));
  if (fail) {
    failed_ = true;
    if (on_fail) on_fail(fail_id);
  }
  return out;
}

void SackSenderBridge::settle_idle() {
  m_->clk = 0;
  m_->s_valid = 0;
  m_->s_ack_valid = 0;
  m_->s_txdone_valid = 0;
  m_->eval();
}

void SackSenderBridge::launch_packets() {
  while (Request* r = out_.get_next_transaction()) {
    r->now_times().arrive_fs = now_fs();
    launch(*r);
  }
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
  collect_clock_stats(t);
}

// ---------------- SackReceiverBridge ----------------

SackReceiverBridge::SackReceiverBridge(sc_core::sc_module_name name, const ModelParams& mp,
                                       const TransportParams& p, PacketPool& pool)
    : ClockedComponent(name, mp), p_(p), pool_(pool), m_(std::make_unique<Vsack_receiver>(context(), "dut")),
      out_("ack_queue") {
  SC_HAS_PROCESS(SackReceiverBridge);
  SC_METHOD(launch_acks);
  sensitive << out_.get_event();
  dont_initialize();
  m_->cfg_window = static_cast<uint16_t>(p.window);
  m_->cfg_gbn = p.gbn;
  m_->cfg_first_psn = p.first_psn;
  m_->s_valid = 0;
  m_->m_dlv_ready = 1;
  m_->m_ack_ready = 1;
  for (int i = 0; i < 4; ++i) { m_->clk = 0; m_->rst = 1; m_->eval(); m_->clk = 1; m_->eval(); }
  m_->clk = 0; m_->rst = 0; m_->eval();
}

void SackReceiverBridge::accept(Request& r) {
  if (r.lost) {
    pool_.release(&r);
    return;
  }
  r.now_times().arrive_fs = now_fs();
  in_.push_back(&r);
  wake(now_fs());
}

bool SackReceiverBridge::step_edge(uint64_t k) {
  const uint64_t e = edge_fs(k);
  Request* pkt = !in_.empty() && in_.front()->now_times().arrive_fs < e ? in_.front() : nullptr;
  m_->clk = 0;
  m_->s_valid = pkt != nullptr;
  if (pkt) {
    m_->s_psn = pkt->psn;
    m_->s_id = static_cast<uint32_t>(pkt->id);
    m_->s_bytes = static_cast<uint16_t>(pkt->payload_bytes);
  }
  m_->eval();
  trace_dump(e - period_fs_ / 2);
  const bool took = pkt && m_->s_ready;
  const bool kept = m_->s_kept;
  const bool dlv = m_->m_dlv_valid;
  const uint32_t dlv_id = m_->m_dlv_id, dlv_psn = m_->m_dlv_psn;
  Request* ack = nullptr;
  if (m_->m_ack_valid) {
    ack = pool_.acquire();
    ack->reset(ack_route_);
    ack->id = acks_++;
    ack->is_ack = true;
    ack->ack_cum = m_->m_ack_cum;
    ack->ack_dup = m_->m_ack_dup;
    ack->sack.assign(static_cast<size_t>(kSackWords / 2), 0);
    for (int w = 0; w < kSackWords; ++w)
      ack->sack[static_cast<size_t>(w / 2)] |= static_cast<uint64_t>(m_->m_ack_sack[w]) << (32 * (w % 2));
    // a SACK carries the bitmap of the window; GoBackN acks are header only
    ack->wire_bytes = p_.header_bytes + (p_.gbn ? 0 : static_cast<uint32_t>(p_.window / 8));
  }
  m_->clk = 1;
  m_->eval();
  trace_dump(e);
  if (took) {
    if (kept && on_arrive) on_arrive(pkt->psn, e);
    in_.pop_front();
    pool_.release(pkt);
  }
  if (dlv && on_deliver) on_deliver(dlv_id, dlv_psn, e);
  if (ack) out_.notify(*ack, delay_until(e));
  return ack != nullptr;
}

void SackReceiverBridge::settle_idle() {
  m_->clk = 0;
  m_->s_valid = 0;
  m_->eval();
}

void SackReceiverBridge::launch_acks() {
  while (Request* r = out_.get_next_transaction()) {
    r->now_times().arrive_fs = now_fs();
    launch(*r);
  }
}

void SackReceiverBridge::collect_stats(StatsTable& t) const {
  const std::string n = name();
  t.add(n, "delivered", static_cast<double>(m_->cnt_delivered), "packets", "packets delivered in order");
  t.add(n, "duplicates", static_cast<double>(m_->cnt_duplicates), "packets", "packets received again (dropped)");
  t.add(n, "out_of_window", static_cast<double>(m_->cnt_out_of_window), "packets", "packets beyond the window (dropped)");
  t.add(n, "gbn_drops", static_cast<double>(m_->cnt_gbn_drops), "packets", "GoBackN: out-of-order packets dropped");
  t.add(n, "acks", static_cast<double>(acks_), "acks", "acks sent");
  collect_clock_stats(t);
}

// ---------------- TransportSystem ----------------

TransportSystem::TransportSystem(sc_core::sc_module_name name, const ModelParams& mp, const TransportParams& p)
    : sc_module(name), fabric_("fabric") {
  sender_ = std::make_unique<SackSenderBridge>("A_sack_tx", mp, p, pool_);
  receiver_ = std::make_unique<SackReceiverBridge>("B_sack_rx", mp, p, pool_);
  data_ = std::make_unique<LossyWire>("wire_A_to_B", p, pool_, true, p.seed * 2 + 1);
  ack_ = std::make_unique<LossyWire>("wire_B_to_A", p, pool_, false, p.seed * 2 + 2);
  const int s = attach(sender_.get()), r = attach(receiver_.get());
  const int d = attach(data_.get()), a = attach(ack_.get());
  data_route_.hops = {{Op::WireRequest, NodeId::A, "data packet"}};
  data_route_.component = {d};
  data_route_.sink = r;
  ack_route_.hops = {{Op::WireResponse, NodeId::B, "ack"}};
  ack_route_.component = {a};
  ack_route_.sink = s;
  sender_->set_data_route(&data_route_, data_.get());
  receiver_->set_ack_route(&ack_route_);
  data_->on_sent = [this](uint32_t psn, uint64_t at) { sender_->sent(psn, at); };
}

int TransportSystem::attach(StageComponent* c) {
  c->fabric_id = static_cast<int>(components_.size());
  components_.push_back(c);
  c->out.bind(fabric_.from_components);
  fabric_.to_components.bind(c->in);
  return c->fabric_id;
}

StatsTable TransportSystem::stats() const {
  StatsTable t;
  for (StageComponent* c : components_) c->collect_stats(t);
  return t;
}

}  // namespace ubsim
