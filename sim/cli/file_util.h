// Small file and process helpers shared by the commands that run other
// processes and keep their results on disk (sweep, compare, area).
#pragma once
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace ubsim::file_util {

// This ubsim binary (what sweep points and area jobs run).
inline std::string self_binary() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the ubsim binary (/proc/self/exe)");
  return p.string();
}

// FNV-1a, 64 bit, as 16 hex digits: names cached results by their inputs.
inline std::string fnv_hex(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace ubsim::file_util
