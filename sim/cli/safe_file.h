// Files written whole or not at all, under names nobody else can plant, and
// nothing half-written left behind by a full disk, a failed write or a kill.
//
//  - Temporaries are created with mkstemp / mkdtemp (O_CREAT | O_EXCL, mode
//    0600/0700, a random suffix): a link planted at a guessable name is never
//    followed, and two runs never share one.
//  - Every write, flush, fsync, close and rename is checked; a failure
//    removes the temporary and throws IoError ("... : No space left on
//    device"), which the command line turns into exit status 3.
//  - Every temporary is registered until it is renamed into place or
//    removed; on SIGTERM, SIGINT or SIGHUP the handler kills the registered
//    child processes, removes every registered file and folder (with
//    async-signal-safe system calls only) and ends the process by the same
//    signal. So after a kill nothing incomplete stands under a final name,
//    and no temporary is left beside it.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace ubsim::safe_file {

namespace fs = std::filesystem;

// An input/output failure (exit status 3): its text names what and why.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Installs the SIGTERM / SIGINT / SIGHUP handler (once per process; forked
// children inherit it, each cleaning what it registered itself).
void install_signal_cleanup();

// Registers a file or a folder tree (removed on a signal) or a child process
// (killed on a signal); unregister once the path is in its final place or gone.
void track_path(const std::string& path, bool tree);
void untrack_path(const std::string& path);
void track_child(pid_t pid);
void untrack_child(pid_t pid);
// Forgets every registration (a forked child: what its parent registered is
// the parent's to clean).
void forget_all();

// Writes all of text to fd, syncs and closes it (closed whatever happens);
// throws IoError naming `shown`.
void write_and_close(int fd, const std::string& text, const std::string& shown);

// Writes path whole or not at all: a private temporary beside it, written,
// synced and closed, then renamed over path. `what` prefixes the error.
void write_whole(const fs::path& path, const std::string& text, const std::string& what);
// Creates path, which must not exist (O_EXCL | O_NOFOLLOW: inside a private
// staging folder), and writes text to it, checked.
void write_new(const fs::path& path, const std::string& text, const std::string& what);
// Moves every entry of folder `from` into `to` (made if missing), in name order.
void move_contents(const fs::path& from, const fs::path& to, const std::string& what);
// Renames from -> to, checked (IoError naming both).
void rename_checked(const fs::path& from, const fs::path& to, const std::string& what);

// strerror(e) for the error lines, with ENOSPC spelt out as "no space left
// on device" and the folder's free space when known.
std::string describe_errno(int e);

// A registered temporary file or folder, removed (and unregistered) when
// the object goes unless kept: its contents went to their final place.
class Temporary {
 public:
  enum Kind { File, Tree };
  Temporary() = default;
  Temporary(std::string path, Kind kind) : path_(std::move(path)), kind_(kind) {}
  ~Temporary();
  Temporary(const Temporary&) = delete;
  Temporary& operator=(const Temporary&) = delete;
  Temporary& operator=(Temporary&& o) noexcept;
  const std::string& path() const { return path_; }
  bool empty() const { return path_.empty(); }
  // Ownership ends (the path was renamed away): nothing is removed.
  void keep();

 private:
  void reset();   // removes and unregisters the path (if any)
  std::string path_;
  Kind kind_ = File;
};
// A new private temporary file beside `final_path` (".<name>.XXXXXX"; its
// descriptor in *fd, else closed), or a new private folder beside `near`
// (".<stem>.XXXXXX"); created and registered as one step.
Temporary temp_file(const fs::path& final_path, int* fd = nullptr);
Temporary temp_dir(const fs::path& near, const std::string& stem);

// A path that goes into a generated script or command line: refused when it
// holds a control character (CR, LF, NUL, ESC, ...). Throws CliError that
// starts with `what` ("option --cache") and shows the path escaped.
void check_no_control_chars(const std::string& what, const std::string& path);
// s with every byte outside printable ASCII as \xNN (for error lines).
std::string escaped(const std::string& s);

}  // namespace ubsim::safe_file
