// Self-describing statistics: every figure carries its component, name,
// unit and meaning, so tables, CSV and JSON are generated from one list.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ubsim {

struct StatRow {
  std::string component;
  std::string name;
  double value;
  std::string unit;
  std::string description;
};

struct StatsTable {
  std::vector<StatRow> rows;
  void add(const std::string& component, const std::string& name, double value,
           const std::string& unit, const std::string& description) {
    rows.push_back({component, name, value, unit, description});
  }
};

// Time-weighted occupancy of a queue (mean and maximum number waiting).
// The area under the level is kept exactly, as an integer (items x fs):
// the area up to time T is level x T minus the sum of every change's delta
// x its time, so a change adds one product of a small delta and a time
// (an add or a subtract of the time for the +1 / -1 of an item entering
// or leaving) and converts nothing to floating point.
class OccupancyTracker {
 public:
  void change(uint64_t now_fs, int delta) {
    moments_ += static_cast<unsigned __int128>(static_cast<__int128>(delta)) * now_fs;   // (modulo 2^128: exact)
    level_ += delta;
    if (level_ > max_) max_ = level_;
  }
  // change(now_fs, +1) then change(now_fs, -1): an item that enters and
  // leaves at one instant (it adds nothing to the area).
  void pass(uint64_t /*now_fs*/) {
    if (level_ + 1 > max_) max_ = level_ + 1;
  }
  double mean(uint64_t end_fs) const {
    const unsigned __int128 area = static_cast<unsigned __int128>(static_cast<uint64_t>(level_)) * end_fs - moments_;
    return end_fs ? static_cast<double>(area) / static_cast<double>(end_fs) : 0.0;
  }
  int max() const { return max_; }
  int level() const { return level_; }

 private:
  unsigned __int128 moments_ = 0;   // the sum of delta x time over the changes
  int level_ = 0;   // (never below 0: every item leaves after it entered)
  int max_ = 0;
};

}  // namespace ubsim
