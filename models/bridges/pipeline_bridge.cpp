#include "pipeline_bridge.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ctx_cache_bridge.h"
#include "packet.h"
#include "rtl_variant.h"

namespace ubsim {

namespace {
// A write's payload up to this many bytes travels inline with its descriptor.
constexpr uint64_t kInlineBytes = 64;
// Later packets and payload fetches are numbered above every request id (the
// RTL's ids and the queues' tie-break need them unique).
uint64_t next_packet_id() {
  static uint64_t next = uint64_t{1} << 31;
  return next++;
}
}  // namespace

PipelineBridge::PipelineBridge(sc_core::sc_module_name name, const Config& c, std::unique_ptr<ClockedModel> block)
    : RtlBridge(name, c, std::move(block)),
      mtu_(c.count("transport.mtu")),
      grant_fifo_depth_(static_cast<uint32_t>(c.count("cache.grant_fifo"))) {}

void PipelineBridge::complete(const Request& r, uint64_t at_fs) {
  completions_.push(at_fs, {r.ord_slot, r.ord_seq});
  wake(at_fs);
}

void PipelineBridge::attach_cache(CtxCacheBridge* cache) {
  cache_ = cache;   // (cfg_ctx_gate follows it: loaded at reset, after elaboration)
}

void PipelineBridge::grant(const CtxGrant& g, uint64_t at_fs) {
  grants_.push(at_fs, g);
  wake(at_fs);
}

void PipelineBridge::fill(uint32_t entry, const RecordBits& record, uint64_t at_fs) {
  fills_.push(at_fs, {entry, record});
  wake(at_fs);
}

void PipelineBridge::release_records(uint32_t id, uint64_t e) {
  auto it = pinned_.find(id);
  if (it == pinned_.end()) return;
  cache_->release(it->second, e);
  pinned_.erase(it);
}

// The header of r's packet: the peer its record names, and the next PSN of
// that record (consecutive per TP channel / QP, across evictions and refills).
void PipelineBridge::check_header(const Request& r, const Header& h) {
  uint32_t record = r.ctx;   // without a cache: the entry the request names
  auto pin = pinned_.find(static_cast<uint32_t>(r.id));
  if (cache_) {
    sc_assert(pin != pinned_.end() && "a packet left without its grant");
    record = pin->second.data_key;
    const uint32_t want = expected_peer_id(cache_->stack(), cache_->node(), r);
    if (h.peer != want)
      throw std::runtime_error(fmt::format(
          "{}: the packet of request {} names peer {:#x}, its record's peer is {:#x} (a stale context record)",
          name(), r.id, h.peer, want));
  }
  auto [it, first] = expected_psn_.emplace(record, h.psn);
  if (!first && h.psn != it->second)
    throw std::runtime_error(fmt::format("{}: the packet of request {} carries PSN {}, its record's next PSN is {}",
                                         name(), r.id, h.psn, it->second));
  it->second = (h.psn + 1) & 0xffffffu;
}

// A message enters a send pipeline: its packets in this direction, and how
// many of them have their payload already (a read's first response packet
// was fetched by the stages before; a small write's payload is inline).
void PipelineBridge::start_segment(Request& r) const {
  const bool carries = carries_payload(r);
  r.pkts = carries ? packets_of(r.size, mtu_) : 1;
  r.payload_bytes = carries ? packet_payload(r.size, mtu_, 0) : 0;
  r.data_pkts = !carries || r.current().node == NodeId::B || r.size <= kInlineBytes ? 1 : 0;
  r.fetch_next = r.data_pkts;
  r.send_hop = r.hop;
  r.seg_done = r.rx_done = 0;
  r.seg_waiting = false;
}

// Packet k (>= 1) of message m leaves the send pipeline.
Request* PipelineBridge::make_packet(Request& m, uint32_t k) {
  Request* c = packets_.acquire();
  c->reset(m.route);
  c->hop = m.send_hop;   // the message itself may be further along by now
  c->times[c->hop] = m.times[m.send_hop];
  c->id = next_packet_id();
  c->verb = m.verb;
  c->size = m.size;
  c->ctx = m.ctx;
  c->local_ep = m.local_ep;
  c->remote_ep = m.remote_ep;
  c->ord_mode = m.ord_mode;
  c->ord_tag = m.ord_tag;
  c->issued_fs = m.issued_fs;
  c->parent = &m;
  c->home = &packets_;
  c->pkt = k;
  c->pkts = m.pkts;
  c->data_pkts = m.data_pkts;
  c->payload_bytes = packet_payload(m.size, mtu_, k);
  ++later_packets_;
  return c;
}

// The send engine fetches the payloads of the waiting message's packets,
// as many as it has free buffers, starting at edge e. Returns whether it
// started one.
bool PipelineBridge::fetch_payloads(Request& m, uint64_t e) {
  bool started = false;
  while (m.fetch_next < m.pkts && buffers_in_use_ < static_cast<uint32_t>(rtl_variant::kPayloadBuffers)) {
    if (fetch_route_.hops.empty())
      throw std::logic_error(std::string(name()) + ": a packet's payload must be fetched but no fetch route is set");
    Request* f = packets_.acquire();
    f->reset(&fetch_route_);
    f->id = next_packet_id();
    f->verb = m.verb;
    f->size = m.size;
    f->parent = &m;
    f->home = &packets_;
    f->pkt = m.fetch_next++;
    f->payload_bytes = packet_payload(m.size, mtu_, f->pkt);
    f->issued_fs = e;
    ++buffers_in_use_;
    ++fetches_;
    hand_off(e, *f, Handoff::Launch);
    started = true;
  }
  return started;
}

void PipelineBridge::fetched(Request& f) {
  ++payloads_[static_cast<uint32_t>(f.parent->id)].ready;
  f.home->release(&f);
  wake(now_fs());
}

void PipelineBridge::accept(Transaction& t) {
  if (!t.on_route()) {   // a payload fetch came back
    fetched(as_request(t));
    return;
  }
  Request& r = as_request(t);
  if (segments()) start_segment(r);
  input_queue_.push_back(&r);
  queue_.change(now_fs(), +1);
  if (cache_) {
    if (!lookup_backlog_.empty() || lookups_out_ >= grant_fifo_depth_) ++lookup_credit_waits_;
    lookup_backlog_.push_back(&r);
    issue_lookups();
  }
  wake(now_fs());
}

void PipelineBridge::issue_lookups() {
  while (!lookup_backlog_.empty() && lookups_out_ < grant_fifo_depth_) {
    ++lookups_out_;
    cache_->lookup(*lookup_backlog_.front(), this);
    lookup_backlog_.pop_front();
  }
}

void PipelineBridge::drive_idle() {
  set_output_ready(true);   // m_ready is held high: the fabric never refuses
  drive_input(nullptr);
  drive_grant(false, 0, 0);
  drive_completion(false, 0, 0);
  drive_fill(false, 0, nullptr);
  drive_credit(false, 0);
}

void PipelineBridge::drive(uint64_t e) {
  edge_ = Edge{};
  if (gate_) {   // the link may refuse: a paused link that already holds a packet
    edge_.out_ready = gate_->free_at_edge(e, 0);
    set_output_ready(edge_.out_ready);
  }
  if (!input_queue_.empty() && input_queue_.front()->now_times().arrive_fs < e) edge_.head = input_queue_.front();
  const CtxGrant* grant = grants_.offered(e);
  const Completion* cpl = completions_.offered(e);
  const Fill* fill = fills_.offered(e);
  edge_.grant_offered = grant != nullptr;
  edge_.cpl_offered = cpl != nullptr;
  edge_.fill_offered = fill != nullptr;
  drive_input(edge_.head);
  drive_grant(grant != nullptr, grant ? grant->id : 0, grant ? grant->data_entry : 0);
  drive_fill(fill != nullptr, fill ? fill->entry : 0, fill ? &fill->record : nullptr);
  drive_completion(cpl != nullptr, cpl ? cpl->slot : 0, cpl ? cpl->seq : 0);
  // one fetched payload of the message the segmenter waits for, per cycle
  edge_.credit_offered = credit_due();
  edge_.credit_id = wait_id_;
  drive_credit(edge_.credit_offered, edge_.credit_id);
}

void PipelineBridge::sample(uint64_t e) {
  Edge& x = edge_;
  x.in_fire = x.head && input_ready();
  x.grant_fire = x.grant_offered && grant_ready();
  // Only a packet's first flit hands the request on; the wire model
  // serializes the whole packet.
  if (x.out_ready) {
    x.out_fire = output_valid() && output_first();
  } else if (output_valid()) {   // (only with an output gate: its link refused)
    ++output_blocked_cycles_;
  }
  x.out_id = x.out_fire ? output_id() : 0;
  if (x.out_fire) {
    x.out_pkt = output_packet();
    x.out_last = output_last_packet();
  }
  {
    uint32_t id = 0;
    if (data_waiting(id)) waiting_ = true, wait_id_ = id;
  }
  if (x.out_fire && has_context_ram()) x.header = output_header();
  x.fill_fire = x.fill_offered && fill_ready();
  if (x.fill_offered && !x.fill_fire) ++fill_stall_cycles_;
  x.wb = context_writeback(x.wb_entry, x.wb_psn);
  uint32_t waiting_id = 0;
  if (ctx_waiting(waiting_id)) {
    ++ctx_wait_cycles_;
    Request* w = in_flight(waiting_id);
    sc_assert(w && "RTL reports a context wait for an unknown id");
    w->now_times().ctx_wait_fs += period_fs_;
  }
  if (ctx_fill_waiting(waiting_id)) {   // the record is on chip, its words still being written
    ++ctx_fill_wait_cycles_;
    Request* w = in_flight(waiting_id);
    sc_assert(w && "RTL reports a context-RAM wait for an unknown id");
    w->now_times().ctx_wait_fs += period_fs_;
  }
  if (x.head && !x.in_fire) ++stall_cycles_;
  x.ord = order_events();
  if (x.ord.issue) {   // the order tracker numbered a request in its queue
    Request* r = in_flight(x.ord.issue_id);
    sc_assert(r && "order tracker issued an id it was never given");
    r->ord_slot = x.ord.slot;
    r->ord_seq = x.ord.seq;
    if (x.ord.released) r->ord_release_fs = e;
  }
  if (x.ord.in_hold) {   // the tracker takes a request into its hold window
    Request* r = in_flight(x.ord.in_id);
    sc_assert(r && "order tracker holds an id it was never given");
    r->ord_hold_fs = e;
  }
  if (x.ord.error) {
    x.errored = in_flight(x.ord.error_id);
    sc_assert(x.errored && "order tracker rejected an id it was never given");
  }
  reports_ += x.ord.report;
}

bool PipelineBridge::apply(uint64_t e) {
  Edge& x = edge_;
  if (x.grant_fire) {
    pinned_.emplace(grants_.front().id, grants_.front());
    grants_.pop();
    --lookups_out_;   // its grant-FIFO entry is free: the next request's lookup goes out
    issue_lookups();
  }
  if (x.wb) {   // the RTL wrote an entry's next PSN back (at the previous edge)
    if (psn_.empty()) psn_.assign(rtl_variant::kCacheMaxEntries, 0), dirty_.assign(rtl_variant::kCacheMaxEntries, 0);
    psn_[x.wb_entry] = x.wb_psn;
    dirty_[x.wb_entry] = 1;
  }
  if (x.fill_fire) {
    if (psn_.empty()) psn_.assign(rtl_variant::kCacheMaxEntries, 0), dirty_.assign(rtl_variant::kCacheMaxEntries, 0);
    const Fill& f = fills_.front();
    psn_[f.entry] = static_cast<uint32_t>(f.record.get(psn_field()));
    dirty_[f.entry] = 0;
    fills_.pop();
    ++fills_taken_;
  }
  if (x.credit_offered) {   // taken every cycle: the buffer was counted when its fetch started
    --payloads_[x.credit_id].ready;
    ++credits_;
  }
  bool fetching = false;   // a fetch is new activity outside the block: stop stepping ahead
  if (waiting_) {
    Request* m = in_flight(wait_id_);
    sc_assert(m && "the segmenter waits for payload of an unknown message");
    fetching = fetch_payloads(*m, e);
  }
  if (x.cpl_offered) {   // the tracker takes a completion every cycle
    completions_.pop();
    ++completions_taken_;
  }
  if (x.errored) {   // an error completion: the request ends here, visibly
    x.errored->error = true;
    x.errored->error_code = x.ord.error_code;
    in_flight_.erase(static_cast<uint32_t>(x.errored->id));
    release_records(static_cast<uint32_t>(x.errored->id), e);
    hand_off(e, *x.errored, Handoff::FinishEarly);
    ++errors_;
  }
  if (x.in_fire) {
    HopTimes& t = x.head->now_times();
    t.start_fs = e;
    t.align_fs = (t.arrive_fs / period_fs_ + 1) * period_fs_ - t.arrive_fs;
    in_flight_.emplace(static_cast<uint32_t>(x.head->id), x.head);
    input_queue_.pop_front();
    queue_.change(e, -1);   // it left the input queue at this edge
    ++accepted_;
  }
  if (x.out_fire) {
    auto it = in_flight_.find(x.out_id);
    sc_assert(it != in_flight_.end() && "RTL emitted an id it was never given");
    Request* m = it->second;
    if (has_context_ram()) check_header(*m, x.header);
    Request* r = x.out_pkt == 0 ? m : make_packet(*m, x.out_pkt);
    if (has_context_ram()) {   // the transport checks its engine's PSN against the header's
      r->psn = x.header.psn;
      r->has_psn = true;
    }
    if (x.out_pkt >= m->data_pkts) --buffers_in_use_;   // its payload buffer is being sent from
    if (x.out_last) {
      release_records(x.out_id, e);
      in_flight_.erase(it);
      payloads_.erase(x.out_id);
      if (waiting_ && wait_id_ == x.out_id) waiting_ = false;
    }
    hand_off(e, *r, Handoff::Forward);
    ++delivered_;
    // a response of a tracked request: its completion is known to the
    // controller's send side from this edge on, once all of its packets
    // have passed
    if (completion_sink_) {
      Request& msg = r->message();
      if (++msg.rx_done == msg.pkts && msg.ord_slot >= 0) completion_sink_->complete(msg, e);
    }
  }
  return x.out_fire || x.errored || fetching;
}

void PipelineBridge::on_skipped(uint64_t first, uint64_t count) {
  uint32_t id = 0;
  if (!model_quiet() || !ctx_waiting(id)) return;   // an idle pipeline: nothing to account
  // the request kept waiting at the gate on every skipped edge (the block's
  // state and inputs did not change), and so did any request queued at the
  // refused input from its arrival on
  Request* w = in_flight(id);
  sc_assert(w && "RTL reports a context wait for an unknown id");
  ctx_wait_cycles_ += count;
  w->now_times().ctx_wait_fs += count * period_fs_;
  if (!input_queue_.empty()) {
    const uint64_t arrive = input_queue_.front()->now_times().arrive_fs;
    const uint64_t from = std::max(first, arrive / period_fs_ + 1);
    if (first + count > from) stall_cycles_ += first + count - from;
  }
}

void PipelineBridge::collect_stats(StatsTable& table) const {
  const uint64_t end = now_fs();
  const std::string n = name();
  table.add(n, "accepted", static_cast<double>(accepted_), "ops", "input handshakes of the RTL pipeline");
  table.add(n, "delivered", static_cast<double>(delivered_), "ops", "packets out of the RTL pipeline (first flits)");
  collect_clock_stats(table);
  table.add(n, "stall_cycles", static_cast<double>(stall_cycles_), "cycles",
            "cycles a queued request was refused by s_ready (back-pressure)");
  table.add(n, "order_errors", static_cast<double>(errors_), "ops",
            "requests rejected by the order tracker (error completion)");
  table.add(n, "order_completions", static_cast<double>(completions_taken_), "ops",
            "completions taken by the order tracker");
  table.add(n, "ctx_wait_cycles", static_cast<double>(ctx_wait_cycles_), "cycles",
            "cycles a request waited at ctx_gate for its context records (cache refill)");
  if (cache_)
    table.add(n, "lookup_credit_waits", static_cast<double>(lookup_credit_waits_), "ops",
              "requests whose context-cache lookup waited for a free entry in the grant FIFO");
  if (has_context_ram()) {
    table.add(n, "ctx_fills", static_cast<double>(fills_taken_), "records",
              "refilled records taken into the context RAM's fill buffer");
    table.add(n, "ctx_fill_wait_cycles", static_cast<double>(ctx_fill_wait_cycles_), "cycles",
              "cycles a request waited at the context RAM while refill words were written (part of the refill wait)");
    table.add(n, "ctx_fill_stall_cycles", static_cast<double>(fill_stall_cycles_), "cycles",
              "cycles a refilled record waited for room in the fill buffer");
  }
  if (segments()) {
    table.add(n, "later_packets", static_cast<double>(later_packets_), "packets",
              "packets after the first of a message (segmentation)");
    table.add(n, "payload_fetches", static_cast<double>(fetches_), "packets",
              "packet payloads the send engine fetched (beyond what came with the message)");
    table.add(n, "payload_credits", static_cast<double>(credits_), "packets", "fetched payloads handed to the segmenter");
  }
  if (gate_)
    table.add(n, "output_blocked_cycles", static_cast<double>(output_blocked_cycles_), "cycles",
              "cycles a packet waited on m_ready: its link paused with a packet already held (link-level pause)");
  table.add(n, "queue_mean", queue_.mean(end), "requests", "time-weighted mean of requests waiting at the input");
  table.add(n, "queue_max", queue_.max(), "requests", "most requests waiting at the input at once");
}

}  // namespace ubsim
