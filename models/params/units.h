// Parsing of values with units ("30ns", "322MHz", "400Gbit/s", "4KiB").
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ubsim {

enum class Unit { Time, Frequency, Rate, OpRate, Bytes, Cycles, Count, Ratio, Bool, Routes };

const char* unit_name(Unit u);      // "time", "frequency", ...
const char* unit_example(Unit u);   // "30ns", ...

struct Parsed {
  double value = 0;      // base unit: fs, Hz, bytes/s, ops/s, bytes, cycles, count, ratio, 0/1
  std::string error;     // empty when ok
};

// Parses text for a value of the given unit kind.
Parsed parse_value(Unit unit, const std::string& text);
// Canonical text of a base-unit value ("30ns", "322MHz", "50GB/s", "4096B").
std::string format_value(Unit unit, double value);

// Splits "a,b,c" at commas (empty items kept, so they can be reported).
std::vector<std::string> split_list(const std::string& text);

}  // namespace ubsim
