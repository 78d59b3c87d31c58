// Minimal JSON text helpers (the result files are written, never parsed).
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace ubsim::json {

// Appends s as a JSON string (quoted, escaped) to out.
inline void append_str(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", c);
        else out += c;
    }
  }
  out += '"';
}

inline std::string str(const std::string& s) {
  std::string out;
  append_str(out, s);
  return out;
}

inline std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:.6g}", v);
}

// Joins "key": value pairs (values already JSON text) into an object.
inline std::string object(const std::vector<std::pair<std::string, std::string>>& kv) {
  std::string out = "{";
  for (size_t i = 0; i < kv.size(); ++i)
    out += (i ? ", " : "") + str(kv[i].first) + ": " + kv[i].second;
  return out + "}";
}

inline std::string array(const std::vector<std::string>& items, bool multiline = false) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? (multiline ? ",\n  " : ", ") : (multiline ? "\n  " : "")) + items[i];
  return out + (multiline && !items.empty() ? "\n]" : "]");
}

}  // namespace ubsim::json
