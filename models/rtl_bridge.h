// ClockedRtlBridge: a stage component that wraps one Verilator-compiled RTL
// pipeline (plain C++ model) and clocks it on the global controller clock
// grid (edge k at k * period).
//
// Stepping: one SC_THREAD per bridge steps its model only while it has work
// (requests queued or the RTL busy); idle cycles are skipped and counted, so
// the cycle count stays exact. While busy it runs edges ahead of SystemC
// time in a tight loop, but never past the kernel's next pending activity:
// no other process can run before then, so no input can arrive that the
// evaluated edges should have seen (conservative lookahead). It stops at the
// first edge that emits an output, which is delivered at that edge's time.
//
// Timing rule: an input arriving at time t is sampled at the first edge
// strictly after t (the wait is itemized as clock-edge alignment).
// Each edge is a step / apply split: inputs are driven and the combinational
// outputs settled and sampled (handshakes decided) before the clock edge is
// applied, so no update-order race is possible.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>

#include <tlm_utils/peq_with_get.h>

#include "component.h"
#include "model_params.h"

class VerilatedContext;
class VerilatedFstC;

namespace ubsim {

class ClockedRtlBridge : public StageComponent {
 public:
  ClockedRtlBridge(sc_core::sc_module_name name, const ModelParams& p);
  ~ClockedRtlBridge() override;
  void collect_stats(StatsTable& table) const override;
  // Dumps this model's waveform to an FST file (before the simulation starts).
  void open_trace(const std::string& path);
  void close_trace();

  uint64_t cycles_evaluated() const { return cycles_evaluated_; }

 protected:
  void accept(Request& r) override;
  // Call from the derived constructor once the model exists.
  void reset_model();

  // ---- hooks onto the verilated model's ports ----
  virtual void set_clock_and_reset(bool clk, bool rst) = 0;
  virtual void configure() = 0;                     // drive cfg_* inputs
  virtual void drive_input(const Request* head) = 0;  // s_valid / s_* (head may be null)
  virtual bool input_ready() const = 0;             // s_ready
  virtual bool output_valid() const = 0;            // m_valid
  virtual uint32_t output_id() const = 0;           // m_id
  virtual bool output_first() const = 0;            // m_first: the packet starts on the wire
  virtual void set_output_ready(bool ready) = 0;    // m_ready
  virtual bool model_busy() const = 0;              // any stage holds an item
  virtual void eval() = 0;
  virtual void trace_model(VerilatedFstC* tfp) = 0;

  const ModelParams& params_;
  VerilatedContext* context();

 private:
  void run();
  void on_output();
  // Evaluates one clock edge; true if a request left the pipeline on it.
  bool step_edge(uint64_t edge_index);
  uint64_t edge_fs(uint64_t k) const { return k * period_fs_; }
  bool has_work() const { return !input_queue_.empty() || model_busy(); }

  uint64_t period_fs_;
  uint64_t next_edge_ = 1;
  std::deque<Request*> input_queue_;
  std::unordered_map<uint32_t, Request*> in_flight_;
  sc_core::sc_event input_event_;
  tlm_utils::peq_with_get<Request> output_queue_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<VerilatedFstC> trace_;
  OccupancyTracker queue_;
  uint64_t cycles_evaluated_ = 0;
  uint64_t cycles_skipped_ = 0;
  uint64_t stall_cycles_ = 0;
  uint64_t accepted_ = 0;
  uint64_t delivered_ = 0;
  uint64_t wakeups_ = 0;
};

}  // namespace ubsim
