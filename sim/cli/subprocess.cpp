#include "subprocess.h"

#include <csignal>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <exception>

#include "config.h"

namespace ubsim {

namespace {
void write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}
}  // namespace

ChildResult run_in_child(const std::function<std::string()>& fn) {
  int fds[2];
  if (::pipe(fds) != 0) return {3, "cannot create a pipe"};
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return {3, "cannot fork"};
  if (pid == 0) {
    ::close(fds[0]);
    int code = 0;
    std::string out;
    try {
      out = fn();
    } catch (const ConfigError& e) {
      out = e.what();
      code = 2;
    } catch (const std::exception& e) {
      out = e.what();
      code = 3;
    }
    write_all(fds[1], out);
    ::close(fds[1]);
    std::fflush(nullptr);
    ::_exit(code);   // skip SystemC's static teardown
  }
  ::close(fds[1]);
  ChildResult r;
  char buf[65536];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) r.output.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else {
    r.exit_code = 3;
    r.output += (r.output.empty() ? "" : "; ") + std::string("simulation process was killed by signal ") +
                std::to_string(WTERMSIG(status)) +
                (WTERMSIG(status) == SIGABRT ? " (an RTL assertion or a model check failed: its message is above)" : "");
  }
  return r;
}

int run_program(const std::vector<std::string>& argv, const std::string& stdout_path, const std::string& stderr_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (!stdout_path.empty())
    posix_spawn_file_actions_addopen(&fa, 1, stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!stderr_path.empty())
    posix_spawn_file_actions_addopen(&fa, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) return 127;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace ubsim
