// Every GTKWave save file in waveforms/ opens a waveform that has the
// signals it names: the FST is regenerated with the command in the file's
// header, its hierarchy read with fst2vcd, and every signal line of the save
// file looked up in it. A renamed or removed RTL signal breaks this test,
// not an architect's afternoon. And a waveform shows the registers
// changing, not only the wires the inputs drive.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
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

// An FST read through fst2vcd: every variable as "scope.scope.name", and the
// values the variables named in `watch` take, in order.
struct FstDump {
  std::set<std::string> signals;
  std::map<std::string, std::vector<uint64_t>> values;
};
FstDump read_fst(const fs::path& fst, const std::set<std::string>& watch = {}) {
  const auto r = run_command("fst2vcd " + fst.string());
  REQUIRE(r.status == 0);
  FstDump out;
  std::map<std::string, std::string> name_of;   // id code -> watched name
  std::vector<std::string> scope;
  bool body = false;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (!body) {
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
        std::string type, width, id, name, path;
        w >> type >> width >> id >> name;
        for (const auto& s : scope) path += s + ".";
        out.signals.insert(path + name);
        if (watch.count(path + name) && !name_of.count(id)) name_of[id] = path + name;
      } else if (tok == "$enddefinitions") {
        if (watch.empty()) break;
        body = true;
      }
      continue;
    }
    if (line.empty() || line[0] == '#' || line[0] == '$') continue;
    const bool vector = line[0] == 'b';
    const auto sp = vector ? line.find(' ') : 1;
    const std::string value = vector ? line.substr(1, sp - 1) : line.substr(0, 1);
    auto it = name_of.find(line.substr(vector ? sp + 1 : 1));
    if (it == name_of.end() || value.find_first_not_of("01") != std::string::npos) continue;
    out.values[it->second].push_back(std::stoull(value, nullptr, 2));
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
    const std::set<std::string> have = read_fst(work / fst).signals;
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

// A waveform shows the registers' changes, not only the wires the inputs
// drive: every evaluated edge of a traced block goes through eval_step(),
// whose activity flags the FST writer dumps by (an edge without it left
// every register of the send pipeline flat in the waveform).
TEST_CASE("a waveform shows the registers changing at every edge that changes them", "[waveforms]") {
  const fs::path work = fs::temp_directory_path() / ("ubsim_wave_regs_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  const auto r = run_command(std::string(UBSIM_BIN) + " latency --path ub-async --ops 3 --format csv --trace " +
                             (work / "t").string() + " > /dev/null");
  REQUIRE(r.status == 0);
  // node A's send pipeline: 3 reads, each a TP-channel lookup of a 56 B record
  // through a 32 B RAM port (2 read-port cycles, spec section 4)
  const auto tx = read_fst(work / "t.ub-async.A_ub_tx.fst",
                             {"dut.ctx_reads", "dut.ub_tx_pipeline.u_tp_lookup.inflight",
                              "dut.ub_tx_pipeline.u_header_chain.count"}).values;
  REQUIRE(tx.count("dut.ctx_reads") == 1);
  CHECK(tx.at("dut.ctx_reads").back() == 6);
  for (const char* reg : {"dut.ub_tx_pipeline.u_tp_lookup.inflight", "dut.ub_tx_pipeline.u_header_chain.count"}) {
    INFO(reg);
    REQUIRE(tx.count(reg) == 1);
    const auto& v = tx.at(reg);
    CHECK(std::count(v.begin(), v.end(), 1u) == 3);   // one lookup / one item at a time, once per read
  }
  // the context cache's and the receive pipeline's registers (blocks whose
  // edge skips the input region)
  const auto cache = read_fst(work / "t.ub-async.A_ub_cache.fst", {"dut.ctx_cache.rob_count"}).values;
  REQUIRE(cache.count("dut.ctx_cache.rob_count") == 1);
  CHECK(*std::max_element(cache.at("dut.ctx_cache.rob_count").begin(), cache.at("dut.ctx_cache.rob_count").end()) > 0);
  const auto rx = read_fst(work / "t.ub-async.A_ub_rx.fst", {"dut.rx_pipeline.u_parse_chain.count"}).values;
  REQUIRE(rx.count("dut.rx_pipeline.u_parse_chain.count") == 1);
  CHECK(std::count(rx.at("dut.rx_pipeline.u_parse_chain.count").begin(),
                   rx.at("dut.rx_pipeline.u_parse_chain.count").end(), 1u) == 3);
  fs::remove_all(work);
}
