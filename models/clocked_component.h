// ClockedComponent: a stage component that owns a Verilator-compiled model
// (plain C++) and clocks it on the global controller clock grid (edge k at
// k * period).
//
// Stepping: one SC_THREAD steps the model only while it has work; idle
// cycles are skipped and counted, so the cycle count stays exact. While busy
// it runs edges ahead of SystemC time in a tight loop, but never past the
// kernel's next pending activity: no other process can run before then, so
// no input can arrive that the evaluated edges should have seen
// (conservative lookahead). It stops at the first edge that hands something
// out, which is delivered at that edge's time.
//
// Timing rule: an input arriving at time t is sampled at the first edge
// strictly after t. Derived classes evaluate each edge as a step / apply
// split: drive inputs and settle the combinational outputs with the clock
// low, decide every handshake, then apply the edge, so no update-order race
// is possible.
#pragma once
#include <memory>
#include <string>

#include "component.h"
#include "model_params.h"

class VerilatedContext;
class VerilatedFstC;

namespace ubsim {

class ClockedComponent : public StageComponent {
 public:
  ClockedComponent(sc_core::sc_module_name name, const ModelParams& p);
  ~ClockedComponent() override;
  // Dumps this model's waveform to an FST file (before the simulation starts).
  void open_trace(const std::string& path);
  void close_trace();
  uint64_t cycles_evaluated() const { return cycles_evaluated_; }

 protected:
  virtual bool has_work() const = 0;
  // Evaluates edge k (step, then apply); true if something left the model on
  // it, which ends the run-ahead so it is delivered at that edge's time.
  virtual bool step_edge(uint64_t k) = 0;
  virtual void trace_model(VerilatedFstC* tfp) = 0;
  // Drives the inputs of a cycle in which nothing is offered, clock low, and
  // settles the model: called before an idle gap when a trace is open, so
  // the waveform shows the idle inputs instead of the last offered ones.
  virtual void settle_idle() = 0;

  // An input for the model arrives at at_fs (>= now): wake the stepping loop.
  void wake(uint64_t at_fs);
  uint64_t edge_fs(uint64_t k) const { return k * period_fs_; }
  // Waveform sample at time fs (no-op without an open trace).
  void trace_dump(uint64_t fs);
  VerilatedContext* context();
  // cycles_total, cycles_evaluated, cycles_skipped, utilization, kernel_wakeups
  void collect_clock_stats(StatsTable& table) const;

  const ModelParams& params_;
  const uint64_t period_fs_;

 private:
  void run();

  uint64_t next_edge_ = 1;
  sc_core::sc_event wake_event_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<VerilatedFstC> trace_;
  uint64_t cycles_evaluated_ = 0;
  uint64_t cycles_skipped_ = 0;
  uint64_t wakeups_ = 0;
};

}  // namespace ubsim
