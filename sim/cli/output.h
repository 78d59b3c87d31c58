// What a command writes: the JSON document (spec §10), the terminal table
// and the CSV, all generated from an experiment's result rows; and --out,
// which writes every file or none.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config.h"
#include "experiment.h"
#include "safe_file.h"

namespace ubsim {

std::string config_json(const Config& cfg);
// {"experiment", "config", "provenance", "results"}
std::string document(const std::string& experiment, const Config& cfg, const std::vector<Value>& rows);
// The rows as tables: rows of one shape share a table; a row with many
// fields is shown as a record; arrays of objects as sub-tables.
std::string table_text(const Experiment& e, const ResultSet& rs);
// One line per row, its scalar fields flattened ("latency_ns.mean").
std::string csv_text(const ResultSet& rs);

// Before anything runs: can the option's path be written? A directory
// (--out: existing, or creatable in a writable parent), a file (--timeline:
// its directory writable, not a directory itself) or a file prefix
// (--trace: its directory writable). Throws CliError (exit 2) naming the
// option.
void check_output_dir(const std::string& option, const std::string& dir);
void check_output_file(const std::string& option, const std::string& path);
void check_output_prefix(const std::string& option, const std::string& prefix);

// Writes every file into DIR or none: files go to a staging folder of our
// own (DIR.partial-<pid>-<n>, never a folder we did not create) whose files
// replace DIR's only once all are written; an I/O failure removes the
// staging folder and throws std::runtime_error (exit 3).
void write_outputs(const std::string& dir, const std::map<std::string, std::string>& files);

// The staging behind write_outputs, for writers that add files made by
// other programs (the plots): a private folder beside DIR (mkdtemp),
// removed with everything in it unless commit() moved its files into DIR.
class StagedOutput {
 public:
  explicit StagedOutput(const std::string& dir);
  ~StagedOutput();
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;
  void add(const std::string& name, const std::string& text);
  std::filesystem::path staging() const { return staging_.path(); }
  void commit();

 private:
  void unmake();
  std::filesystem::path target_;
  safe_file::Temporary staging_;
  std::vector<std::filesystem::path> made_;
  bool target_existed_ = false, committed_ = false;
};

// A sweep point's document: written whole (safe_file::write_whole), then its
// checksum beside it (FILE.sum: "fnv1a64 <hex> <bytes>"), so a reader can
// tell a finished, unchanged point from a damaged one.
void write_point(const std::string& path, const std::string& document);
std::string point_checksum(const std::string& document);

// Prints a result set in `format` (table, json, csv) and, with out_dir, writes
// <stem>.json/.csv/.txt, the resolved config.json and the plot.
void emit(const Experiment& e, const Config& cfg, const ResultSet& rs, const std::string& format,
          const std::string& out_dir, const std::string& point = "");

}  // namespace ubsim
