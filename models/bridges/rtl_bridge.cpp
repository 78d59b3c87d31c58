#include "rtl_bridge.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "watchdog.h"

namespace ubsim {

using sc_core::sc_time;
using sc_core::SC_FS;

RtlBridge::RtlBridge(sc_core::sc_module_name name, const Config& c, std::unique_ptr<ClockedModel> block)
    : StageComponent(name), cfg_(c), period_fs_(c.clock_period_fs()), block_(std::move(block)) {
  SC_HAS_PROCESS(RtlBridge);
  SC_METHOD(activate);
}

void RtlBridge::end_of_elaboration() {
  configure();
  drive_idle();
  if (const std::string path = stimulus_path(name()); !path.empty()) {
    block_->record_to(path);
    recording_ = true;
  }
  block_->reset(4);   // reset is applied before time 0, off the grid
}

namespace {
// UBSIM_ONE_EDGE (a check, not a mode): one edge per activation, every
// input stepped at its own edge's time. It moves every process's order
// within an instant; no figure may change with it.
// Read once when the program starts (a constant, not a function-local
// static whose guard every activation would test).
const bool kOneEdge = std::getenv("UBSIM_ONE_EDGE") != nullptr;
inline bool one_edge_mode() { return kOneEdge; }
}  // namespace

// The wake-up is for the first edge that may sample the input (strictly
// after its arrival), at that edge's own time: woken at the arrival, an
// asleep bridge could only wait for that edge (another process is due at
// the arrival's instant, so it may not step ahead of it).
void RtlBridge::wake(uint64_t at_fs) {
  const uint64_t e = edge_fs(sampling_edge(at_fs));
  // In a settling process the wake-up is left to the settle, which steps
  // the block from that edge on if nothing else comes first (settle()).
  if (settling_deferred() && !one_edge_mode() && !tracing_) {
    deferred_fs_ = std::min(deferred_fs_, std::max(e, now_fs()));
    touch();
    return;
  }
  wake_event_.notify_at(e);   // (an edge already past: now)
}

void RtlBridge::arm_deferred() {
  if (deferred_fs_ != UINT64_MAX) wake_event_.notify_at(std::exchange(deferred_fs_, UINT64_MAX));
}

// No process runs at this instant any more and nothing is due in the kernel
// before the edge an input woke the block for: the block is stepped from
// that edge now, as its process would have been then (no input can arrive
// in between), with what it hands on going on ahead as from any stepping
// ahead. Only an asleep block with no wake-up of its own pending; any
// other arms its event.
void RtlBridge::settle() {
  const uint64_t w = std::exchange(deferred_fs_, UINT64_MAX);
  if (w == UINT64_MAX) return;
  if (!asleep_ || wake_event_.pending() || !outbox_.empty() || w <= now_fs()) {
    wake_event_.notify_at(w);
    return;
  }
  const uint64_t next = next_activity_fs(this);
  if (w > next) {
    wake_event_.notify_at(w);
    return;
  }
  settling_from_fs_ = w;
  settle_limit_fs_ = next;   // (run()'s first question, just answered)
  run();
  settling_from_fs_ = 0;
}

// (Neither this nor the skip to an item's edge in run() under
// UBSIM_ONE_EDGE, which checks the stepping without them, or with a
// waveform, whose gap dump keeps its time.)
bool RtlBridge::may_defer() const {
  return asleep_ && !has_work() && outbox_.empty() && wake_edge_ == 0 && !tracing_ && !one_edge_mode();
}

// The deferred inputs' edges before `first` (the first edge this activation
// steps), each at its own index, and the edges they keep the block busy on
// its own: the block held no other work then, and these inputs hand nothing
// on, so stepping them now, after the instant they belong to, gives the
// block the same sequence of states. The rest become live inputs, stepped
// by the loop as any other.
void RtlBridge::catch_up(uint64_t first) {
  for (;;) {
    const uint64_t d = deferred_edge();
    const bool own = busy_on_own();
    if (!own && d == 0) break;
    const uint64_t at = own ? next_edge_ : std::max(d, next_edge_);
    if (at >= first) break;
    if (d != 0 && d <= at) take_deferred();   // one per edge, as it would have been offered
    skip_to(at);
    const bool out = step_edge(next_edge_);
    sc_assert(!out && "a deferred input handed something on");
    ++next_edge_;
    ++cycles_evaluated_;
    ++edges_since_check_;
  }
  while (deferred_edge()) take_deferred();
}

bool RtlBridge::StepLimit::ask(uint64_t e_fs) {
  known = true;
  limit = std::min(lookahead_fs(), one_edge ? first_edge_fs : kHorizonFs);
  return e_fs <= limit;
}

RtlBridge::Steps RtlBridge::step_edges(StepLimit& lim, uint64_t now) {
  return step_edges_as(lim, now, [this] { return has_work(); },
                       [this](uint64_t k, uint64_t& w) { return step_block(k, w); });
}

bool RtlBridge::step_block(uint64_t k, uint64_t& wake) {
  block_->step_edge(k, period_fs_, *this);   // calls drive(e) and sample(e)
  const bool out = apply(edge_fs(k));
  wake = wake_in();
  return out;
}

bool RtlBridge::step_edge(uint64_t k) {
  // step: inputs with the clock low, settle, decide the handshakes; apply: the edge
  const uint64_t handed = handed_off_;
  uint64_t w = 0;   // wake_in(), from the outputs after this edge
  const bool out = step_block(k, w) || handed_off_ != handed;
  if (out) ProgressWatchdog::note(edge_fs(k));   // something left the block: what it held is free
  wake_edge_ = w ? k + w : 0;
  return out;
}

void RtlBridge::settle_idle() {
  block_->set_clock(false);
  drive_idle();
  block_->eval();
}

// Delivers every hand-off in the outbox. Delivery may call back into this
// bridge (and hand off more): the list is taken out first, and its capacity
// given back when nothing new arrived meanwhile.
template <class Deliver>
void RtlBridge::drain_outbox(Deliver&& deliver) {
  std::vector<Out> due;
  due.swap(outbox_);
  for (const Out& o : due) deliver(o);
  if (outbox_.empty()) outbox_.swap(due), outbox_.clear();
}

void RtlBridge::deliver_due() {
  if (outbox_.empty() || outbox_.front().at_fs > now_fs()) return;
  drain_outbox([this](const Out& o) {
    switch (o.how) {
      case Handoff::Forward: forward(*o.t); break;
      case Handoff::FinishEarly: finish_early(*o.t); break;
      case Handoff::LaunchArriving: o.t->now_times().arrive_fs = now_fs(); launch(*o.t); break;
      case Handoff::Launch: launch(*o.t); break;
      case Handoff::Item: deliver_item(o.item); break;
    }
  });
}

// An edge stepped ahead of the kernel's time handed transactions on to
// components that accept them ahead (StageComponent::accepts_ahead): they
// go now, annotated with the edge's time, instead of from an activation of
// this process at that time. Nothing else is pending in the kernel before
// that edge (the bridge stepped to it), so they find the state they would
// have found then.
bool RtlBridge::hand_on_ahead(uint64_t now) {
  if (outbox_.empty() || outbox_.front().how != Handoff::Forward || outbox_.front().at_fs <= now) return false;
  for (Out& o : outbox_)
    if (o.how != Handoff::Forward || !(o.to = ahead_target(*o.t))) return false;
  drain_outbox([this](const Out& o) { forward_to(*o.to, *o.t, o.at_fs); });
  return true;
}

void RtlBridge::wait_for_wake() {
  if (!outbox_.empty()) wake_event_.notify_at(outbox_.front().at_fs);
  if (!settling_from_fs_) next_trigger(wake_event_.event());   // (settled: the process already waits for it)
}

void RtlBridge::holdings(std::vector<Holding>& out) const {
  if (has_work()) out.push_back({"work inside the block", "its own next clock edges", nullptr});
}

bool RtlBridge::due() const { return has_work() || (wake_edge_ != 0 && wake_edge_ <= next_edge_); }

// One activation of the stepping process (an SC_METHOD: no coroutine switch
// per wake-up). It is the body of a loop whose waits are next_trigger():
// asleep (nothing due) it waits for wake_event_ alone, or the edge a
// chain's item or a timer is due at (stepped at once when nothing else is
// due before it); busy it waits for the next edge or an input, whichever
// comes first.
void RtlBridge::activate() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  run();
  StageComponent::settle_touched();   // (its last statement: component.h)
}

void RtlBridge::run() {
  bool idle_next = false;   // the last turn found nothing due
  for (;;) {   // (each `continue` is the loop's top again: the process's next turn, now)
    const bool idle_known = std::exchange(idle_next, false);
    wake_event_.fired();
    deliver_due();
    const bool one_edge = one_edge_mode();
    const uint64_t now = now_fs();
    // How far it may step: to the kernel's next activity (no other process
    // runs before it, so no input can arrive). Asked only for an edge after
    // this instant (an edge at it is always due now).
    StepLimit lim{now, false, one_edge, 0};
    if (settle_limit_fs_) {
      lim.limit = std::exchange(settle_limit_fs_, 0);
      lim.known = true;
    }
    if (asleep_) {
      asleep_ = false;
      // Woken at an edge's own time (an input's first sampling edge, a chain
      // item's tap: see wake()), that edge is still to be stepped.
      uint64_t first = ((settling_from_fs_ ? settling_from_fs_ : now) + period_fs_ - 1) / period_fs_;
      if (wake_edge_ != 0 && wake_edge_ < first) first = wake_edge_;
      catch_up(first);
      skip_to(first);
    } else if (idle_known || !due()) {
      // A wake-up still pending is stale: whatever announced it has been
      // stepped (nothing is due). Cancelled, so it costs no activation.
      wake_event_.cancel();
      const bool timed = wake_edge_ != 0;
      // An item in flight leaves at a later edge with nothing else for the
      // kernel to run before it: that edge is stepped in this activation
      // (no input can arrive meanwhile), skipping the cycles between.
      const bool item_edge_now = timed && outbox_.empty() && !one_edge && !tracing_ && edge_fs(wake_edge_) > now &&
                                 lim.allows(edge_fs(wake_edge_));
      if (!item_edge_now) {
        if (tracing_ && next_edge_ > 1) {
          // 1 ps after the last evaluated edge, the idle inputs: the waveform
          // shows them instead of the last offered ones during the gap
          settle_idle();
          block_->dump(edge_fs(next_edge_ - 1) / 1000 + 1);
        }
        // Items in flight that leave on their own wake the block at their
        // edge's time; that edge is stepped then (what it hands on is
        // delivered in the same activation).
        if (timed && edge_fs(wake_edge_) > now) wake_event_.notify_at(edge_fs(wake_edge_));
        asleep_ = true;
        if (!timed || edge_fs(wake_edge_) > now) {
          wait_for_wake();
          return;
        }
        continue;   // the item's edge is now: no wait
      }
      skip_to(wake_edge_);
    }
    ++wakeups_;
    lim.first_edge_fs = edge_fs(next_edge_);
    if (one_edge) lim.allows(UINT64_MAX);   // (the one-edge limit also bounds the edges at this instant)
    const Steps steps = step_edges(lim, now);
    if (steps.stopped) {
      if (!settling_from_fs_) next_trigger(sc_core::SC_ZERO_TIME);   // sc_stop() was called: the kernel ends the run here
      return;
    }
    if (!outbox_.empty() && outbox_.front().at_fs <= now)
      continue;   // an edge stepped at its own time handed something on: deliver it now
    if (steps.emitted ? due() : steps.due) {   // (not asked after the edge that handed something on)
      const uint64_t at = outbox_.empty() ? edge_fs(next_edge_) : std::min(edge_fs(next_edge_), outbox_.front().at_fs);
      wake_event_.notify_at(at);   // (an earlier pending wake-up stays)
      if (!settling_from_fs_) next_trigger(wake_event_.event());
      return;
    }
    idle_next = true;   // nothing due: go to sleep (the loop's top need not ask again)
  }
}

// Skips the idle cycles before edge `first` (has_work was false on them),
// never past the edge an item in flight leaves at.
void RtlBridge::skip_to(uint64_t first) {
  if (first <= next_edge_) return;
  const uint64_t n = first - next_edge_;
  on_skipped(next_edge_, n);
  cycles_skipped_ += n;
  if (wake_edge_ != 0) {   // it advanced on its own meanwhile (a chain's items, a timer)
    cycles_in_flight_ += n;
    edges_since_check_ += n;   // so the watchdog checks it when it steps again
  }
  next_edge_ = first;
}

void RtlBridge::collect_clock_stats(StatsTable& table) const {
  const uint64_t end = now_fs();
  const std::string n = name();
  const double total_cycles = static_cast<double>(end / period_fs_);
  table.add(n, "cycles_total", total_cycles, "cycles", "controller cycles in the simulated time");
  table.add(n, "cycles_evaluated", static_cast<double>(cycles_evaluated_), "cycles",
            "cycles the verilated model was stepped (it had work)");
  table.add(n, "cycles_skipped", static_cast<double>(cycles_skipped_), "cycles",
            "idle cycles skipped (nothing queued or in flight in the model)");
  table.add(n, "cycles_in_flight", static_cast<double>(cycles_in_flight_), "cycles",
            "skipped cycles in which the block advanced on its own schedule (items in a stage chain, a timer running)");
  table.add(n, "utilization",
            total_cycles > 0 ? static_cast<double>(cycles_evaluated_ + cycles_in_flight_) / total_cycles : 0.0,
            "fraction", "share of cycles with work in the model (evaluated, or items in flight in a chain)");
  table.add(n, "kernel_wakeups", static_cast<double>(wakeups_), "wakeups",
            "times the stepping ran, from its process or a settle (cost of co-simulation)");
}

}  // namespace ubsim
