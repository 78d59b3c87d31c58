#include "rate_limiter_bridge.h"

#include <cmath>
#include <stdexcept>

namespace ubsim {

RateLimiterSettings RateLimiterSettings::from(const Config& c, double line_Bps) {
  RateLimiterSettings s;
  s.line_Bps = line_Bps;
  s.rate_min_Bps = c.value(key::limiter_rate_min);
  s.decrease = c.value(key::limiter_decrease);
  s.interval_fs = c.fs(key::limiter_interval);
  s.recover_period_fs = c.fs(key::limiter_recover_period);
  s.recover_step_Bps = c.value(key::limiter_recover_step);
  s.burst_bytes = c.count(key::limiter_burst);
  return s;
}

namespace {
// bytes per second -> the RTL's bytes per cycle, Q16.16
uint32_t per_cycle_q16(double Bps, uint64_t period_fs) {
  const double v = Bps * static_cast<double>(period_fs) / 1e15 * 65536.0;
  return static_cast<uint32_t>(std::min(v, 4294967295.0));
}
}  // namespace

RateLimiterBridge::RateLimiterBridge(sc_core::sc_module_name name, const Config& c, const RateLimiterSettings& s)
    : VerilatedBridge(name, c), set_(s) {}

void RateLimiterBridge::configure() {
  const uint64_t period = period_fs_;
  last_rate_ = per_cycle_q16(set_.line_Bps, period);   // the rate after reset
  m_->cfg_rate_max = per_cycle_q16(set_.line_Bps, period);
  m_->cfg_rate_min = per_cycle_q16(set_.rate_min_Bps, period);
  m_->cfg_burst = static_cast<uint32_t>(set_.burst_bytes);
  m_->cfg_decrease = static_cast<uint16_t>(std::lround(set_.decrease * 256));
  m_->cfg_interval = set_.interval_fs / period;
  m_->cfg_recover_cycles = set_.recover_period_fs / period;
  m_->cfg_recover_step = per_cycle_q16(set_.recover_step_Bps, period);
}

void RateLimiterBridge::drive_idle() {
  m_->s_valid = 0;
  m_->s_cnp = 0;
  m_->m_ready = 1;   // the sender's link queue takes what passes
}

void RateLimiterBridge::accept(Transaction&) {
  throw std::logic_error(std::string(name()) + ": the rate limiter takes items by offer(), not transactions");
}

void RateLimiterBridge::offer(void* item, uint32_t bytes) {
  items_.push(now_fs(), {item, bytes});
  wake(now_fs());
}

void RateLimiterBridge::notify() {
  cnps_.push(now_fs(), true);
  wake(now_fs());
}

void RateLimiterBridge::drive(uint64_t e) {
  Edge& x = edge_ = Edge{};
  x.item = items_.offered(e);
  x.cnp = cnps_.offered(e) != nullptr;
  m_->s_valid = x.item != nullptr;
  m_->s_bytes = static_cast<uint16_t>(x.item ? x.item->bytes : 0);
  m_->s_cnp = x.cnp;
}

void RateLimiterBridge::sample(uint64_t) {
  edge_.pass = edge_.item && m_->s_ready;
}

bool RateLimiterBridge::apply(uint64_t e) {
  Edge& x = edge_;
  if (x.cnp) cnps_.pop();
  if (m_->rate != last_rate_) {   // a cut or a recovery step took effect at this edge
    if (m_->rate < last_rate_ && !first_decrease_fs_) {
      first_decrease_fs_ = e;
      uint64_t bytes = downstream_bytes ? downstream_bytes() : 0;
      for (uint32_t b : leaving_bytes_) bytes += b;
      first_on_wire_fs_ = e + static_cast<uint64_t>(std::llround(static_cast<double>(bytes) / set_.line_Bps * 1e15));
    }
    last_rate_ = m_->rate;
  }
  if (!x.pass) return false;
  hand_off(e, x.item->p);   // sent at the edge it passed
  leaving_bytes_.push_back(x.item->bytes);
  items_.pop();
  while (!passed_fs_.empty() && passed_fs_.front() < now_fs()) passed_fs_.pop_front();   // (no edge before now is sampled)
  passed_fs_.push_back(e);
  return true;
}

void RateLimiterBridge::deliver_item(void* item) {
  leaving_bytes_.pop_front();
  send(item);
}

double RateLimiterBridge::rate_Bps() const {
  return static_cast<double>(m_->rate) / 65536.0 / static_cast<double>(period_fs_) * 1e15;
}

void RateLimiterBridge::collect_stats(StatsTable& t) const {
  const std::string n = name();
  t.add(n, "passed", static_cast<double>(m_->cnt_passed), "packets", "packets the limiter let through");
  t.add(n, "decreases", static_cast<double>(m_->cnt_decreases), "events", "notifications that cut the rate");
  t.add(n, "cnp_ignored", static_cast<double>(m_->cnt_cnp_ignored), "events",
        "notifications inside limiter.interval (counted, not acted on)");
  t.add(n, "recoveries", static_cast<double>(m_->cnt_recoveries), "events", "recovery steps");
  t.add(n, "rate_end_GBps", rate_Bps() / 1e9, "GB/s", "the current rate at the end");
  if (first_on_wire_fs_)
    t.add(n, "first_cut_on_wire_ns", static_cast<double>(first_on_wire_fs_) / 1e6, "ns",
          "when its first cut shows on the sender's wire (the cut's edge, then what was already passed, at the line rate)");
  collect_clock_stats(t);
}

}  // namespace ubsim
