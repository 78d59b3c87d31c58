// Values with units ("30ns", "322MHz", "400Gbit/s", "4KiB"): one grammar
// for config files, --set and sweep grids. A value is a decimal number
// (digits, an optional fraction and exponent; no hex, no spaces inside, no
// inf or nan) and the unit's suffix; it is kept exactly (Decimal) in the
// unit's base: fs, Hz, bytes/s, ops/s, bytes, cycles, counts, ratios.
#pragma once
#include <string>
#include <vector>

#include "decimal.h"

namespace ubsim {

enum class Unit { Time, Frequency, Rate, OpRate, Bytes, Cycles, Count, Ratio, Bool, Routes, Choice };

const char* unit_name(Unit u);      // "time", "frequency", ...
const char* unit_example(Unit u);   // "30ns", ...

struct Parsed {
  Decimal exact;         // base unit, exactly as written
  double value = 0;      // the same, as a double (for the models)
  std::string error;     // empty when ok
};

// Parses text for a value of the given unit kind. Whole-number units
// (bytes, cycles, counts) must be whole and fit 64 bits; times must be whole
// femtoseconds (the simulator's resolution).
Parsed parse_value(Unit unit, const std::string& text);
// Canonical, exact text of a base-unit value ("30ns", "322.0001MHz", "400Gbit/s", "4096B").
std::string format_value(Unit unit, const Decimal& value);
std::string format_value(Unit unit, double value);

// Splits "a,b,c" at commas (empty items kept, so they can be reported).
std::vector<std::string> split_list(const std::string& text);

}  // namespace ubsim
