// OrderPort: a send pipeline's order tracker as the bridge sees it.
// Completions of tracked requests (known to the controller when the last
// packet of the response passed its receive pipeline, or when the transport
// gave up) are offered on s_cpl_* at the first edge after they arrive, one
// per edge; the tracker takes one in every cycle. What it reports back, per
// edge: a request issued with its (slot, seq) and whether it had been held,
// a request taken into its hold window, a request rejected (an error
// completion), a completion reported.
#pragma once
#include <cstdint>

#include "timed_queue.h"

namespace ubsim {

class OrderPort {
 public:
  struct Completion {
    int slot, seq;
  };
  void complete(int slot, int seq, uint64_t at_fs) { completions_.push(at_fs, {slot, seq}); }
  bool pending() const { return !completions_.empty(); }
  const Completion* offered(uint64_t e) { return completions_.offered(e); }
  void taken() {
    completions_.pop();
    ++taken_;
  }
  void reported() { ++reports_; }
  void rejected() { ++errors_; }
  uint64_t completions_taken() const { return taken_; }
  uint64_t errors() const { return errors_; }
  uint64_t reports() const { return reports_; }

 private:
  TimedQueue<Completion> completions_;
  uint64_t taken_ = 0, errors_ = 0, reports_ = 0;
};

}  // namespace ubsim
