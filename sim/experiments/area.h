// ubsim area: generic synthesis of each RTL block with Debian's yosys, for
// the area columns beside the measured figures. Per block, after a coarse
// (word-level, technology-independent) synthesis: cells, logic bits (the
// summed widths of the cells that are neither flip-flops nor memories),
// flip-flop bits, latch bits and memory bits.
// The blocks, their sources and parameters come from rtl/blocks.json (as
// built into rtl_variant.h); they are synthesized with this build's RTL
// options (the variant), or with overrides (--rtl UBSIM_RTL_CACHE_ENTRIES=64).
// SYNTHESIS is defined: assertions and simulation-only structures are left
// out; a block's area_params apply (the context cache's CAM search).
// A result is cached under its inputs' hash (yosys version, script with
// the parameters, RTL sources), so each configuration is synthesized once.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ubsim {

// RTL build options (CMake names) -> value, this build's unless overridden.
using RtlOptions = std::map<std::string, int64_t>;
RtlOptions this_build_rtl_options();
// "KEY=VALUE" onto opts; throws CliError naming the option on a bad key/value.
void apply_rtl_override(RtlOptions& opts, const std::string& spec);

struct AreaBlock {
  std::string name;                                  // the block of rtl/blocks.json
  std::string top;                                   // its top module
  std::string what;                                  // one line
  std::vector<std::string> sources;                  // file names under rtl/, package first
  std::vector<std::pair<std::string, int64_t>> params;   // top parameters from the options
};
std::vector<AreaBlock> area_blocks(const RtlOptions& opts);
// Selects blocks by a comma list ("all" = every one); throws CliError on an unknown name.
std::vector<AreaBlock> select_area_blocks(const RtlOptions& opts, const std::string& list);

struct AreaFigures {
  std::string block, params;       // "MAX_ENTRIES=4096 MSHRS=8"
  uint64_t coarse_cells = 0;       // word-level cells ($add, $mux, $dff, ...)
  uint64_t logic_bits = 0;         // sum of the widths of the other cells ($eq_26 counts 26)
  uint64_t ff_bits = 0;            // flip-flop bits
  uint64_t latch_bits = 0;         // latch bits (none expected: a latch is a design error)
  uint64_t mem_bits = 0;           // bits of inferred memories (arrays left as RAM)
  double yosys_s = 0;              // wall time of the synthesis (0 when cached)
  bool cached = false;
  std::string log;                 // yosys log file
};
// Synthesizes one block (or reads the cached result from cache_dir).
AreaFigures synthesize_area(const AreaBlock& block, const std::string& cache_dir);
std::string default_area_cache_dir();

}  // namespace ubsim
