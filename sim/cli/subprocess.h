// Runs one simulation in a child process: SystemC allows one elaboration per
// process, so every path, test case or sweep point gets its own.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace ubsim {

struct ChildResult {
  int exit_code = 0;      // 0 ok, 2 configuration error, other: crash
  std::string output;     // what the child returned (or its error message)
};

// fn's return value travels back over a pipe. A ConfigError in the child
// gives exit code 2 and its message; any other exception exit code 3.
ChildResult run_in_child(const std::function<std::string()>& fn);

// Runs a program with its argv (no shell: paths may hold any character) and
// waits for it; stdout / stderr go to the given files when named. Returns
// its exit status (127: it could not be started; 128 + signal: killed).
int run_program(const std::vector<std::string>& argv, const std::string& stdout_path = "",
                const std::string& stderr_path = "");

}  // namespace ubsim
