// The parameter table: every configuration key with its unit, default,
// range and meaning. `ubsim params` prints it; config files and --set are
// checked against it.
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
  double max;                 // base units; upper bound (inclusive), build maxima come from the RTL
  std::string used_by;        // experiments that read it
  std::string description;
};

const std::vector<ParamDef>& param_table();
const ParamDef* find_param(const std::string& key);

}  // namespace ubsim
