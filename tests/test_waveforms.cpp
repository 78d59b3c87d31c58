// Every GTKWave save file in waveforms/ opens a waveform that has the
// signals it names: the FST is regenerated with the command in the file's
// header, its hierarchy read with fst2vcd, and every signal line of the save
// file looked up in it. A renamed or removed RTL signal breaks this test,
// not an architect's afternoon.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.h"

namespace fs = std::filesystem;
using ubsim::test::run_command;

namespace {

const fs::path kWaveforms = fs::path(UBSIM_TEST_DATA).parent_path().parent_path() / "waveforms";

// After the marker on one of the header lines ("[*] Marker:  text").
std::string header_field(const std::string& text, const std::string& marker) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[*]", 0) != 0) continue;
    const auto at = line.find(marker);
    if (at == std::string::npos) continue;
    std::string v = line.substr(at + marker.size());
    v.erase(0, v.find_first_not_of(' '));
    return v;
  }
  return "";
}

// Every variable of an FST as "scope.scope.name".
std::set<std::string> fst_signals(const fs::path& fst) {
  const auto r = run_command("fst2vcd " + fst.string());
  REQUIRE(r.status == 0);
  std::set<std::string> out;
  std::vector<std::string> scope;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream w(line);
    std::string tok;
    w >> tok;
    if (tok == "$scope") {
      std::string kind, name;
      w >> kind >> name;
      scope.push_back(name);
    } else if (tok == "$upscope") {
      if (!scope.empty()) scope.pop_back();
    } else if (tok == "$var") {
      std::string type, width, id, name;
      w >> type >> width >> id >> name;
      std::string path;
      for (const auto& s : scope) path += s + ".";
      out.insert(path + name);
    } else if (tok == "$enddefinitions") {
      break;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("every waveform save file names signals its regenerated FST has", "[waveforms]") {
  REQUIRE(run_command("command -v fst2vcd").status == 0);   // gtkwave (scripts/bootstrap installs it)
  const fs::path work = fs::temp_directory_path() / ("ubsim_waveforms_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work / "out");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kWaveforms)) {
    if (entry.path().extension() != ".gtkw") continue;
    ++files;
    std::ifstream f(entry.path());
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    INFO(entry.path().filename().string());
    std::string regen = header_field(text, "Regenerate the FST:");
    if (regen.empty()) regen = header_field(text, "Regenerate the FSTs:");
    const std::string open = header_field(text, "Open:");
    REQUIRE(regen.rfind("./build/sim/ubsim ", 0) == 0);
    REQUIRE(open.rfind("gtkwave ", 0) == 0);
    const std::string fst = open.substr(8, open.find(' ', 8) - 8);
    const std::string cmd = "cd " + work.string() + " && " + std::string(UBSIM_BIN) + regen.substr(17);
    const auto r = run_command(cmd + " > /dev/null");
    INFO(cmd << "\n" << r.out);
    REQUIRE(r.status == 0);
    const std::set<std::string> have = fst_signals(work / fst);
    REQUIRE(!have.empty());
    std::istringstream in(text);
    int signals = 0;
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || std::string("[@-*").find(line[0]) != std::string::npos) continue;
      const std::string name = std::regex_replace(line, std::regex(R"(\[[0-9]+:[0-9]+\]$)"), "");
      INFO("signal " << line);
      CHECK(have.count(name) == 1);
      ++signals;
    }
    CHECK(signals > 5);
  }
  CHECK(files >= 7);
  fs::remove_all(work);
}
