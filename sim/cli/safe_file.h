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

// A new private temporary file beside `final_path` (".<name>.XXXXXX"),
// registered; its descriptor is returned in fd.
std::string make_temp_file(const fs::path& final_path, int& fd);
// A new private folder beside `near` (".<stem>.XXXXXX"), registered as a tree.
std::string make_temp_dir(const fs::path& near, const std::string& stem);

// Writes all of text to fd, then fsync; throws IoError naming `shown`.
void write_fd(int fd, const std::string& text, const std::string& shown);
// Closes fd, checked.
void close_fd(int fd, const std::string& shown);

// Writes path whole or not at all: a private temporary beside it, written,
// synced and closed, then renamed over path. `what` prefixes the error.
void write_whole(const fs::path& path, const std::string& text, const std::string& what);
// Renames from -> to, checked (IoError naming both).
void rename_checked(const fs::path& from, const fs::path& to, const std::string& what);
// Removes a tree we created and unregisters it (never throws).
void remove_tree(const fs::path& dir);

// strerror(e) for the error lines, with ENOSPC spelt out as "no space left
// on device" and the folder's free space when known.
std::string describe_errno(int e);

// A path that goes into a generated script or command line: refused when it
// holds a control character (CR, LF, NUL, ESC, ...). Throws CliError naming
// the option and showing the path escaped.
void check_no_control_chars(const std::string& option, const std::string& path);
// s with every byte outside printable ASCII as \xNN (for error lines).
std::string escaped(const std::string& s);

}  // namespace ubsim::safe_file
