// VerilatedBlock: the one harness every user of a verilated RTL block goes
// through (bridges, drivers, experiments, raw speed, tests): the model, its
// reset, one full clock cycle, and the FST trace.
//
// Every block lives in one process-wide VerilatedContext (FST time unit ps)
// that is never destroyed: Verilator 5.006's ~VerilatedScope erases the
// scope from the thread's current context, so destroying a model after
// another block's context is gone would touch freed memory (seen as a
// deadlock on its mutex).
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "verilated_compat.h"
#include "clock_edges.h"
#include "rtl_ports.h"
#include "stimulus.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#endif

namespace ubsim {

// What a bridge does around one clock edge of its block (VerilatedBlock::edge()),
// given the edge's time: drive the inputs with the clock low, read the
// settled handshakes.
class EdgeHooks {
 public:
  virtual void drive(uint64_t edge_fs) = 0;
  virtual void sample(uint64_t edge_fs) = 0;

 protected:
  ~EdgeHooks() = default;
};

// What the clocked bridges need of a block, whatever its model class.
class ClockedModel {
 public:
  virtual ~ClockedModel() = default;
  // Edge k of a clock grid of period_fs, the one sequence (edge()),
  // with the bridge's hooks; inside it the block's own calls are direct.
  virtual void step_edge(uint64_t k, uint64_t period_fs, EdgeHooks& hooks) = 0;
  virtual void set_clock(bool high) = 0;
  virtual void eval() = 0;
  // The rising edge after the clock-low eval() (inputs unchanged since it):
  // clk high and evaluated (see clock_edge.h).
  virtual void rise() = 0;
  // Reset: rst high over `cycles` clock edges, then low, clock low, settled.
  // Drive the inputs' idle values (and cfg_*) first.
  virtual void reset(int cycles = 4) = 0;
  virtual void open_trace(const std::string& path) = 0;
  virtual void dump(uint64_t time_ps) = 0;
  virtual void close_trace() = 0;
  virtual bool tracing() const = 0;
  // The clock grid's cycle index of the next edge, for blocks that count
  // time by it (cfg_now): the stage chains, the SACK sender's timer.
  virtual void set_now(uint64_t cycle) = 0;
  // The block's model class (its top module with the V prefix).
  virtual const char* model_name() const = 0;
  // Records every input at every reset and clock edge from here on
  // (stimulus.h); record_cycle() is called with the edge's inputs driven.
  virtual void record_to(const std::string& path) = 0;
  virtual void record_cycle() = 0;
};

// UBSIM_STIMULUS_DIR: where every block records its stimulus (stimulus.h),
// or null. One file per block instance and process: <dir>/<name>.<pid>.stim.
inline std::string stimulus_path(const std::string& name) {
  const char* dir = std::getenv("UBSIM_STIMULUS_DIR");
  if (!dir || !*dir) return {};
  return std::string(dir) + "/" + name + "." + std::to_string(::getpid()) + ".stim";
}

// Whether a model has a cfg_now input (a cycle index).
template <class M, class = void>
struct has_cfg_now : std::false_type {};
template <class M>
struct has_cfg_now<M, std::void_t<decltype(std::declval<M&>().cfg_now)>> : std::true_type {};

inline void write_rtl_coverage();

inline VerilatedContext& shared_verilated_context() {
  static VerilatedContext* const context = [] {
    auto* c = new VerilatedContext;   // never destroyed (see above)
#if VM_COVERAGE
    std::atexit([] { write_rtl_coverage(); });
#endif
    // The models are single-threaded; Verilator's default (one thread per
    // core) would start a worker pool with the first model, and a process
    // with a second thread is not safe to fork (every run forks its
    // simulations).
    c->threads(1);
    // Assertions on, always: the fast path's generated copies take the
    // switch as on (gen_ports.cmake), so nothing may turn it off
    c->assertOn(true);
    c->traceEverOn(true);
    c->timeunit(-12);                 // FST time stamps are dumped in ps
    c->timeprecision(-12);
    return c;
  }();
  return *context;
}

// Coverage builds (scripts/coverage): a process writes what its blocks
// covered to $UBSIM_COVERAGE_DIR/<pid>.dat when it ends (a forked child
// from its end_child). Compiled out elsewhere.
inline void write_rtl_coverage() {
#if VM_COVERAGE
  if (const char* dir = std::getenv("UBSIM_COVERAGE_DIR"))
    shared_verilated_context().coveragep()->write(
        (std::string(dir) + "/" + std::to_string(::getpid()) + ".dat").c_str());
#endif
}

// A verilated model on the shared context, owned like a unique_ptr. The
// context's coverage points address the model's counters, and a coverage
// build writes them all when the process ends (write_rtl_coverage): a
// destroyed model would leave them dangling, so coverage builds keep every
// model to the end. Every model on the shared context is made through it
// (VerilatedBlock, the tests' lockstep pairs).
template <class Model>
class SharedContextModel {
 public:
  explicit SharedContextModel(const char* instance)
      : model_(std::make_unique<Model>(&shared_verilated_context(), instance)) {}
  ~SharedContextModel() {
#if VM_COVERAGE
    (void)model_.release();
#endif
  }
  SharedContextModel(const SharedContextModel&) = delete;
  SharedContextModel& operator=(const SharedContextModel&) = delete;
  Model& operator*() const { return *model_; }
  Model* operator->() const { return model_.get(); }
  Model* get() const { return model_.get(); }

 private:
  std::unique_ptr<Model> model_;
};

template <class Model>
class VerilatedBlock final : public ClockedModel {
 public:
  explicit VerilatedBlock(const char* instance = "dut") : model_(instance) {}
  ~VerilatedBlock() override { close_trace(); }
  Model& model() { return *model_; }
  const Model& model() const { return *model_; }
  Model* operator->() { return model_.get(); }

  void step_edge(uint64_t k, uint64_t period_fs, EdgeHooks& hooks) override;
  // The one sequence a block is stepped by, edge k of a clock grid of
  // period_fs (every bridge and driver, through step_edge() or directly):
  // cfg_now set to k, the inputs driven with the clock low (drive), the
  // recorded stimulus, the block settled and its waveform dumped half a
  // period before the edge, the settled handshakes read (sample), then the
  // rising edge and its dump. Without a waveform or a stimulus recording
  // (the usual case) the same steps without a question per edge about
  // either. A drive that returns a Driven says what it drove (the block's
  // settle_driven valid alone, or no input valid; clock_edge.h): the settle
  // then takes the copy for that case without testing the ports.
  // kCaller EveryCycle: a driver that clocks the block in every cycle and
  // reads neither busy nor quiet (after this edge or any later one, unless
  // it calls refresh_activity(model()) first); the fast edge then leaves
  // them as they were and takes the NBA region's chain (clock_edge.h,
  // EdgeCaller).
  template <EdgeCaller kCaller = EdgeCaller::Bridge, class Drive, class Sample>
  void edge(uint64_t k, uint64_t period_fs, Drive&& drive, Sample&& sample) {
    set_now(k);
    model_->clk = 0;
    Driven as = Driven::Unknown;   // (a constant where drive returns nothing)
    if constexpr (std::is_same_v<decltype(drive()), Driven>) as = drive();
    else drive();
    if (plain_) {
      out_of_reset();
      const uint32_t settled = settle_clock_low_for(*model_, as);   // (the edge's trigger mask, where computed)
      sample();
      ClockEdge<Model>::template rise<true, kCaller>(*model_, settled);
      return;
    }
    record_cycle();
    eval();
    if (trace_) dump((k * period_fs - period_fs / 2) / 1000);
    sample();
    rise();
    if (trace_) dump(k * period_fs / 1000);
  }
  void set_clock(bool high) override { model_->clk = high; }
  const char* model_name() const override { return model_->modelName(); }
  // Clock low, the inputs settled: without the eval_step() wrapper once the
  // reset has initialized the model, unless a waveform is written (its
  // writer reads the activity flag the wrapper sets); see clock_edge.h.
  void eval() override {
    if (fast_edge_) settled_ = ClockEdge<Model>::settle(*model_);
    else model_->eval();
  }
  // A traced block rises through eval(): the waveform writer dumps only what
  // eval_step() flagged as active since the last dump, so the edge without
  // that wrapper would leave every register's change out of the FST.
  void rise() override {
    if (fast_edge_) {
      ClockEdge<Model>::template rise<true>(*model_, settled_);
    } else {
      model_->clk = 1;
      model_->eval();
    }
  }
  void set_now(uint64_t cycle) override {
    now_ = cycle;
    if constexpr (has_cfg_now<Model>::value) {
      // the pipelines take 16 bits (their chains count modulo 2 x MAX_CHAIN),
      // the SACK sender 40 (its retransmit timer)
      using T = std::remove_reference_t<decltype(model_->cfg_now)>;
      model_->cfg_now = static_cast<T>(sizeof(T) == 2 ? cycle & 0xffffu : cycle & ((uint64_t{1} << 40) - 1));
    }
  }
  void record_to(const std::string& path) override {
    recorder_ = std::make_unique<StimulusWriter>(path, model_->modelName(), ports_begin<Model>(), ports_end<Model>());
    plain_ = false;
  }
  void record_cycle() override {
    if (recorder_) recorder_->cycle(model_.get());
  }
  void reset(int cycles = 4) override {
    if (!recorder_ && !record_checked_) {   // a block no bridge named: by its model and a sequence number
      record_checked_ = true;
      static int sequence = 0;
      const std::string path = stimulus_path(std::string(model_->modelName()) + "_" + std::to_string(sequence++));
      if (!path.empty()) record_to(path);
    }
    set_now(0);
    if (recorder_) recorder_->reset(cycles, model_.get());
    model_->rst = 1;
    for (int i = 0; i < cycles; ++i) {
      model_->clk = 0;
      model_->eval();
      model_->clk = 1;
      model_->eval();
    }
    model_->rst = 0;
    model_->clk = 0;
    model_->eval();
    fast_edge_ = !trace_;
    plain_ = fast_edge_ && !recorder_;
  }
  // One clock cycle for drivers that step the model themselves (cycles
  // counted from the reset, on a grid of period_ps): inputs are driven by
  // the caller with the clock low; `sample` runs on the settled outputs
  // before the edge. The sequence is edge()'s, as the bridges step.
  template <class Sample>
  void cycle(Sample&& sample, uint64_t /*cycle_index*/ = 0, uint64_t period_ps = 0) {
    edge(now_ + 1, period_ps * 1000, [] {}, sample);
  }
  // The same for a caller that says what it drove (edge(), also kCaller).
  template <EdgeCaller kCaller = EdgeCaller::Bridge, class Sample>
  void cycle_driven(Driven as, Sample&& sample, uint64_t period_ps = 0) {
    edge<kCaller>(now_ + 1, period_ps * 1000, [as] { return as; }, sample);
  }
  void open_trace(const std::string& path) override {
    trace_ = std::make_unique<VerilatedFstC>();
    fast_edge_ = false;
    plain_ = false;
    model_->trace(trace_.get(), 99);
    trace_->open(path.c_str());
  }
  void dump(uint64_t time_ps) override {
    if (trace_) trace_->dump(time_ps);
  }
  void close_trace() override {
    if (trace_) trace_->close();
    trace_.reset();
  }
  bool tracing() const override { return trace_ != nullptr; }

 private:
  // rst is low on the plain path: only reset() drives it, and it sets plain_
  // after taking it low. Said to the compiler where the generated entries
  // test it (their fallback to the model's own functions in the reset), so
  // those tests fold away; the sanitizer build (UBSan's unreachable check)
  // stops where it would not hold.
  void out_of_reset() const {
    if (model_->rootp->rst) __builtin_unreachable();
  }
  SharedContextModel<Model> model_;
  std::unique_ptr<VerilatedFstC> trace_;
  std::unique_ptr<StimulusWriter> recorder_;
  bool record_checked_ = false;
  bool fast_edge_ = false;   // reset done, no waveform: both halves of a cycle without eval_step()
  bool plain_ = false;       // fast_edge_ and no stimulus recording: edge() takes its short sequence
  uint64_t now_ = 0;
  uint32_t settled_ = 0;     // what the last eval() returned: the edge's trigger mask (ClockEdge::rise)
};

template <class Model>
void VerilatedBlock<Model>::step_edge(uint64_t k, uint64_t period_fs, EdgeHooks& hooks) {
  const uint64_t e = k * period_fs;
  edge(k, period_fs, [&] { hooks.drive(e); }, [&] { hooks.sample(e); });
}

}  // namespace ubsim
