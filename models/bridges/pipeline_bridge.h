// PipelineBridge: a stage component that wraps one verilated RTL pipeline
// (send or receive pipeline of a controller/NIC). Requests of the pipeline's
// hops enter over s_* in arrival order and leave at their first flit on m_*
// (matched by id); the clocking is RtlBridge's.
//
// What every pipeline bridge has, from parts (models/bridges/parts/): the
// requests at its input (RequestInput), its side of the node's context cache
// (ContextClient: every request's records looked up on arrival, the grants
// fed to the RTL's ctx_gate, the records pinned until the request's last
// packet leaves), the requests inside the RTL by id, and the link that may
// refuse its output (link-level pause). The send pipelines add their own
// parts (pipeline_bridges.h): the segmenter, the payload credits, the
// context RAM and the order tracker's port. The cycles a request waits at
// the gate are read from the RTL (ctx_wait / ctx_wait_id) and itemized per
// hop.
#pragma once
#include <memory>

#include "context_client.h"
#include "context_ports.h"
#include "packet.h"
#include "id_map.h"
#include "request.h"
#include "request_input.h"
#include "rtl_bridge.h"

namespace ubsim {

// Where a receive pipeline reports that a tracked request completed (the
// last packet of its response passed): its initiator's send pipeline.
class CompletionSink {
 public:
  virtual ~CompletionSink() = default;
  virtual void complete(const Request& r, uint64_t at_fs) = 0;
};

class PipelineBridge : public RtlBridge, public GrantSink {
 public:
  PipelineBridge(sc_core::sc_module_name name, const Config& c, std::unique_ptr<ClockedModel> block);
  // Consult `cache` for every request (call before the simulation starts).
  void attach_cache(ContextCacheService* cache) { ctx_.attach(cache, this); }
  void grant(const CtxGrant& g, uint64_t at_fs) override {
    ctx_.granted(g, at_fs);
    wake(at_fs);
  }
  // Receive pipelines: where the completion of a tracked request goes.
  void set_completion_sink(CompletionSink* tx) { completion_sink_ = tx; }
  // What its output link allows at an edge (m_ready follows it; none: m_ready
  // held high, the link never refuses). Link-level pause over a fabric.
  void set_output_gate(const TransmitPort* gate) { gate_ = gate; }

 protected:
  [[gnu::flatten]] void accept(Transaction& t) override;   // (flattened: once per packet)
  // A request enters (before it is queued), and a transaction of this
  // bridge's own comes back (send pipelines: a payload fetch).
  virtual void entered(Request& /*r*/) {}
  virtual void returned(Request& r);
  // A hand-off of an edge's own time: the context client's waiting lookups.
  void deliver_item(void* item) override {
    if (item == &ctx_) ctx_.issue(now_fs());
  }
  Request* in_flight(uint32_t id) const {
    Request* const* r = in_flight_.find(id);
    return r ? *r : nullptr;
  }
  // The RTL reports request `id` waiting for its context records for this
  // edge (or `cycles` edges): at its gate (a refill; counted as gate waits),
  // or at the context RAM while the refill's words are written.
  void waited_for_context(uint32_t id, uint64_t cycles = 1, bool at_gate = true);

  RequestInput input_;
  ContextClient ctx_;
  IdMap<Request*> in_flight_;
  CompletionSink* completion_sink_ = nullptr;
  const TransmitPort* gate_ = nullptr;
  uint64_t ctx_wait_cycles_ = 0, delivered_ = 0, output_blocked_cycles_ = 0;
};

}  // namespace ubsim
