#include "component.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "pool.h"
#include "request.h"

namespace ubsim {

namespace {
const bool kCheckAhead = std::getenv("UBSIM_CHECK_AHEAD") != nullptr;
// UBSIM_NO_SETTLE (a check, not a mode): nothing is settled, every departure
// goes from its own process at its time; no figure may change with it.
const bool kNoSettle = std::getenv("UBSIM_NO_SETTLE") != nullptr;
// Whether t's current hop ends a packet segment of its route (where a
// message's packets reassemble).
bool at_segment_end(const Transaction& t) {
  const Route& rt = *t.route;
  return !rt.segment_end.empty() && rt.segment_end[t.hop] == static_cast<int>(t.hop);
}
}  // namespace

StageComponent::StageComponent(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
  in.register_nb_transport_fw(this, &StageComponent::nb_transport_fw);
}

StageComponent::~StageComponent() {
  if (!settle_asked_) return;
  for (StageComponent** p = &touched_; *p; p = &(*p)->next_touched_)
    if (*p == this) {
      *p = next_touched_;
      break;
    }
}

tlm::tlm_sync_enum StageComponent::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                   sc_core::sc_time& delay) {
  TransactionExtension* ext = nullptr;
  gp.get_extension(ext);
  sc_assert(ext && ext->t && phase == tlm::BEGIN_REQ);
  arrive(*ext->t, delay.value());
  phase = tlm::END_REQ;
  return tlm::TLM_COMPLETED;
}

void StageComponent::arrive(Transaction& t, uint64_t ahead_fs) {
  // (ahead: this component accepts it ahead, which the sender asked, and
  // nothing else may happen in the kernel before the arrival; a virtual call
  // and a kernel query per hand-off, most of them ahead since the settle, so
  // checked under UBSIM_CHECK_AHEAD, which the golden test sets for every case)
  sc_assert(ahead_fs == 0 || !kCheckAhead || (accepts_ahead_of(t) && lookahead_fs() >= now_fs() + ahead_fs));
  arrival_fs_ = now_fs() + ahead_fs;
  if (t.on_route()) t.now_times().arrive_fs = arrival_fs_;
  accept(t);
}

void StageComponent::send(Transaction& t, int target, uint64_t ahead_fs) {
  // Within the fabric, straight to the target's arrival: what its target
  // socket's nb_transport_fw does (BEGIN_REQ, the delay annotated, completed
  // at once), without the socket's indirect call, the payload's extension
  // lookup and the sc_time of the delay, which carry nothing the arrival
  // does not have here (about 60 instructions a hop, 18 hops a pcie-nic read).
  if (peers_ && static_cast<size_t>(target) < peers_->size()) {
    (*peers_)[target]->arrive(t, ahead_fs);
    return;
  }
  t.gp.set_address(static_cast<uint64_t>(target));
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = ahead_fs ? fs_time(ahead_fs) : sc_core::SC_ZERO_TIME;
  out->nb_transport_fw(t.gp, phase, delay);
}

void StageComponent::advance(Transaction& t, uint64_t at_fs, uint64_t ahead_fs) {
  if (t.on_route()) {
    t.now_times().depart_fs = at_fs;
    if (static_cast<int>(t.hop) == t.route->descriptor_hop && t.kind == Transaction::Kind::Request)
      release_riders(as_request(t));
    ++t.hop;
  }
  send(t, t.on_route() ? t.route->component[t.hop] : t.route->sink, ahead_fs);
}

// The descriptors of a doorbell's work requests have arrived: the requests
// the batch's leader carried go on, in the order they were posted, ahead of
// it. They took the doorbell and the fetch with the leader (its times).
void StageComponent::release_riders(Request& leader) {
  const size_t from = static_cast<size_t>(leader.route->descriptor_hop) - 1;   // the doorbell
  for (Request* r = leader.next_rider; r;) {
    Request* next = r->next_rider;
    r->next_rider = nullptr;
    for (size_t h = from; h <= leader.hop; ++h) r->times[h] = leader.times[h];
    r->hop = leader.hop + 1;
    send(*r, r->route->component[r->hop]);
    r = next;
  }
  leader.next_rider = nullptr;
}

void StageComponent::forward(Transaction& t) {
  if (t.on_route() && t.kind == Transaction::Kind::Request && at_segment_end(t) && !end_of_segment(t))
    return;
  advance(t, now_fs(), 0);
}

StageComponent* StageComponent::ahead_target(const Transaction& t) const {
  if (!peers_ || !t.on_route() || t.kind != Transaction::Kind::Request) return nullptr;
  const Route& rt = *t.route;
  if (at_segment_end(t)) {
    // the end of a packet segment: a message of one packet goes straight on
    // (its reassembly is that packet); the others wait for their time
    const Request& r = static_cast<const Request&>(t);
    if (r.parent || r.pkts != 1 || r.error) return nullptr;
  }
  if (static_cast<int>(t.hop) == rt.descriptor_hop) return nullptr;
  const int next = t.hop + 1 < t.route_hops() ? rt.component[t.hop + 1] : rt.sink;
  if (next < 0 || static_cast<size_t>(next) >= peers_->size()) return nullptr;
  StageComponent* to = (*peers_)[next];
  return to->accepts_ahead_of(t) ? to : nullptr;
}

// advance() and send() for a hop that ahead_target() allowed: on its route,
// not the descriptor's hop (no riders), its next component a peer
void StageComponent::forward_to(StageComponent& to, Transaction& t, uint64_t at_fs) {
  const uint64_t now = now_fs();
  sc_assert(at_fs >= now);
  if (at_segment_end(t)) {
    [[maybe_unused]] const bool goes_on = end_of_segment(t);   // (a message of one packet: ahead_target)
    sc_assert(goes_on && "a segment's end handed on ahead waits for other packets");
  }
  t.now_times().depart_fs = at_fs;
  ++t.hop;
  to.arrive(t, at_fs - now);
}

bool StageComponent::peer_accepts_ahead(int id, const Transaction& t) const {
  return peers_ && id >= 0 && static_cast<size_t>(id) < peers_->size() && (*peers_)[id]->accepts_ahead_of(t);
}

// Returns whether t goes on now.
bool StageComponent::end_of_segment(Transaction& t) {
  Request& r = as_request(t);
  Request& m = r.message();
  // the segment carried the payload when it went to the node that receives
  // it: a write's request to B, a read's response to A
  const bool carrying = (r.current().node == NodeId::B) == (m.verb == Verb::Write);
  if (carrying) m.placed_bytes += r.payload_bytes;
  ++m.seg_done;
  if (m.seg_done > m.pkts)
    throw std::logic_error("message " + std::to_string(m.id) + ": more packets ended a segment than it was cut into");
  if (&r != &m) {   // a later packet: it ends here
    r.home->release(&r);
    if (m.seg_waiting && m.seg_done == m.pkts) {
      m.seg_waiting = false;
      m.now_times().reassembly_fs = now_fs() - m.seg_wait_from;
      if (m.error) finish_early(m);   // another of its packets was abandoned
      else advance(m, now_fs(), 0);
    }
    return false;
  }
  if (m.seg_done == m.pkts) {
    if (!m.error) return true;
    finish_early(m);
    return false;
  }
  m.seg_waiting = true;   // packet 0 is here first: wait for the others
  m.seg_wait_from = now_fs();
  return false;
}

void StageComponent::finish_early(Transaction& t) {
  t.now_times().depart_fs = now_fs();
  t.hop = t.route->hops.size();
  send(t, t.route->sink);
}

void StageComponent::abandon(Request& p) {
  Request& m = p.message();
  m.error = true;
  ++m.seg_done;
  if (m.seg_done > m.pkts)
    throw std::logic_error("message " + std::to_string(m.id) + ": more packets ended a segment than it was cut into");
  if (&p != &m) {
    p.home->release(&p);
    if (m.seg_waiting && m.seg_done == m.pkts) {
      m.seg_waiting = false;
      finish_early(m);
    }
    return;
  }
  if (m.seg_done == m.pkts) {
    finish_early(m);
  } else {   // its other packets are still on their way to the segment's end
    m.seg_waiting = true;
    m.seg_wait_from = now_fs();
  }
}

void StageComponent::launch(Transaction& t) { send(t, t.route->component[t.hop]); }

void StageComponent::launch(Transaction& t, uint64_t at_fs) {
  const uint64_t now = now_fs();
  sc_assert(at_fs >= now);   // (and peer_accepts_ahead(first hop, t) where later)
  send(t, t.route->component[t.hop], at_fs - now);
}

void StageComponent::settle_now() {
  if (kNoSettle || sc_core::sc_get_curr_simcontext()->pending_activity_at_current_time()) {
    // (the instant's last process settles; until then the kernel knows of
    // every activity, in case none does)
    for (StageComponent* c = touched_; c; c = c->next_touched_) c->arm_deferred();
    return;
  }
  while (StageComponent* c = touched_) {   // (a settle may touch another, or itself again)
    touched_ = c->next_touched_;
    c->next_touched_ = nullptr;
    c->settle_asked_ = false;
    c->settle();
  }
}

}  // namespace ubsim
