#include "pipeline_bridge.h"

namespace ubsim {

PipelineBridge::PipelineBridge(sc_core::sc_module_name name, const Config& c, std::unique_ptr<ClockedModel> block)
    : RtlBridge(name, c, std::move(block)),
      input_(period_fs_),
      ctx_(static_cast<uint32_t>(c.count(key::cache_grant_fifo))) {
  // An arrival ahead of the kernel's time is queued, looked up and woken for
  // as of that time: the block samples it at the first edge after it, and
  // nothing here hands anything on.
  set_accepts_ahead();
}

void PipelineBridge::accept(Transaction& t) {
  const uint64_t at = arrival_fs();
  if (!t.on_route()) {   // one of its own transactions came back
    returned(as_request(t));
    wake(at);
    return;
  }
  Request& r = as_request(t);
  entered(r);
  input_.push(r, at);
  // (woken before its lookup reaches the cache: in a settle the cache, asked
  // last, steps first, and the pipeline then finds the grant on its way and
  // steps through in one run instead of stopping at its gate)
  wake(at);
  if (ctx_.attached()) ctx_.request(r, at);
}

void PipelineBridge::returned(Request& /*r*/) {
  throw std::logic_error(std::string(name()) + ": a transaction came back that this pipeline never launched");
}

void PipelineBridge::waited_for_context(uint32_t id, uint64_t cycles, bool at_gate) {
  Request* w = in_flight(id);
  sc_assert(w && "RTL reports a context wait for an unknown id");
  if (at_gate) ctx_wait_cycles_ += cycles;
  w->now_times().ctx_wait_fs += cycles * period_fs_;
}

}  // namespace ubsim
