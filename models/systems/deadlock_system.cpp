#include "deadlock_system.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim_time.h"

namespace ubsim {

namespace {
const char* node_name(int n) { return n == 0 ? "A" : "B"; }
}  // namespace

size_t DeadlockSystem::Node::held() const {
  return static_cast<size_t>(std::count_if(slot.begin(), slot.end(), [](const Packet* p) { return p != nullptr; }));
}

DeadlockSystem::DeadlockSystem(sc_core::sc_module_name name, const Config& c)
    : sc_module(name),
      slots_(static_cast<uint32_t>(c.count(key::deadlock_slots))),
      reserved_(static_cast<uint32_t>(c.count(key::deadlock_reserved_response_slots))),
      outstanding_(static_cast<uint32_t>(c.count(key::deadlock_outstanding))),
      request_bytes_(static_cast<uint32_t>(c.count(key::transport_header_bytes))),
      read_bytes_(static_cast<uint32_t>(c.count(key::deadlock_read_bytes) + c.count(key::transport_header_bytes))),
      write_bytes_(static_cast<uint32_t>(c.count(key::deadlock_write_bytes) + c.count(key::transport_header_bytes))),
      separate_(c.flag(key::deadlock_response_channel)),
      reads_(c.count(key::deadlock_reads)),
      writes_(c.count(key::deadlock_writes)),
      serve_fs_(c.fs(key::dram_row_hit) + c.fs(key::bus_traversal)),
      consume_fs_(c.fs(key::bus_traversal)),
      latency_fs_(c.fs(key::wire_latency)),
      bytes_per_s_(c.value(key::wire_rate)) {
  for (Node& n : nodes_) n.slot.assign(slots_, nullptr);
  for (int l = 0; l < 2; ++l) {
    links_[l].from = l;
    links_[l].to = 1 - l;
    // requests wait for a credit (a slot at their target) without holding up
    // the responses behind them: a FIFO each, sharing the wire
    links_[l].channels.resize(2);
  }
  SC_HAS_PROCESS(DeadlockSystem);
  SC_METHOD(run_agenda);
  sensitive << agenda_event_;
  dont_initialize();
  // both nodes start their reads at time 0
  at(0, [this] {
    issue(0);
    issue(1);
  });
}

void DeadlockSystem::at(uint64_t delay_fs, std::function<void()> fn) {
  const uint64_t when = now_fs() + delay_fs;
  const bool earliest = agenda_.empty() || when < agenda_.begin()->first;
  agenda_.emplace(when, std::move(fn));
  if (earliest) agenda_event_.notify(fs_time(delay_fs));
}

void DeadlockSystem::run_agenda() {
  const uint64_t now = now_fs();
  while (!agenda_.empty() && agenda_.begin()->first <= now) {
    auto fn = std::move(agenda_.begin()->second);
    agenda_.erase(agenda_.begin());
    fn();
  }
  if (!agenda_.empty()) agenda_event_.notify(fs_time(agenda_.begin()->first - now));
}

bool DeadlockSystem::can_take(const Node& n, Kind k) const {
  if (k == kResponse && separate_) return true;   // its own buffers
  const size_t used = n.held();
  if (used >= slots_) return false;
  if (k == kResponse) return true;
  const size_t requests = static_cast<size_t>(
      std::count_if(n.slot.begin(), n.slot.end(), [](const Packet* p) { return p && p->kind == kRequest; }));
  return requests < slots_ - reserved_;
}

int DeadlockSystem::take_slot(Node& n, Packet* p) {
  if (p->kind == kResponse && separate_) return -1;
  for (size_t i = 0; i < n.slot.size(); ++i)
    if (!n.slot[i]) {
      n.slot[i] = p;
      n.peak = std::max<uint64_t>(n.peak, n.held());
      return static_cast<int>(i);
    }
  sc_assert(false && "a slot was granted from a full pool");
  return -1;
}

void DeadlockSystem::free_slot(int node, int slot) {
  if (slot < 0) return;
  nodes_[node].slot[static_cast<size_t>(slot)] = nullptr;
  serve_next(node);       // a served request waiting for a slot for its response first
  start_link(1 - node);   // then the link into this node (a request waiting for a slot)
}

// The link starts its next packet when the wire is free and the receiver
// grants the head of a channel a slot (round robin between the channels).
void DeadlockSystem::start_link(int l) {
  Link& k = links_[l];
  if (k.busy) return;
  for (size_t tried = 0; tried < k.channels.size(); ++tried) {
    Channel& ch = k.channels[(k.next + tried) % k.channels.size()];
    if (ch.fifo.empty()) continue;
    Packet* p = ch.fifo.front();
    if (p->kind == kRequest && !can_take(nodes_[k.to], kRequest)) {
      ++credit_waits_;
      continue;
    }
    ch.fifo.pop_front();
    k.next = (k.next + tried + 1) % k.channels.size();
    if (p->kind == kRequest) p->slot = take_slot(nodes_[k.to], p);
    k.busy = true;
    const auto ser = static_cast<uint64_t>(std::llround(static_cast<double>(p->bytes) / bytes_per_s_ * 1e15));
    at(ser, [this, l, p] {
      links_[l].busy = false;
      if (p->kind == kResponse) {   // its data has left: its slot at the sender is free
        const int slot = p->slot;
        p->slot = -1;
        free_slot(p->from, slot);
      }
      start_link(l);
    });
    at(ser + latency_fs_, [this, p] { arrived(p); });
    return;
  }
}

void DeadlockSystem::issue(int node) {
  Node& n = nodes_[node];
  while (n.issued < reads_ + writes_ && n.outstanding < outstanding_) {
    auto p = std::make_unique<Packet>();
    p->id = next_id_++;
    p->kind = kRequest;
    // reads and writes alternate while both remain, then the rest
    const uint64_t k = n.issued, both = 2 * std::min(reads_, writes_);
    p->write = k < both ? k % 2 == 1 : writes_ > reads_;
    p->from = node;
    p->to = 1 - node;
    p->bytes = p->write ? write_bytes_ : request_bytes_;
    links_[node].channels[0].fifo.push_back(p.get());
    packets_.push_back(std::move(p));
    ++n.issued;
    ++n.outstanding;
  }
  start_link(node);
}

void DeadlockSystem::arrived(Packet* p) {
  if (p->kind == kRequest) {
    nodes_[p->to].want_slot.push_back(p);
    serve_next(p->to);
  } else {
    at(consume_fs_, [this, p] { consumed(p); });
  }
}

// Requests in arrival order take a slot for their response (any free one,
// the reserved ones included), then read their data into it.
void DeadlockSystem::serve_next(int node) {
  Node& n = nodes_[node];
  while (!n.want_slot.empty() && can_take(n, kResponse)) {
    Packet* req = n.want_slot.front();
    n.want_slot.pop_front();
    int slot = -1;
    if (!separate_) {   // (a separate channel's responses have their own buffers)
      for (size_t i = 0; i < n.slot.size(); ++i)
        if (!n.slot[i]) {
          slot = static_cast<int>(i);
          break;
        }
      n.slot[static_cast<size_t>(slot)] = req;   // held for the response until it exists
      n.peak = std::max<uint64_t>(n.peak, n.held());
    }
    at(serve_fs_, [this, req, slot] { served(req, slot); });
  }
}

// The target read the data into the response's slot (a write: wrote the
// request's data to memory, its ack in that slot): the request's slot is
// free, the response waits to leave.
void DeadlockSystem::served(Packet* req, int response_slot) {
  auto r = std::make_unique<Packet>();
  r->id = next_id_++;
  r->kind = kResponse;
  r->from = req->to;
  r->to = req->from;
  r->write = req->write;
  r->bytes = req->write ? request_bytes_ : read_bytes_;   // a write's ack is a header
  r->slot = response_slot;
  if (response_slot >= 0) nodes_[req->to].slot[static_cast<size_t>(response_slot)] = r.get();
  req->response_queued = true;
  req->response = r->id;
  const int request_slot = req->slot;
  req->slot = -1;
  Link& k = links_[req->to];
  k.channels[1].fifo.push_back(r.get());
  packets_.push_back(std::move(r));
  start_link(req->to);
  free_slot(req->to, request_slot);
}

void DeadlockSystem::consumed(Packet* resp) {
  const int node = resp->to;
  ++completed_[node];
  last_completion_fs_ = now_fs();
  --nodes_[node].outstanding;
  issue(node);
}

std::string DeadlockSystem::name_of(const Packet& p) const {
  const char* what = p.kind == kRequest ? (p.write ? "write request" : "read request")
                                       : (p.write ? "write ack" : "read response");
  return fmt::format("{} #{} {}->{}", what, p.id, node_name(p.from), node_name(p.to));
}

WaitForGraph DeadlockSystem::wait_for() const {
  WaitForGraph g;
  std::vector<size_t> vertex(packets_.size(), SIZE_MAX);
  auto holds = [&](const Packet& p) -> std::string {
    if (p.slot < 0) return "";
    return fmt::format("data slot {} at {}", p.slot, node_name(p.kind == kRequest ? p.to : p.from));
  };
  // every packet on a link: the heads refused a slot, the ones behind them
  for (const Link& k : links_)
    for (const Channel& ch : k.channels)
      for (size_t i = 0; i < ch.fifo.size(); ++i) {
        const Packet& p = *ch.fifo[i];
        const std::string waits =
            i > 0 ? fmt::format("{} ahead of it on the link {}->{}", name_of(*ch.fifo[i - 1]), node_name(k.from),
                                node_name(k.to))
            : p.kind == kRequest
                ? fmt::format("a data slot at {} for a request (all {} held{})", node_name(k.to), slots_,
                              reserved_ ? fmt::format(", {} of them for responses only", reserved_) : "")
                : "the link to be free";
        vertex[p.id] = g.add({name_of(p), holds(p), waits});
      }
  // requests holding a slot at their target, waiting for a slot for their response
  for (const Node& n : nodes_)
    for (const Packet* p : n.want_slot)
      vertex[p->id] = g.add({name_of(*p), holds(*p),
                             fmt::format("a data slot at {} for its response (all {} held)", node_name(p->to), slots_)});
  // edges: a packet behind waits for the one ahead; a refused head for
  // every holder of its target's slots; a request waiting for a slot for
  // its response for every other holder of its own node's slots
  for (const Link& k : links_)
    for (const Channel& ch : k.channels)
      for (size_t i = 0; i < ch.fifo.size(); ++i) {
        const Packet& p = *ch.fifo[i];
        if (i > 0) g.add_edge(vertex[p.id], vertex[ch.fifo[i - 1]->id]);
        else if (p.kind == kRequest)
          for (const Packet* h : nodes_[k.to].slot)
            if (h && vertex[h->id] != SIZE_MAX) g.add_edge(vertex[p.id], vertex[h->id]);
      }
  for (int node = 0; node < 2; ++node)
    for (const Packet* p : nodes_[node].want_slot)
      for (const Packet* h : nodes_[node].slot)
        if (h && h != p && vertex[h->id] != SIZE_MAX) g.add_edge(vertex[p->id], vertex[h->id]);
  return g;
}

}  // namespace ubsim
