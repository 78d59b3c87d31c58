#include "data_dir.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "ubsim_build_info.h"

namespace fs = std::filesystem;

namespace ubsim {

namespace {

std::string find_data_dir() {
  if (const char* env = std::getenv("UBSIM_DATA_DIR"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "ubsim";
    if (exe.parent_path().filename() == "bin" && fs::is_regular_file(installed / "scripts" / "report.py", ec))
      return installed.string();
  }
  return build_info::kSourceDir;
}

}  // namespace

const std::string& data_dir() {
  static const std::string dir = find_data_dir();
  return dir;
}

std::string data_path(const std::string& relative) { return data_dir() + "/" + relative; }

bool running_from_source() {
  std::error_code ec;
  return fs::equivalent(data_dir(), build_info::kSourceDir, ec) &&
         fs::is_regular_file(fs::path(build_info::kSourceDir) / "CMakeLists.txt", ec);
}

std::string cache_dir(const std::string& name) {
  if (running_from_source()) return (fs::path(build_info::kSourceDir) / name).string();
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home) base = fs::path(home) / ".cache";
  else base = fs::temp_directory_path();
  return (base / "ubsim" / name).string();
}

}  // namespace ubsim
