#include "units.h"

#include <cctype>
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
    case Unit::Choice: return "choice";
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
    case Unit::Choice: return "one of its names";
  }
  return "?";
}

namespace {

// Each suffix with its scale to the base unit, as an exact decimal text.
using Suffixes = std::vector<std::pair<const char*, const char*>>;

const Suffixes& suffixes(Unit u) {
  static const Suffixes time = {{"fs", "1"}, {"ps", "1e3"}, {"ns", "1e6"}, {"us", "1e9"}, {"ms", "1e12"}, {"s", "1e15"}};
  static const Suffixes freq = {{"Hz", "1"}, {"kHz", "1e3"}, {"MHz", "1e6"}, {"GHz", "1e9"}};
  static const Suffixes rate = {{"bit/s", "0.125"}, {"kbit/s", "125"}, {"Mbit/s", "125e3"}, {"Gbit/s", "125e6"},
                                {"Tbit/s", "125e9"}, {"Gb/s", "125e6"}, {"B/s", "1"}, {"kB/s", "1e3"},
                                {"MB/s", "1e6"}, {"GB/s", "1e9"}, {"TB/s", "1e12"}};
  static const Suffixes op_rate = {{"ops/s", "1"}, {"/s", "1"}, {"kops/s", "1e3"}, {"Mops/s", "1e6"},
                                   {"Gops/s", "1e9"}, {"/us", "1e6"}, {"/ns", "1e9"}};
  static const Suffixes bytes = {{"", "1"}, {"B", "1"}, {"kB", "1e3"}, {"KiB", "1024"}, {"MB", "1e6"},
                                 {"MiB", "1048576"}, {"GB", "1e9"}, {"GiB", "1073741824"}};
  static const Suffixes cycles = {{"", "1"}, {"cycles", "1"}, {"cyc", "1"}};
  static const Suffixes plain = {{"", "1"}};
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

Decimal dec(const char* text) {
  std::string rest;
  return *Decimal::parse_prefix(text, rest);
}

bool integral_unit(Unit u) { return u == Unit::Cycles || u == Unit::Count || u == Unit::Bytes; }

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

}  // namespace

Parsed parse_value(Unit unit, const std::string& raw) {
  Parsed out;
  const std::string text = trim(raw);
  if (unit == Unit::Bool) {
    if (text == "true") out.exact = Decimal::of(1);
    else if (text == "false") out.exact = Decimal::of(0);
    else out.error = fmt::format("'{}' is not a bool (expected true or false)", raw);
    out.value = out.exact.to_double();
    return out;
  }
  if (text.empty()) {
    out.error = fmt::format("empty value (expected a {} such as {})", unit_name(unit), unit_example(unit));
    return out;
  }
  std::string suffix;
  const auto number = Decimal::parse_prefix(text, suffix);
  const bool inner_space = text.find_first_of(" \t") != std::string::npos;
  if (!number || inner_space || (!suffix.empty() && (std::isdigit(static_cast<unsigned char>(suffix[0])) ||
                                                     suffix[0] == 'x' || suffix[0] == 'X' || suffix[0] == '.'))) {
    out.error = fmt::format("'{}' is not a {} (a decimal number and a unit, no spaces inside, e.g. {})", raw,
                            unit_name(unit), unit_example(unit));
    return out;
  }
  for (const auto& [name, scale] : suffixes(unit)) {
    if (suffix != name) continue;
    const auto v = number->times(dec(scale));
    if (!v) {
      out.error = fmt::format("'{}' is out of range (too many digits or too large an exponent)", raw);
      return out;
    }
    out.exact = *v;
    out.value = v->to_double();
    if (integral_unit(unit) && !v->is_integer())
      out.error = fmt::format("'{}' is not a whole number of {}", raw, unit_name(unit));
    else if (integral_unit(unit) && !v->negative() && !v->fits_u64())
      out.error = fmt::format("'{}' does not fit 64 bits", raw);
    else if (unit == Unit::Time && !v->is_integer())
      out.error = fmt::format("'{}' is finer than the simulator's time resolution of 1 fs", raw);
    return out;
  }
  if (suffix.empty())
    out.error = fmt::format("'{}' has no unit (expected a {} such as {})", raw, unit_name(unit), unit_example(unit));
  else
    out.error = fmt::format("unknown unit '{}' in '{}' (expected a {} such as {})", suffix, raw, unit_name(unit),
                            unit_example(unit));
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

std::string format_value(Unit unit, const Decimal& v) {
  switch (unit) {
    case Unit::Time: {
      if (v.compare(Decimal()) == 0) return "0ns";
      const Decimal mag = v.negative() ? *v.times(dec("-1")) : v;
      if (mag.compare(dec("1e12")) >= 0) return v.text(12) + "ms";
      if (mag.compare(dec("1e9")) >= 0) return v.text(9) + "us";
      if (mag.compare(dec("1e6")) >= 0) return v.text(6) + "ns";
      return v.text(3) + "ps";
    }
    case Unit::Frequency: return v.text(6) + "MHz";
    case Unit::Rate: return v.times(dec("8"))->text(9) + "Gbit/s";
    case Unit::OpRate: return v.text(6) + "Mops/s";
    case Unit::Bytes: return v.text() + "B";
    case Unit::Bool: return v.compare(Decimal()) != 0 ? "true" : "false";
    default: return v.text();
  }
}

std::string format_value(Unit unit, double value) {
  // the top of a 64-bit range reads as what it is, not as 2^64 (its double)
  if ((unit == Unit::Count || unit == Unit::Bytes || unit == Unit::Cycles) && value >= 18446744073709551615.0)
    return "18446744073709551615" + std::string(unit == Unit::Bytes ? "B" : "");
  return format_value(unit, Decimal::of_double(value));
}

}  // namespace ubsim
