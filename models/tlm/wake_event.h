// WakeEvent: an sc_event that knows when its pending notification fires,
// so a notification the kernel would drop (one at or after a pending
// earlier one: the earlier stays) is not made at all. For a process that
// waits on the event alone (a bridge's stepping process, a queued server's
// tick): it calls fired() when it runs.
#pragma once
#include <cstdint>

#include <systemc>

#include "transaction.h"

namespace ubsim {

class WakeEvent {
 public:
  // A notification at at_fs (one already past: now), unless one at or
  // before it is pending.
  void notify_at(uint64_t at_fs) {
    if (at_fs >= at_fs_) return;   // (a pending one is never before now)
    const uint64_t now = now_fs();
    if (at_fs < now) at_fs = now;
    if (at_fs >= at_fs_) return;
    at_fs_ = at_fs;
    event_.notify(delay_fs(at_fs - now));
  }
  // The waiting process runs: a notification due by now has fired.
  void fired() {
    if (at_fs_ <= now_fs()) at_fs_ = kNone;
  }
  void cancel() {
    if (at_fs_ == kNone) return;   // (nothing pending)
    event_.cancel();
    at_fs_ = kNone;
  }
  bool pending() const { return at_fs_ != kNone; }
  const sc_core::sc_event& event() const { return event_; }

 private:
  static constexpr uint64_t kNone = UINT64_MAX;
  sc_core::sc_event event_;
  uint64_t at_fs_ = kNone;   // when the pending notification fires (kNone: none)
};

}  // namespace ubsim
