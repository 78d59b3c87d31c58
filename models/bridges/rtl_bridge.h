// RtlBridge: the one base of every bridge between the TLM fabric and a
// verilated RTL block (pipelines, context caches, SACK engines). It owns the
// block (through the VerilatedBlock harness) and clocks it on the global
// controller clock grid (edge k at k * period).
//
// Stepping: one SC_METHOD steps the block only while the bridge has work;
// idle cycles are skipped and counted, so the cycle count stays exact. While
// busy it runs edges ahead of SystemC time in a tight loop, but never past
// the kernel's next pending activity: no other process can run before then,
// so no input can arrive that the evaluated edges should have seen
// (conservative lookahead). It stops at the first edge that hands something
// out, which is delivered at that edge's time. Asleep, it is woken at the
// edge that first samples what woke it (an input's, a chain item's) and
// steps that edge in its own instant; a chain item's edge with nothing
// else for the kernel to run before it is stepped at once instead, in the
// activation that found nothing else to do (the same lookahead).
//
// Timing rule: an input arriving at time t is sampled at the first edge
// strictly after t. Each edge is a step / apply split around eval(): the
// derived bridge drives the inputs with the clock low (drive), the block
// settles, the bridge reads the handshakes that fire at this edge (sample),
// then the edge is applied and the bridge does its bookkeeping (apply). So no
// update-order race is possible.
#pragma once
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "component.h"
#include "config.h"
#include "verilated_block.h"
#include "wake_event.h"
#include "watchdog.h"

namespace ubsim {

class RtlBridge : public StageComponent, private EdgeHooks {
 public:
  RtlBridge(sc_core::sc_module_name name, const Config& c, std::unique_ptr<ClockedModel> block);
  // Dumps this block's waveform to an FST file (before the simulation starts).
  void open_trace(const std::string& path) {
    block_->open_trace(path);
    tracing_ = true;
  }
  void close_trace() {
    block_->close_trace();
    tracing_ = false;
  }
  uint64_t cycles_evaluated() const { return cycles_evaluated_; }
  const char* block_name() const { return block_->model_name(); }
  // Whether the block holds work now (what the no-progress watchdog names).
  bool holds_work() const { return has_work(); }
  // After the run: the deferred inputs (may_defer) whose edges lie within
  // it, stepped as the bridge's next activation would have.
  void step_deferred() { catch_up(now_fs() / period_fs_ + 1); }
  // Without a more precise account: "work inside the block" while it has work.
  void holdings(std::vector<Holding>& out) const override;

 protected:
  // ---- hooks ----
  virtual bool has_work() const = 0;
  // The inputs of edge `edge_fs` (clock low; the block settles after it).
  void drive(uint64_t edge_fs) override = 0;
  // The settled outputs before the edge: which handshakes fire.
  void sample(uint64_t edge_fs) override = 0;
  // After the edge: the bookkeeping of what fired; true if something left
  // the block, which ends the run-ahead so it is delivered at this time.
  virtual bool apply(uint64_t edge_fs) = 0;
  // How far one activation may step: to the kernel's next activity (no
  // other process runs before it, so no input can arrive), asked once and
  // only for an edge beyond the instant.
  struct StepLimit {
    uint64_t limit;
    bool known;
    bool one_edge;
    uint64_t first_edge_fs;   // (UBSIM_ONE_EDGE: the first edge this activation steps)
    bool allows(uint64_t e_fs) { return e_fs <= limit || (!known && ask(e_fs)); }
    bool ask(uint64_t e_fs);
    // What was handed on ahead may have scheduled activity: no further
    // than now until the kernel is asked again.
    void reopen(uint64_t now) {
      limit = now;
      known = false;
    }
  };
  struct Steps {
    bool due = false;       // the block had work at the last question (not asked after an edge that handed something on)
    bool emitted = false;   // stopped at an edge that handed something on
    bool stopped = false;   // the watchdog ended the run
  };
  // The edges of one activation, from next_edge_ while the block has work
  // and `lim` allows. A bridge of one model class overrides it with
  // step_edges_as() over its own has_work() and step_block(), called
  // directly: no indirect call per edge in the hottest loop.
  virtual Steps step_edges(StepLimit& lim, uint64_t now);
  template <class HasWork, class StepBlock>
  Steps step_edges_as(StepLimit& lim, uint64_t now, HasWork&& has_work, StepBlock&& step_block);
  // One clock edge k of the block with this bridge's hooks (drive, settle,
  // sample, rise, apply): whether something left the block, and the block's
  // wake_in() after it. A bridge of one model class overrides it with the
  // same sequence calling its own hooks directly (qualified, on its
  // VerilatedBlock<M>): the edge loop's hottest path has no indirect call.
  virtual bool step_block(uint64_t k, uint64_t& wake);
  // The inputs of a cycle in which nothing is offered.
  virtual void drive_idle() = 0;
  // The cfg_* inputs (loaded at reset).
  virtual void configure() = 0;
  // Without work, cycles until the block changes state on its own (an item
  // in flight in a stage chain reaching its tap, a timer expiring; 0: never
  // without an input), counted from the last evaluated edge: the bridge sleeps until
  // that edge instead of stepping the cycles between.
  virtual uint64_t wake_in() const { return 0; }
  // `count` idle edges from `first` on were skipped (has_work was false):
  // per-cycle accounting of a block that waits without changing state.
  virtual void on_skipped(uint64_t /*first*/, uint64_t /*count*/) {}

  // An input for the block arrives at at_fs (>= now): wake the stepping loop.
  void wake(uint64_t at_fs);
  // Whether an input that changes only the block's state (nothing leaves
  // the block because of it) may wait, unstepped, for the bridge's next
  // activation instead of waking it: the bridge sleeps with nothing else
  // to do. Its edge is then stepped first in that activation, at its own
  // index, before the cycles that activation skips (deferred_edge()).
  bool may_defer() const;
  // Deferred inputs: the edge that samples the oldest (0: none), and
  // making it a live input of the block.
  virtual uint64_t deferred_edge() const { return 0; }
  virtual void take_deferred() {}
  // Whether the block changes state at its next edge on its own, without an
  // input (what a deferred input may set going: an order tracker's report
  // and tidy steps after a completion); those edges are stepped with it.
  virtual bool busy_on_own() const { return false; }
  // The edge that first samples an input arriving at at_fs.
  uint64_t sampling_edge(uint64_t at_fs) const { return at_fs / period_fs_ + 1; }
  // What a bridge hands on from an edge it evaluated ahead of SystemC time:
  // delivered at that edge's time by the bridge's own stepping process
  // (not a process and an event queue per output).
  enum class Handoff : uint8_t {
    Forward,         // to its next hop (StageComponent::forward)
    FinishEarly,     // straight to its sink (an error completion)
    Launch,          // a transaction that starts here (a fetch, a refill)
    LaunchArriving,  // the same, its current hop's arrival stamped at delivery
    Item,            // an item that is not a transaction: to deliver_item
  };
  void hand_off(uint64_t at_fs, Transaction& t, Handoff how) {
    outbox_.push_back({at_fs, &t, how, nullptr, nullptr});
    ++handed_off_;
  }
  void hand_off(uint64_t at_fs, void* item) {
    outbox_.push_back({at_fs, nullptr, Handoff::Item, item, nullptr});
    ++handed_off_;
  }
  // An item handed off with hand_off(at_fs, item), at that time.
  virtual void deliver_item(void* /*item*/) {}
  uint64_t edge_fs(uint64_t k) const { return k * period_fs_; }
  ClockedModel& block() { return *block_; }
  // cycles_total, cycles_evaluated, cycles_skipped, utilization, kernel_wakeups
  void collect_clock_stats(StatsTable& table) const;

  const Config& cfg_;
  const uint64_t period_fs_;
  // The block's stimulus is recorded (UBSIM_STIMULUS_DIR): its replay into
  // a reference that counts time by its registers (rtl/v1/) needs the
  // edges a timestamped part lets the bridge skip (PipelineBridgeOf).
  bool recording_ = false;

 private:
  // Configures and resets the block, once, when the system is elaborated:
  // every derived bridge's configuration (and an attached cache) is known.
  void end_of_elaboration() override;
  [[gnu::flatten]] void settle() override;   // (flattened: once per activation, as run())
  void arm_deferred() override;
  // (flattened: its non-virtual helpers inlined, which GCC's -O3 limits left
  // as calls; docs/performance.md, ninth session)
  [[gnu::flatten]] void run();
  void activate();   // the process: run(), then the instant's settling (component.h)
  void deliver_due();   // the hand-offs of edges up to now
  [[gnu::flatten]] bool hand_on_ahead(uint64_t now);   // the hand-offs of an edge after now, if they may go now
  template <class Deliver>
  void drain_outbox(Deliver&& deliver);   // every hand-off in the outbox, to deliver
  // Waits for wake_event_ (and, with hand-offs pending, for their time).
  void wait_for_wake();
  bool due() const;   // work, or the edge an item in flight leaves at
  bool step_edge(uint64_t k);
  void skip_to(uint64_t first);
  void catch_up(uint64_t first);
  void settle_idle();

  std::unique_ptr<ClockedModel> block_;
  struct Out {
    uint64_t at_fs;
    Transaction* t;
    Handoff how;
    void* item;
    StageComponent* to;   // (a Forward's next component, where hand_on_ahead() found one)
  };
  // Hand-offs not yet delivered: all of one edge (the stepping loop stops
  // at the first edge that hands something on), so in order.
  std::vector<Out> outbox_;
  uint64_t handed_off_ = 0;   // hand-offs ever put in the outbox (an edge's: the count's change)
  uint64_t next_edge_ = 1;
  uint64_t wake_edge_ = 0;   // the edge a chain's item reaches its tap (0: none)
  WakeEvent wake_event_;
  uint64_t settling_from_fs_ = 0;   // run() from a settle: the edge time it steps from (0: from its process)
  uint64_t settle_limit_fs_ = 0;     // the next activity the settle found (0: none asked)
  uint64_t cycles_evaluated_ = 0;
  uint64_t cycles_skipped_ = 0;
  uint64_t cycles_in_flight_ = 0;   // of those skipped: the block advancing on its own (chain, timer)
  uint64_t wakeups_ = 0;
  bool asleep_ = false;              // waiting for wake_event_ (or a timed item's edge) with nothing due
  bool tracing_ = false;             // a waveform is written (open_trace): the stepping's own copy, asked every activation
  uint64_t edges_since_check_ = 0;   // clock edges (stepped or skipped) since the watchdog's last check
};

// The class of a verilated model's root, which holds its signals (ports
// included); the model's own class refers to each port.
template <class Model>
using ModelRoot = std::remove_pointer_t<std::remove_const_t<decltype(std::declval<Model&>().rootp)>>;

// A bridge of one block class: typed access to its model.
template <class Model>
class VerilatedBridge : public RtlBridge {
 public:
  VerilatedBridge(sc_core::sc_module_name name, const Config& c)
      : RtlBridge(name, c, std::make_unique<VerilatedBlock<Model>>()), m_(model().rootp) {}

 protected:
  Model& model() { return static_cast<VerilatedBlock<Model>&>(block()).model(); }
  // The ports, in the model's root: the model's class holds a reference to
  // each, a load more for every port read or driven (some 40 per edge of a
  // send pipeline).
  ModelRoot<Model>* const m_;
};

// The stepping loop (RtlBridge::run()): step_edge()'s sequence per edge,
// with the bridge's own hooks.
template <class HasWork, class StepBlock>
RtlBridge::Steps RtlBridge::step_edges_as(StepLimit& lim, uint64_t now, HasWork&& has_work, StepBlock&& step_block) {
  Steps s;
  for (;;) {
    s.due = has_work() || (wake_edge_ != 0 && wake_edge_ <= next_edge_);
    if (!s.due || !lim.allows(edge_fs(next_edge_))) return s;
    const uint64_t k = next_edge_;
    const uint64_t handed = handed_off_;
    uint64_t w = 0;   // wake_in(), from the outputs after this edge
    bool out = step_block(k, w) || handed_off_ != handed;
    if (out) ProgressWatchdog::note(edge_fs(k));   // something left the block: what it held is free
    wake_edge_ = w ? k + w : 0;
    if (out && !lim.one_edge && hand_on_ahead(now)) {
      out = false;   // handed on at its edge's time: keep stepping, but no
      lim.reopen(now);   // further than the kernel's activity now
    }
    ++next_edge_;
    ++cycles_evaluated_;
    if (++edges_since_check_ >= ProgressWatchdog::kCheckEdges) {
      edges_since_check_ = 0;
      if (ProgressWatchdog::overdue(edge_fs(k))) {
        s.stopped = true;
        return s;
      }
    }
    if (out) {
      s.emitted = true;
      return s;
    }
  }
}

}  // namespace ubsim
