#include "area.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <algorithm>

#include <fmt/format.h>

#include <unistd.h>

#include "args.h"
#include "data_dir.h"
#include "experiment.h"
#include "file_util.h"
#include "safe_file.h"
#include "subprocess.h"
#include "units.h"
#include "json.h"
#include "json_value.h"
#include "rtl_variant.h"
#include "ubsim_build_info.h"

namespace ubsim {

namespace fs = std::filesystem;
using file_util::fnv_hex;
using file_util::read_file;

namespace {

const json::Value& manifest() {
  static const json::Value m = json::parse(rtl_variant::kManifest);
  return m;
}

}  // namespace

RtlOptions this_build_rtl_options() {
  RtlOptions o;
  for (const auto& [name, value] : rtl_variant::kOptions) o[name] = value;
  return o;
}

void apply_rtl_override(RtlOptions& opts, const std::string& spec) {
  const auto eq = spec.find('=');
  const std::string key = spec.substr(0, eq);
  const json::Value* range = manifest().get("options")->get(key);
  if (eq == std::string::npos || !opts.count(key) || !range) {
    std::string known;
    for (const auto& [k, v] : opts) known += (known.empty() ? "" : ", ") + k;
    throw CliError("option --rtl: '" + key + "' is not an RTL build option (" + known + ")");
  }
  const std::string text = spec.substr(eq + 1);
  const long long lo = std::stoll(range->get("min")->text), hi = std::stoll(range->get("max")->text);
  const bool pow2 = range->get("pow2")->text == "true";
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < lo || v > hi || (pow2 && (v & (v - 1))))
    throw CliError(fmt::format("option --rtl: {}: '{}' is not a whole number in {}..{}{}", key, text, lo, hi,
                               pow2 ? " and a power of two" : ""));
  opts[key] = v;
}

namespace {

// A block's sources: the package, the used blocks' sources, its own.
void block_sources(const std::string& name, std::vector<std::string>& out) {
  const json::Value* b = manifest().get("blocks")->get(name);
  if (const json::Value* uses = b->get("uses"))
    for (const auto& u : uses->items) block_sources(u.text, out);
  if (const json::Value* own = b->get("sources"))
    for (const auto& f : own->items)
      if (std::find(out.begin(), out.end(), f.text) == out.end()) out.push_back(f.text);
}

}  // namespace

std::vector<AreaBlock> area_blocks(const RtlOptions& o) {
  std::vector<AreaBlock> out;
  for (const auto& [name, b] : manifest().get("blocks")->fields) {
    if (b.get("area")->text != "true") continue;
    AreaBlock a;
    a.name = name;
    a.top = b.get("top") ? b.get("top")->text : name;
    a.what = b.get("doc")->text;
    a.sources = {manifest().get("package")->text};
    block_sources(name, a.sources);
    for (const char* section : {"params", "area_params"})
      if (const json::Value* ps = b.get(section))
        for (const auto& [param, val] : ps->fields)
          a.params.emplace_back(param, val.kind == json::Value::String ? o.at(val.text) : std::stoll(val.text));
    out.push_back(a);
  }
  return out;
}

std::vector<AreaBlock> select_area_blocks(const RtlOptions& opts, const std::string& list) {
  const auto all = area_blocks(opts);
  if (list == "all") return all;
  std::vector<AreaBlock> out;
  for (const auto& name : split_list(list)) {
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
  }
  return out;
}

// One cache for every build and variant of this source tree: a result's
// name holds the hash of all its inputs (parameters included), so builds
// share what they have in common (cache-4k's context cache is the default's).
std::string default_area_cache_dir() {
  return cache_dir("build-area");
}

namespace {

// A path as a yosys script argument (double quotes; yosys has no escapes).
std::string ys_quote(const std::string& path) {
  safe_file::check_no_control_chars("area: an RTL source or --cache", path);   // CR or LF would end the script line
  if (path.find('"') != std::string::npos)
    throw CliError("area: path " + safe_file::escaped(path) + " holds a quote, which a yosys script cannot carry");
  return "\"" + path + "\"";
}

// tee -o takes its file name as is (no quotes): no blanks allowed.
std::string ys_bare(const std::string& path) {
  safe_file::check_no_control_chars("option --cache", path);
  if (path.find_first_of(" \"") != std::string::npos)
    throw CliError("area: the path " + safe_file::escaped(path) + " holds a blank or quote; choose another with --cache");
  return path;
}

std::string yosys_binary() {
  const char* env = std::getenv("UBSIM_YOSYS");
  return env && *env ? env : "yosys";
}

// `yosys -V`, asked once per process (part of every result's key).
const std::string& yosys_version() {
  static const std::string version = [] {
    const fs::path out = fs::temp_directory_path() / ("ubsim_yosys_version_" + std::to_string(::getpid()));
    std::string v;
    if (run_program({yosys_binary(), "-V"}, out.string(), "/dev/null") == 0) v = read_file(out);
    std::error_code ec;
    fs::remove(out, ec);
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
  std::string files, inputs;
  for (const auto& name : block.sources) {
    const fs::path p = fs::path(data_path("rtl")) / name;
    files += " " + ys_quote(p.string());
    inputs += name + "\n" + read_file(p);
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
      files, block.top, chparams);
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
  // yosys writes its script's reports and its log into a private folder
  // (mkdtemp): nothing it opens can be a link planted at a guessable name
  const safe_file::Temporary work = safe_file::temp_dir(base, block.name + ".yosys");
  const fs::path w(work.path());
  std::string script = script_tmpl;
  for (const auto& [tag, ext] : std::vector<std::pair<std::string, std::string>>{
           {"@PRE@", "pre.stat"}, {"@COARSE@", "coarse.stat"}})
    script.replace(script.find(tag), tag.size(), ys_bare((w / ext).string()));
  safe_file::write_whole(w / "script.ys", script, "area");
  std::fprintf(stderr, "area: synthesizing %s (%s) with yosys, log %s\n", block.name.c_str(), f.params.c_str(),
               f.log.c_str());
  const auto t0 = std::chrono::steady_clock::now();
  const int yosys_rc = run_program({yosys_binary(), "-q", "-l", (w / "yosys.log").string(), "-s", (w / "script.ys").string()},
                                   "/dev/null", "/dev/null");
  std::error_code ec;
  if (fs::exists(w / "yosys.log", ec)) safe_file::rename_checked(w / "yosys.log", f.log, "area");
  if (yosys_rc != 0) throw std::runtime_error("area: yosys failed on " + block.name + ": see " + f.log);
  f.yosys_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string pre_path = (w / "pre.stat").string(), coarse_path = (w / "coarse.stat").string();
  const std::string pre = read_file(pre_path);
  const std::string coarse = read_file(coarse_path);
  f.mem_bits = stat_number(pre, "memory bits", pre_path);
  f.coarse_cells = stat_number(coarse, "cells", coarse_path);
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
  safe_file::write_whole(result, json::object({{"block", json::str(f.block)},
                                          {"params", json::str(f.params)},
                                          {"coarse_cells", json::num(static_cast<double>(f.coarse_cells))},
                                          {"logic_bits", json::num(static_cast<double>(f.logic_bits))},
                                          {"ff_bits", json::num(static_cast<double>(f.ff_bits))},
                                          {"latch_bits", json::num(static_cast<double>(f.latch_bits))},
                                          {"mem_bits", json::num(static_cast<double>(f.mem_bits))},
                                          {"yosys_s", json::num(f.yosys_s)},
                                          {"yosys", json::str(version.substr(0, version.find('\n')))}}) +
                                 "\n",
                         "area");
  return f;
}

}  // namespace ubsim

namespace ubsim {

namespace {

ResultSet run_area(Config&, const Options& o) {
  RtlOptions opts = this_build_rtl_options();
  for (const auto& spec : o.all("--rtl")) apply_rtl_override(opts, spec);
  const auto selected = select_area_blocks(opts, o.text("--blocks"));   // a bad name fails before any synthesis
  const std::string cache_dir = o.text("--cache").empty() ? default_area_cache_dir() : o.text("--cache");
  safe_file::check_no_control_chars("option --cache", cache_dir);   // the path goes into yosys scripts
  ResultSet rs;
  using V = json::Value;
  for (const auto& b : selected) {
    const AreaFigures f = synthesize_area(b, cache_dir);
    rs.rows.push_back(V::object()
                          .add("block", V::string(f.block))
                          .add("params", V::string(f.params))
                          .add("cells", V::number(static_cast<double>(f.coarse_cells)))
                          .add("logic_bits", V::number(static_cast<double>(f.logic_bits)))
                          .add("ff_bits", V::number(static_cast<double>(f.ff_bits)))
                          .add("latch_bits", V::number(static_cast<double>(f.latch_bits)))
                          .add("mem_bits", V::number(static_cast<double>(f.mem_bits)))
                          .add("sim", V::object().add("yosys_s", V::number(f.yosys_s)).add("cached", V::boolean(f.cached))));
  }
  std::string options;
  for (const auto& [k, val] : opts) options += fmt::format(" {}={}", k, val);
  rs.notes = fmt::format(
      "generic coarse synthesis (yosys proc/flatten/opt/memory_collect; SYNTHESIS defined), variant {}\n"
      "RTL build options:{}\n"
      "cells: word-level cells; logic bits: their summed widths (flip-flops and memories excluded);\n"
      "ctx_cache with its CAM tag search (one comparator per entry).\n",
      build_info::kVariant, options);
  return rs;
}

}  // namespace

const Experiment& area_experiment() {
  static const Experiment e{
      "area",
      "generic synthesis of each RTL block with yosys: cells, logic bits, flip-flop bits, latch bits, memory bits",
      "The blocks of rtl/blocks.json marked for area, with this build's RTL options (or --rtl overrides).\n"
      "Results are cached by the hash of every input (yosys version, script with parameters, RTL sources).",
      {opt_text("--blocks", "LIST", "all", "blocks to synthesize (comma-separated, or all)"),
       [] {
         OptionSpec s = opt_text("--rtl", "OPTION=VALUE", "",
                                 "synthesize with an RTL build option changed, without building it (may repeat)");
         s.repeat = true;
         return s;
       }(),
       opt_text("--cache", "DIR", "", "where results are kept by their inputs' hash (default build-area/ in the source tree)")},
      {"block"},
      {{"params", "", "the top's parameters"},
       {"cells", "", "word-level cells"},
       {"logic_bits", "bits", "summed widths of the cells that are neither flip-flops nor memories"},
       {"ff_bits", "bits", "flip-flop bits"},
       {"latch_bits", "bits", "latch bits (none expected)"},
       {"mem_bits", "bits", "bits of inferred memories"}},
      "area",
      "",
      false,
      run_area};
  return e;
}

}  // namespace ubsim
