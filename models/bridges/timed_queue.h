// TimedQueue: inputs that reach a bridge in time order, each offered to its
// block at the first clock edge strictly after it arrived (RtlBridge's
// timing rule). One class for what every bridge's inputs need.
#pragma once
#include <cstdint>
#include <utility>

#include "ring_queue.h"

namespace ubsim {

template <class T>
class TimedQueue {
 public:
  // An item arriving at at_fs (not before the last one pushed).
  void push(uint64_t at_fs, T item) { q_.push_back({at_fs, std::move(item)}); }
  // The oldest item if it arrived before edge_fs (it may be taken at that
  // edge), else nullptr.
  T* offered(uint64_t edge_fs) { return !q_.empty() && q_.front().at_fs < edge_fs ? &q_.front().item : nullptr; }
  T& front() { return q_.front().item; }
  uint64_t front_time() const { return q_.front().at_fs; }
  void pop() { q_.pop_front(); }
  bool empty() const { return q_.empty(); }
  size_t size() const { return q_.size(); }
  // Of them, those that arrived before at_fs (the newest are at the back).
  size_t size_before(uint64_t at_fs) const {
    size_t n = q_.size();
    while (n > 0 && q_[n - 1].at_fs >= at_fs) --n;
    return n;
  }

 private:
  struct Entry {
    uint64_t at_fs = 0;
    T item = T();   // (value-initialized: T may have an explicit default constructor)
  };
  RingQueue<Entry> q_;
};

}  // namespace ubsim
