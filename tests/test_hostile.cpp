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

#include <systemc>

#include "file_util.h"
#include "json_value.h"
#include "run_command.h"
#include "subprocess.h"

namespace {

namespace fs = std::filesystem;
using ubsim::test::Run;
using ubsim::json::Value;

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

// ============================================================================
// Hostile use, round two: each case is one reproducer of the second hostile
// run (a shell through yosys, planted links, hangs, figures of 0 for failed
// requests, a full disk, two sweeps in one folder, a kill, huge grids,
// report crashes, and the smaller items).
// ============================================================================

namespace {

// A small tmpfs, filled to the last byte: every write there fails with
// ENOSPC. CI runs as root; a machine that refuses the mount fails the test
// (it must not pass without having tried).
struct FullDisk {
  fs::path dir;
  explicit FullDisk(const std::string& name) : dir(fs::temp_directory_path() / ("ubsim_full_" + name)) {
    ubsim::test::run_command("umount " + dir.string() + " 2>/dev/null");
    fs::remove_all(dir);
    fs::create_directories(dir);
    const Run m = ubsim::test::run_command("mount -t tmpfs -o size=256k tmpfs " + dir.string());
    INFO(m.out);
    REQUIRE(m.status == 0);
  }
  // fills what is left, after the inputs a case needs were put in place
  void fill() {
    ubsim::test::run_command("dd if=/dev/zero of=" + (dir / "filler").string() + " bs=4k 2>/dev/null; sync");
  }
  ~FullDisk() {
    ubsim::test::run_command("umount " + dir.string());
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

bool no_space_error(const Run& r) {
  std::string low = r.out;
  std::transform(low.begin(), low.end(), low.begin(), [](unsigned char c) { return std::tolower(c); });
  return r.status == 3 && low.find("no space left") != std::string::npos;
}

// The entries of d other than the filler (what a failed write left behind).
std::vector<std::string> left_in(const fs::path& d) {
  std::vector<std::string> out;
  for (const auto& n : listing(d))
    if (n != "filler" && n.rfind("lost+found", 0) != 0) out.push_back(n);
  return out;
}

}  // namespace

TEST_CASE("hostile 2.1: a control character in a path for a generated script is refused - yosys reads no stdin",
          "[hostile]") {
  const fs::path d = workdir("yosys_cr");
  write(d / "v", "keep");
  Run r = ubsim::test::run_command("cd " + d.string() + " && " + kBin + " area --blocks rx_pipeline --cache \"$(printf 'v\\rx')\"");
  CHECK(r.status == 2);
  CHECK(r.out.find("option --cache") != std::string::npos);
  CHECK(r.out.find("\\x0d") != std::string::npos);   // shown escaped, not as a line break
  CHECK(ubsim::test::read_text(d / "v") == "keep");
  r = ubsim::test::run_command("cd " + d.string() + " && " + kBin + " area --blocks rx_pipeline --cache \"$(printf 'a\\nb')\"");
  CHECK(r.status == 2);
  // standard input of yosys is /dev/null: a stand-in records what it reads
  write(d / "fake-yosys", "#!/bin/sh\nif [ \"$1\" = -V ]; then echo 'Yosys 0.23 (stand-in)'; exit 0; fi\n"
                          "cat > " + (d / "stdin-seen").string() + "\nexit 1\n");
  fs::permissions(d / "fake-yosys", fs::perms::owner_all);
  r = ubsim::test::run_command("cd " + d.string() + " && echo '!touch PWNED' | UBSIM_YOSYS=" + (d / "fake-yosys").string() +
                               " " + kBin + " area --blocks rx_pipeline --cache c");
  CHECK(r.status == 3);   // the stand-in fails
  REQUIRE(fs::exists(d / "stdin-seen"));
  CHECK(fs::file_size(d / "stdin-seen") == 0);
  CHECK_FALSE(fs::exists(d / "PWNED"));
}

TEST_CASE("hostile 2.2: no link planted at a temporary's old name is followed", "[hostile]") {
  const fs::path d = workdir("links");
  write(d / "victim", "precious");
  // report: the old fixed names of its page and defaults
  fs::create_directories(d / "out" / "lat");
  REQUIRE(ubsim::test::run_command(kBin + " latency --path ub-load --ops 2 --out " + (d / "out" / "lat").string()).status == 0);
  fs::create_symlink(d / "victim", d / "out" / "index.html.partial");
  Run r = ubsim::test::run_command(kBin + " report " + (d / "out").string());
  CHECK(r.status == 0);
  CHECK(ubsim::test::read_text(d / "victim") == "precious");
  CHECK(ubsim::test::read_text(d / "out" / "index.html").find("<html") != std::string::npos);
  // sweep: plan, jobs and merged files
  fs::create_directories(d / "sw");
  for (const char* n : {"plan.json.tmp", "jobs.txt.tmp", "sweep.csv.tmp", "sweep.json.tmp"})
    fs::create_symlink(d / "victim", d / "sw" / n);
  r = ubsim::test::run_command(kBin + " sweep latency --grid wire.latency=50ns,60ns -j 2 --out " + (d / "sw").string() +
                               " -- --path ub-load --ops 2");
  CHECK(r.status == 0);
  r = ubsim::test::run_command(kBin + " sweep latency --grid wire.latency=50ns,70ns --emit-jobs --out " +
                               (d / "sw").string() + " -- --path ub-load --ops 2");
  CHECK(r.status == 0);
  CHECK(ubsim::test::read_text(d / "victim") == "precious");
  CHECK(fs::file_size(d / "sw" / "sweep.csv") > 0);
  // the plot is drawn in the staging folder: a link at the final PNG's name is replaced, not written through
  fs::create_directories(d / "o");
  fs::create_symlink(d / "victim", d / "o" / "latency.png");
  CHECK(ubsim::test::run_command(kBin + " latency --path ub-load --ops 2 --out " + (d / "o").string()).status == 0);
  CHECK(ubsim::test::read_text(d / "victim") == "precious");
  CHECK_FALSE(fs::is_symlink(d / "o" / "latency.png"));
}

TEST_CASE("hostile 2.3: 4096 requests in flight complete on every path (the grant FIFO bounds the pins)",
          "[hostile]") {
  for (const char* path : {"ub-async", "pcie-nic", "ub-load"}) {
    INFO(path);
    const auto d = doc(std::string("deep_") + path, std::string("latency --path ") + path +
                                                        " --outstanding 4096 --set slots.count=4096 --ops 6000");
    const auto& row = d.find("results")->items.at(0);
    CHECK(row.num("failed") == 0);
    CHECK(row.num("measured_total_ns.mean") > row.num("derived_total_ns"));
    // the bound engaged where the hang was: the initiator's send pipeline held lookups back for want
    // of a grant-FIFO entry (Load/Store accesses reach the pipeline as the core issues them)
    if (std::string(path) == "ub-load") continue;
    const std::string tx = std::string(path) == "pcie-nic" ? "sys.A_nic_tx" : "sys.A_ub_tx";
    double waits = -1;
    for (const auto& st : row.find("stats")->items)
      if (st.get("component")->text == tx && st.get("name")->text == "lookup_credit_waits") waits = st.num("value");
    CHECK(waits > 0);
  }
  // the reproducers of the hang, each to its end
  for (const std::string args : {"throughput --path ub-async --slots 1407 --ops 50 --size 64B",
                                 "throughput --path pcie-nic --slots 4096",
                                 "latency --path ub-async --rate 1000Mops/s --outstanding 2000 --set slots.count=2000 --ops 3000",
                                 "throughput --config " UBSIM_CONFIGS "/seed-7-3.toml --path ub-async --size 256B --slots 280"}) {
    INFO(args);
    const Outcome o = run_in("deep_repro", args + " --format json");
    CHECK(o.status == 0);
  }
}

TEST_CASE("hostile 2.3: the watchdog names a stuck run (exit 4) and leaves a back-off alone", "[hostile]") {
  // every packet lost: the SACK sender steps through its 20 us timeout with
  // nothing to show; a 1 us span calls that no progress, naming the blocks
  Outcome o = run_in("wd_short", "latency --path ub-async --loss 1.0 --ops 1 --set watchdog.span=1us");
  INFO(o.out);
  CHECK(o.status == 4);
  CHECK(o.out.rfind("ubsim: error: no progress for ", 0) == 0);
  CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
  CHECK(o.out.find("0 of 1 requests completed") != std::string::npos);
  CHECK(o.out.find("blocks holding work: ") != std::string::npos);
  CHECK(o.out.find("sack") != std::string::npos);
  // what each block holds and waits for, from its RTL's ports
  CHECK(o.out.find("A_ub_tx (holds 1 order-tracker slot(s) (0 held back for order), waits for their completions") !=
        std::string::npos);
  CHECK(o.out.find("A_ub_sack_tx0 (holds 1 unacknowledged packet(s) in its window, waits for their acks") !=
        std::string::npos);
  // the default span covers the whole back-off series: the run ends, the request failed
  const auto d = doc("wd_default", "latency --path ub-async --loss 1.0 --ops 1");
  CHECK(d.find("results")->items.at(0).num("failed") == 1);
  // exit codes are documented
  const Run h = ubsim::test::run_command(kBin + " help");
  CHECK(h.out.find("4 no progress") != std::string::npos);
}

namespace {
// A process that re-triggers itself in zero time forever: delta cycles, and
// simulated time never advances.
struct ZeroTimeLoop : sc_core::sc_module {
  sc_core::sc_event again;
  SC_HAS_PROCESS(ZeroTimeLoop);
  explicit ZeroTimeLoop(sc_core::sc_module_name n) : sc_module(n) { SC_METHOD(tick); }
  void tick() {
    again.notify(sc_core::SC_ZERO_TIME);
    next_trigger(again);
  }
};
}  // namespace

TEST_CASE("hostile 2.3: a zero-time livelock ends with exit 4 - delta cycles without time advancing", "[hostile]") {
  ubsim::set_zero_time_limit(1000000);   // the default (10^8) would take ten CPU seconds
  const ubsim::ChildResult c = ubsim::run_in_child([] {
    new ZeroTimeLoop("loop");
    sc_core::sc_start();
    return std::string("the simulation ended");
  });
  INFO(c.output);
  CHECK(c.exit_code == 4);
  CHECK(c.output.rfind("no progress: ", 0) == 0);
  CHECK(c.output.find("delta cycles at t = 0 fs without simulated time advancing") != std::string::npos);
  CHECK(c.output.find('\n') == std::string::npos);
}

TEST_CASE("hostile 2.4: the retry budget is checked up front wherever the transport is in the path", "[hostile]") {
  bad("budget_paths", "latency --path ub-async --loss 1.0 --ops 10 --set sack.rto=1000ms --set sack.max_retries=15 "
                      "--set sack.rto_backoff=8",
      "key 'sack.rto'");
  bad("budget_paths2", "latency --path ub-async --loss 1.0 --ops 10 --set sack.rto=2ms --set sack.max_retries=15 "
                       "--set sack.rto_backoff=8",
      "time horizon");
  bad("budget_losspaths", "loss --path ub-async --loss 0.5 --ops 10 --set sack.rto=1s --set sack.max_retries=15 "
                          "--set sack.rto_backoff=8",
      "key 'sack.rto'");
}

TEST_CASE("hostile 2.5: emitted jobs name their configuration absolutely - merge checks each point's", "[hostile]") {
  const fs::path d = workdir("jobs_rel");
  fs::create_directories(d / "here");
  fs::create_directories(d / "there");
  write(d / "here" / "w.toml", "[wire]\nlatency = \"50ns\"\n");
  write(d / "there" / "w.toml", "[wire]\nlatency = \"5us\"\n");
  Run r = ubsim::test::run_command("cd " + (d / "here").string() + " && " + kBin +
                                   " sweep latency --grid seed=1,2 --emit-jobs --out ../s -- --path ub-load --ops 2 --config w.toml");
  REQUIRE(r.status == 0);
  const std::string jobs = ubsim::test::read_text(d / "s" / "jobs.txt");
  CHECK(jobs.find((d / "here" / "w.toml").string()) != std::string::npos);
  // run the jobs from the other folder: they still read here/w.toml
  REQUIRE(ubsim::test::run_command("cd " + (d / "there").string() + " && sh ../s/jobs.txt").status == 0);
  r = ubsim::test::run_command(kBin + " sweep --merge " + (d / "s").string());
  CHECK(r.status == 0);
  // a point whose document was made with another configuration is refused
  fs::path point;
  for (const auto& e : fs::directory_iterator(d / "s" / "points"))
    if (e.path().extension() == ".json") point = e.path();
  REQUIRE(!point.empty());
  std::string text = ubsim::test::read_text(point);
  const auto at = text.find("\"wire.latency\": \"50ns\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 22, "\"wire.latency\": \"5us\"");
  write(point, text);
  std::ofstream(point.string() + ".sum") << "fnv1a64 " << ubsim::file_util::fnv_hex(text) << " " << text.size() << "\n";
  r = ubsim::test::run_command(kBin + " sweep --merge " + (d / "s").string());
  INFO(r.out);
  CHECK(r.status == 2);
  CHECK(r.out.find("not the one planned") != std::string::npos);
}

TEST_CASE("hostile 2.6: report DIR is a folder name - not a pattern", "[hostile]") {
  const fs::path d = workdir("glob");
  REQUIRE(ubsim::test::run_command(kBin + " latency --path ub-load --ops 2 --out " + (d / "r[1]" / "mine").string()).status == 0);
  REQUIRE(ubsim::test::run_command(kBin + " latency --path ub-load --ops 2 --out " + (d / "r1" / "other").string()).status == 0);
  const Run r = ubsim::test::run_command(kBin + " report '" + (d / "r[1]").string() + "'");
  REQUIRE(r.status == 0);
  const std::string page = ubsim::test::read_text(d / "r[1]" / "index.html");
  CHECK(page.find("id=\"mine\"") != std::string::npos);
  CHECK(page.find("id=\"other\"") == std::string::npos);
}

TEST_CASE("hostile 2.7: no latency when every request failed: null - '-' - one line - exit 0", "[hostile]") {
  const Outcome o = run_in("allfail", "latency --path ub-async --loss 1.0 --ops 10");
  CHECK(o.status == 0);
  CHECK(o.out.find("ub-async: no request succeeded (10 failed)") != std::string::npos);
  auto d = doc("allfail_json", "latency --path ub-async --loss 1.0 --ops 10");
  const auto& row = d.find("results")->items.at(0);
  CHECK(row.num("failed") == 10);
  CHECK(row.find("measured_total_ns")->get("mean")->kind == Value::Null);
  CHECK(row.find("unexplained_ns")->kind == Value::Null);
  d = doc("allfail_loss", "loss --path ub-async --loss 1.0 --ops 10 --outstanding 1 --transport sack");
  CHECK(d.find("results")->items.at(0).find("latency_ns")->get("p50")->kind == Value::Null);
  // and the plot is drawn with the gap: --out writes every file
  const fs::path w = workdir("allfail_out");
  CHECK(ubsim::test::run_command(kBin + " latency --path ub-async --loss 1.0 --ops 10 --out " + (w / "o").string()).status == 0);
  CHECK(fs::exists(w / "o" / "latency.png"));
}

TEST_CASE("hostile 2.8: a full disk: exit 3 - 'no space left' - nothing half-written", "[hostile]") {
  SECTION("latency --out") {
    FullDisk disk("out");
    disk.fill();
    const Run r = ubsim::test::run_command(kBin + " latency --path ub-load --ops 2 --out " + (disk.dir / "o").string());
    INFO(r.out);
    CHECK(no_space_error(r));
    CHECK(left_in(disk.dir).empty());
  }
  SECTION("latency --trace and --timeline") {
    FullDisk disk("trace");
    disk.fill();
    const Run r = ubsim::test::run_command(kBin + " latency --path ub-async --ops 20 --trace " + (disk.dir / "p").string() +
                                           " --timeline " + (disk.dir / "t.json").string());
    INFO(r.out);
    CHECK(no_space_error(r));
    CHECK(left_in(disk.dir).empty());
  }
  SECTION("report") {
    FullDisk disk("report");
    REQUIRE(ubsim::test::run_command(kBin + " latency --path ub-load --ops 2 --out " + (disk.dir / "lat").string()).status == 0);
    const auto before = left_in(disk.dir);
    disk.fill();
    const Run r = ubsim::test::run_command(kBin + " report " + disk.dir.string());
    INFO(r.out);
    CHECK(no_space_error(r));
    CHECK(left_in(disk.dir) == before);
  }
  SECTION("sweep --emit-jobs and --merge") {
    FullDisk disk("sweep");
    const fs::path s = disk.dir / "s";
    REQUIRE(ubsim::test::run_command(kBin + " sweep latency --grid seed=1,2 --out " + s.string() +
                                     " -- --path ub-load --ops 2").status == 0);
    fs::remove(s / "sweep.csv");
    fs::remove(s / "sweep.json");
    const auto before = left_in(disk.dir);
    disk.fill();
    Run r = ubsim::test::run_command(kBin + " sweep --merge " + s.string());
    INFO(r.out);
    CHECK(no_space_error(r));
    CHECK(left_in(disk.dir) == before);   // no 0-byte sweep.csv
    r = ubsim::test::run_command(kBin + " sweep latency --grid seed=3,4 --emit-jobs --out " + (disk.dir / "e").string() +
                                 " -- --path ub-load --ops 2");
    INFO(r.out);
    CHECK(no_space_error(r));
    CHECK_FALSE(fs::exists(disk.dir / "e" / "jobs.txt"));
    CHECK_FALSE(fs::exists(disk.dir / "e" / "plan.json"));
  }
}

TEST_CASE("hostile 2.9: one sweep at a time per output folder", "[hostile]") {
  const fs::path d = workdir("two_sweeps");
  const std::string s = (d / "s").string();
  // B runs (a point of ~2 s), A starts meanwhile on the same folder and is refused
  const Run r = ubsim::test::run_command(
      kBin + " sweep latency --grid seed=1 --out " + s + " -- --path ub-load --ops 400000 > /dev/null 2>&1 & sleep 0.5; " +
      kBin + " sweep latency --grid seed=1 --timeout 1 --out " + s + " -- --path ub-load --ops 400000 2>&1; echo A=$?; wait");
  INFO(r.out);
  CHECK(r.out.find("is in use by another sweep") != std::string::npos);
  CHECK(r.out.find("A=3") != std::string::npos);
  // B's point is intact: the merge finds it
  const Run m = ubsim::test::run_command(kBin + " sweep --merge " + s);
  CHECK(m.status == 0);
}

TEST_CASE("hostile 2.10: SIGTERM and SIGINT leave nothing incomplete under a final name", "[hostile]") {
  for (const char* sig : {"TERM", "INT"}) {
    INFO(sig);
    const fs::path d = workdir(std::string("term_") + sig);
    const std::string marker = std::string("UBSIM_HOSTILE_TERM_") + sig + "=1";
    ubsim::test::run_command("cd " + d.string() + " && " + marker + " " + kBin +
                             " latency --path all --ops 3000000 --timeline t.json --trace p > /dev/null 2>&1 & sleep 1.5; "
                             "kill -" + sig + " $!; wait");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(survivors(marker) == 0);
    CHECK(listing(d).empty());   // no t.json, no part, no FST, no staging folder
    // killed while the plot is drawn: DIR is written whole or not at all
    const fs::path o = workdir(std::string("term_plot_") + sig);
    ubsim::test::run_command("cd " + o.string() + " && " + kBin + " latency --path ub-load --ops 2 --out o > /dev/null 2>&1 & "
                             "for i in $(seq 200); do pgrep -f plot_latency.py > /dev/null && break; sleep 0.02; done; "
                             "kill -" + sig + " $!; wait");
    const auto files = listing(o);
    CHECK((files.empty() || std::find(files.begin(), files.end(), "o/latency.png") != files.end()));
    for (const auto& f : files) CHECK(f.find("partial") == std::string::npos);
  }
}

TEST_CASE("hostile 2.11: a grid's cross product is bounded", "[hostile]") {
  bad("grid_huge", "sweep latency --grid seed=1..1000:1 --grid wire.latency=1ns..1000ns:1ns", "limit of 10000");
}

TEST_CASE("hostile 2.12: report survives undecodable names and malformed documents", "[hostile]") {
  const fs::path d = workdir("report_bad");
  const std::string odd = d.string() + "/lat\xff";
  REQUIRE(ubsim::test::run_command(kBin + " latency --path ub-load --ops 2 --out '" + odd + "'").status == 0);
  fs::create_directories(d / "bad1");
  write(d / "bad1" / "x.json", "{\"experiment\": 5, \"results\": []}");
  fs::create_directories(d / "bad2");
  write(d / "bad2" / "x.json", "{\"experiment\": \"latency\", \"results\": [1, 2]}");
  const Run r = ubsim::test::run_command(kBin + " report " + d.string());
  INFO(r.out);
  CHECK(r.status == 0);
  const std::string page = ubsim::test::read_text(d / "index.html");
  CHECK(page.find("lat\\xff") != std::string::npos);
  CHECK(page.find("Unreadable result files") != std::string::npos);
  CHECK(page.find("bad1") != std::string::npos);
  CHECK(page.find("bad2") != std::string::npos);
  for (const auto& f : listing(d)) CHECK(f.find("partial") == std::string::npos);
}

TEST_CASE("hostile 2.13: the smaller items", "[hostile]") {
  const fs::path t = fs::temp_directory_path() / "ubsim_hostile_float_seed.toml";
  write(t, "seed = 9007199254740993.0\n");
  bad("float_seed", "latency --path ub-load --ops 2 --config " + t.string(), "is a float");
  for (const char* n : {"0x10", "0o17", "0b101"}) {
    write(t, std::string("[workload]\nops = ") + n + "\n");
    bad(std::string("radix_") + n, "latency --path ub-load --config " + t.string(), "in decimal");
  }
  // a 250-byte --out name is written; a 256-byte one is refused before running
  {
    const fs::path d = workdir("long_out");
    const std::string name(250, 'n');
    const Run r = ubsim::test::run_command("cd " + d.string() + " && " + kBin + " latency --path ub-load --ops 2 --out " + name);
    CHECK(r.status == 0);
    CHECK(fs::exists(d / name / "latency.png"));
  }
  bad("long_out2", "latency --path ub-load --ops 2 --out " + std::string(256, 'n'), "at most 255");
  // a metric that is not a column
  {
    const fs::path d = workdir("metric");
    const Run r = ubsim::test::run_command(kBin + " sweep latency --grid seed=1 --metric nonexistent.col --x seed --out " +
                                           (d / "s").string() + " -- --path ub-load --ops 2");
    CHECK(r.status == 2);
    CHECK(r.out.find("option --metric: 'nonexistent.col' is not a column") != std::string::npos);
    CHECK_FALSE(fs::exists(d / "s" / "sweep.png"));
  }
  bad("compare_out", std::string("compare ") + UBSIM_TEST_DATA + "/defaults.toml " + UBSIM_TEST_DATA +
                         "/defaults.toml -- --out x",
      "--out after --");
  // a figure null on one side is listed, not dropped
  {
    const fs::path base = fs::temp_directory_path() / "ubsim_hostile_cmp_base.toml";
    const fs::path cand = fs::temp_directory_path() / "ubsim_hostile_cmp_cand.toml";
    write(base, "[loss]\ndata = 0\n[transport]\nin_paths = true\n");
    write(cand, "[loss]\ndata = 1.0\n[transport]\nin_paths = true\n");
    const Run r = ubsim::test::run_command(kBin + " compare " + base.string() + " " + cand.string() +
                                           " -- --path ub-async --ops 3");
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("value on one side only") != std::string::npos);
  }
  // a huge bad value is cut in the error line
  {
    write(t, "[wire]\nlatency = \"" + std::string(5 * 1024 * 1024, 'x') + "\"\n");
    const Outcome o = run_in("huge_value", "latency --config " + t.string());
    CHECK(o.status == 2);
    CHECK(o.out.size() < 1000);
    CHECK(o.out.find("bytes cut") != std::string::npos);
  }
}
