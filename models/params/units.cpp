#include "units.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace ubsim {

const char* unit_name(Unit u) {
  switch (u) {
    case Unit::Time: return "time";
    case Unit::Frequency: return "frequency";
    case Unit::Rate: return "rate";
    case Unit::OpRate: return "op rate";
    case Unit::Bytes: return "bytes";
    case Unit::Cycles: return "cycles";
    case Unit::Count: return "count";
    case Unit::Ratio: return "ratio";
    case Unit::Bool: return "bool";
    case Unit::Routes: return "route";
  }
  return "?";
}

const char* unit_example(Unit u) {
  switch (u) {
    case Unit::Time: return "\"30ns\"";
    case Unit::Frequency: return "\"322MHz\"";
    case Unit::Rate: return "\"400Gbit/s\" or \"50GB/s\"";
    case Unit::OpRate: return "\"20Mops/s\" or \"20/us\"";
    case Unit::Bytes: return "\"4096B\" or \"4KiB\"";
    case Unit::Cycles: return "25";
    case Unit::Count: return "2048";
    case Unit::Ratio: return "2";
    case Unit::Bool: return "true";
    case Unit::Routes: return "[\"A:sw.submit\", ...]";
  }
  return "?";
}

namespace {

using Suffixes = std::vector<std::pair<const char*, double>>;

const Suffixes& suffixes(Unit u) {
  static const Suffixes time = {{"fs", 1}, {"ps", 1e3}, {"ns", 1e6}, {"us", 1e9}, {"ms", 1e12}, {"s", 1e15}};
  static const Suffixes freq = {{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  static const Suffixes rate = {{"bit/s", 1.0 / 8}, {"kbit/s", 1e3 / 8}, {"Mbit/s", 1e6 / 8},
                                {"Gbit/s", 1e9 / 8}, {"Tbit/s", 1e12 / 8}, {"Gb/s", 1e9 / 8},
                                {"B/s", 1}, {"kB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9},
                                {"TB/s", 1e12}};
  static const Suffixes op_rate = {{"ops/s", 1}, {"/s", 1}, {"kops/s", 1e3}, {"Mops/s", 1e6},
                                   {"Gops/s", 1e9}, {"/us", 1e6}, {"/ns", 1e9}};
  static const Suffixes bytes = {{"", 1}, {"B", 1}, {"kB", 1e3}, {"KiB", 1024}, {"MB", 1e6}, {"MiB", 1048576}};
  static const Suffixes cycles = {{"", 1}, {"cycles", 1}, {"cyc", 1}};
  static const Suffixes plain = {{"", 1}};
  switch (u) {
    case Unit::Time: return time;
    case Unit::Frequency: return freq;
    case Unit::Rate: return rate;
    case Unit::OpRate: return op_rate;
    case Unit::Bytes: return bytes;
    case Unit::Cycles: return cycles;
    default: return plain;
  }
}

bool integral_unit(Unit u) { return u == Unit::Cycles || u == Unit::Count || u == Unit::Bytes; }

}  // namespace

Parsed parse_value(Unit unit, const std::string& raw) {
  Parsed out;
  std::string text;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c))) text += c;
  if (unit == Unit::Bool) {
    if (text == "true") out.value = 1;
    else if (text == "false") out.value = 0;
    else out.error = fmt::format("'{}' is not a bool (expected true or false)", raw);
    return out;
  }
  if (text.empty()) {
    out.error = fmt::format("empty value (expected a {} such as {})", unit_name(unit), unit_example(unit));
    return out;
  }
  const char* begin = text.c_str();
  char* end = nullptr;
  const double number = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(number)) {
    out.error = fmt::format("'{}' is not a {} (expected e.g. {})", raw, unit_name(unit), unit_example(unit));
    return out;
  }
  const std::string suffix(end);
  for (const auto& [name, scale] : suffixes(unit)) {
    if (suffix == name) {
      out.value = number * scale;
      if (integral_unit(unit) && std::fabs(out.value - std::round(out.value)) > 1e-9)
        out.error = fmt::format("'{}' is not a whole number of {}", raw, unit_name(unit));
      return out;
    }
  }
  if (suffix.empty())
    out.error = fmt::format("'{}' has no unit (expected a {} such as {})", raw, unit_name(unit), unit_example(unit));
  else
    out.error = fmt::format("unknown unit '{}' in '{}' (expected a {} such as {})", suffix, raw,
                            unit_name(unit), unit_example(unit));
  return out;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  size_t pos = 0;
  for (;;) {
    const auto comma = text.find(',', pos);
    items.push_back(text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (comma == std::string::npos) return items;
    pos = comma + 1;
  }
}

std::string format_value(Unit unit, double v) {
  auto g = [](double x) { return fmt::format("{:.6g}", x); };
  switch (unit) {
    case Unit::Time:
      if (v == 0) return "0ns";
      if (std::fabs(v) >= 1e12) return g(v / 1e12) + "ms";
      if (std::fabs(v) >= 1e9) return g(v / 1e9) + "us";
      if (std::fabs(v) >= 1e6) return g(v / 1e6) + "ns";
      return g(v / 1e3) + "ps";
    case Unit::Frequency: return g(v / 1e6) + "MHz";
    case Unit::Rate: return g(v * 8 / 1e9) + "Gbit/s";
    case Unit::OpRate: return g(v / 1e6) + "Mops/s";
    case Unit::Bytes: return fmt::format("{:.0f}B", v);
    case Unit::Bool: return v != 0 ? "true" : "false";
    default: return g(v);
  }
}

}  // namespace ubsim
