// ubsim sweep: one experiment over a grid of parameters. Every point runs
// as its own `ubsim <experiment> --format json --point FILE --set ...`
// process (one SystemC elaboration each), up to -j at a time; the point
// process writes its document whole (DIR/points/<id>.json, with a checksum
// beside it, <id>.json.sum) once all its simulations have ended. A point's
// id is a hash of everything that makes its figures: the experiment, its
// options, the resolved configuration (config files' contents included) and
// the build (variant, git hash, the binary itself); so a rerun reuses only
// points that are intact and still mean the same, and runs the others. The
// merge writes one CSV and one JSON where every swept key is a column.
//
// Grid: KEY=SPEC with SPEC a list "a,b,c" or a range "lo..hi:step", values
// in the key's unit ("wire.latency=50ns..500ns:50ns", exact decimals);
// several grids are crossed. The key `variant` selects RTL build variants
// (rtl/variants.toml).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "json_value.h"

namespace ubsim {

// A result object's fields as (column, value) pairs, nested objects as
// "a.b"; arrays and the run's own wall-time figures ("sim") are left out,
// so merge and compare depend only on simulated results.
void flatten_result(const json::Value& v, const std::string& prefix,
                    std::vector<std::pair<std::string, const json::Value*>>& out);

// The most points one sweep plans (the cross product of its grids): each is
// checked and hashed before any runs.
inline constexpr uint64_t kMaxSweepPoints = 10000;

struct SweepAxis {
  std::string key;
  std::vector<std::string> values;   // canonical text in the key's unit (or variant names)
};

struct SweepPoint {
  std::vector<std::string> values;   // one per axis (an area job: none)
  std::string variant = "default";   // the RTL variant it runs on
  std::vector<std::string> argv;     // the command (argv[0]: the ubsim binary), without --point
  std::string id;                    // file stem under DIR/points
  std::string label;                 // "wire.latency=100ns clock=322MHz", or "area of variant V"
  std::string config;                // its resolved configuration (JSON): merge checks each document against it
};

struct SweepPlan {
  std::string experiment;
  std::vector<std::string> experiment_args;   // passed to every point
  std::vector<SweepAxis> axes;
  std::vector<SweepPoint> points;
  std::string area;                           // blocks for the area columns ("" = none)
  std::vector<SweepPoint> area_jobs;          // `ubsim area` once per variant of the grid
  std::string dir;
  std::string metric, x_key;                  // plot (optional)
};

// Parses "KEY=SPEC"; throws CliError naming the grid and the key.
SweepAxis parse_grid(const std::string& spec);
// Expands the cross product into points, checks every point's options and
// configuration as its run would (bad input: CliError or ConfigError, before
// anything runs) and computes its id; builds the RTL variants the grid names
// unless `build` is false. With `area` (a block list for `ubsim area
// --blocks`), one area job per variant: its figures become columns
// area.<block>.<figure> of that variant's rows.
SweepPlan make_plan(const std::string& experiment, const std::vector<std::string>& experiment_args,
                    const std::vector<SweepAxis>& axes, const std::string& dir, bool build_variants,
                    const std::string& area = "");

struct SweepRun {
  size_t total = 0, reused = 0, ran = 0, failed = 0, damaged = 0;
};
// Runs the points and area jobs that are missing or damaged, up to `jobs` at
// a time, each killed after timeout_s seconds (0: no limit), with a
// progress line on stderr.
SweepRun run_points(const SweepPlan& plan, int jobs, double timeout_s);
// One shell command per missing point (runnable by GNU parallel or a Slurm
// array) into DIR/jobs.txt, and the plan into DIR/plan.json.
std::string emit_jobs(const SweepPlan& plan);
void save_plan(const SweepPlan& plan);
// Reads DIR/plan.json; a damaged plan is a CliError naming what is wrong.
SweepPlan load_plan(const std::string& dir);
// Whether DIR/points/<id>.json is whole and unchanged (its checksum
// matches); `why` says what is wrong otherwise ("missing" if absent).
bool point_intact(const std::string& dir, const std::string& id, std::string& why);
// Merges the finished points into DIR/sweep.csv and DIR/sweep.json (byte
// for byte the same whoever ran the points): the failures' lines and the
// CSV's columns. With `strict` a damaged point is a CliError (sweep
// --merge: exit 2).
struct SweepMerge {
  std::vector<std::string> failures, columns;
};
SweepMerge merge_points(const SweepPlan& plan, bool strict);

// ubsim compare: the experiments run with each configuration file (each run
// its own process), every numeric figure of their results paired by row
// (the experiment's key fields) and shown with its absolute and relative
// difference.
struct CompareRow {
  std::string experiment, row, figure;
  double base = 0, candidate = 0;
  bool base_null = false, candidate_null = false;   // a figure with no value on that side (e.g. no latency)
};
std::vector<CompareRow> compare_configs(const std::string& base_config, const std::string& candidate_config,
                                        const std::vector<std::string>& experiments,
                                        const std::vector<std::string>& experiment_args);

// RTL build variants (rtl/variants.toml): name -> CMake options and the
// runtime keys they imply; each builds once into build-variant-<name>.
struct RtlVariant {
  std::string name;
  std::vector<std::pair<std::string, std::string>> build;   // CMake cache variables
  std::vector<std::string> sets;                            // --set key=value
  std::string description;
};
std::vector<RtlVariant> load_variants();
// The ubsim binary of a variant (building it if needed).
std::string variant_binary(const RtlVariant& v, bool build);

}  // namespace ubsim
