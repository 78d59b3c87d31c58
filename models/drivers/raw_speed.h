// The raw speed of verilated blocks, stepped in a bare C++ loop (no SystemC,
// no bookkeeping): the UB send pipeline with a request offered every cycle,
// and every block of the paths with nothing offered (the cost of one
// evaluated cycle: Verilator evaluates the whole model on every edge).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "config.h"

namespace ubsim {

struct RawSpeed {
  double cycles_per_s = 0;
  uint64_t delivered = 0;
};

// CPU seconds this process has used (the simulations' cpu_s are differences of it).
double cpu_seconds();

RawSpeed measure_raw_model_speed(uint64_t cycles);

// CPU seconds of one evaluated cycle (VerilatedBlock::cycle: two eval()
// calls, clock low then high) of the block whose model class is
// `model_name` (RtlBridge::block_name), measured over `cycles` idle cycles
// after reset; none for a class it does not know. An idle cycle costs no
// more than a busy one, so this is a lower bound on what the co-simulation
// pays per evaluated cycle.
std::optional<double> idle_cycle_cost(const std::string& model_name, const Config& c, uint64_t cycles);

}  // namespace ubsim
