// Hostile but realistic use (issue: "trustworthy under hostile use"): each
// reproducer of a wrong number, a hang, a crash, a shell injection or a
// dishonest output gives the right figure or a one-line error with the
// right exit status, leaves no stray files and no process behind.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "json_value.h"
#include "run_command.h"

namespace {

namespace fs = std::filesystem;
using ubsim::test::Run;

const std::string kBin = UBSIM_BIN;

// A fresh, empty working folder: the command runs there, so every file it
// leaves behind can be seen.
fs::path workdir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("ubsim_hostile_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::vector<std::string> listing(const fs::path& d) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(d)) out.push_back(fs::relative(e.path(), d).string());
  std::sort(out.begin(), out.end());
  return out;
}

// Processes still alive whose environment carries `marker`.
int survivors(const std::string& marker) {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream env(e.path() / "environ", std::ios::binary);
    std::stringstream ss;
    ss << env.rdbuf();
    if (ss.str().find(marker) != std::string::npos) ++n;
  }
  return n;
}

struct Outcome {
  int status;
  std::string out;
  std::vector<std::string> files;
};

// Runs `ubsim args` in a fresh folder (cd there), tagged with a marker.
Outcome run_in(const std::string& name, const std::string& args) {
  const fs::path d = workdir(name);
  const std::string marker = "UBSIM_HOSTILE_MARK=" + name;
  const Run r = ubsim::test::run_command("cd " + d.string() + " && " + marker + " timeout 120 " + kBin + " " + args);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(survivors(marker) == 0);
  return {r.status, r.out, listing(d)};
}

// Bad input: one line, exit 2, the message naming what is wrong, no file.
void bad(const std::string& name, const std::string& args, const std::string& needle, int status = 2) {
  INFO(name << ": ubsim " << args);
  const Outcome o = run_in(name, args);
  INFO(o.out);
  CHECK(o.status == status);
  CHECK(o.out.rfind("ubsim: error: ", 0) == 0);
  CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
  CHECK(o.out.find(needle) != std::string::npos);
  CHECK(o.files.empty());
}

// A run's JSON document.
ubsim::json::Value doc(const std::string& name, const std::string& args) {
  INFO(name << ": ubsim " << args);
  const Outcome o = run_in(name, args + " --format json 2>/dev/null");
  REQUIRE(o.status == 0);
  return ubsim::json::parse(o.out);
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// A resolved configuration value of a document (keys hold dots: no path lookup).
std::string cfg(const ubsim::json::Value& d, const std::string& key) { return d.get("config")->get(key)->text; }

}  // namespace

TEST_CASE("hostile: numbers are exact from TOML, --set and the provenance", "[hostile]") {
  const fs::path t = fs::temp_directory_path() / "ubsim_hostile_exact.toml";
  write(t, "seed = 9007199254740993\n[ctx_cache]\nops = 1000001\n");
  auto d = doc("exact1", "latency --path ub-load --ops 3 --config " + t.string());
  CHECK(cfg(d, "seed") == "9007199254740993");
  CHECK(cfg(d, "ctx_cache.ops") == "1000001");
  CHECK(d.get("provenance")->get("seed")->text == "9007199254740993");
  d = doc("exact2", "latency --path ub-load --ops 3 --set seed=1234567 --set clock=322.0001MHz --set loss.duplicate=0.001");
  CHECK(cfg(d, "seed") == "1234567");
  CHECK(cfg(d, "clock") == "322.0001MHz");
  CHECK(cfg(d, "loss.duplicate") == "0.001");
  CHECK(d.get("provenance")->get("seed")->text == "1234567");
  d = doc("exact3", "latency --path ub-load --ops 3 --set seed=18446744073709551615");
  CHECK(cfg(d, "seed") == "18446744073709551615");
}

TEST_CASE("hostile: malformed numbers are refused, naming the key", "[hostile]") {
  bad("hex", "latency --set workload.size=0x10B", "key 'workload.size': '0x10B'");
  bad("hexns", "latency --set wire.latency=0x10ns", "key 'wire.latency': '0x10ns'");
  bad("space", "latency --set 'wire.latency=3 0ns'", "key 'wire.latency': '3 0ns'");
  bad("inf", "latency --set wire.latency=infns", "key 'wire.latency'");
  bad("nan", "loss --set loss.duplicate=nan", "key 'loss.duplicate'");
  bad("frac", "latency --set workload.ops=1.5", "not a whole number");
  bad("fs", "latency --set wire.latency=0.5fs", "finer than the simulator's time resolution");
  bad("u64", "latency --set seed=18446744073709551616", "does not fit 64 bits");
  bad("big", "latency --set wire.latency=1e400s", "key 'wire.latency'");
}

TEST_CASE("hostile: runs that would pass the 2^64 fs horizon are refused up front", "[hostile]") {
  bad("wire1s", "latency --path ub-load --ops 10000 --set wire.latency=1s", "time horizon");
  bad("rate1", "latency --path ub-load --set workload.rate=1ops/s --ops 20000", "time horizon");
  bad("backoff", "loss --loss 0.5 --set sack.rto=1s --set sack.rto_backoff=8 --set sack.max_retries=15",
      "key 'sack.rto'");
  // a slow clock is fine when it fits: 200 reads of ~36 s each, measured
  const auto d = doc("clock1hz", "latency --path ub-load --ops 200 --set clock=1Hz");
  const auto& r = d.find("results")->items.at(0);
  CHECK(r.num("measured_total_ns.p50") > r.num("derived_total_ns"));
  CHECK(r.num("measured_total_ns.p50") < 1.2 * r.num("derived_total_ns"));
}

TEST_CASE("hostile: configurations that cannot work are refused before running", "[hostile]") {
  bad("noncross", "latency --path ub-async --set path.ub-async.read=A:sw.submit", "never crosses the wire");
  bad("endB", "latency --path ub-async --set path.ub-async.read=A:sw.submit,A:ub.tx,A:wire.request,B:ub.rx,B:dram.row_hit",
      "ends on node B");
  bad("mix", "latency --path ub-async --set path.ub-async.read=A:ub.tx,A:wire.request,B:nic.rx,B:nic.tx,B:wire.response,A:ub.rx",
      "mixes");
  bad("twice", "latency --path ub-async --set path.ub-async.read=A:ub.tx,A:wire.request,B:ub.rx,B:ub.tx,B:wire.response,A:ub.rx,A:ub.tx,A:wire.request,B:ub.rx",
      "a second time");
  bad("adjacent", "latency --path ub-async --set path.ub-async.read=A:ub.tx,A:ub.tx", "go onto the wire next");
  bad("perpacket", "latency --path ub-async --set path.ub-async.read=A:sw.submit*,A:ub.tx", "only bus, DRAM and PCIe");
  bad("node", "latency --path ub-async --set path.ub-async.read=A:sw.submit,B:dram.row_hit", "runs on node B");
  bad("cache1", "latency --path ub-async --ops 1 --set cache.ub_entries=1", "key 'cache.ub_entries'");
  bad("cache1c", "ctx-cache --stack ub --endpoints 1 --set cache.ub_entries=1", "key 'cache.ub_entries'");
  bad("warmup", "latency --path ub-load --ops 10 --set workload.warmup=10", "key 'workload.warmup'");
  bad("size", "latency --size 2GiB --ops 5", "key 'workload.size'");
  bad("losspackets", "loss --size 1GiB --messages 100", "more than 10000000 packets");
  bad("pathstack", "latency --path ub-load --stack ub", "--path and --stack");
  bad("xml", "params --format xml", "--format: 'xml'");
}

TEST_CASE("hostile: outputs are checked before running and written whole", "[hostile]") {
  bad("outnull", "latency --path ub-load --ops 2 --out /dev/null", "option --out: /dev/null exists and is not a directory");
  {
    const fs::path d = workdir("outfile");
    write(d / "f", "x");
    const Run r = ubsim::test::run_command("cd " + d.string() + " && " + kBin + " latency --path ub-load --ops 2 --out f");
    CHECK(r.status == 2);
    CHECK(listing(d) == std::vector<std::string>{"f"});   // no f.partial
  }
  bad("trace", "latency --path ub-load --ops 2 --trace /nonexistent/dir/p", "option --trace");
  bad("timeline", "latency --path ub-load --ops 2 --timeline /dev/full", "not a regular file");
  bad("cfgdir", "latency --config /tmp", "not a regular file");
  bad("cfgzero", "latency --config /dev/zero", "not a regular file");
  // a staging folder ubsim did not create is left alone
  const fs::path d = workdir("partial");
  fs::create_directories(d / "o.partial");
  write(d / "o.partial" / "mine", "keep");
  REQUIRE(ubsim::test::run_command("cd " + d.string() + " && " + kBin + " latency --path ub-load --ops 2 --out o").status == 0);
  CHECK(fs::exists(d / "o.partial" / "mine"));
  CHECK(fs::exists(d / "o" / "latency.json"));
}

TEST_CASE("hostile: no shell anywhere: paths with spaces, quotes and semicolons", "[hostile]") {
  const fs::path d = workdir("shell");
  const Run r = ubsim::test::run_command("cd " + d.string() + " && " + kBin +
                                         " latency --path ub-load --ops 2 --out 'o;touch PWNED;#' > /dev/null && " + kBin +
                                         " latency --path ub-load --ops 2 --out \"with space 'q'\" > /dev/null");
  REQUIRE(r.status == 0);
  CHECK_FALSE(fs::exists(d / "PWNED"));
  CHECK(fs::exists(d / "o;touch PWNED;#" / "latency.json"));
  CHECK(fs::exists(d / "with space 'q'" / "latency.png"));   // the plot ran on that path
}

TEST_CASE("hostile: killing ubsim leaves no simulation running", "[hostile]") {
  for (const char* sig : {"TERM", "KILL"}) {
    const std::string marker = std::string("UBSIM_HOSTILE_KILL_") + sig + "=1";
    const Run r = ubsim::test::run_command(marker + " " + kBin + " latency --path ub-load --ops 100000000 > /dev/null & "
                                           "sleep 1; kill -" + sig + " $!; wait");
    (void)r;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    INFO(sig);
    CHECK(survivors(marker) == 0);
  }
}

TEST_CASE("hostile: smaller items", "[hostile]") {
  // compare names the failure once
  const fs::path t = fs::temp_directory_path() / "ubsim_hostile_bad.toml";
  write(t, "[wire]\nlatency = \"5nss\"\n");
  const Run c = ubsim::test::run_command(kBin + " compare " + UBSIM_TEST_DATA "/defaults.toml " + t.string());
  CHECK(c.status == 2);
  CHECK(c.out.find("ubsim: error: ubsim: error:") == std::string::npos);
  // params shows ranges
  const Run p = ubsim::test::run_command(kBin + " params");
  CHECK(p.out.find("cache.ub_entries") != std::string::npos);
  CHECK(p.out.find("UBSIM_RTL_CACHE_ENTRIES") != std::string::npos);
  CHECK(p.out.find("..") != std::string::npos);
  // a long propagation delay is a result, not a stuck run
  const auto d = doc("prop", "loss --set loss.wire_latency=1s --messages 20 --loss 0 --mode sack");
  CHECK(d.find("results")->items.at(0).num("delivered") == 20);
}
