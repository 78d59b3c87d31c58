// ClockedRtlBridge: a stage component that wraps one verilated RTL pipeline
// (send or receive pipeline of a controller/NIC). Requests of the pipeline's
// hops enter over s_* in arrival order and leave at their first flit on m_*
// (matched by id); the clocking is ClockedComponent's.
//
// With a context cache attached, every request is looked up in the node's
// cache the moment it reaches the controller (the bus interface decodes the
// record ids as it presents the request), and the cache's in-order grants
// are fed to the pipeline's ctx_gate. The cycles a request waits at the gate
// are read from the RTL (ctx_wait / ctx_wait_id) and itemized per hop.
#pragma once
#include <deque>
#include <unordered_map>
#include <utility>

#include <tlm_utils/peq_with_get.h>

#include "clocked_component.h"

namespace ubsim {

class CtxCacheBridge;

class ClockedRtlBridge : public ClockedComponent {
 public:
  ClockedRtlBridge(sc_core::sc_module_name name, const ModelParams& p);
  void collect_stats(StatsTable& table) const override;
  // Consult `cache` for every request (call before the simulation starts).
  void attach_cache(CtxCacheBridge* cache);
  // The cache grants request `id` at time at_fs (a clock edge, >= now).
  void grant(uint32_t id, uint64_t at_fs);

 protected:
  void accept(Request& r) override;
  // Call from the derived constructor once the model exists.
  void reset_model();
  bool cache_attached() const { return cache_ != nullptr; }

  // ---- hooks onto the verilated model's ports ----
  virtual void set_clock_and_reset(bool clk, bool rst) = 0;
  virtual void configure() = 0;                     // drive cfg_* inputs (incl. cfg_ctx_gate)
  virtual void drive_input(const Request* head) = 0;  // s_valid / s_* (head may be null)
  virtual bool input_ready() const = 0;             // s_ready
  virtual bool output_valid() const = 0;            // m_valid
  virtual uint32_t output_id() const = 0;           // m_id
  virtual bool output_first() const = 0;            // m_first: the packet starts on the wire
  virtual void set_output_ready(bool ready) = 0;    // m_ready
  virtual void drive_grant(bool valid, uint32_t id) = 0;  // s_grant_valid / s_grant_id
  virtual bool grant_ready() const = 0;             // s_grant_ready
  virtual bool ctx_waiting(uint32_t& id) const = 0;  // ctx_wait / ctx_wait_id
  virtual bool model_busy() const = 0;              // any stage holds an item
  virtual void eval() = 0;

 private:
  bool has_work() const override {
    return !input_queue_.empty() || model_busy() || !grants_.empty();
  }
  bool step_edge(uint64_t k) override;
  void settle_idle() override;
  void on_output();

  CtxCacheBridge* cache_ = nullptr;
  std::deque<Request*> input_queue_;
  std::deque<std::pair<uint64_t, uint32_t>> grants_;   // (arrival fs, id)
  std::unordered_map<uint32_t, Request*> in_flight_;
  tlm_utils::peq_with_get<Request> output_queue_;
  OccupancyTracker queue_;
  uint64_t stall_cycles_ = 0;
  uint64_t ctx_wait_cycles_ = 0;
  uint64_t accepted_ = 0;
  uint64_t delivered_ = 0;
};

}  // namespace ubsim
