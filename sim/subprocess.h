// Runs one simulation in a child process: SystemC allows one elaboration per
// process, so every path, test case or sweep point gets its own.
#pragma once
#include <functional>
#include <string>

namespace ubsim {

struct ChildResult {
  int exit_code = 0;      // 0 ok, 2 configuration error, other: crash
  std::string output;     // what the child returned (or its error message)
};

// fn's return value travels back over a pipe. A ConfigError in the child
// gives exit code 2 and its message; any other exception exit code 3.
ChildResult run_in_child(const std::function<std::string()>& fn);

}  // namespace ubsim
