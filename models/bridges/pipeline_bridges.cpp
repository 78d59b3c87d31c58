#include "pipeline_bridges.h"

#include <fmt/format.h>

#include "block_config.h"
#include "rtl_variant.h"

namespace ubsim {

// ---------------- the tops' input fields ----------------
namespace {
// The message a send pipeline cuts into packets: the payload bytes this
// direction carries (none for a read request), and how many of its packets
// have their payload with it (the bridge fetches the rest).
template <class Model>
void drive_message(Model& m, const Request& r) {
  m.s_len = carries_payload(r) ? static_cast<uint32_t>(r.size) : 0;
  m.s_data_pkts = r.data_pkts;
}
}  // namespace

ContextRam::Header PipelineTraits<Vub_tx_pipeline>::header(const Vub_tx_pipeline___024root& m) {
  return {m.m_psn, m.m_peer_tp};
}
ContextRam::Header PipelineTraits<Vroce_tx_pipeline>::header(const Vroce_tx_pipeline___024root& m) {
  return {m.m_psn, m.m_dest_qpn};
}

void PipelineTraits<Vub_tx_pipeline>::drive_input(Vub_tx_pipeline___024root& m, const Request& head) {
  m.s_id = static_cast<uint32_t>(head.id);
  m.s_ctx = head.ctx;
  m.s_load = head.current().op == Op::UbLoadTx;
  drive_message(m, head);
  // A new URMA request from the initiator is ordered in its Jetty; responses
  // and Load/Store accesses are not.
  m.s_ord_track = head.current().op == Op::UbTx && head.current().node == NodeId::A;
  m.s_ord_jetty = static_cast<uint16_t>(head.local_ep & 0xfff);
  m.s_ord_mode = head.ord_mode;
  m.s_ord_tag = head.ord_tag;
  m.s_ord_fence = head.fence;
  m.s_ord_comp_order = head.comp_order;
  m.s_ord_rdat = head.verb == Verb::Read;
  m.s_ord_payload = static_cast<uint32_t>(head.size);
}

void PipelineTraits<Vroce_tx_pipeline>::drive_input(Vroce_tx_pipeline___024root& m, const Request& head) {
  m.s_id = static_cast<uint32_t>(head.id);
  m.s_ctx = head.ctx;
  drive_message(m, head);
  // RC: a new request from the initiator is ordered in its QP
  m.s_ord_track = head.current().op == Op::NicTx && head.current().node == NodeId::A;
  m.s_ord_tag = head.ord_tag;
  m.s_ord_fence = head.fence;
  m.s_ord_comp_order = head.comp_order;
  m.s_ord_rdat = head.verb == Verb::Read;
}

void PipelineTraits<Vrx_pipeline>::drive_input(Vrx_pipeline___024root& m, const Request& head) {
  m.s_id = static_cast<uint32_t>(head.id);
  m.s_short = head.current().op == Op::UbLoadRx;
}

template <class Model>
void SendPipelineBridge<Model>::configure() {
  ubsim::configure(this->model(), this->cfg_, this->ctx_.attached());
}
void RxBridge::configure() { ubsim::configure(model(), cfg_, full_key_, short_key_, ctx_.attached()); }

// ---------------- the edge ----------------
namespace {
template <bool kSend>
auto make_parts(const Config& c, enc::Field f) {
  if constexpr (kSend)
    return SendParts(c.count(key::transport_mtu), static_cast<uint32_t>(rtl_variant::kPayloadBuffers), f);
  else
    return NoParts{};
}
template <class T>
constexpr enc::Field psn_field_of() {
  if constexpr (T::kSend) return T::kPsnField;
  else return enc::Field{0, 24};
}
}  // namespace

template <class Model>
PipelineBridgeOf<Model>::PipelineBridgeOf(sc_core::sc_module_name name, const Config& c)
    : PipelineBridge(name, c, std::make_unique<VerilatedBlock<Model>>()),
      m_(model().rootp),
      send_(make_parts<kSend>(c, psn_field_of<T>())) {
  // read after an edge (has_work, chain_wake, on_skipped): they must hold the
  // new state there, also where the edge leaves the input logic to the
  // next settle (clock_edge.h)
  static_assert(exact_after_edge<Model>("busy") && exact_after_edge<Model>("quiet") &&
                    exact_after_edge<Model>("chain_held") && exact_after_edge<Model>("chain_tap_at0") &&
                    exact_after_edge<Model>("chain_tap_at1") && exact_after_edge<Model>("ctx_wait_id") &&
                    exact_after_edge<Model>("ram_held") && exact_after_edge<Model>("ram_due_at"),
                "a port this bridge reads after an edge is left to the next settle: make it a register's");
}

template <class Model>
bool PipelineBridgeOf<Model>::has_work() const {
  if ((!m_->quiet && (!input_.empty() || m_->busy)) || ctx_.grants_pending()) return true;
  if constexpr (kSend)
    return send_.order.pending() || send_.ram.fills_pending() || send_.payload.credit_due();
  return false;
}

template <class Model>
bool PipelineBridgeOf<Model>::step_block(uint64_t k, uint64_t& wake) {
  const uint64_t e = edge_fs(k);
  Edge x;   // (a local: the stores to the model's byte-wide ports cannot alias it)
  auto& b = static_cast<VerilatedBlock<Model>&>(block());
  bool out;
  if (kSend && idle_driven_ && nothing_offered(e)) {
    // A quiet edge: the ports already hold what drive_edge would write, and
    // an edge whose settled outputs ask for nothing has nothing to sample or
    // apply (most edges of a request's pass through a send pipeline; a
    // receive pipeline has too few for the flag to pay: docs/performance.md).
    bool seen = false;
    b.edge(k, period_fs_, [] { return Driven::Nothing; }, [&] {
      seen = attention();
      if (seen) {
        idle_edge(x);
        sample_edge(x, e);
      }
    });
    out = seen && apply_edge(x, e);
  } else {
    // (a send pipeline's drive says when it offered the request alone of its
    // input handshakes: the settle then takes the copy for that case,
    // rtl/blocks.json settle_driven, without testing the ports)
    b.edge(k, period_fs_,
           [&] {
             drive_edge(x, e);
             if constexpr (kSend)
               return x.head && !(x.grant_offered || x.fill_offered || x.cpl_offered || x.credit_offered)
                          ? Driven::RequestAlone
                          : Driven::Unknown;
             else
               return Driven::Unknown;
           },
           [&] { sample_edge(x, e); });
    out = apply_edge(x, e);
    // (with nothing offered the only port drive_edge writes from the
    // bridge's state is s_credit_id, the message the segmenter waits for:
    // it changes only while one waits, and then nothing_offered() is false)
    if constexpr (kSend)
      idle_driven_ = !gate_ && !(x.head || x.grant_offered || x.fill_offered || x.cpl_offered || x.credit_offered);
  }
  wake = chain_wake(k);
  return out;
}

// nothing_offered() and idle_edge() mirror drive_edge's parts and its Edge
// fields with nothing offered (a change there changes them). One function
// for both, filling the Edge before the choice, was measured: +400 to +550
// per read, paid on every edge (docs/performance.md).
template <class Model>
bool PipelineBridgeOf<Model>::nothing_offered(uint64_t e) {
  if (input_.offered(e) || ctx_.offered(e)) return false;
  if constexpr (kSend) {
    if (send_.ram.offered(e) || send_.order.offered(e) || send_.payload.is_waiting()) return false;
  }
  return true;
}

template <class Model>
bool PipelineBridgeOf<Model>::attention() const {
  // every output sample_edge acts on when nothing is offered
  if constexpr (kSend) {
    const auto& m = *m_;
    unsigned any = m.m_valid | m.ctx_wait | m.wb_valid | m.data_wait | m.ctx_fill_wait | m.ord_issue | m.ord_in_hold |
                   m.m_rep_valid;
    if constexpr (T::kErrors) any |= m.m_err_valid;
    return any != 0;
  } else {
    return true;   // (never asked: a receive pipeline takes no quiet path)
  }
}

template <class Model>
void PipelineBridgeOf<Model>::idle_edge(Edge& x) const {
  // what drive_edge sets with nothing offered and no output gate
  x.out_ready = true;
  x.head = nullptr;
  x.grant_offered = false;
  if constexpr (kSend) {
    x.fill_offered = false;
    x.cpl_offered = false;
    x.credit_offered = false;
    x.credit_id = send_.payload.wait_id();
  }
}

namespace {
// A pipeline whose context RAM reports its read in flight (ram_held,
// ram_due_at: the RoCE pipeline's QP-context RAM): the cycles from edge k
// to the word's (cfg_now's 16 bits); 0 without one. While a stimulus is
// recorded, every edge of the read (1): the reference it is replayed into
// moves the word through registers (rtl/v1/ram_sp_v1.sv), and a replay
// has the recorded edges only.
template <class R>
auto ram_wake(const R& r, uint64_t k, bool every_edge, int) -> decltype(r.ram_held, uint64_t()) {
  if (!r.ram_held) return 0;
  return every_edge ? 1 : (r.ram_due_at - k) & 0xffffu;
}
template <class R>
uint64_t ram_wake(const R&, uint64_t, bool, long) {
  return 0;
}
}  // namespace

template <class Model>
uint64_t PipelineBridgeOf<Model>::chain_wake(uint64_t k) const {
  // the chains' time: cfg_now (the edge index) modulo 2 x MAX_CHAIN; a held
  // item's tap is never at or before the edge that last moved the chain
  constexpr uint64_t kMask = 2 * rtl_variant::kMaxChain - 1;
  const unsigned held = m_->chain_held;
  uint64_t w = ram_wake(*m_, k, recording_, 0);
  if (held == 0) return w;
  if (w == 0) w = ~uint64_t{0};
  if (held & 1u) w = std::min<uint64_t>(w, (m_->chain_tap_at0 - k) & kMask);
  if (held & 2u) w = std::min<uint64_t>(w, (m_->chain_tap_at1 - k) & kMask);
  return w;
}

template <class Model>
RtlBridge::Steps PipelineBridgeOf<Model>::step_edges(StepLimit& lim, uint64_t now) {
  return step_edges_as(lim, now, [this] { return PipelineBridgeOf::has_work(); },
                       [this](uint64_t k, uint64_t& w) { return PipelineBridgeOf::step_block(k, w); });
}

template <class Model>
void PipelineBridgeOf<Model>::drive_idle() {
  idle_driven_ = false;   // (s_credit_id as 0, not as drive_edge writes it)
  m_->m_ready = 1;   // held high: the fabric never refuses
  m_->s_valid = 0;
  m_->s_grant_valid = 0;
  m_->s_grant_id = 0;
  if constexpr (kSend) {
    m_->s_grant_entry = 0;
    m_->s_cpl_valid = 0;
    m_->s_cpl_slot = 0;
    m_->s_cpl_seq = 0;
    m_->s_fill_valid = 0;
    m_->s_fill_entry = 0;
    m_->s_credit_valid = 0;
    m_->s_credit_id = 0;
  }
}

template <class Model>
void PipelineBridgeOf<Model>::drive_edge(Edge& x, uint64_t e) {
  auto& m = *m_;
  // (every field of the edge is written by drive or sample before apply
  // reads it, or read only where it was written: out_pkt, out_last and the
  // header with out_fire; not cleared as a whole every cycle)
  x.out_ready = true;
  if (gate_) {   // the link may refuse: a paused link that already holds a packet
    x.out_ready = gate_->free_at_edge(e, 0);
    m.m_ready = x.out_ready;
  }
  x.head = input_.offered(e);
  m.s_valid = x.head != nullptr;
  if (x.head) T::drive_input(m, *x.head);
  const CtxGrant* grant = ctx_.offered(e);
  x.grant_offered = grant != nullptr;
  m.s_grant_valid = x.grant_offered;
  m.s_grant_id = grant ? grant->id : 0;
  if constexpr (kSend) {
    m.s_grant_entry = grant ? grant->data_entry : 0;
    const ContextRam::Fill* fill = send_.ram.offered(e);
    x.fill_offered = fill != nullptr;
    m.s_fill_valid = x.fill_offered;
    m.s_fill_entry = fill ? fill->entry : 0;
    if (fill) {
      constexpr size_t kWords = sizeof(m.s_fill_data) / sizeof(uint32_t);
      const auto& w = fill->record.words();
      for (size_t i = 0; i < kWords; ++i) m.s_fill_data[i] = i < w.size() ? w[i] : 0u;
    }
    const OrderPort::Completion* cpl = send_.order.offered(e);
    x.cpl_offered = cpl != nullptr;
    m.s_cpl_valid = x.cpl_offered;
    m.s_cpl_slot = static_cast<uint8_t>(cpl ? cpl->slot : 0);
    m.s_cpl_seq = static_cast<uint8_t>(cpl ? cpl->seq : 0);
    // one fetched payload of the message the segmenter waits for, per cycle
    x.credit_offered = send_.payload.credit_due();
    x.credit_id = send_.payload.wait_id();
    m.s_credit_valid = x.credit_offered;
    m.s_credit_id = x.credit_id;
  }
}

template <class Model>
void PipelineBridgeOf<Model>::sample_edge(Edge& x, uint64_t e) {
  const auto& m = *m_;
  x.in_fire = x.head && m.s_ready;
  x.grant_fire = x.grant_offered && m.s_grant_ready;
  // Only a packet's first flit hands the request on; the wire model
  // serializes the whole packet.
  x.out_fire = false;
  if (x.out_ready) {
    x.out_fire = m.m_valid && m.m_first;
  } else if (m.m_valid) {   // (only with an output gate: its link refused)
    ++output_blocked_cycles_;
  }
  x.out_id = x.out_fire ? m.m_id : 0;
  if constexpr (kSend) {
    if (x.out_fire) {
      x.out_pkt = m.m_pkt;
      x.out_last = m.m_pkt_last;
    }
    if (m.data_wait) send_.payload.waiting(m.data_wait_id);
    if (x.out_fire) x.header = T::header(m);
    x.fill_fire = x.fill_offered && m.s_fill_ready;
    if (x.fill_offered && !x.fill_fire) send_.ram.fill_refused();
    x.wb = m.wb_valid;
    if (x.wb) {
      x.wb_entry = m.wb_entry;
      x.wb_psn = m.wb_psn;
    }
  }
  if (m.ctx_wait) waited_for_context(m.ctx_wait_id);
  if constexpr (kSend) {
    if (m.ctx_fill_wait) {   // the record is on chip, its words still being written
      ++ctx_fill_wait_cycles_;
      waited_for_context(m.ctx_fill_wait_id, 1, false);
    }
  }
  if (x.head && !x.in_fire) input_.refused();
  if constexpr (kSend) {
    if (m.ord_issue) {   // the order tracker numbered a request in its queue
      Request* r = in_flight(m.ord_issue_id);
      sc_assert(r && "order tracker issued an id it was never given");
      r->ord_slot = m.ord_issue_slot;
      r->ord_seq = m.ord_issue_seq;
      if (m.ord_issue_released) r->ord_release_fs = e;
    }
    if (m.ord_in_hold) {   // the tracker takes a request into its hold window
      Request* r = in_flight(m.ord_in_id);
      sc_assert(r && "order tracker holds an id it was never given");
      r->ord_hold_fs = e;
    }
    if constexpr (T::kErrors) {
      x.errored = nullptr;
      if (m.m_err_valid) {
        x.errored = in_flight(m.m_err_id);
        sc_assert(x.errored && "order tracker rejected an id it was never given");
        x.error_code = m.m_err_code;
      }
    }
    if (m.m_rep_valid) send_.order.reported();
  }
}

template <class Model>
bool PipelineBridgeOf<Model>::apply_edge(Edge& x, uint64_t e) {
  // a fetch, or a lookup issued, is new activity outside the block: stop stepping ahead
  bool fetching = false;
  if (x.grant_fire && ctx_.taken()) {   // a lookup waited for the grant FIFO entry the gate freed
    hand_off(e, &ctx_);
    fetching = true;
  }
  if constexpr (kSend) {
    if (x.wb) send_.ram.written_back(x.wb_entry, x.wb_psn);   // (the RTL wrote it at the previous edge)
    if (x.fill_fire) send_.ram.fill_taken();
    if (x.credit_offered) send_.payload.credited(x.credit_id);   // taken every cycle
    if (send_.payload.is_waiting()) {
      Request* m = in_flight(send_.payload.wait_id());
      sc_assert(m && "the segmenter waits for payload of an unknown message");
      if (send_.payload.fetch(*m, e, name(), [&](Request& f) { hand_off(e, f, Handoff::Launch); })) fetching = true;
    }
    if (x.cpl_offered) send_.order.taken();   // the tracker takes a completion every cycle
    if (x.errored) {   // an error completion: the request ends here, visibly
      x.errored->error = true;
      x.errored->error_code = x.error_code;
      const auto id = static_cast<uint32_t>(x.errored->id);
      in_flight_.erase(id);
      ctx_.release(id, e);
      hand_off(e, *x.errored, Handoff::FinishEarly);
      send_.order.rejected();
    }
  }
  if (x.in_fire) {
    Request& r = input_.take(e);
    in_flight_.emplace(static_cast<uint32_t>(r.id), &r);
  }
  if (x.out_fire) {
    Request* const* found = in_flight_.find(x.out_id);
    sc_assert(found && "RTL emitted an id it was never given");
    Request* m = *found;
    Request* r = m;
    if constexpr (kSend) {
      // the header: the peer its record names, consecutive PSNs per record
      uint32_t record = m->ctx;   // without a cache: the entry the request names
      uint32_t want = 0;
      if (ctx_.attached()) {
        const CtxGrant* pin = ctx_.pinned(x.out_id);
        sc_assert(pin && "a packet left without its grant");
        record = pin->data_key;
        want = expected_peer_id(ctx_.cache()->stack(), ctx_.cache()->node(), *m);
      }
      send_.ram.check(name(), m->id, record, x.header, ctx_.attached() ? &want : nullptr);
      if (x.out_pkt != 0) r = send_.seg.packet(*m, x.out_pkt);
      r->psn = x.header.psn;   // the transport checks its engine's PSN against the header's
      r->has_psn = true;
      if (x.out_pkt >= m->data_pkts) send_.payload.buffer_sent();   // its payload buffer is being sent from
    }
    if (x.out_last) {
      ctx_.release(x.out_id, e);
      in_flight_.erase(x.out_id);
      if constexpr (kSend) send_.payload.done(x.out_id);
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

template <class Model>
void PipelineBridgeOf<Model>::on_skipped(uint64_t first, uint64_t count) {
  if (!m_->quiet) return;   // an idle pipeline (quiet: a request waits at the gate, nothing else)
  // the request kept waiting at the gate on every skipped edge (the block's
  // state and inputs did not change), and so did any request queued at the
  // refused input from its arrival on
  waited_for_context(m_->ctx_wait_id, count);
  input_.refused_while_skipped(first, count);
}

namespace {
// Set bits of a verilated vector port (any width).
template <class T>
unsigned ones(const T& v) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<unsigned>(__builtin_popcountll(static_cast<unsigned long long>(v)));
  } else {
    unsigned n = 0;
    for (size_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) n += static_cast<unsigned>(__builtin_popcount(v[i]));
    return n;
  }
}
}  // namespace

template <class Model>
void PipelineBridgeOf<Model>::holdings(std::vector<Holding>& out) const {
  const auto& m = *m_;
  if (!input_.empty())
    out.push_back({"", fmt::format("its input: {} request(s) queued, s_ready {}", input_.size(), m.s_ready ? 1 : 0)});
  if (!in_flight_.empty()) {
    Holding h{fmt::format("{} request(s) inside the RTL ({} with context records pinned)", in_flight_.size(),
                          ctx_.pinned_count()),
              "its stages"};
    if (gate_ && m.m_valid && !gate_->free_at_edge(now_fs(), 0)) {
      h.waits = "its output link (paused: m_ready low)";
    } else if (m.ctx_wait) {
      h.waits = fmt::format("the context records of request {} at ctx_gate (a refill)", m.ctx_wait_id);
      h.on = dynamic_cast<const StageComponent*>(ctx_.cache());
    } else if constexpr (kSend) {
      if (m.data_wait) h.waits = fmt::format("the payload of message {} (a fetch over the bus)", m.data_wait_id);
    }
    out.push_back(std::move(h));
  }
  if constexpr (kSend) {
    if (const unsigned slots = ones(m.ord_slot_valid))
      out.push_back({fmt::format("{} order-tracker slot(s) ({} held back for order)", slots, ones(m.ord_held)),
                     "their completions (each response's last packet at this node's receive pipeline)"});
  }
}

template <class Model>
void PipelineBridgeOf<Model>::returned(Request& f) {
  if constexpr (kSend) send_.payload.fetched(f);   // a payload fetch came back
  else PipelineBridge::returned(f);
}

template <class Model>
void PipelineBridgeOf<Model>::collect_stats(StatsTable& table) const {
  const uint64_t end = now_fs();
  const std::string n = name();
  table.add(n, "accepted", static_cast<double>(input_.accepted()), "ops", "input handshakes of the RTL pipeline");
  table.add(n, "delivered", static_cast<double>(delivered_), "ops", "packets out of the RTL pipeline (first flits)");
  collect_clock_stats(table);
  table.add(n, "stall_cycles", static_cast<double>(input_.stall_cycles()), "cycles",
            "cycles a queued request was refused by s_ready (back-pressure)");
  uint64_t errors = 0, completions = 0;
  if constexpr (kSend) errors = send_.order.errors(), completions = send_.order.completions_taken();
  table.add(n, "order_errors", static_cast<double>(errors), "ops",
            "requests rejected by the order tracker (error completion)");
  table.add(n, "order_completions", static_cast<double>(completions), "ops",
            "completions taken by the order tracker");
  table.add(n, "ctx_wait_cycles", static_cast<double>(ctx_wait_cycles_), "cycles",
            "cycles a request waited at ctx_gate for its context records (cache refill)");
  if (ctx_.attached())
    table.add(n, "lookup_credit_waits", static_cast<double>(ctx_.credit_waits()), "ops",
              "requests whose context-cache lookup waited for a free entry in the grant FIFO");
  if constexpr (kSend) {
    table.add(n, "ctx_fills", static_cast<double>(send_.ram.fills_taken()), "records",
              "refilled records taken into the context RAM's fill buffer");
    table.add(n, "ctx_fill_wait_cycles", static_cast<double>(ctx_fill_wait_cycles_), "cycles",
              "cycles a request waited at the context RAM while refill words were written (part of the refill wait)");
    table.add(n, "ctx_fill_stall_cycles", static_cast<double>(send_.ram.fill_stall_cycles()), "cycles",
              "cycles a refilled record waited for room in the fill buffer");
    table.add(n, "later_packets", static_cast<double>(send_.seg.later_packets()), "packets",
              "packets after the first of a message (segmentation)");
    table.add(n, "payload_fetches", static_cast<double>(send_.payload.fetches()), "packets",
              "packet payloads the send engine fetched (beyond what came with the message)");
    table.add(n, "payload_credits", static_cast<double>(send_.payload.credits()), "packets",
              "fetched payloads handed to the segmenter");
  }
  if (gate_)
    table.add(n, "output_blocked_cycles", static_cast<double>(output_blocked_cycles_), "cycles",
              "cycles a packet waited on m_ready: its link paused with a packet already held (link-level pause)");
  table.add(n, "queue_mean", input_.queue().mean(end), "requests", "time-weighted mean of requests waiting at the input");
  table.add(n, "queue_max", input_.queue().max(), "requests", "most requests waiting at once");
}

template class PipelineBridgeOf<Vub_tx_pipeline>;
template class PipelineBridgeOf<Vroce_tx_pipeline>;
template class PipelineBridgeOf<Vrx_pipeline>;
template class SendPipelineBridge<Vub_tx_pipeline>;
template class SendPipelineBridge<Vroce_tx_pipeline>;

}  // namespace ubsim
