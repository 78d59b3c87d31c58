// The simulated time as the models read and schedule it: a 64-bit count
// of fs (the kernel's resolution), now, a delay from now, an sc_time of n
// fs. The one place for these helpers (the TLM models, the fabric, the
// systems).
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <systemc>

namespace ubsim {

// The simulated time in fs (the resolution is 1 fs). Read from the current
// simulation context inline: sc_time_stamp() is a call into the library,
// and the models ask for the time a few hundred times per request.
inline uint64_t now_fs() {
  return static_cast<uint64_t>(sc_core::sc_get_curr_simcontext()->time_stamp().value());
}

// Simulated time is a 64-bit count of fs (about 5.1 hours): a delay that
// would reach past its end is an error, never a silent wrap. Experiments
// refuse configurations whose estimated span comes near it (exit 2); this
// guard catches what an estimate missed (exit 3).
class HorizonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
inline constexpr uint64_t kHorizonFs = UINT64_MAX;

// An sc_time of v fs, built inline. sc_time::from_value is a call into the
// library that also marks the time resolution as fixed (done long before:
// elaboration builds nonzero times); an sc_time is its one 64-bit count of
// the resolution (sysc/kernel/sc_time.h), written here directly. The
// models build one per kernel notification, about 25 per read.
inline sc_core::sc_time fs_time(uint64_t v) {
  static_assert(sizeof(sc_core::sc_time) == sizeof(uint64_t) && std::is_standard_layout_v<sc_core::sc_time>,
                "sc_time is not one 64-bit count: use sc_time::from_value");
  sc_core::sc_time t;
  std::memcpy(static_cast<void*>(&t), &v, sizeof v);
  return t;
}

// (out of line and cold: delay_fs, on every notification, inlines to a
// compare)
[[noreturn, gnu::cold, gnu::noinline]] inline void throw_past_horizon(uint64_t now) {
  throw HorizonError("simulated time would pass the simulator's horizon of 2^64 fs (18446.7 s) at " +
                     std::to_string(static_cast<double>(now) / 1e15) + " s; reduce the run (ops, latencies)");
}

// A delay of d fs from now (exact: no rounding through a double).
inline sc_core::sc_time delay_fs(uint64_t d) {
  const uint64_t now = now_fs();
  if (d > kHorizonFs - now) throw_past_horizon(now);
  return fs_time(d);
}

inline sc_core::sc_time fs_from_now(uint64_t at_fs) {
  const uint64_t now = now_fs();
  return delay_fs(at_fs > now ? at_fs - now : 0);
}

}  // namespace ubsim
