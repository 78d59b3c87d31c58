// Reading a topology from a configuration file's [topology] tables.
#pragma once
#include <string>

#include <toml++/toml.h>

#include "topology.h"

namespace ubsim {

// `path` names the file in errors; links without a rate or delay take
// wire.rate / wire.latency from `cfg` (the default link).
Topology parse_topology(const toml::table& t, const std::string& path, const Config& cfg);

}  // namespace ubsim
