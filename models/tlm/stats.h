// Self-describing statistics: every figure carries its component, name,
// unit and meaning, so tables, CSV and JSON are generated from one list.
#pragma once
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
class OccupancyTracker {
 public:
  void change(uint64_t now_fs, int delta) {
    area_ += static_cast<double>(level_) * static_cast<double>(now_fs - last_fs_);
    last_fs_ = now_fs;
    level_ += delta;
    if (level_ > max_) max_ = level_;
  }
  // change(now_fs, +1) then change(now_fs, -1): an item that enters and
  // leaves at one instant (the second change adds nothing to the area).
  void pass(uint64_t now_fs) {
    change(now_fs, 0);
    if (level_ + 1 > max_) max_ = level_ + 1;
  }
  double mean(uint64_t end_fs) const {
    const double area = area_ + static_cast<double>(level_) * static_cast<double>(end_fs - last_fs_);
    return end_fs ? area / static_cast<double>(end_fs) : 0.0;
  }
  int max() const { return max_; }
  int level() const { return level_; }

 private:
  double area_ = 0;
  uint64_t last_fs_ = 0;
  int level_ = 0;
  int max_ = 0;
};

}  // namespace ubsim
