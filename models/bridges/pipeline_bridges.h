// The bridges of the three verilated pipeline tops, one template over the
// model: the tops share their stream port names, so the template reads and
// drives them directly (no hook per port), and PipelineTraits<M> adds what
// differs: how a request drives the input fields, and, for the send
// pipelines, the context record's PSN field and the packet header.
//
// Every edge is drive (the inputs with the clock low) / sample (the settled
// handshakes) / apply (after the edge: the bookkeeping of what fired), in
// one fixed order over the parts:
//   every pipeline: input, context grants, output (and the link's pause);
//   send pipelines also: the segmenter (packets after the first), the
//   payload credits, the context RAM (refills in, PSN write-backs out, the
//   header check) and the order tracker's port (completions in, issue /
//   hold / error / report out).
// A pipeline whose only work is a request waiting at its context gate (its
// input refused meanwhile) changes nothing until a grant (or a completion)
// arrives: it sleeps; on_skipped accounts the wait.
#pragma once
#include <memory>
#include <type_traits>

#include "verilated_compat.h"

#include "Vroce_tx_pipeline.h"
#include "Vrx_pipeline.h"
#include "Vub_tx_pipeline.h"
#include "context_ram.h"
#include "order_port.h"
#include "payload_credits.h"
#include "pipeline_bridge.h"
#include "segmenter.h"

class Vub_tx_pipeline___024root;
class Vroce_tx_pipeline___024root;
class Vrx_pipeline___024root;

namespace ubsim {

// (on the model's root: VerilatedBridge::m_)
template <class Model>
struct PipelineTraits;

template <>
struct PipelineTraits<Vub_tx_pipeline> {
  static constexpr bool kSend = true, kErrors = true;
  static constexpr enc::Field kPsnField = enc::tp_record::next_psn;
  static void drive_input(Vub_tx_pipeline___024root& m, const Request& head);
  static ContextRam::Header header(const Vub_tx_pipeline___024root& m);
};
template <>
struct PipelineTraits<Vroce_tx_pipeline> {
  static constexpr bool kSend = true, kErrors = false;
  static constexpr enc::Field kPsnField = enc::qp_context::next_psn;
  static void drive_input(Vroce_tx_pipeline___024root& m, const Request& head);
  static ContextRam::Header header(const Vroce_tx_pipeline___024root& m);
};
template <>
struct PipelineTraits<Vrx_pipeline> {
  static constexpr bool kSend = false, kErrors = false;
  static void drive_input(Vrx_pipeline___024root& m, const Request& head);
};

// The parts only a send pipeline has.
struct SendParts {
  SendParts(uint64_t mtu, uint32_t buffers, enc::Field psn_field) : seg(mtu), payload(buffers, seg), ram(psn_field) {}
  Segmenter seg;
  PayloadCredits payload;
  ContextRam ram;
  OrderPort order;
};
struct NoParts {};

template <class Model>
class PipelineBridgeOf : public PipelineBridge {
  using T = PipelineTraits<Model>;
  static constexpr bool kSend = T::kSend;

 public:
  PipelineBridgeOf(sc_core::sc_module_name name, const Config& c);
  void collect_stats(StatsTable& table) const override;

 protected:
  bool has_work() const override;
  // (flattened: drive, sample and apply, the edge loop's three steps, are
  // inlined into it, not called once each per edge)
  [[gnu::flatten]] bool step_block(uint64_t k, uint64_t& wake) override;
  [[gnu::flatten]] Steps step_edges(StepLimit& lim, uint64_t now) override;
  void drive(uint64_t e) override {
    idle_driven_ = false;   // (its edge keeps no account of what it drove)
    drive_edge(edge_, e);
  }
  void sample(uint64_t e) override { sample_edge(edge_, e); }
  bool apply(uint64_t e) override { return apply_edge(edge_, e); }
  void drive_idle() override;
  // Cycles from edge k until the first item in the chains reaches its tap
  // (0: the chains are empty): step_block's wake (not wake_in(), which has
  // no edge index). The chains report the tap's cycle, not the distance, so
  // that a chain whose items only travel is not clocked.
  uint64_t chain_wake(uint64_t k) const;
  void on_skipped(uint64_t first, uint64_t count) override;
  void holdings(std::vector<Holding>& out) const override;
  void entered(Request& r) override {
    if constexpr (kSend) send_.seg.start(r);
  }
  void returned(Request& f) override;

  Model& model() { return static_cast<VerilatedBlock<Model>&>(block()).model(); }
  // The ports, in the model's root (VerilatedBridge::m_).
  ModelRoot<Model>* const m_;
  std::conditional_t<kSend, SendParts, NoParts> send_;

 private:
  // an edge: what is offered (drive) and what fires (sample)
  struct Edge {
    // (written by drive or sample before apply reads them, or read only
    // where they were written: no stores per edge to clear them)
    Request* head;
    bool grant_offered, cpl_offered, fill_offered;
    bool in_fire, grant_fire, out_fire, fill_fire, wb;
    bool credit_offered, out_last = true, out_ready;
    uint32_t out_pkt, credit_id;
    uint32_t wb_entry, wb_psn;
    ContextRam::Header header;
    uint32_t out_id;
    Request* errored = nullptr;
    int error_code;
  };
  Edge edge_;   // the edge stepped through the hooks (step_block keeps its own)
  void drive_edge(Edge& x, uint64_t e);
  void sample_edge(Edge& x, uint64_t e);
  bool apply_edge(Edge& x, uint64_t e);
  // A quiet edge (step_block): nothing offered at edge e, and the settled
  // outputs that ask for the bridge.
  bool nothing_offered(uint64_t e);
  bool attention() const;
  void idle_edge(Edge& x) const;
  // The ports hold what drive_edge writes with nothing offered (the last
  // edge it drove offered nothing); send pipelines only.
  bool idle_driven_ = false;
  uint64_t ctx_fill_wait_cycles_ = 0;
};

// UB controller send pipeline: URMA async (ub.tx) and Load/Store (ub.load_tx).
// PCIe NIC send pipeline (nic.tx): in-order PSN read-modify-write.
// A send pipeline's context RAM is its cache's data array, and its order
// tracker takes the completions its node's receive pipeline reports.
template <class Model>
class SendPipelineBridge : public PipelineBridgeOf<Model>, public ContextDataArray, public CompletionSink {
 public:
  using PipelineBridgeOf<Model>::PipelineBridgeOf;
  // The route a packet's payload is fetched over (its sink must be this bridge).
  void set_fetch_route(Route r) { this->send_.payload.set_route(std::move(r)); }
  void fill(uint32_t entry, const RecordBits& record, uint64_t at_fs) override {
    this->send_.ram.fill(entry, record, at_fs);
    this->wake(at_fs);
  }
  bool entry_dirty(uint32_t entry) const override { return this->send_.ram.dirty(entry); }
  uint32_t entry_psn(uint32_t entry) const override { return this->send_.ram.psn(entry); }
  // Request r (issued by this pipeline) completed, known at at_fs (>= now).
  // With no request held in the tracker, a completion can release nothing:
  // it changes only the tracker's state (its report and tidy steps), so it
  // may wait for the bridge's next activation (RtlBridge::may_defer); behind
  // a deferred one, deferred too (they stay in order).
  void complete(const Request& r, uint64_t at_fs) override {
    static_assert(exact_after_edge<Model>("ord_held"), "ord_held is read after an edge");
    const bool defer = this->may_defer() && this->m_->ord_held == 0;
    if (defer || !deferred_completions_.empty()) {
      if (!defer) this->wake(at_fs);   // the pipeline has other work: woken as for a live input
      deferred_completions_.push(at_fs, {r.ord_slot, r.ord_seq});
      return;
    }
    this->send_.order.complete(r.ord_slot, r.ord_seq, at_fs);
    this->wake(at_fs);
  }

 protected:
  void configure() override;
  uint64_t deferred_edge() const override {
    return deferred_completions_.empty() ? 0 : this->sampling_edge(deferred_completions_.front_time());
  }
  void take_deferred() override {
    const OrderPort::Completion& c = deferred_completions_.front();
    this->send_.order.complete(c.slot, c.seq, deferred_completions_.front_time());
    deferred_completions_.pop();
  }
  bool busy_on_own() const override { return this->m_->busy && !this->m_->quiet; }

 private:
  TimedQueue<OrderPort::Completion> deferred_completions_;
};

class UbTxBridge : public SendPipelineBridge<Vub_tx_pipeline> {
 public:
  using SendPipelineBridge::SendPipelineBridge;
};
class RoceTxBridge : public SendPipelineBridge<Vroce_tx_pipeline> {
 public:
  using SendPipelineBridge::SendPipelineBridge;
};

// Receive pipeline of either stack. full_key/short_key name the depths of
// its two routes (the short one serves ub.load_rx).
class RxBridge : public PipelineBridgeOf<Vrx_pipeline> {
 public:
  RxBridge(sc_core::sc_module_name name, const Config& c, Key<Unit::Cycles> full_key, Key<Unit::Cycles> short_key)
      : PipelineBridgeOf(name, c), full_key_(full_key), short_key_(short_key) {}

 protected:
  void configure() override;

 private:
  Key<Unit::Cycles> full_key_, short_key_;
};

}  // namespace ubsim
