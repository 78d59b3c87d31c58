// Child processes: a simulation in a forked child (SystemC allows one
// elaboration per process, so every path, test case or sweep point gets
// its own), and other programs started with their argv (never a shell).
// Every child dies with its parent (PR_SET_PDEATHSIG): killing ubsim leaves
// no simulation or sweep point running.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ubsim {

struct ChildResult {
  int exit_code = 0;      // 0 ok, 2 bad input, 4 no progress (watchdog), other: failure or crash
  std::string output;     // what the child returned (or its one-line error)
  int signal = 0;         // the signal that ended it (0: it exited)
};

// fn's return value travels back over a pipe. A ConfigError or CliError in
// the child gives exit code 2 and its message; any other exception exit
// code 3 and its first line.
ChildResult run_in_child(const std::function<std::string()>& fn);

// Starts a program with its argv (no shell: paths may hold any character);
// stdin is /dev/null; stdout / stderr go to the given files when named. The
// child is registered with the signal cleanup (safe_file.h) until it is
// waited for. Returns its pid, or -1.
pid_t spawn_program(const std::vector<std::string>& argv, const std::string& stdout_path = "",
                    const std::string& stderr_path = "");
// spawn_program and wait: its exit status (127: it could not be started;
// 128 + signal: killed).
int run_program(const std::vector<std::string>& argv, const std::string& stdout_path = "",
                const std::string& stderr_path = "");
// run_program with stderr captured: a non-zero status throws
// safe_file::IoError "<what> (<program> exited N: <its last stderr line>)".
void run_checked(const std::vector<std::string>& argv, const std::string& what);
// In a simulation child (run_in_child): ends it now with `code` and
// `message` as its result, without unwinding: an exception thrown after
// SystemC's coroutines ran trips the sanitizer build's stack bookkeeping.
// Outside a child it throws (NoProgressError for 4, runtime_error else).
void end_child_with(int code, const std::string& message);
// A zero-time livelock (delta cycles that never let simulated time advance)
// cannot reach the no-progress watchdog, which works on simulated time: a
// simulation child samples, every CPU second (SIGPROF), how many delta
// cycles the kernel has run at the current time stamp, and past `deltas`
// (default 10^8: about ten CPU seconds of nothing but deltas, far above any
// real run's) it ends with exit status 4 and one line. Costs nothing per event.
void set_zero_time_limit(uint64_t deltas);
// The exit status of a waitpid() status word, as run_program reports it.
int exit_status(int wait_status);

}  // namespace ubsim
