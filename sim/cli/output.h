// What a command writes: the JSON document (spec §10), the terminal table
// and the CSV, all generated from an experiment's result rows; and --out,
// which writes every file or none.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "config.h"
#include "experiment.h"

namespace ubsim {

std::string config_json(const Config& cfg);
// {"experiment", "config", "provenance", "results"}
std::string document(const std::string& experiment, const Config& cfg, const std::vector<Value>& rows);
// The rows as tables: rows of one shape share a table; a row with many
// fields is shown as a record; arrays of objects as sub-tables.
std::string table_text(const Experiment& e, const ResultSet& rs);
// One line per row, its scalar fields flattened ("latency_ns.mean").
std::string csv_text(const ResultSet& rs);

// Writes every file into DIR or none: files go to a staging folder that
// replaces DIR's files only once all are written.
void write_outputs(const std::string& dir, const std::map<std::string, std::string>& files);

// Prints a result set in `format` (table, json, csv) and, with out_dir, writes
// <stem>.json/.csv/.txt, the resolved config.json and the plot.
void emit(const Experiment& e, const Config& cfg, const ResultSet& rs, const std::string& format,
          const std::string& out_dir);

}  // namespace ubsim
