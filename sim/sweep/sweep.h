// ubsim sweep: one experiment over a grid of parameters. Every point runs
// as its own `ubsim <experiment> --format json --set ...` process (one
// SystemC elaboration each), up to -j at a time; each point's document is
// kept in DIR/points/<id>.json (id: a hash of the point's command), so a
// rerun only runs the points that are missing. The merge writes one CSV and
// one JSON where every swept key is a column.
//
// Grid: KEY=SPEC with SPEC a list "a,b,c" or a range "lo..hi:step", values
// in the key's unit ("wire.latency=50ns..500ns:50ns"); several grids are
// crossed. The key `variant` selects RTL build variants (rtl/variants.toml).
#pragma once
#include <string>
#include <vector>

namespace ubsim {

struct SweepAxis {
  std::string key;
  std::vector<std::string> values;   // canonical text in the key's unit (or variant names)
};

struct SweepPoint {
  std::vector<std::string> values;   // one per axis (an area job: none)
  std::string variant = "default";   // the RTL variant it runs on
  std::vector<std::string> argv;     // the command (argv[0]: the ubsim binary)
  std::string id;                    // file stem under DIR/points
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
// Expands the cross product into points and their commands (building RTL
// variants the grid names, unless `build` is false). With `area` (a block
// list for `ubsim area --blocks`), one area job per variant as well: its
// figures become columns area.<block>.<figure> of that variant's rows.
SweepPlan make_plan(const std::string& experiment, const std::vector<std::string>& experiment_args,
                    const std::vector<SweepAxis>& axes, const std::string& dir, bool build_variants,
                    const std::string& area = "");

struct SweepRun {
  size_t total = 0, reused = 0, ran = 0, failed = 0;
};
// Runs the missing points and area jobs, up to `jobs` at a time, with a
// progress line on stderr.
SweepRun run_points(const SweepPlan& plan, int jobs);
// One shell command per missing point (runnable by GNU parallel or a Slurm
// array) into DIR/jobs.txt, and the plan into DIR/plan.json.
std::string emit_jobs(const SweepPlan& plan);
void save_plan(const SweepPlan& plan);
SweepPlan load_plan(const std::string& dir);
// Merges the finished points into DIR/sweep.csv and DIR/sweep.json (byte
// for byte the same whoever ran the points); returns the failures' lines.
std::vector<std::string> merge_points(const SweepPlan& plan);

// ubsim compare: the experiments run with each configuration file (each run
// its own process), every numeric figure of their results paired by row
// and shown with its absolute and relative difference.
struct CompareRow {
  std::string experiment, row, figure;
  double base = 0, candidate = 0;
};
std::vector<CompareRow> compare_configs(const std::string& base_config, const std::string& candidate_config,
                                        const std::vector<std::string>& experiments,
                                        const std::vector<std::string>& experiment_args);

// RTL build variants (rtl/variants.toml): name -> CMake options and the
// runtime keys they imply; each builds once into build-variants/<name>.
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
