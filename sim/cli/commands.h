// The commands of the ubsim front end (sim/cli/commands.cpp). Each takes the
// arguments after its name and returns the exit status; bad input throws
// CliError or ConfigError (exit 2), the caller prints the one line.
#pragma once
#include <string>
#include <vector>

#include "experiment.h"

namespace ubsim::cli {

std::string usage();
int cmd_help(const std::vector<std::string>& args);
int cmd_experiment(const Experiment& e, const std::vector<std::string>& args);
int cmd_loss(const std::vector<std::string>& args);
int cmd_params(const std::vector<std::string>& args);
int cmd_report(const std::vector<std::string>& args);
int cmd_sweep(const std::vector<std::string>& args);
int cmd_compare(const std::vector<std::string>& args);

}  // namespace ubsim::cli
