// StageComponent: a SystemC module that owns stages of a path. It has a
// TLM-2.0 target socket (nb_transport_fw, BEGIN_REQ, the delay annotated)
// and an initiator socket bound to the stage fabric; within the fabric a
// component hands a transaction to the component of its next hop (or its
// sink) directly, as that socket would (fabric.h).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "stats.h"
#include "wait_for.h"
#include "transaction.h"

namespace ubsim {

struct Request;

class StageComponent : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<StageComponent> in;
  tlm_utils::simple_initiator_socket<StageComponent> out;

  explicit StageComponent(sc_core::sc_module_name name);
  ~StageComponent() override;

  int fabric_id = -1;
  virtual void collect_stats(StatsTable& table) const = 0;
  // Whether accept() may be called for an arrival after now (the TLM-2.0
  // delay annotation of nb_transport_fw): the component then works as of
  // arrival_fs() and never hands anything on from inside accept(). A sender
  // annotates only when nothing else is pending in the kernel before the
  // arrival (it stepped ahead to it), so the component's state then is its
  // state now.
  bool accepts_ahead() const { return accepts_ahead_; }
  // Whether it accepts t ahead now: accepts_ahead(), unless the component
  // says otherwise for the transaction or its own state (InitiatorApp).
  virtual bool accepts_ahead_of(const Transaction& /*t*/) const { return accepts_ahead_; }
  // The components of the fabric this one is attached to (by fabric id).
  void set_peers(const std::vector<StageComponent*>* peers) { peers_ = peers; }

  // Settling: a component that holds a departure (QueuedServer, LinkStage)
  // or a bridge woken for an edge (RtlBridge) asks to be settled (touch());
  // the processes of the paths' components (bridges, queued servers, links,
  // the initiator, the wires, the transport) call settle_touched() as the
  // last thing they do. When no other process runs at this instant any more
  // (nothing runnable, nothing notified for it), no further arrival can
  // share an arrival's instant, and each touched component does, ahead,
  // what comes before any other activity in the kernel (settle()): the
  // hand-offs its own process would make at their times, or the bridge's
  // stepping from its edge, with nothing else run in between. Each saves
  // the kernel a pass. A process that does not call it
  // (the fabric's) leaves them to the next one that does, or to their own
  // events: settling is never needed, only cheaper.
  static void settle_touched() {
    if (touched_) settle_now();
    process_settles_ = false;
  }
  // Such a process says so as its first statement. While it runs, a touched
  // component may keep its own next activity out of the kernel (deferred_fs_:
  // a departure it would notify its event for, only to cancel it when the
  // settle hands the departure on ahead). The settle then hands it on or
  // arms it (arm_deferred()), as does a settle that finds the instant not
  // over; the questions below count it as the kernel's. In any other process
  // (settling_deferred() false) every activity is armed at once.
  static void settling_process() { process_settles_ = true; }
  static bool settling_deferred() { return process_settles_; }
  // The next activity (absolute fs; UINT64_MAX: none) in a settle, where
  // none is at the current time: the kernel's next timed notification, or
  // a touched component's deferred activity before it (not except's: a
  // component asking about everything else).
  static uint64_t next_activity_fs(const StageComponent* except = nullptr) {
    sc_core::sc_time t;
    uint64_t next = sc_core::sc_get_curr_simcontext()->next_time(t) ? t.value() : UINT64_MAX;
    for (const StageComponent* c = touched_; c; c = c->next_touched_)
      if (c != except) next = std::min(next, c->deferred_fs_);
    return next;
  }
  // The same from a running process: now if anything else is to run at this
  // instant (sc_time_to_pending_activity() as an absolute time, without its
  // conversions).
  static uint64_t lookahead_fs() {
    return sc_core::sc_get_curr_simcontext()->pending_activity_at_current_time() ? now_fs() : next_activity_fs();
  }
  // To be settled when this instant's processes are done (above).
  void touch() {
    if (settle_asked_) return;
    settle_asked_ = true;
    next_touched_ = touched_;
    touched_ = this;
  }

  // What this component holds now and what it waits for (wait_for.h), for
  // the report of a run that stopped making progress.
  using Holding = ubsim::Holding;
  virtual void holdings(std::vector<Holding>& /*out*/) const {}
  // Set by a part that keeps the component's deferred activity (PcieLink,
  // for the LinkStage that settles it): deferred_fs_ below.
  void keep_deferred(uint64_t at_fs) { deferred_fs_ = at_fs; }

 protected:
  // Its own next activity kept out of the kernel (settling_process() above;
  // UINT64_MAX: none), and arming it (its event notified). A field the
  // component keeps as it changes, not a virtual question: a settle's
  // next_activity_fs() reads it for every touched component.
  uint64_t deferred_fs_ = UINT64_MAX;
  virtual void arm_deferred() {}
  // Called at the transaction's arrival time; the component owns it from
  // here. A transaction on its route has its hop's arrive_fs set; one whose
  // route is done arrived at its sink.
  virtual void accept(Transaction& t) = 0;
  // Records the departure time and hands the transaction to its next hop.
  // At the end of a packet segment a message's packets reassemble: a later
  // packet ends there (back to its pool), the message goes on when the
  // last of its packets has arrived (reassembly).
  // (forward and forward_to flattened: a hop's hand-off, about 14 per
  // read; docs/performance.md)
  [[gnu::flatten]] void forward(Transaction& t);
  // The component t, handed on now, would go straight to where it accepts
  // ahead (null: none; the end of a packet segment, a descriptor fetch that
  // releases riders). Found once for the question and the hand-off below.
  StageComponent* ahead_target(const Transaction& t) const;
  // forward(t) at a later time at_fs, annotated on the hand-off, to `to`,
  // which ahead_target(t) returned.
  [[gnu::flatten]] void forward_to(StageComponent& to, Transaction& t, uint64_t at_fs);
  // Both: whether t went on ahead at at_fs.
  bool forward_if_ahead(Transaction& t, uint64_t at_fs) {
    StageComponent* to = ahead_target(t);
    if (to) forward_to(*to, t, at_fs);
    return to != nullptr;
  }
  // The arrival time of the transaction accept() is called with: now, or
  // later for a hand-off annotated ahead (accepts_ahead()).
  uint64_t arrival_fs() const { return arrival_fs_; }
  // Set by a component whose accept() works as of arrival_fs() (above).
  void set_accepts_ahead() { accepts_ahead_ = true; }
  // Hands on ahead what is due before the kernel's next activity (only
  // called with no other process left to run at this instant).
  virtual void settle() {}
  // Sends a transaction that starts here to the component of its first hop.
  void launch(Transaction& t);
  // The same at at_fs >= now, annotated ahead where it is later (the first
  // hop's component accepts it ahead: peer_accepts_ahead()).
  void launch(Transaction& t, uint64_t at_fs);
  // Whether fabric component `id` accepts t ahead now.
  bool peer_accepts_ahead(int id, const Transaction& t) const;
  // Ends a transaction here (e.g. an error completion): straight to its sink.
  void finish_early(Transaction& t);
  // A packet of a message that the transport gave up on: it ends its packet
  // segment here without going on, and its message fails (error set). The
  // message goes straight to its sink once every one of its packets has
  // ended the segment (delivered or abandoned), never while one is in flight.
  void abandon(Request& packet);

 private:
  void send(Transaction& t, int target, uint64_t ahead_fs = 0);
  // The arrival of t, ahead_fs after now (what nb_transport_fw does).
  void arrive(Transaction& t, uint64_t ahead_fs);
  void advance(Transaction& t, uint64_t at_fs, uint64_t ahead_fs);
  void release_riders(Request& leader);
  bool end_of_segment(Transaction& t);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  const std::vector<StageComponent*>* peers_ = nullptr;
  uint64_t arrival_fs_ = 0;
  bool accepts_ahead_ = false;
  bool settle_asked_ = false;
  // The touched components, a list through them (a plain pointer: nothing
  // to destroy at exit; one simulation per process).
  StageComponent* next_touched_ = nullptr;
  static inline StageComponent* touched_ = nullptr;
  static inline bool process_settles_ = false;   // (settling_process())
  [[gnu::flatten]] static void settle_now();   // (flattened: once per instant)
};

}  // namespace ubsim
