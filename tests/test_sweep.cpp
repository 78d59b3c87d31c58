// ubsim sweep through the command line: merged figures equal single runs,
// reruns finish only the missing points, emitted jobs merge to the same
// bytes, a failed point keeps the others, a bad grid runs nothing; the
// yosys area of a block and its columns beside a sweep's figures.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "run_command.h"
#include "verilated_block.h"   // the generated port tables: GatedClocks<M>

namespace {

namespace fs = std::filesystem;

using ubsim::test::Run;

Run sh(const std::string& cmd) { return ubsim::test::run_command(cmd); }

using ubsim::test::read_text;


const std::string kBin = UBSIM_BIN;
const std::string kGrid = " --grid wire.latency=100ns..300ns:100ns --grid clock=322MHz,400MHz";
const std::string kExp = " -- --path ub-load --ops 300";

fs::path fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("ubsim_sweep_" + name);
  fs::remove_all(d);
  return d;
}

}  // namespace

TEST_CASE("sweep: merged figures equal single runs, and a rerun runs only the missing points", "[sweep]") {
  const fs::path dir = fresh("a");
  Run r = sh(kBin + " sweep latency -j 2 --out " + dir.string() + kGrid + kExp);
  INFO(r.out);
  REQUIRE(r.status == 0);
  const std::string csv = read_text(dir / "sweep.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 6);
  CHECK(csv.rfind("wire.latency,clock,", 0) == 0);
  // the point (200 ns, 400 MHz) against the same run on its own
  const Run one = sh(kBin + " latency --path ub-load --ops 300 --set wire.latency=200ns --set clock=400MHz --format json");
  const std::string key = "\"measured_total_ns\": {\"mean\": ";
  const auto pos = one.out.find(key);
  REQUIRE(pos != std::string::npos);
  const auto start = pos + key.size();
  const std::string mean = one.out.substr(start, one.out.find(',', start) - start);
  std::istringstream lines(csv);
  std::string line, row;
  while (std::getline(lines, line))
    if (line.rfind("200ns,400MHz,", 0) == 0) row = line;
  INFO(row);
  CHECK(row.find("," + mean + ",") != std::string::npos);

  // two points lost (e.g. a killed run): only they run again
  int removed = 0;
  for (const auto& e : fs::directory_iterator(dir / "points"))
    if (e.path().extension() == ".json" && removed < 2) {
      fs::remove(e.path());
      ++removed;
    }
  const std::string before = read_text(dir / "sweep.json");
  r = sh(kBin + " sweep latency -j 2 --out " + dir.string() + kGrid + kExp);
  CHECK(r.status == 0);
  CHECK(r.out.find("6 points: 4 reused, 2 run, 0 failed") != std::string::npos);
  CHECK(read_text(dir / "sweep.json") == before);
}

TEST_CASE("sweep: emitted jobs, run elsewhere and merged, give the same bytes", "[sweep]") {
  const fs::path a = fresh("b1"), b = fresh("b2");
  REQUIRE(sh(kBin + " sweep latency -j 2 --out " + a.string() + kGrid + kExp).status == 0);
  const Run e = sh(kBin + " sweep latency --emit-jobs --out " + b.string() + kGrid + kExp);
  INFO(e.out);
  REQUIRE(e.status == 0);
  CHECK(std::count(e.out.begin(), e.out.end(), '\n') == 2);
  REQUIRE(sh("bash " + (b / "jobs.txt").string()).status == 0);   // what GNU parallel or a Slurm array would run
  REQUIRE(sh(kBin + " sweep --merge " + b.string()).status == 0);
  CHECK(read_text(a / "sweep.csv") == read_text(b / "sweep.csv"));
  CHECK(read_text(a / "sweep.json") == read_text(b / "sweep.json"));
}

TEST_CASE("sweep: a failed point is reported and the others are kept", "[sweep]") {
  const fs::path dir = fresh("c");
  // the second point would run for minutes: the per-point timeout stops it at run time
  const Run r = sh(kBin + " sweep latency --timeout 2 --out " + dir.string() +
                   " --grid workload.ops=50,500000000 -- --path ub-load");
  INFO(r.out);
  CHECK(r.status == 3);
  CHECK(r.out.find("point failed: workload.ops=500000000: ") != std::string::npos);
  CHECK(r.out.find("--timeout of 2 s") != std::string::npos);
  const std::string csv = read_text(dir / "sweep.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 2);   // header + the good point
  CHECK(read_text(dir / "sweep.json").find("\"status\": \"failed\"") != std::string::npos);
  // a configuration the RTL cannot take (200 cycles: above the build maximum)
  // is bad input found before any point runs: exit 2, nothing written
  const fs::path bad = fresh("c2");
  const Run b = sh(kBin + " sweep latency --out " + bad.string() + " --grid pipeline.ub_load=8,200 -- --path ub-load --ops 50");
  CHECK(b.status == 2);
  CHECK(b.out.find("above the build maximum") != std::string::npos);
  CHECK_FALSE(fs::exists(bad));
}

TEST_CASE("sweep: a bad grid fails before any point runs, in one line, exit 2", "[sweep]") {
  for (const char* g : {"no.such=1,2", "wire.latency=5,10", "wire.latency=500ns..50ns:50ns", "clock=1GHz..2GHz",
                        "variant=no-such-variant"}) {
    const fs::path dir = fresh("d");
    const Run r = sh(kBin + " sweep latency --out " + dir.string() + " --grid " + g);
    INFO(g << ": " << r.out);
    CHECK(r.status == 2);
    CHECK(r.out.rfind("ubsim: error: option --grid: key '", 0) == 0);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(dir));
  }
}

TEST_CASE("compare: the figures of two configurations side by side", "[sweep]") {
  const std::string data = UBSIM_TEST_DATA;
  const Run r = sh(kBin + " compare " + data + "/defaults.toml " + data + "/wire_50ns.toml --format csv -- --path ub-load --ops 200");
  INFO(r.out);
  REQUIRE(r.status == 0);
  // the read crosses the wire twice: 2 x 50 ns less, measured
  std::istringstream lines(r.out);
  std::string line;
  bool seen = false;
  while (std::getline(lines, line))
    if (line.find(",measured_total_ns.mean,") != std::string::npos) {
      seen = true;
      const double diff = std::stod(line.substr(line.rfind(',', line.rfind(',') - 1) + 1));
      CHECK(diff == Approx(-100).margin(3.2));   // within a clock cycle of alignment
    }
  CHECK(seen);
  // a bad file fails before anything runs
  const Run bad = sh(kBin + " compare " + data + "/defaults.toml " + data + "/bad_unit.toml");
  CHECK(bad.status == 2);
  CHECK(bad.out.find("bad_unit.toml: key 'wire.latency'") != std::string::npos);
}

// ---------------- area (yosys) ----------------

namespace {

struct Area {
  long cells = -1, logic_bits = -1, ff_bits = -1, latch_bits = -1, mem_bits = -1;
};

// The cells of one CSV line (quoted cells may hold commas).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// One block's figures from `ubsim area --format csv`, columns found by name.
Area area_of(const std::string& out, const std::string& block) {
  std::istringstream lines(out);
  std::string line;
  std::vector<std::string> header;
  Area a;
  while (std::getline(lines, line)) {
    const auto cells = csv_cells(line);
    if (cells.size() > 1 && cells[0] == "block") header = cells;
    if (header.empty() || cells[0] != block) continue;
    auto col = [&](const std::string& name) {
      for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name && i < cells.size()) return std::stol(cells[i]);
      return -1L;
    };
    a = {col("cells"), col("logic_bits"), col("ff_bits"), col("latch_bits"), col("mem_bits")};
  }
  return a;
}

}  // namespace

TEST_CASE("area: the context cache's synthesized state follows its entries exactly", "[area]") {
  const fs::path cache = fresh("area_cache");
  std::map<int, Area> at;
  for (int entries : {32, 64, 128}) {
    const Run r = sh(kBin + " area --blocks ctx_cache --format csv --cache " + cache.string() +
                     " --rtl UBSIM_RTL_CACHE_ENTRIES=" + std::to_string(entries));
    INFO(r.out);
    REQUIRE(r.status == 0);
    at[entries] = area_of(r.out, "ctx_cache");
    REQUIRE(at[entries].ff_bits > 0);
    // its clock gates' enable latches (clock_gate.sv), as many as Verilator
    // found gated clocks in it (three), and no inferred latch
    CHECK(at[entries].latch_bits == ubsim::GatedClocks<Vctx_cache>::kCount);
  }
  // per entry: a 26-bit key, a 32-bit LRU stamp, valid, pending and pinned =
  // 61 flip-flops; and the two configuration registers (entries and ways,
  // loaded at reset) one bit wider each per doubling
  CHECK(at[64].ff_bits - at[32].ff_bits == 32 * 61 + 2);
  CHECK(at[128].ff_bits - at[64].ff_bits == 64 * 61 + 2);
  // per entry an 8-bit pin count (an array); and the reorder buffer's 32 slot
  // fields (2 keys x 16) each gain one index bit per doubling
  CHECK(at[64].mem_bits - at[32].mem_bits == 32 * 8 + 32);
  // one comparator per entry: the search logic grows linearly with the entries
  const double ratio = static_cast<double>(at[128].logic_bits) / static_cast<double>(at[64].logic_bits);
  CHECK(ratio > 1.9);
  CHECK(ratio < 2.1);
  // the second run reads the cache: same figures, no synthesis
  const Run again = sh(kBin + " area --blocks ctx_cache --cache " + cache.string() + " --rtl UBSIM_RTL_CACHE_ENTRIES=64");
  INFO(again.out);
  CHECK(again.out.find("cached") != std::string::npos);
  CHECK(again.out.find("synthesizing") == std::string::npos);
  const Run again_csv = sh(kBin + " area --blocks ctx_cache --format csv --cache " + cache.string() +
                           " --rtl UBSIM_RTL_CACHE_ENTRIES=64");
  CHECK(area_of(again_csv.out, "ctx_cache").ff_bits == at[64].ff_bits);
}

// Every block `scripts/reproduce --area` synthesizes must read in the
// Debian yosys (its SystemVerilog subset is narrower than Verilator's: a
// packed array declared `logic [A][B] x` is a syntax error there), and the
// only latches in it must be its clock gates' (rtl/clock_gate.sv), as many
// as Verilator found gated clocks in the same block.
TEST_CASE("area: the synthesized blocks read in yosys, and their only latches are the clock gates", "[area]") {
  const fs::path cache = fresh("area_small");
  const Run r = sh(kBin + " area --blocks order_tracker,rx_pipeline,ub_tx_pipeline,roce_tx_pipeline,rate_limiter "
                   "--format csv --cache " + cache.string() +
                   " --rtl UBSIM_RTL_CACHE_ENTRIES=32 --rtl UBSIM_RTL_ORDER_SLOTS=2 --rtl UBSIM_RTL_ORDER_WIN=4"
                   " --rtl UBSIM_RTL_MAX_CHAIN=4");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const std::map<std::string, int> gates = {{"order_tracker", ubsim::GatedClocks<Vorder_tracker>::kCount},
                                            {"rx_pipeline", ubsim::GatedClocks<Vrx_pipeline>::kCount},
                                            {"ub_tx_pipeline", ubsim::GatedClocks<Vub_tx_pipeline>::kCount},
                                            {"roce_tx_pipeline", ubsim::GatedClocks<Vroce_tx_pipeline>::kCount},
                                            {"rate_limiter", 0}};
  for (const auto& [block, count] : gates) {
    INFO(block);
    const Area a = area_of(r.out, block);
    CHECK(a.cells > 0);
    CHECK(a.ff_bits > 0);
    CHECK(a.latch_bits == count);
  }
  CHECK(gates.at("ub_tx_pipeline") > 0);   // the send pipelines gate their idle units
  CHECK(ubsim::GatedClocks<Vctx_cache>::kCount == 3);   // the context cache its tags, its pins and its configuration
}

TEST_CASE("area: bad blocks and RTL options fail in one line, exit 2", "[area]") {
  for (const char* args : {"--blocks ctx_cache,nope", "--rtl UBSIM_RTL_NOPE=4", "--rtl UBSIM_RTL_CACHE_ENTRIES=0",
                           "--rtl UBSIM_RTL_CACHE_ENTRIES=many"}) {
    const Run r = sh(kBin + " area " + args);
    INFO(args << ": " << r.out);
    CHECK(r.status == 2);
    CHECK(r.out.rfind("ubsim: error: option --", 0) == 0);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
  }
  const fs::path dir = fresh("area_bad");
  const Run r = sh(kBin + " sweep latency --out " + dir.string() + " --area rx_pipeline,nope --grid clock=322MHz");
  CHECK(r.status == 2);
  CHECK(r.out.find("option --blocks: 'nope'") != std::string::npos);
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("sweep --area: a variant's area columns beside its measured figures", "[area][sweep]") {
  const fs::path dir = fresh("area_sweep");
  const Run r = sh(kBin + " sweep latency -j 2 --area rx_pipeline --out " + dir.string() +
                   " --grid clock=322MHz,400MHz -- --path ub-load --ops 100");
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("3 points: 0 reused, 3 run, 0 failed") != std::string::npos);   // 2 points + 1 area job
  const std::string csv = read_text(dir / "sweep.csv");
  const std::string header = csv.substr(0, csv.find('\n'));
  CHECK(header.find("area.rx_pipeline.cells,area.rx_pipeline.logic_bits,area.rx_pipeline.ff_bits,"
                    "area.rx_pipeline.latch_bits,area.rx_pipeline.mem_bits") != std::string::npos);
  // the columns carry what `ubsim area` reports for the block
  const Area a = area_of(sh(kBin + " area --blocks rx_pipeline --format csv").out, "rx_pipeline");
  REQUIRE(a.ff_bits > 0);
  std::istringstream lines(csv);
  std::string line;
  int rows = 0;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    ++rows;
    CHECK(line.find("," + std::to_string(a.cells) + "," + std::to_string(a.logic_bits) + "," +
                    std::to_string(a.ff_bits) + "," + std::to_string(a.latch_bits) + "," + std::to_string(a.mem_bits)) !=
          std::string::npos);
  }
  CHECK(rows == 2);
  // the emitted job list carries the area job too
  const fs::path b = fresh("area_sweep_jobs");
  const Run e = sh(kBin + " sweep latency --emit-jobs --area rx_pipeline --out " + b.string() +
                   " --grid clock=322MHz,400MHz -- --path ub-load --ops 100");
  REQUIRE(e.status == 0);
  const std::string jobs = read_text(b / "jobs.txt");
  CHECK(std::count(jobs.begin(), jobs.end(), '\n') == 3);
  CHECK(jobs.find("'area' '--format' 'json' '--blocks' 'rx_pipeline'") != std::string::npos);
  REQUIRE(sh("bash " + (b / "jobs.txt").string()).status == 0);
  REQUIRE(sh(kBin + " sweep --merge " + b.string()).status == 0);
  CHECK(read_text(b / "sweep.csv") == csv);
}

TEST_CASE("sweep: a point's id covers the configuration files: an edit runs the points again", "[sweep]") {
  const fs::path dir = fresh("ident"), cfg = fs::temp_directory_path() / "ubsim_sweep_ident.toml";
  std::ofstream(cfg) << "[wire]\nlatency = \"100ns\"\n";
  const std::string cmd = kBin + " sweep latency -j 2 --out " + dir.string() +
                          " --grid clock=322MHz,400MHz -- --path ub-load --ops 200 --config " + cfg.string();
  Run r = sh(cmd);
  REQUIRE(r.status == 0);
  const std::string before = read_text(dir / "sweep.csv");
  r = sh(cmd);
  CHECK(r.out.find("2 points: 2 reused, 0 run") != std::string::npos);
  std::ofstream(cfg) << "[wire]\nlatency = \"600ns\"\n";   // same command, new figures
  r = sh(cmd);
  INFO(r.out);
  CHECK(r.out.find("2 points: 0 reused, 2 run") != std::string::npos);
  CHECK(read_text(dir / "sweep.csv") != before);
}

TEST_CASE("sweep: a damaged point is named and run again, and --merge refuses it", "[sweep]") {
  const fs::path dir = fresh("damaged");
  const std::string cmd = kBin + " sweep latency -j 2 --out " + dir.string() +
                          " --grid clock=322MHz,400MHz -- --path ub-load --ops 200";
  REQUIRE(sh(cmd).status == 0);
  const std::string good = read_text(dir / "sweep.json");
  fs::path point;
  for (const auto& e : fs::directory_iterator(dir / "points"))
    if (e.path().extension() == ".json") point = e.path();
  // a hand edit that is still valid JSON
  std::string text = read_text(point);
  text.replace(text.find("\"mean\": ") + 8, 1, "9");
  std::ofstream(point) << text;
  const Run m = sh(kBin + " sweep --merge " + dir.string());
  CHECK(m.status == 2);
  CHECK(m.out.find("does not match its checksum") != std::string::npos);
  CHECK(std::count(m.out.begin(), m.out.end(), '\n') == 1);
  const Run r = sh(cmd);
  INFO(r.out);
  CHECK(r.out.find(point.stem().string()) != std::string::npos);   // named
  CHECK(r.out.find("running it again") != std::string::npos);
  CHECK(r.out.find("2 points: 1 reused, 1 run") != std::string::npos);
  CHECK(read_text(dir / "sweep.json") == good);
  // half-written (no checksum yet): run again too
  fs::remove(point.string() + ".sum");
  CHECK(sh(cmd).out.find("2 points: 1 reused, 1 run") != std::string::npos);
}

TEST_CASE("sweep: kill -9 mid-sweep, rerun at once: the same sweep.json as an uninterrupted run", "[sweep]") {
  const fs::path a = fresh("kill_a"), b = fresh("kill_b");
  const std::string grid = " --grid wire.latency=100ns..400ns:100ns --grid clock=322MHz,400MHz -- --path ub-load --ops 30000";
  REQUIRE(sh(kBin + " sweep latency -j 2 --out " + a.string() + grid).status == 0);
  // started in the background, killed while points run, rerun at once
  sh("(" + kBin + " sweep latency -j 2 --out " + b.string() + grid + " > /dev/null 2>&1 & p=$!; sleep 1.5; kill -9 $p)");
  const Run r = sh(kBin + " sweep latency -j 2 --out " + b.string() + grid);
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK(read_text(b / "sweep.json") == read_text(a / "sweep.json"));
  CHECK(read_text(b / "sweep.csv") == read_text(a / "sweep.csv"));
  // nothing half-written stays behind
  for (const auto& e : fs::directory_iterator(b / "points"))
    CHECK(e.path().filename().string().find(".partial-") == std::string::npos);
}
