#include "watchdog.h"

#include <algorithm>

#include <fmt/format.h>
#include <systemc>

#include "config.h"
#include "params.h"
#include "transaction.h"

namespace ubsim {

ProgressWatchdog::ProgressWatchdog(uint64_t span_fs, std::function<std::string()> holders,
                                   std::function<std::string()> outstanding)
    : span_fs_(std::max<uint64_t>(span_fs, 1)), holders_(std::move(holders)), outstanding_(std::move(outstanding)) {
  current_ = this;
  last_progress_fs_ = 0;
}

ProgressWatchdog::~ProgressWatchdog() {
  if (current_ == this) current_ = nullptr;
}

bool ProgressWatchdog::fire(uint64_t edge_fs) {
  if (fired()) return true;
  const std::string who = holders_();
  if (who.empty()) return false;
  report_ = fmt::format("no progress for {:.6g} us of simulated time (at {:.6g} us; watchdog.span {:.6g} us): {}; "
                        "blocks holding work: {}",
                        static_cast<double>(edge_fs - last_progress_fs_) / 1e9, static_cast<double>(edge_fs) / 1e9,
                        static_cast<double>(span_fs_) / 1e9, outstanding_(), who);
  sc_core::sc_stop();
  return true;
}

uint64_t ProgressWatchdog::span_for(const Config& c) {
  if (const double set = c.value(key::watchdog_span); set > 0) return static_cast<uint64_t>(set);
  // the longest single wait any configured stage or timer can impose
  double longest = 0, cycles = 256;   // a pipeline may hold work a few hundred cycles on its own
  for (const ParamDef& d : param_table()) {
    if (d.unit == Unit::Time && d.key != "watchdog.span") longest = std::max(longest, c.value(d.key));
    if (d.unit == Unit::Cycles) cycles = std::max(cycles, c.value(d.key) + 256);
  }
  longest = std::max(longest, cycles * static_cast<double>(c.clock_period_fs()));   // stages counted in cycles
  double rto = c.value(key::sack_rto);
  for (uint64_t k = 0; k < c.count(key::sack_max_retries); ++k) rto *= c.value(key::sack_rto_backoff);
  longest = std::max(longest, rto);
  const double span = std::max(10.0 * longest, 1e10);   // at least 10 us
  return span >= static_cast<double>(kHorizonFs) / 2 ? kHorizonFs / 2 : static_cast<uint64_t>(span);
}

}  // namespace ubsim
