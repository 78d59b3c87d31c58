// A typed handle of one runtime parameter: its key and its unit. The
// handles are generated from the parameter table (param_keys.h, namespace
// ubsim::key), and Config reads a parameter through its handle, so a
// misspelt key does not compile and a time is not read as a count.
#pragma once
#include "units.h"

namespace ubsim {

template <Unit U>
struct Key {
  const char* name;
  static constexpr Unit unit = U;
};

}  // namespace ubsim
