// The raw speed of a verilated block: the UB send pipeline stepped in a bare
// C++ loop with a request offered every cycle (no SystemC, no bookkeeping).
#pragma once
#include <cstdint>

namespace ubsim {

struct RawSpeed {
  double cycles_per_s = 0;
  uint64_t delivered = 0;
};

RawSpeed measure_raw_model_speed(uint64_t cycles);

}  // namespace ubsim
