#include "safe_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <vector>

#include <fmt/format.h>

#include "args.h"

namespace ubsim::safe_file {

namespace {

// ---------------- the registry the signal handler reads ----------------
// Fixed arrays (no allocation in the handler); changed with the handled
// signals blocked, so the handler never sees half an entry.
constexpr int kMaxPaths = 256, kMaxChildren = 512;
struct PathEntry {
  bool used;
  bool tree;
  char path[PATH_MAX];
};
PathEntry g_paths[kMaxPaths];
pid_t g_children[kMaxChildren];
volatile sig_atomic_t g_in_handler = 0;

const int kSignals[] = {SIGTERM, SIGINT, SIGHUP};

class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t s;
    sigemptyset(&s);
    for (int sig : kSignals) sigaddset(&s, sig);
    ::sigprocmask(SIG_BLOCK, &s, &old_);
  }
  ~SignalsBlocked() { ::sigprocmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};

// Removes a tree with system calls only (async-signal-safe): open the
// folder, read its entries with getdents64, unlink each (recursing into
// folders, never following a link), then the folder itself.
struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

void remove_tree_raw(int parent_fd, const char* name, int depth) {
  if (::unlinkat(parent_fd, name, 0) == 0) return;   // a file (or a link: removed, not followed)
  if (depth > 16) return;
  const int fd = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buf[4096];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) break;
    bool removed_any = false;
    for (long off = 0; off < n;) {
      auto* d = reinterpret_cast<LinuxDirent64*>(buf + off);
      off += d->d_reclen;
      if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0) continue;
      remove_tree_raw(fd, d->d_name, depth + 1);
      removed_any = true;
    }
    if (removed_any) ::lseek(fd, 0, SEEK_SET);   // entries moved: read again from the start
    else break;
  }
  ::close(fd);
  ::unlinkat(parent_fd, name, AT_REMOVEDIR);
}

void on_signal(int sig) {
  if (g_in_handler) return;
  g_in_handler = 1;
  // children first: they may be writing into what is removed below; they
  // get the same signal (to clean their own temporaries), then SIGKILL
  for (pid_t p : g_children)
    if (p > 0) ::kill(p, SIGTERM);
  const struct timespec step = {0, 20 * 1000 * 1000};
  for (int waited = 0; waited < 100; ++waited) {   // at most 2 s
    bool alive = false;
    for (pid_t& p : g_children)
      if (p > 0) {
        int st;
        if (::waitpid(p, &st, WNOHANG) == p || (::kill(p, 0) != 0 && errno == ESRCH)) p = 0;
        else alive = true;
      }
    if (!alive) break;
    ::nanosleep(&step, nullptr);
  }
  for (pid_t p : g_children)
    if (p > 0) ::kill(p, SIGKILL);
  for (PathEntry& e : g_paths)
    if (e.used) {
      if (e.tree) remove_tree_raw(AT_FDCWD, e.path, 0);
      else ::unlink(e.path);
    }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
  ::_exit(128 + sig);
}

std::string absolute_text(const std::string& p) {
  std::error_code ec;
  const fs::path a = fs::absolute(p, ec);
  return ec ? p : a.string();
}

// A temporary's name: ".<name>.XXXXXX", the name cut so the whole stays
// well within NAME_MAX (a 250-byte final name still gets a temporary).
std::string temp_pattern(const fs::path& final_path, const std::string& suffix) {
  std::string name = final_path.filename().string();
  if (name.size() > 200) name.resize(200);
  fs::path dir = final_path.parent_path();
  if (dir.empty()) dir = ".";
  return (dir / ("." + name + suffix + ".XXXXXX")).string();
}

}  // namespace

void install_signal_cleanup() {
  static bool done = false;
  if (done) return;
  done = true;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : kSignals) sigaddset(&sa.sa_mask, sig);
  for (int sig : kSignals) ::sigaction(sig, &sa, nullptr);
}

void track_path(const std::string& path, bool tree) {
  const std::string abs = absolute_text(path);
  if (abs.size() >= PATH_MAX) return;
  SignalsBlocked block;
  for (PathEntry& e : g_paths)
    if (!e.used) {
      std::memcpy(e.path, abs.c_str(), abs.size() + 1);
      e.tree = tree;
      e.used = true;
      return;
    }
}

void untrack_path(const std::string& path) {
  const std::string abs = absolute_text(path);
  SignalsBlocked block;
  for (PathEntry& e : g_paths)
    if (e.used && abs == e.path) e.used = false;
}

void track_child(pid_t pid) {
  SignalsBlocked block;
  for (pid_t& p : g_children)
    if (p <= 0) {
      p = pid;
      return;
    }
}

void untrack_child(pid_t pid) {
  SignalsBlocked block;
  for (pid_t& p : g_children)
    if (p == pid) p = 0;
}

void forget_all() {
  SignalsBlocked block;
  for (PathEntry& e : g_paths) e.used = false;
  for (pid_t& p : g_children) p = 0;
}

std::string describe_errno(int e) {
  if (e == ENOSPC) return "no space left on device";
  if (e == EDQUOT) return "disk quota exceeded (no space left)";
  return std::strerror(e);
}

namespace {

std::string make_temp_file(const fs::path& final_path, int& fd) {
  std::string pattern = temp_pattern(final_path, "");
  {
    SignalsBlocked block;   // created and registered as one step
    fd = ::mkostemp(pattern.data(), O_CLOEXEC);
    const int err = errno;
    if (fd >= 0) {
      ::fchmod(fd, 0644);
      track_path(pattern, false);
    }
    errno = err;
  }
  if (fd < 0)
    throw IoError(fmt::format("cannot create a temporary file beside {}: {}", final_path.string(), describe_errno(errno)));
  return pattern;
}

std::string make_temp_dir(const fs::path& near, const std::string& stem) {
  std::string pattern = temp_pattern(near.parent_path() / stem, "");
  SignalsBlocked block;   // created and registered as one step
  if (!::mkdtemp(pattern.data()))
    throw IoError(fmt::format("cannot create a staging folder beside {}: {}", near.string(), describe_errno(errno)));
  track_path(pattern, true);
  return pattern;
}

void write_fd(int fd, const std::string& text, const std::string& shown) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw IoError(fmt::format("cannot write {}: {}", shown, describe_errno(n < 0 ? errno : ENOSPC)));
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
    throw IoError(fmt::format("cannot write {}: {}", shown, describe_errno(errno)));
}

void close_fd(int fd, const std::string& shown) {
  if (::close(fd) != 0 && errno != EINTR) throw IoError(fmt::format("cannot write {}: {}", shown, describe_errno(errno)));
}

}  // namespace

void rename_checked(const fs::path& from, const fs::path& to, const std::string& what) {
  if (::rename(from.c_str(), to.c_str()) != 0)
    throw IoError(fmt::format("{}: cannot move {} to {}: {}", what, from.string(), to.string(), describe_errno(errno)));
}

void write_and_close(int fd, const std::string& text, const std::string& shown) {
  try {
    write_fd(fd, text, shown);
  } catch (...) {
    ::close(fd);
    throw;
  }
  close_fd(fd, shown);
}

void write_whole(const fs::path& path, const std::string& text, const std::string& what) {
  try {
    int fd = -1;
    Temporary tmp = temp_file(path, &fd);
    write_and_close(fd, text, path.string());
    rename_checked(tmp.path(), path, what);
    tmp.keep();
  } catch (const IoError& e) {
    const std::string msg = e.what();
    throw IoError(msg.rfind(what, 0) == 0 ? msg : what + ": " + msg);
  }
}

void write_new(const fs::path& path, const std::string& text, const std::string& what) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  try {
    if (fd < 0) throw IoError(fmt::format("cannot create {}: {}", path.string(), describe_errno(errno)));
    write_and_close(fd, text, path.string());
  } catch (const IoError& e) {
    throw IoError(what + ": " + e.what());
  }
}

void move_contents(const fs::path& from, const fs::path& to, const std::string& what) {
  std::error_code ec;
  fs::create_directories(to, ec);
  if (ec) throw IoError(what + ": cannot create " + to.string() + ": " + ec.message());
  std::vector<fs::path> names;
  for (const auto& entry : fs::directory_iterator(from)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  for (const auto& n : names) rename_checked(from / n, to / n, what);
}

Temporary::~Temporary() { reset(); }

void Temporary::reset() {
  if (path_.empty()) return;
  if (kind_ == Tree) {
    std::error_code ec;
    fs::remove_all(path_, ec);
  } else {
    ::unlink(path_.c_str());
  }
  untrack_path(path_);
  path_.clear();
}

Temporary& Temporary::operator=(Temporary&& o) noexcept {
  if (this != &o) {
    reset();
    path_ = std::move(o.path_);
    kind_ = o.kind_;
    o.path_.clear();
  }
  return *this;
}

void Temporary::keep() {
  untrack_path(path_);
  path_.clear();
}

Temporary temp_file(const fs::path& final_path, int* fd) {
  int f = -1;
  std::string path = make_temp_file(final_path, f);
  if (fd) *fd = f;
  else ::close(f);
  return Temporary(std::move(path), Temporary::File);
}

Temporary temp_dir(const fs::path& near, const std::string& stem) {
  return Temporary(make_temp_dir(near, stem), Temporary::Tree);
}


std::string escaped(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '\\') out += static_cast<char>(c);
    else out += fmt::format("\\x{:02x}", c);
  }
  return out;
}

void check_no_control_chars(const std::string& what, const std::string& path) {
  for (unsigned char c : path)
    if (c < 0x20 || c == 0x7f)
      throw CliError(what + ": the path '" + escaped(path) +
                     "' holds a control character, which a generated script cannot carry safely");
}

}  // namespace ubsim::safe_file
