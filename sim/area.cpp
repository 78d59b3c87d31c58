#include "area.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <algorithm>

#include <fmt/format.h>

#include "cli.h"
#include "file_util.h"
#include "json.h"
#include "json_value.h"
#include "rtl_variant.h"
#include "ubsim_build_info.h"

namespace ubsim {

namespace fs = std::filesystem;
using file_util::fnv_hex;
using file_util::read_file;
using file_util::shell_quote;
using file_util::write_file_atomic;

RtlOptions this_build_rtl_options() {
  namespace v = rtl_variant;
  return {{"UBSIM_RTL_MAX_CHAIN", v::kMaxChain},       {"UBSIM_RTL_CTX_W", v::kCtxBits},
          {"UBSIM_RTL_MAX_BEATS", v::kMaxTpcBeats},    {"UBSIM_RTL_FLIT_BYTES", v::kFlitBytes},
          {"UBSIM_RTL_CACHE_ENTRIES", v::kCacheMaxEntries}, {"UBSIM_RTL_CACHE_MSHRS", v::kCacheMshrs},
          {"UBSIM_RTL_ORDER_SLOTS", v::kOrderSlots},   {"UBSIM_RTL_ORDER_WIN", v::kOrderWindow},
          {"UBSIM_RTL_SACK_MAX_WIN", v::kSackMaxWindow}};
}

namespace {
struct OptionRange {
  const char* name;
  int64_t min, max;
  bool power_of_two;
};
// What each build option admits (README, "Runtime parameters vs build options").
constexpr OptionRange kRanges[] = {
    {"UBSIM_RTL_MAX_CHAIN", 1, 240, false},      {"UBSIM_RTL_CTX_W", 1, 20, false},
    {"UBSIM_RTL_MAX_BEATS", 1, 16, false},       {"UBSIM_RTL_FLIT_BYTES", 8, 4096, true},
    {"UBSIM_RTL_CACHE_ENTRIES", 2, 65536, false}, {"UBSIM_RTL_CACHE_MSHRS", 2, 64, false},
    {"UBSIM_RTL_ORDER_SLOTS", 1, 64, false},     {"UBSIM_RTL_ORDER_WIN", 2, 128, true},
    {"UBSIM_RTL_SACK_MAX_WIN", 2, 16384, false},
};
}  // namespace

void apply_rtl_override(RtlOptions& opts, const std::string& spec) {
  const auto eq = spec.find('=');
  const std::string key = spec.substr(0, eq);
  const OptionRange* range = nullptr;
  for (const auto& r : kRanges)
    if (key == r.name) range = &r;
  if (eq == std::string::npos || !opts.count(key) || !range) {
    std::string known;
    for (const auto& [k, v] : opts) known += (known.empty() ? "" : ", ") + k;
    throw CliError("option --rtl: '" + key + "' is not an RTL build option (" + known + ")");
  }
  const std::string text = spec.substr(eq + 1);
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < range->min || v > range->max || (range->power_of_two && (v & (v - 1))))
    throw CliError(fmt::format("option --rtl: {}: '{}' is not a whole number in {}..{}{}", key, text, range->min,
                               range->max, range->power_of_two ? " and a power of two" : ""));
  opts[key] = v;
}

std::vector<AreaBlock> area_blocks(const RtlOptions& o) {
  // The same top parameters rtl/rtl.cmake passes to Verilator.
  return {
      {"ub_tx_pipeline", "UB send pipeline (order tracker, TP lookup, serializer included)",
       {{"ORDER_SLOTS", o.at("UBSIM_RTL_ORDER_SLOTS")}, {"ORDER_WIN", o.at("UBSIM_RTL_ORDER_WIN")},
        {"MAX_CHAIN", o.at("UBSIM_RTL_MAX_CHAIN")}, {"CTX_W", o.at("UBSIM_RTL_CTX_W")},
        {"MAX_BEATS", o.at("UBSIM_RTL_MAX_BEATS")}, {"FLIT_BYTES", o.at("UBSIM_RTL_FLIT_BYTES")}}},
      {"roce_tx_pipeline", "NIC send pipeline (PSN read-modify-write, RC order tracker included)",
       {{"ORDER_SLOTS", o.at("UBSIM_RTL_ORDER_SLOTS")}, {"ORDER_WIN", o.at("UBSIM_RTL_ORDER_WIN")},
        {"MAX_CHAIN", o.at("UBSIM_RTL_MAX_CHAIN")}, {"CTX_W", o.at("UBSIM_RTL_CTX_W")},
        {"FLIT_BYTES", o.at("UBSIM_RTL_FLIT_BYTES")}}},
      {"rx_pipeline", "receive pipeline", {{"MAX_CHAIN", o.at("UBSIM_RTL_MAX_CHAIN")}}},
      {"ctx_cache", "context cache tag store, CAM search, MSHRs, reorder buffer",
       {{"MAX_ENTRIES", o.at("UBSIM_RTL_CACHE_ENTRIES")}, {"MSHRS", o.at("UBSIM_RTL_CACHE_MSHRS")}}},
      {"order_tracker", "order tracker alone",
       {{"SLOTS", o.at("UBSIM_RTL_ORDER_SLOTS")}, {"WIN", o.at("UBSIM_RTL_ORDER_WIN")}}},
      {"sack_sender", "SACK engine, sender", {{"MAX_WIN", o.at("UBSIM_RTL_SACK_MAX_WIN")}}},
      {"sack_receiver", "SACK engine, receiver", {{"MAX_WIN", o.at("UBSIM_RTL_SACK_MAX_WIN")}}},
  };
}

std::vector<AreaBlock> select_area_blocks(const RtlOptions& opts, const std::string& list) {
  const auto all = area_blocks(opts);
  if (list == "all") return all;
  std::vector<AreaBlock> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(',', start);
    const std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    bool found = false;
    for (const auto& b : all)
      if (b.name == name) {
        out.push_back(b);
        found = true;
      }
    if (!found) {
      std::string known;
      for (const auto& b : all) known += (known.empty() ? "" : ", ") + b.name;
      throw CliError("option --blocks: '" + name + "' is not an RTL block (" + known + ", or all)");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// One cache for every build and variant of this source tree: a result's
// name holds the hash of all its inputs (parameters included), so builds
// share what they have in common (cache-4k's context cache is the default's).
std::string default_area_cache_dir() {
  return (fs::path(build_info::kSourceDir) / "build-area").string();
}

namespace {

// The RTL sources yosys reads: every block file but the five-initiator
// harnesses (test scaffolding, not hardware). -defer elaborates only the
// hierarchy under the top, with its parameters.
std::vector<fs::path> rtl_sources() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(build_info::kSourceDir) / "rtl")) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".sv" && name.find("_multi") == std::string::npos) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A path as a yosys script argument (double quotes; yosys has no escapes).
std::string ys_quote(const std::string& path) {
  if (path.find_first_of("\"\n") != std::string::npos)
    throw std::runtime_error("area: path " + path + " holds a quote or newline, which a yosys script cannot carry");
  return "\"" + path + "\"";
}

// tee -o takes its file name as is (no quotes): no blanks allowed.
std::string ys_bare(const std::string& path) {
  if (path.find_first_of(" \t\n\"") != std::string::npos)
    throw std::runtime_error("area: the cache path " + path + " holds a blank or quote; choose another with --cache");
  return path;
}

std::string yosys_binary() {
  const char* env = std::getenv("UBSIM_YOSYS");
  return env && *env ? env : "yosys";
}

// `yosys -V`, asked once per process (part of every result's key).
const std::string& yosys_version() {
  static const std::string version = [] {
    std::string v;
    if (FILE* pipe = ::popen((yosys_binary() + " -V 2>/dev/null").c_str(), "r")) {
      char buf[256];
      while (std::fgets(buf, sizeof buf, pipe)) v += buf;
      if (::pclose(pipe) != 0) v.clear();
    }
    if (v.empty())
      throw std::runtime_error("area: yosys not found (" + yosys_binary() +
                               "; scripts/bootstrap installs Debian's yosys, UBSIM_YOSYS names another)");
    return v;
  }();
  return version;
}

// "Number of <what>:  N" from a yosys stat report.
uint64_t stat_number(const std::string& report, const std::string& what, const std::string& file) {
  const std::regex re("Number of " + what + ":\\s+([0-9]+)");
  std::smatch m;
  if (!std::regex_search(report, m, re)) throw std::runtime_error("area: no '" + what + "' in " + file);
  return std::stoull(m[1]);
}

// Per cell type counts of a stat report ("$sdffe_48   6" with -width).
std::vector<std::pair<std::string, uint64_t>> cell_types(const std::string& report) {
  std::vector<std::pair<std::string, uint64_t>> out;
  const std::regex re("^\\s+(\\$\\S+)\\s+([0-9]+)\\s*$");
  std::istringstream in(report);
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_match(line, m, re)) out.emplace_back(m[1], std::stoull(m[2]));
  return out;
}

bool is_ff_type(const std::string& base) {
  static const char* kFf[] = {"$dff", "$dffe", "$adff", "$adffe", "$sdff", "$sdffe", "$sdffce",
                              "$dffsr", "$dffsre", "$aldff", "$aldffe", "$ff"};
  for (const char* t : kFf)
    if (base == t) return true;
  return false;
}

bool is_latch_type(const std::string& base) {
  return base == "$dlatch" || base == "$adlatch" || base == "$dlatchsr";
}

}  // namespace

AreaFigures synthesize_area(const AreaBlock& block, const std::string& cache_dir) {
  AreaFigures f;
  f.block = block.name;
  std::string chparams;
  for (const auto& [k, v] : block.params) {
    f.params += fmt::format("{}{}={}", f.params.empty() ? "" : " ", k, v);
    chparams += fmt::format(" -chparam {} {}", k, v);
  }
  const auto sources = rtl_sources();
  std::string files, inputs;
  for (const auto& p : sources) {
    files += " " + ys_quote(p.string());
    inputs += p.filename().string() + "\n" + read_file(p);
  }
  fs::create_directories(cache_dir);
  const std::string& version = yosys_version();
  // Stat reports go to files named by the key (tee -o); the script is part of the key.
  const std::string script_tmpl = fmt::format(
      "read_verilog -defer -sv -DSYNTHESIS{}\n"
      "hierarchy -check -top {}{}\n"
      "proc\nflatten\nopt_expr\nopt_clean\n"
      "tee -q -o @PRE@ stat\n"          // memories are still arrays here: their bits
      "memory_collect\nopt -fast\n"
      "tee -q -o @COARSE@ stat -width\n",
      files, block.name, chparams);
  const std::string key = fnv_hex(version + script_tmpl + inputs);
  const fs::path base = fs::path(cache_dir) / (block.name + "-" + key);
  const fs::path result = base.string() + ".json";
  f.log = base.string() + ".log";
  if (fs::exists(result)) {
    const json::Value v = json::parse(read_file(result));
    f.coarse_cells = std::stoull(v.get("coarse_cells")->text);
    f.logic_bits = std::stoull(v.get("logic_bits")->text);
    f.ff_bits = std::stoull(v.get("ff_bits")->text);
    f.latch_bits = std::stoull(v.get("latch_bits")->text);
    f.mem_bits = std::stoull(v.get("mem_bits")->text);
    f.cached = true;
    return f;
  }
  std::string script = script_tmpl;
  for (const auto& [tag, ext] : std::vector<std::pair<std::string, std::string>>{
           {"@PRE@", ".pre.stat"}, {"@COARSE@", ".coarse.stat"}})
    script.replace(script.find(tag), tag.size(), ys_bare(base.string() + ext));
  write_file_atomic(base.string() + ".ys", script);
  std::fprintf(stderr, "area: synthesizing %s (%s) with yosys, log %s\n", block.name.c_str(), f.params.c_str(),
               f.log.c_str());
  const auto t0 = std::chrono::steady_clock::now();
  const std::string cmd = fmt::format("{} -q -l {} -s {} >/dev/null 2>&1", yosys_binary(), shell_quote(f.log),
                                      shell_quote(base.string() + ".ys"));
  if (std::system(cmd.c_str()) != 0)
    throw std::runtime_error("area: yosys failed on " + block.name + ": see " + f.log);
  f.yosys_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string pre = read_file(base.string() + ".pre.stat");
  const std::string coarse = read_file(base.string() + ".coarse.stat");
  f.mem_bits = stat_number(pre, "memory bits", base.string() + ".pre.stat");
  f.coarse_cells = stat_number(coarse, "cells", base.string() + ".coarse.stat");
  for (const auto& [type, count] : cell_types(coarse)) {
    const auto us = type.rfind('_');
    const std::string width = us == std::string::npos ? "" : type.substr(us + 1);
    if (width.empty() || width.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string b = type.substr(0, us);
    const uint64_t bits = count * std::stoull(width);
    if (is_ff_type(b)) f.ff_bits += bits;
    else if (is_latch_type(b)) f.latch_bits += bits;
    else if (b.rfind("$mem", 0) != 0) f.logic_bits += bits;
  }
  write_file_atomic(result, json::object({{"block", json::str(f.block)},
                                          {"params", json::str(f.params)},
                                          {"coarse_cells", json::num(static_cast<double>(f.coarse_cells))},
                                          {"logic_bits", json::num(static_cast<double>(f.logic_bits))},
                                          {"ff_bits", json::num(static_cast<double>(f.ff_bits))},
                                          {"latch_bits", json::num(static_cast<double>(f.latch_bits))},
                                          {"mem_bits", json::num(static_cast<double>(f.mem_bits))},
                                          {"yosys_s", json::num(f.yosys_s)},
                                          {"yosys", json::str(version.substr(0, version.find('\n')))}}) +
                                 "\n");
  return f;
}

}  // namespace ubsim
