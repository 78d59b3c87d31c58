// RateLimiterBridge: the verilated rate limiter (rtl/rate_limiter.sv) as
// the reaction point of one sender (spec 17): what the sender offers goes
// through it, paced to its current rate, and each congestion notification
// the sender receives is a pulse on its s_cnp. It steps its block only
// while a packet waits or a notification is due, and sleeps between by the
// block's wake_in (the head packet's budget, the recovery timer). The items
// are opaque to it (a frame of the fabric, or any packet): `send` takes
// each one the block let through, at the edge it passed.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "rtl_bridge.h"
#include "timed_queue.h"

#include "Vrate_limiter.h"

namespace ubsim {

// The limiter's runtime settings (the limiter.* keys, and the sender's line).
struct RateLimiterSettings {
  double line_Bps = 0;        // the rate after reset and the recovery's ceiling
  double rate_min_Bps = 0;
  double decrease = 0.5;      // the cut: x this (quantized to /256)
  uint64_t interval_fs = 0, recover_period_fs = 0;
  double recover_step_Bps = 0;
  uint64_t burst_bytes = 8192;
  static RateLimiterSettings from(const Config& c, double line_Bps);
};

class RateLimiterBridge : public VerilatedBridge<Vrate_limiter> {
 public:
  RateLimiterBridge(sc_core::sc_module_name name, const Config& c, const RateLimiterSettings& s);
  // An item of `bytes` to send, offered now.
  void offer(void* item, uint32_t bytes);
  // A congestion notification arrived now.
  void notify();
  std::function<void(void* item)> send;
  // Bytes the sender's link still holds from earlier sends (what leaves at
  // the line rate after a cut before the new rate shows on the wire).
  std::function<uint64_t()> downstream_bytes;
  void collect_stats(StatsTable& table) const override;
  double rate_Bps() const;
  size_t backlog() const { return items_.size(); }   // offered, not yet let through
  // The same just before at_fs (>= now): what an RTL edge at at_fs samples,
  // whichever of the two blocks is stepped first at that instant.
  size_t backlog_before(uint64_t at_fs) const {
    size_t n = items_.size_before(at_fs);
    for (auto it = passed_fs_.rbegin(); it != passed_fs_.rend() && *it >= at_fs; ++it) ++n;
    return n;
  }
  uint64_t decreases() const { return m_->cnt_decreases; }
  uint64_t first_decrease_fs() const { return first_decrease_fs_; }   // 0: none
  // When the first cut shows on the sender's wire: the cut's edge plus what
  // was already passed (downstream and on its way there) at the line rate.
  uint64_t first_decrease_on_wire_fs() const { return first_on_wire_fs_; }

 protected:
  void accept(Transaction& t) override;
  bool has_work() const override { return !items_.empty() || !cnps_.empty(); }
  uint64_t wake_in() const override { return m_->wake_in; }
  void configure() override;
  void drive(uint64_t e) override;
  void sample(uint64_t e) override;
  bool apply(uint64_t e) override;
  void drive_idle() override;

 private:
  const RateLimiterSettings set_;
  struct Item {
    void* p;
    uint32_t bytes;
  };
  TimedQueue<Item> items_;
  TimedQueue<bool> cnps_;
  void deliver_item(void* item) override;
  std::deque<uint32_t> leaving_bytes_;   // of the items let through and not yet sent, in order
  std::deque<uint64_t> passed_fs_;       // the edges items were let through at, from the current instant on
  struct Edge {
    Item* item = nullptr;
    bool cnp = false, pass = false;
  } edge_;
  uint32_t last_rate_ = 0;
  uint64_t first_decrease_fs_ = 0, first_on_wire_fs_ = 0;
};

}  // namespace ubsim
