// An experiment as a descriptor: its name, option table, result fields and
// run function. From it the command line parses and checks options,
// `ubsim help NAME` and `ubsim NAME --help` are generated, and the result
// rows (self-describing JSON objects) become the terminal table, CSV, JSON
// document, sweep columns and compare pairs. Adding an experiment is one
// file and one line in registry.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "args.h"
#include "config.h"
#include "json_value.h"

namespace ubsim {

using json::Value;

// One command-line option of an experiment.
struct OptionSpec {
  std::string flag;    // "--path"
  std::string arg;     // placeholder of its value ("P"); empty: a flag without a value
  std::string help;    // what it does (may span lines)
  std::string key;     // the configuration key it sets (empty: the experiment reads it)
  std::string def;     // default text of a local option
  // Checks a value; returns it in canonical form, or throws CliError.
  std::function<std::string(const std::string&)> check;
  bool repeat = false;   // may be given several times (Options::all)
};

// Option factories: the value check comes with the kind.
OptionSpec opt_key(const std::string& flag, const std::string& arg, const std::string& key, const std::string& help);
OptionSpec opt_flag(const std::string& flag, const std::string& help);
OptionSpec opt_text(const std::string& flag, const std::string& arg, const std::string& def, const std::string& help);
OptionSpec opt_choice(const std::string& flag, const std::vector<std::string>& choices, const std::string& def,
                      const std::string& help);
// An output file / a prefix of output files, checked writable when given.
OptionSpec opt_out_file(const std::string& flag, const std::string& arg, const std::string& help);
OptionSpec opt_out_prefix(const std::string& flag, const std::string& arg, const std::string& help);
OptionSpec opt_count(const std::string& flag, const std::string& arg, uint64_t min, uint64_t max,
                     const std::string& def, const std::string& help);
// A comma-separated list of whole numbers in min..max.
OptionSpec opt_counts(const std::string& flag, const std::string& arg, uint64_t min, uint64_t max,
                      const std::string& def, const std::string& help);
// A comma-separated list of decimal numbers; `what` says the admitted range
// in the error, `ok` decides.
OptionSpec opt_reals(const std::string& flag, const std::string& arg, const std::string& what,
                     std::function<bool(double)> ok, const std::string& def, const std::string& help);
// A comma-separated list of names out of `choices`.
OptionSpec opt_names(const std::string& flag, const std::string& arg, const std::vector<std::string>& choices,
                     const std::string& def, const std::string& help);

// The experiment's own options as given (checked, canonical), or defaults.
class Options {
 public:
  void set(const std::string& flag, const std::string& value) { values_[flag] = value; }
  void add(const std::string& flag, const std::string& value) { all_[flag].push_back(value); values_[flag] = value; }
  void set_default(const std::string& flag, const std::string& value) { defaults_[flag] = value; }
  const std::vector<std::string>& all(const std::string& flag) const;   // a repeated option, in order
  bool given(const std::string& flag) const { return values_.count(flag) != 0; }
  const std::string& text(const std::string& flag) const;
  bool flag(const std::string& flag) const { return given(flag); }
  uint64_t count(const std::string& flag) const;
  std::vector<std::string> list(const std::string& flag) const;   // empty text: no items
  std::vector<uint64_t> counts(const std::string& flag) const;
  std::vector<double> reals(const std::string& flag) const;
  // The options given, "flag=value" lines in flag order (part of a sweep point's identity).
  std::string canonical() const;

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, std::vector<std::string>> all_;
  std::map<std::string, std::string> defaults_;
};

// A result field, for help and for the units of tables.
struct FieldDoc {
  std::string name, unit, doc;
};

// What a run returns: result rows (JSON objects), and text for the table.
struct ResultSet {
  std::vector<Value> rows;
  std::string notes;                         // how to read the table, printed under it
  std::vector<std::string> table_omit;       // row fields the terminal table leaves out
  int exit_status = 0;                       // the command's status once the results are written (4: a deadlock)
};

struct Experiment {
  std::string name;                  // the subcommand
  std::string summary;               // one line
  std::string about;                 // a paragraph for ubsim help NAME
  std::vector<OptionSpec> options;
  std::vector<std::string> keys;     // fields that identify a row (compare pairs rows by them)
  std::vector<FieldDoc> fields;      // the result fields documented
  std::string stem;                  // output files: <stem>.json/.csv/.txt/.png
  std::string plot;                  // scripts/<plot> <stem>.json <stem>.png ("" = none)
  bool model = true;                 // runs the model: sweepable, golden-tested
  std::function<ResultSet(Config& cfg, const Options& o)> run;
};

// The registry (registry.cpp), in the order `ubsim help` lists them.
const std::vector<const Experiment*>& experiments();
const Experiment* find_experiment(const std::string& name);

// Runs fn in a child process (one SystemC elaboration each) and returns the
// rows it produced; a failure in the child is rethrown here (ConfigError
// for exit status 2, runtime_error otherwise).
std::vector<Value> rows_in_child(const std::function<std::vector<Value>()>& fn);

// The path ids an experiment's --path / --stack select.
std::vector<std::string> select_paths(const std::string& path, const std::string& stack);

// Parses a command's arguments against its option table. With `cfg`, the
// common options (--config, --set, --format, --out) are taken and options
// bound to a configuration key are applied to it, in command-line order.
// Arguments not starting with '-' are positional (only if `positionals`).
struct ParsedArgs {
  Options options;
  std::vector<std::string> positional;
  std::string format = "table", out_dir;
  std::string point;   // --point FILE: also write the document whole to FILE (sweep points)
  bool help = false;
};
ParsedArgs parse_args(const std::string& command, const std::vector<OptionSpec>& specs,
                      const std::vector<std::string>& args, Config* cfg, bool positionals = false);
// `ubsim help NAME` for a command with this option table.
std::string command_help(const std::string& usage, const std::string& about, const std::vector<OptionSpec>& specs,
                         bool common);
std::string experiment_help(const Experiment& e);

}  // namespace ubsim
