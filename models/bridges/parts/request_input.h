// RequestInput: the requests waiting at a pipeline's input, in arrival order.
// The head is offered at the first clock edge strictly after it arrived
// (RtlBridge's timing rule); taken at the edge its handshake fires, when its
// hop's service starts (the wait for that edge itemized as alignment). It
// counts the edges a request was offered and refused (back-pressure) and
// the time-weighted queue length.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>

#include "request.h"
#include "stats.h"

namespace ubsim {

class RequestInput {
 public:
  explicit RequestInput(uint64_t period_fs) : period_fs_(period_fs) {}

  void push(Request& r, uint64_t now_fs) {
    q_.push_back(&r);
    queue_.change(now_fs, +1);
  }
  bool empty() const { return q_.empty(); }
  size_t size() const { return q_.size(); }
  // The head, if it arrived before edge e.
  Request* offered(uint64_t e) const {
    return !q_.empty() && q_.front()->now_times().arrive_fs < e ? q_.front() : nullptr;
  }
  // The head's handshake fired at edge e.
  Request& take(uint64_t e) {
    Request& r = *q_.front();
    HopTimes& t = r.now_times();
    t.start_fs = e;
    t.align_fs = (t.arrive_fs / period_fs_ + 1) * period_fs_ - t.arrive_fs;
    q_.pop_front();
    queue_.change(e, -1);   // it left the queue at this edge
    ++accepted_;
    return r;
  }
  // The head was offered at an edge and refused.
  void refused() { ++stall_cycles_; }
  // `count` edges from `first` on were skipped while the block refused its
  // input: the head was refused at each edge after its arrival.
  void refused_while_skipped(uint64_t first, uint64_t count) {
    if (q_.empty()) return;
    const uint64_t from = std::max(first, q_.front()->now_times().arrive_fs / period_fs_ + 1);
    if (first + count > from) stall_cycles_ += first + count - from;
  }

  uint64_t accepted() const { return accepted_; }
  uint64_t stall_cycles() const { return stall_cycles_; }
  const OccupancyTracker& queue() const { return queue_; }

 private:
  const uint64_t period_fs_;
  std::deque<Request*> q_;
  OccupancyTracker queue_;
  uint64_t accepted_ = 0, stall_cycles_ = 0;
};

}  // namespace ubsim
