#include "subprocess.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>

#include <systemc>

#include "args.h"
#include "config.h"
#include "safe_file.h"
#include "watchdog.h"
#include "verilated_block.h"

namespace ubsim {

namespace {

void write_all(int fd, const char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}
void write_all(int fd, const std::string& s) { write_all(fd, s.data(), s.size()); }

// Ends a forked child at once (no static teardown: SystemC's would run in
// the child). A raw exit_group rather than _exit: the sanitizer build
// instruments every call to a noreturn function and, in a forked child of a
// process that ran SystemC coroutines, warns about the stack on each of them.
void end_child(int code) {
  write_rtl_coverage();   // coverage builds only
  flush_stimulus_files();   // UBSIM_STIMULUS_DIR runs only
  ::syscall(SYS_exit_group, code);
}

// In a child right after fork: be killed when the parent dies (also if it
// died between the fork and this call).
void die_with_parent(pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) end_child(1);
}

// One line: SystemC rethrows a process's exception inside a report
// ("Error: (E549) uncaught exception: <what>\nIn file: ...").
std::string one_line(const std::string& what) {
  std::string out = what.substr(0, what.find('\n'));
  const std::string wrapped = "uncaught exception: ";
  if (const auto at = out.find(wrapped); at != std::string::npos) out = out.substr(at + wrapped.size());
  return out;
}

int g_child_result_fd = -1;   // in a simulation child: where its result goes
volatile uint64_t g_zero_time_limit = 100000000;

// SIGPROF in a simulation child: delta cycles at one time stamp past the
// limit end the child (exit 4). Only reads two kernel counters and writes a
// fixed-format line: no allocation, async-signal-safe in practice.
void on_cpu_second(int) {
  sc_core::sc_simcontext* c = sc_core::sc_curr_simcontext;
  if (!c || g_child_result_fd < 0) return;
  const uint64_t deltas = c->delta_count_at_current_time();
  if (deltas < g_zero_time_limit) return;
  char line[192];   // integers only: no floating-point formatting in a signal handler
  const int n = std::snprintf(line, sizeof line,
                              "no progress: %llu delta cycles at t = %llu fs without simulated time advancing "
                              "(a zero-time livelock)",
                              static_cast<unsigned long long>(deltas),
                              static_cast<unsigned long long>(c->time_stamp().value()));
  write_all(g_child_result_fd, line, n > 0 ? static_cast<size_t>(n) : 0);
  ::close(g_child_result_fd);
  end_child(4);
}

void arm_zero_time_sampler() {
  struct sigaction sa {};
  sa.sa_handler = on_cpu_second;
  sa.sa_flags = SA_RESTART;   // the child's reads and writes go on undisturbed
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGPROF, &sa, nullptr);
  const itimerval every_second = {{1, 0}, {1, 0}};
  ::setitimer(ITIMER_PROF, &every_second, nullptr);
}

}  // namespace

void set_zero_time_limit(uint64_t deltas) { g_zero_time_limit = deltas; }

void end_child_with(int code, const std::string& message) {
  if (g_child_result_fd < 0) {
    if (code == 4) throw NoProgressError(message);
    throw std::runtime_error(message);
  }
  write_all(g_child_result_fd, message);
  ::close(g_child_result_fd);
  std::fflush(nullptr);
  end_child(code);
}

int exit_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

ChildResult run_in_child(const std::function<std::string()>& fn) {
  int fds[2];
  if (::pipe(fds) != 0) return {3, "cannot create a pipe"};
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return {3, "cannot fork"};
  if (pid > 0) safe_file::track_child(pid);
  if (pid == 0) {
    safe_file::forget_all();   // what the parent registered is the parent's to clean
    die_with_parent(parent);
    ::close(fds[0]);
    g_child_result_fd = fds[1];
    ProgressWatchdog::exit_hook = &end_child_with;
    arm_zero_time_sampler();
    int code = 0;
    std::string out;
    try {
      out = fn();
    } catch (const ConfigError& e) {
      out = e.what();
      code = 2;
    } catch (const CliError& e) {
      out = e.what();
      code = 2;
    } catch (const NoProgressError& e) {
      out = e.what();
      code = 4;
    } catch (const std::exception& e) {
      out = one_line(e.what());
      code = 3;
    }
    write_all(fds[1], out);
    ::close(fds[1]);
    std::fflush(nullptr);
    end_child(code);   // skip SystemC's static teardown
  }
  ::close(fds[1]);
  ChildResult r;
  char buf[65536];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) r.output.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  safe_file::untrack_child(pid);
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else {
    r.exit_code = 3;
    r.output += (r.output.empty() ? "" : "; ") + std::string("simulation process was killed by signal ") +
                std::to_string(WTERMSIG(status)) +
                (WTERMSIG(status) == SIGABRT ? " (an RTL assertion or a model check failed: its message is above)"
                 : WTERMSIG(status) == SIGBUS ? " (SIGBUS: a memory-mapped output file could not be written; the usual "
                                                "cause is no space left on device)"
                                              : "");
  }
  return r;
}

pid_t spawn_program(const std::vector<std::string>& argv, const std::string& stdout_path,
                    const std::string& stderr_path) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid > 0) safe_file::track_child(pid);
  if (pid != 0) return pid;
  safe_file::forget_all();
  die_with_parent(parent);
  auto redirect = [](const std::string& path, int fd) {
    if (path.empty()) return;
    const int f = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (f < 0) end_child(127);
    ::dup2(f, fd);
    ::close(f);
  };
  if (const int null_in = ::open("/dev/null", O_RDONLY); null_in >= 0) {   // nothing may read commands from us
    ::dup2(null_in, 0);
    if (null_in != 0) ::close(null_in);
  }
  redirect(stdout_path, 1);
  redirect(stderr_path, 2);
  ::execvp(args[0], args.data());
  end_child(127);
  return -1;   // not reached
}

int run_program(const std::vector<std::string>& argv, const std::string& stdout_path, const std::string& stderr_path) {
  const pid_t pid = spawn_program(argv, stdout_path, stderr_path);
  if (pid < 0) return 127;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      safe_file::untrack_child(pid);
      return 127;
    }
  safe_file::untrack_child(pid);
  return exit_status(status);
}

void run_checked(const std::vector<std::string>& argv, const std::string& what) {
  const safe_file::Temporary err = safe_file::temp_file(std::filesystem::temp_directory_path() / "ubsim-stderr");
  const int rc = run_program(argv, "", err.path());
  std::string last;
  {
    std::ifstream in(err.path());
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) last = line;
  }
  if (rc == 0) return;
  std::string prog = argv.size() > 1 ? std::filesystem::path(argv[1]).filename().string() : argv[0];
  if (last.size() > 200) last = last.substr(0, 200) + "...";
  throw safe_file::IoError(what + " (" + prog + " exited " + std::to_string(rc) + (last.empty() ? "" : ": " + last) + ")");
}

}  // namespace ubsim
