// DeadlockSystem: two nodes reading and writing each other's memory through a pool of
// data slots per node (textbook 7.5.4, figures 7-49 / 7-50) that incoming
// requests and outgoing responses both take, over a lossless link: a
// request starts on the wire only once its target has a slot for it
// (credit-based: pause without loss), in FIFO order; a request waiting for
// its credit does not hold up the responses on the same link. An
// incoming read request keeps its slot until it has a second one for its
// response (the data read from memory goes there; then the request's slot
// is free); the response keeps its slot until it has left. A write is the
// same with the data in the request: it keeps its slot until it has one
// for its ack (an outgoing response, if only a header), then its data goes
// to memory and its slot is free. Requests may
// use only the unreserved slots (deadlock.slots minus
// deadlock.reserved_response_slots); with deadlock.response_channel the
// responses have a channel and buffers of their own. A response arriving
// at the requester goes to its memory (no slot).
// When nothing is left to happen and reads are outstanding, the system
// builds the wait-for graph of every packet (what it holds, what it waits
// for) and finds the cycle, if there is one.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "config.h"
#include "wait_for.h"

namespace ubsim {

class DeadlockSystem : public sc_core::sc_module {
 public:
  DeadlockSystem(sc_core::sc_module_name name, const Config& c);
  uint64_t completed() const { return completed_[0] + completed_[1]; }
  uint64_t requested() const { return 2 * (reads_ + writes_); }
  uint64_t completed(int node) const { return completed_[node]; }
  uint64_t slots_peak(int node) const { return nodes_[node].peak; }
  uint64_t credit_waits() const { return credit_waits_; }
  uint64_t last_completion_fs() const { return last_completion_fs_; }
  // The wait-for graph of what is outstanding now.
  WaitForGraph wait_for() const;

 private:
  enum Kind { kRequest, kResponse };
  struct Packet {
    uint64_t id = 0;
    Kind kind = kRequest;
    bool write = false;     // a write request, or its ack
    int from = 0, to = 0;
    uint32_t bytes = 0;
    int slot = -1;          // the receive slot it holds at `to` (or its response's sender: see Node::held)
    bool response_queued = false;   // a request: its response is waiting to leave
    uint64_t response = 0;          // ... and that response
  };
  struct Node {
    std::vector<Packet*> slot;   // data slots: who holds each (null: free)
    std::deque<Packet*> want_slot;   // requests served in order, waiting for a slot for their response
    uint64_t peak = 0, issued = 0, outstanding = 0;
    size_t held() const;
  };
  struct Channel {           // one direction's FIFO of packets waiting for a credit
    std::deque<Packet*> fifo;
  };
  // One direction of the link: its channels (one, or requests and responses).
  struct Link {
    int from = 0, to = 0;
    std::vector<Channel> channels;   // [0] requests (each waits for a credit), [1] responses
    bool busy = false;
    size_t next = 0;          // round robin between the channels
    sc_core::sc_event kick;
  };
  void start_link(int l);
  void at(uint64_t delay_fs, std::function<void()> fn);
  void run_agenda();
  bool can_take(const Node& n, Kind k) const;
  int take_slot(Node& n, Packet* p);
  void free_slot(int node, int slot);
  void issue(int node);
  void arrived(Packet* p);
  void serve_next(int node);
  void served(Packet* req, int response_slot);
  void consumed(Packet* resp);
  std::string name_of(const Packet& p) const;

  const uint32_t slots_, reserved_, outstanding_, request_bytes_, read_bytes_, write_bytes_;
  const bool separate_;
  const uint64_t reads_, writes_, serve_fs_, consume_fs_, latency_fs_;
  const double bytes_per_s_;
  Node nodes_[2];
  Link links_[2];   // [0] A->B, [1] B->A
  std::vector<std::unique_ptr<Packet>> packets_;
  std::multimap<uint64_t, std::function<void()>> agenda_;   // (time fs, what happens then)
  sc_core::sc_event agenda_event_;
  uint64_t next_id_ = 0, completed_[2] = {0, 0}, credit_waits_ = 0, last_completion_fs_ = 0;
};

}  // namespace ubsim
