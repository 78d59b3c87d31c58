// Configuration: defaults from the parameter table, overridden by TOML files
// and --set key=value, every value checked for unit and range. Errors name
// the key and where the value came from (file or --set). The models read
// their parameters from here by key (one place per parameter: the table row
// and its consumer).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "decimal.h"
#include "param_keys.h"
#include "params.h"
#include "stage.h"
#include "topology.h"

namespace ubsim {

// One line whatever the text held: control characters (a line break, a
// carriage return, an escape) shown as \xNN. Every error message echoes
// values through it.
std::string one_line_text(const std::string& s);

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& source, const std::string& key, const std::string& message);
  std::string source, key;
};

// The RTL's structural limits for a configuration: the fixed stages of
// each route (they depend on runtime structure such as the TP-context
// beats) and the build's longest chain. Values, so this layer needs no RTL.
struct PipelineLimits {
  int ub_tx_min_async = 0, ub_tx_min_load = 0, roce_tx_min = 0, rx_min = 0, max_chain = 0;
};

class Config {
 public:
  Config();
  void load_file(const std::string& path);
  // The same from TOML text (an experiment's own scenario); `source` names
  // it in errors and in the provenance.
  void load_text(const std::string& text, const std::string& source);
  // "key=value" as given on the command line.
  void apply_set(const std::string& assignment);
  // A value an experiment sets for its own runs: checked like any, and its
  // source says so ("experiment NAME") in the document's provenance.
  template <Unit U>
  void set_by_experiment(Key<U> k, const std::string& experiment, const std::string& text) {
    apply(k.name, text, "experiment " + experiment);
  }
  // Every value not at its default, and where it came from (a file, --set,
  // an experiment).
  std::map<std::string, std::string> sources() const;
  // One value from `source` (a file, "--set", or the option that set it).
  void apply(const std::string& key, const std::string& text, const std::string& source);
  template <Unit U>
  void apply(Key<U> k, const std::string& text, const std::string& source) { apply(std::string(k.name), text, source); }
  template <size_t N>
  void apply(const char (&)[N], const std::string&, const std::string&) = delete;   // a literal key: use key::...

  // Values in the key's base unit (fs, Hz, bytes/s, ops/s, bytes, cycles,
  // counts, ratios, 0/1), by the parameter's typed handle (key::wire_rate;
  // param_keys.h is generated from the parameter table): a key the table
  // does not have does not compile, nor does a time read as a count.
  template <Unit U>
  double value(Key<U> k) const { return value(std::string(k.name)); }
  template <Unit U>
  const Decimal& exact(Key<U> k) const { return exact(std::string(k.name)); }
  template <Unit U>
  uint64_t fs(Key<U> k) const {
    static_assert(U == Unit::Time, "fs() reads a time");
    return fs(std::string(k.name));
  }
  template <Unit U>
  uint64_t count(Key<U> k) const {
    static_assert(U == Unit::Count || U == Unit::Bytes || U == Unit::Cycles, "count() reads a whole number");
    return count(std::string(k.name));
  }
  template <Unit U>
  bool flag(Key<U> k) const {
    static_assert(U == Unit::Bool, "flag() reads a bool");
    return flag(std::string(k.name));
  }
  template <Unit U>
  const std::string& choice(Key<U> k) const {
    static_assert(U == Unit::Choice, "choice() reads a choice");
    return choice(std::string(k.name));
  }
  template <Unit U>
  const std::string& source(Key<U> k) const { return source(std::string(k.name)); }
  template <Unit U>
  std::string text_of(Key<U> k) const { return text_of(std::string(k.name)); }
  // By a key computed at run time (a stage's parameter, a route's key):
  // the same, checked when called. A key written as a literal must be a
  // handle (key::...), so a string literal here does not compile.
  double value(const std::string& key) const;
  const Decimal& exact(const std::string& key) const;
  uint64_t fs(const std::string& key) const;        // a time, in fs (exact)
  uint64_t count(const std::string& key) const;     // a whole number (count, cycles, bytes; exact)
  bool flag(const std::string& key) const;
  const std::string& choice(const std::string& key) const;   // a Unit::Choice key's name
  template <size_t N>
  double value(const char (&)[N]) const = delete;
  template <size_t N>
  const Decimal& exact(const char (&)[N]) const = delete;
  template <size_t N>
  uint64_t fs(const char (&)[N]) const = delete;
  template <size_t N>
  uint64_t count(const char (&)[N]) const = delete;
  template <size_t N>
  bool flag(const char (&)[N]) const = delete;
  template <size_t N>
  const std::string& choice(const char (&)[N]) const = delete;
  uint64_t clock_period_fs() const;
  const std::string& source(const std::string& key) const;
  std::string text_of(const std::string& key) const;   // the value as it is written ("8KiB", "20us")
  template <size_t N>
  const std::string& source(const char (&)[N]) const = delete;
  template <size_t N>
  std::string text_of(const char (&)[N]) const = delete;
  std::vector<HopSpec> route(const std::string& path, const std::string& verb) const;
  // The [topology] of a configuration file (docs/fabric.md), or null: two
  // controllers back to back on one link (wire.rate, wire.latency).
  const Topology* topology() const { return topology_.get(); }
  // Resolved key -> canonical text, for the config dump beside every result.
  std::map<std::string, std::string> resolved() const;
  std::map<std::string, std::vector<std::string>> resolved_routes() const;

  // Checks what needs several keys, and the pipeline depths against the
  // RTL's structural minima and build maxima (`limits`, which the RTL layer
  // reports: validate_config() in models/rtl/pipeline_limits.h is the call
  // every run makes); throws ConfigError.
  void validate(const PipelineLimits& limits) const;
  // The switch buffers and pause thresholds (fabric.*, the topology's link
  // buffers) against each other and one packet; part of validate(), and
  // what the fabric experiments check (they run no pipeline). pause: the
  // pause thresholds are in use (default: fabric.pause).
  void validate_fabric() const { validate_fabric(flag(key::fabric_pause)); }
  void validate_fabric(bool pause) const;

 private:
  struct Entry {
    Decimal exact;                    // the value as written, in the unit's base
    double value = 0;                 // the same as a double
    std::vector<std::string> route;   // Unit::Routes only
    std::string source = "default";
  };
  const Entry& entry(const std::string& key) const;
  struct TomlRoot;   // a parsed file (config.cpp)
  void load_table(TomlRoot& root, const std::string& path);
  void set_text(const ParamDef& def, const std::string& text, const std::string& source);
  void set_number(const ParamDef& def, const Decimal& v, const std::string& source, const std::string& shown);
  void set_route(const ParamDef& def, const std::vector<std::string>& hops, const std::string& source);
  void check_route(const std::string& key, const std::vector<std::string>& hops) const;
  std::map<std::string, Entry> entries_;
  std::shared_ptr<const Topology> topology_;
  // Links without their own rate, delay or buffer follow the keys: on a
  // change of one, a fresh copy (the others may share the old one).
  void refresh_topology(const std::string& key);
};

}  // namespace ubsim
