// Where ubsim finds the files it ships with (plot and report scripts,
// docs/*.csv, waveform save files, configs, RTL sources), and where it keeps
// caches shared between runs. One place, so an installed ubsim
// (cmake --install: <prefix>/bin/ubsim beside <prefix>/share/ubsim) and one
// run from its build tree behave alike.
#pragma once
#include <string>

namespace ubsim {

// $UBSIM_DATA_DIR if set; else <prefix>/share/ubsim when this binary is an
// installed <prefix>/bin/ubsim; else the source tree it was built from.
const std::string& data_dir();
// data_dir() + "/" + relative
std::string data_path(const std::string& relative);
// Whether data_dir() is the source tree (variant builds need its CMakeLists).
bool running_from_source();
// A cache folder shared between runs: <source tree>/<name> when running from
// it, else $XDG_CACHE_HOME/ubsim/<name> (default ~/.cache/ubsim/<name>).
std::string cache_dir(const std::string& name);

}  // namespace ubsim
