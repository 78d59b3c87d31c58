// The ubsim command line: bad input gives one clear line and exit status 2,
// and no output files.
#include <cmath>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include "experiment.h"
#include "json_value.h"
#include "run_command.h"

namespace {

using ubsim::test::Run;

Run run_ubsim(const std::string& args) { return ubsim::test::run_command(std::string(UBSIM_BIN) + " " + args); }

void expect_bad_input(const std::string& args, const std::string& needle) {
  INFO(args);
  const Run r = run_ubsim(args);
  INFO(r.out);
  CHECK(r.status == 2);
  CHECK(r.out.find(needle) != std::string::npos);
  CHECK(r.out.rfind("ubsim: error: ", 0) == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);   // one line
}

}  // namespace

TEST_CASE("bad input: one line naming key and file, exit status 2", "[cli]") {
  expect_bad_input("latency --set no.such=1", "key 'no.such': unknown key");
  expect_bad_input("latency --set wire.latency=-1ns", "--set: key 'wire.latency'");
  expect_bad_input("latency --set wire.latency=10", "has no unit");
  expect_bad_input("latency --set clock=0Hz", "key 'clock'");
  expect_bad_input("latency --set pipeline.ub_async=200", "above the build maximum");
  expect_bad_input("latency --path nowhere", "--path: 'nowhere'");
  expect_bad_input("latency --config " UBSIM_TEST_DATA "/bad_unit.toml", "bad_unit.toml: key 'wire.latency'");
  expect_bad_input("latency --config " UBSIM_TEST_DATA "/unknown_key.toml", "unknown_key.toml: key 'wire.latencyy'");
  expect_bad_input("latency --config /nonexistent.toml", "/nonexistent.toml");
  expect_bad_input("latency --ops -3", "--ops");
  expect_bad_input("frobnicate", "unknown command");
  expect_bad_input("load --points 0.5,x", "--points: 'x'");
  expect_bad_input("issue-rate --payload 8KiB", "option --payload was renamed --size");
  expect_bad_input("latency --size 0B", "workload.size");
  expect_bad_input("latency --set workload.payload=64B", "renamed: workload.size");
  expect_bad_input("issue-rate --size 2GiB", "workload.size");
  expect_bad_input("issue-rate --size 1GiB --burst 1000", "more than 10000000 packets");
  expect_bad_input("latency --set workload.rate=5GHz", "key 'workload.rate'");
  expect_bad_input("ctx-cache --set cache.ub_ways=3", "key 'cache.ub_ways'");
  expect_bad_input("ctx-cache --set cache.roce_ways=1", "key 'cache.roce_ways'");
  expect_bad_input("ctx-cache --set cache.ub_entries=5000", "above the build maximum");
  expect_bad_input("ctx-cache --endpoints 1,5000", "--endpoints: '5000'");
  expect_bad_input("ctx-cache --stack pcie", "--stack: 'pcie'");
  expect_bad_input("loss --mode tcp", "--mode: 'tcp'");
  expect_bad_input("loss --loss 0.1,1.5", "--loss: '1.5'");
  expect_bad_input("loss --set sack.rto_backoff=3", "key 'sack.rto_backoff'");
  expect_bad_input("loss --set sack.window=4096", "key 'sack.window'");
  expect_bad_input("loss --set loss.message_bytes=8KiB", "renamed: workload.size");
  expect_bad_input("loss --size 1GiB", "more than 10000000 packets");
}

TEST_CASE("bad input writes no output directory", "[cli]") {
  const auto dir = std::filesystem::temp_directory_path() / "ubsim_cli_no_output";
  std::filesystem::remove_all(dir);
  const Run r = run_ubsim("latency --out " + dir.string() + " --set dram.row_hit=fast");
  CHECK(r.status == 2);
  CHECK_FALSE(std::filesystem::exists(dir));
}

TEST_CASE("latency --format json carries the spec's result keys", "[cli]") {
  const Run r = run_ubsim("latency --path ub-load --ops 5 --format json");
  REQUIRE(r.status == 0);
  for (const char* key : {"\"experiment\": \"latency\"", "\"config\":", "\"provenance\":", "\"git\":",
                          "\"variant\":", "\"seed\":", "\"path\": \"ub-load\"", "\"stages\":", "\"derived_ns\":",
                          "\"measured_ns\":", "\"derived_total_ns\":", "\"measured_total_ns\":", "\"p99\":",
                          "\"effects\":", "\"cause\":", "\"reference_ns\":"})
    CHECK(r.out.find(key) != std::string::npos);
}

TEST_CASE("the provenance's git is the commit the binary was built from, not the one CMake was configured at", "[cli]") {
  // (sim/cli/git_hash.cmake runs at every build; the tests run after one)
  const Run head = ubsim::test::run_command("git -C '" + std::string(UBSIM_SOURCE_DIR) + "' rev-parse --short=12 HEAD");
  if (head.status != 0) {
    WARN("the source is not a git checkout: nothing to compare");
    return;
  }
  const std::string hash = head.out.substr(0, head.out.find_first_of(" \n"));
  REQUIRE(hash.size() == 12);
  const Run r = run_ubsim("latency --path ub-load --ops 5 --format json");
  REQUIRE(r.status == 0);
  const std::string git = "\"git\": \"" + hash;   // (then the quote, or -dirty in a changed tree)
  INFO(r.out.substr(0, 200));
  CHECK(r.out.find(git) != std::string::npos);
}

TEST_CASE("the provenance names what set each value off its default: --set, a file, the experiment itself", "[cli]") {
  const Run r = run_ubsim("slots --set wire.latency=120ns --format json");
  REQUIRE(r.status == 0);
  const auto doc = ubsim::json::parse(r.out);
  const auto* set_by = doc.get("provenance")->get("set_by");
  REQUIRE(set_by);
  auto text = [&](const char* k) { return set_by->get(k) ? set_by->get(k)->text : std::string("(absent)"); };
  CHECK(text("wire.latency") == "--set");
  CHECK(text("workload.warmup") == "experiment slots");   // the experiment's own override, labelled
  CHECK(set_by->get("transport.mtu") == nullptr);                 // at its default: not listed
}

TEST_CASE("the published reference appears only beside a run at the defaults", "[cli]") {
  const Run plain = run_ubsim("latency --path ub-load --ops 5 --format json");
  REQUIRE(plain.status == 0);
  CHECK(plain.out.find("\"reference_ns\": 500") != std::string::npos);   // docs/published_reference.csv
  const Run changed = run_ubsim("latency --path ub-load --ops 5 --set wire.latency=200ns");
  REQUIRE(changed.status == 0);
  CHECK(changed.out.find("reference_ns omitted") != std::string::npos);
  CHECK(changed.out.find("wire.latency") != std::string::npos);
  const Run json = run_ubsim("latency --path ub-load --ops 5 --set wire.latency=200ns --format json");
  CHECK(json.out.find("\"reference_ns\": null") != std::string::npos);
}

TEST_CASE("params lists every spec key", "[cli]") {
  const Run r = run_ubsim("params");
  REQUIRE(r.status == 0);
  for (const char* key : {"clock", "bus.traversal", "pcie.doorbell", "pcie.dma_read", "pcie.dma_write",
                          "wire.latency", "wire.rate", "dram.row_hit", "dram.row_miss", "sw.submit",
                          "sw.build_descriptor", "sw.cq_poll_pcie", "sw.cq_poll_bus", "sw.lib_poll",
                          "sw.seq_alloc", "pipeline.pcie_nic", "pipeline.ub_async", "pipeline.ub_load",
                          "cache.ub_entries", "cache.roce_entries", "cache.ub_ways", "cache.roce_ways",
                          "transport.mtu", "sack.window", "sack.rto", "sack.rto_backoff", "sack.max_retries",
                          "sack.fast_retransmit", "seed"})
    CHECK(r.out.find(std::string("\n") + key + " ") != std::string::npos);
}

TEST_CASE("help: every command answers --help and ubsim help NAME with its options", "[cli]") {
  for (const ubsim::Experiment* e : ubsim::experiments()) {
    INFO(e->name);
    const Run a = run_ubsim(e->name + " --help");
    const Run b = run_ubsim("help " + e->name);
    CHECK(a.status == 0);
    CHECK(b.status == 0);
    CHECK(a.out == b.out);
    CHECK(a.out.rfind("usage: ubsim " + e->name, 0) == 0);
    for (const auto& o : e->options) CHECK(a.out.find(o.flag) != std::string::npos);
    for (const char* common : {"--config", "--set", "--format", "--out"}) CHECK(a.out.find(common) != std::string::npos);
  }
  for (const char* tool : {"sweep", "compare", "params"}) {
    INFO(tool);
    const Run a = run_ubsim(std::string(tool) + " --help");
    CHECK(a.status == 0);
    CHECK(a.out.rfind(std::string("usage: ubsim ") + tool, 0) == 0);
    CHECK(a.out == run_ubsim(std::string("help ") + tool).out);
  }
  // the overview names every experiment
  const Run all = run_ubsim("help");
  CHECK(all.status == 0);
  for (const ubsim::Experiment* e : ubsim::experiments()) CHECK(all.out.find("  " + e->name + " ") != std::string::npos);
  expect_bad_input("help frobnicate", "'frobnicate' is not a command");
}

TEST_CASE("latency --timeline: one trace, a process per node, a track per component, arrows between stages", "[cli]") {
  const auto file = std::filesystem::temp_directory_path() / "ubsim_cli_timeline.json";
  std::filesystem::remove(file);
  const Run r = run_ubsim("latency --path all --ops 6 --outstanding 2 --timeline " + file.string());
  REQUIRE(r.status == 0);
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* want : {"\"pcie-nic: node A\"", "\"ub-async: node B\"", "\"ub-load: node A\"", "\"thread_name\"",
                           "\"A_ub_tx\"", "\"B_dram\"", "\"wire_A_to_B\"", "\"ph\": \"s\"", "\"ph\": \"f\"",
                           "\"ph\": \"b\"", "\"read #5\""})
    CHECK(text.find(want) != std::string::npos);
  // no per-path files or parts left beside it
  for (const auto& e : std::filesystem::directory_iterator(file.parent_path()))
    CHECK(e.path().filename().string().rfind("ubsim_cli_timeline.json.", 0) != 0);
  std::filesystem::remove(file);
}

TEST_CASE("report: one offline page over an output folder, rendered in headless Chromium", "[cli][report]") {
  namespace fs = std::filesystem;
  REQUIRE(ubsim::test::run_command("command -v chromium").status == 0);   // scripts/bootstrap installs it
  const fs::path dir = fs::temp_directory_path() / "ubsim_cli_report";
  fs::remove_all(dir);
  fs::create_directories(dir);
  REQUIRE(run_ubsim("latency --path all --ops 50 --out " + (dir / "latency").string()).status == 0);
  REQUIRE(run_ubsim("issue-rate --stack both --burst 1000 --out " + (dir / "issue-rate").string()).status == 0);
  REQUIRE(run_ubsim("latency --path ub-async --ops 4 --outstanding 4 --drop 1 --trace " + (dir / "drop").string())
              .status == 0);
  const Run r = run_ubsim("report " + dir.string());
  INFO(r.out);
  REQUIRE(r.status == 0);
  REQUIRE(fs::exists(dir / "index.html"));
  std::ifstream in(dir / "index.html");
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(page.find("http://") == std::string::npos);   // nothing fetched: plots are embedded
  CHECK(page.find("https://") == std::string::npos);
  CHECK(page.find("spec §4") != std::string::npos);
  CHECK(page.find("waveforms/sack_in_path.gtkw") != std::string::npos);
  CHECK(page.find("Area figures: absent") != std::string::npos);
  // the spec targets first, with the count of verdicts; units in the column
  // headers; a remainder at the simulator's resolution rounded to what ns
  // resolve; paths relative to the folder
  const auto verdict = page.find("<p id=verdict>");
  REQUIRE(verdict != std::string::npos);
  CHECK(verdict < page.find("<section"));
  CHECK(page.find("spec targets within their tolerance") != std::string::npos);
  CHECK(page.find("measured_total_ns.p50 [ns]</th>") != std::string::npos);
  CHECK(page.find("interval_ns [ns]</th>") != std::string::npos);
  CHECK(page.find("e-0") == std::string::npos);
  CHECK(page.find("gtkwave drop.ub-async.A_ub_tx.fst") != std::string::npos);
  CHECK(page.find(dir.string()) == std::string::npos);
  // rendered: every image decoded, no script error; a screenshot kept beside the build
  const std::string chromium = "cd " + dir.string() +
                               " && timeout 120 chromium --headless=new --no-sandbox --disable-gpu "
                               "--virtual-time-budget=5000 ";
  const auto dom = ubsim::test::run_command(chromium + "--dump-dom file://" + (dir / "index.html").string() +
                                            " 2>/dev/null");
  REQUIRE(dom.status == 0);
  const auto attr = [&](const std::string& name) {
    const auto at = dom.out.find(name + "=\"");
    return at == std::string::npos ? std::string("?") : dom.out.substr(at + name.size() + 2,
                                                                       dom.out.find('"', at + name.size() + 2) -
                                                                           at - name.size() - 2);
  };
  CHECK(attr("data-images-total") != "?");
  CHECK(attr("data-images-total") != "0");
  CHECK(attr("data-images-loaded") == attr("data-images-total"));
  CHECK(dom.out.find("data-script-error") == std::string::npos);
  const fs::path shot = fs::current_path() / "report_screenshot.png";
  const auto snap = ubsim::test::run_command(chromium + "--window-size=1400,2000 --screenshot=" + shot.string() +
                                             " file://" + (dir / "index.html").string() + " 2>/dev/null");
  CHECK(snap.status == 0);
  CHECK(fs::exists(shot));
  fs::remove_all(dir);
}

TEST_CASE("cmake --install: ubsim on PATH with its scripts, docs and save files, and --version", "[cli][install]") {
  namespace fs = std::filesystem;
  const fs::path prefix = fs::temp_directory_path() / "ubsim_cli_install";
  fs::remove_all(prefix);
  const Run inst = ubsim::test::run_command("cmake --install " UBSIM_BUILD_DIR " --prefix " + prefix.string());
  INFO(inst.out);
  REQUIRE(inst.status == 0);
  for (const char* f : {"bin/ubsim", "share/ubsim/scripts/plot_latency.py", "share/ubsim/scripts/report.py",
                        "share/ubsim/docs/targets.csv", "share/ubsim/waveforms/sack_in_path.gtkw",
                        "share/ubsim/configs/kv-direct.toml", "share/ubsim/rtl/order_tracker.sv"})
    CHECK(fs::exists(prefix / f));
  // found on PATH; reads its data from the installed tree, not the source tree
  const std::string env = "env -u UBSIM_DATA_DIR PATH=" + (prefix / "bin").string() + ":/usr/bin:/bin ";
  const Run v = ubsim::test::run_command(env + "ubsim --version");
  INFO(v.out);
  CHECK(v.status == 0);
  CHECK(v.out.rfind("ubsim ", 0) == 0);
  CHECK(v.out.find("git ") != std::string::npos);
  CHECK(v.out.find("RTL variant ") != std::string::npos);
  CHECK(v.out.find("data " + (prefix / "share" / "ubsim").string()) != std::string::npos);
  const fs::path out = prefix / "out";
  const Run run = ubsim::test::run_command(env + "ubsim latency --path ub-load --ops 20 --out " + out.string());
  INFO(run.out);
  CHECK(run.status == 0);
  CHECK(fs::exists(out / "config.json"));
  int plots = 0;
  for (const auto& e : fs::directory_iterator(out)) plots += e.path().extension() == ".png";
  CHECK(plots >= 1);   // drawn by the installed plot script
  fs::remove_all(prefix);
}

TEST_CASE("bench: reads/s per path, RTL cycles per read, the derived RTL floor above what was reached", "[cli][bench]") {
  const Run r = run_ubsim("bench --ops 10000 --format json");   // (CPU time well above the process clock's tick)
  INFO(r.out);
  REQUIRE(r.status == 0);
  const ubsim::json::Value doc = ubsim::json::parse(r.out);
  const ubsim::json::Value* rows = doc.get("results");
  REQUIRE(rows);
  std::set<std::string> paths;
  for (const auto& row : rows->items) {
    const std::string path = row.str("path");
    paths.insert(path);
    INFO(path);
    const double reads = row.num("reads_per_s"), floor = row.num("derived_rtl_floor_reads_per_s");
    CHECK(reads > 0);
    CHECK(row.num("cpu_s") > 0);
    CHECK(row.num("peak_rss_bytes") > 1e6);
    // every read goes through a send pipeline, a receive pipeline and a cache on each node
    CHECK(row.num("rtl_cycles_per_read") >= 20);
    // the floor counts only evaluating the path's RTL cycles, each at no more
    // than its cost: the co-simulation cannot reach it
    CHECK(floor > reads);
    CHECK(row.num("derived_rtl_floor_share") > 0);
    CHECK(row.num("derived_rtl_floor_share") < 1);
    // the blocks stepped, their cycles per read summing to the path's
    std::set<std::string> blocks;
    double cycles = 0;
    for (const auto& b : row.get("rtl_blocks")->items) {
      blocks.insert(b.str("block"));
      cycles += b.num("cycles_per_read");
      CHECK(b.num("idle_cycle_ns") > 0);
    }
    CHECK(cycles == Approx(row.num("rtl_cycles_per_read")).epsilon(1e-5));   // printed to 6 digits
    const std::string tx = path == "pcie-nic" ? "Vroce_tx_pipeline" : "Vub_tx_pipeline";
    CHECK(blocks == std::set<std::string>{tx, "Vrx_pipeline", "Vctx_cache"});
  }
  CHECK(paths == std::set<std::string>{"pcie-nic", "ub-async", "ub-load"});
}

TEST_CASE("bench: a run too short for the process clock has no reads/s, and says so", "[cli][bench]") {
  // One read takes less CPU time than some kernels' process clock resolves
  // (a tick of a few ms): then cpu_s is 0 and the rate is absent, not
  // infinite; otherwise it is a finite positive rate, and no warning.
  const Run r = run_ubsim("bench --ops 1 --path ub-load --format json");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const ubsim::json::Value doc = ubsim::json::parse(r.out.substr(r.out.find('{')));
  const ubsim::json::Value& row = doc.get("results")->items.at(0);
  const bool warned = r.out.find("ubsim: warning: bench: ub-load: 1 read(s) took less CPU time than the process clock "
                                 "resolves: no reads/s (use more --ops)") != std::string::npos;
  if (row.num("cpu_s") == 0) {
    CHECK(row.get("reads_per_s")->kind == ubsim::json::Value::Null);
    CHECK(warned);
  } else {
    CHECK(row.get("reads_per_s")->kind != ubsim::json::Value::Null);
    CHECK(std::isfinite(row.num("reads_per_s")));
    CHECK(row.num("reads_per_s") > 0);
    CHECK_FALSE(warned);
  }
}

TEST_CASE("bench --check warns (never fails) below the recorded reads/s", "[cli][bench]") {
  namespace fs = std::filesystem;
  const fs::path data = fs::temp_directory_path() / ("ubsim_bench_check_" + std::to_string(::getpid()));
  fs::remove_all(data);
  fs::create_directories(data);
  fs::copy(fs::path(UBSIM_SOURCE_DIR) / "docs", data / "docs", fs::copy_options::recursive);
  std::ofstream(data / "docs" / "bench_reference.csv") << "path,reads_per_s\nub-load,1e12\n";
  const Run r = ubsim::test::run_command("UBSIM_DATA_DIR=" + data.string() + " " + UBSIM_BIN +
                                         " bench --ops 20000 --path ub-load --check --format csv");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("ubsim: warning: bench: ub-load ran") != std::string::npos);
  CHECK(r.out.find("below the 1000000000000 recorded in " + (data / "docs" / "bench_reference.csv").string()) !=
        std::string::npos);
  fs::remove_all(data);
}

// scripts/profile-instructions splits a gate figure by layer and function:
// its parser of callgrind's format (compressed names, inlined files, the
// callee's inclusive cost after calls=) and its layers, on a sample; an
// unknown figure is bad input.
TEST_CASE("profile-instructions: callgrind's format parsed, each function in its layer, an unknown figure refused",
          "[cli][bench]") {
  const std::string script = std::string("'") + UBSIM_SOURCE_DIR + "/scripts/profile-instructions'";
  const Run ok = ubsim::test::run_command(script + " --self-test");
  INFO(ok.out);
  CHECK(ok.status == 0);
  CHECK(ok.out.find("checks passed") != std::string::npos);
  const Run bad = ubsim::test::run_command(script + " read.no-such-path");
  INFO(bad.out);
  CHECK(bad.status == 2);
  CHECK(bad.out.find("unknown figure 'read.no-such-path'") != std::string::npos);
}
