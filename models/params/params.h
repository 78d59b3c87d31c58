// The parameter table: every configuration key with its unit, default,
// range and meaning, the one place a runtime parameter is declared.
// `ubsim params` prints it; config files and --set are checked against it;
// a model reads its value from the Config by key.
#pragma once
#include <string>
#include <vector>

#include "units.h"

namespace ubsim {

struct ParamDef {
  std::string key;
  Unit unit;
  std::string default_text;   // as a user would write it
  double min;                 // base units; a lower bound (inclusive)
  double max;                 // base units; upper bound (inclusive)
  std::string used_by;        // experiments that read it
  std::string description;
  // When max is a build maximum of the RTL: what it is ("UBSIM_RTL_...").
  std::string max_is = "";
  // The value must be a power of two (the RTL shifts or masks by it).
  bool power_of_two = false;
  // Unit::Choice: the names it takes (stored as the index; min 0, max the last).
  std::vector<std::string> choices = {};
};

const std::vector<ParamDef>& param_table();
const ParamDef* find_param(const std::string& key);
// For a key that existed once and is now a build option: why, and what to
// use instead (null for any other key).
const std::string* removed_param_hint(const std::string& key);

}  // namespace ubsim
