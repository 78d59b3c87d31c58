// Speed of the raw verilated model, stepped in a plain C++ loop: the ceiling
// the co-simulation is compared with in `ubsim bench`.
#pragma once
#include <cstdint>

namespace ubsim {
struct RawSpeed {
  double cycles_per_s;
  uint64_t delivered;
};
RawSpeed measure_raw_model_speed(uint64_t cycles);
}  // namespace ubsim
