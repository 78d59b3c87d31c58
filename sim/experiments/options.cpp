// Option factories and the parsed options of an experiment; rows from a
// child process; path selection.
#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "experiment.h"
#include "watchdog.h"
#include "output.h"
#include "routes.h"
#include "subprocess.h"

namespace ubsim {

namespace {

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

OptionSpec make(const std::string& flag, const std::string& arg, const std::string& def, const std::string& help,
                std::function<std::string(const std::string&)> check) {
  OptionSpec o;
  o.flag = flag;
  o.arg = arg;
  o.def = def;
  o.help = help;
  o.check = std::move(check);
  return o;
}

}  // namespace

uint64_t parse_count(const std::string& option, const std::string& text, uint64_t min, uint64_t max) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || text[0] == '-' || text[0] == '+' || text[0] == ' ' || v < min || v > max)
    throw CliError(fmt::format("option {}: '{}' is not a whole number in {}..{}", option, text, min, max));
  return v;
}

OptionSpec opt_key(const std::string& flag, const std::string& arg, const std::string& key, const std::string& help) {
  OptionSpec o = make(flag, arg, "", help + " (" + key + ")", nullptr);
  o.key = key;
  return o;
}

OptionSpec opt_flag(const std::string& flag, const std::string& help) {
  return make(flag, "", "", help, [](const std::string& v) { return v; });
}

OptionSpec opt_text(const std::string& flag, const std::string& arg, const std::string& def, const std::string& help) {
  return make(flag, arg, def, help, [flag](const std::string& v) {
    if (v.empty()) throw CliError("option " + flag + ": empty value");
    return v;
  });
}

OptionSpec opt_out_file(const std::string& flag, const std::string& arg, const std::string& help) {
  return make(flag, arg, "", help, [flag](const std::string& v) {
    check_output_file(flag, v);
    return v;
  });
}

OptionSpec opt_out_prefix(const std::string& flag, const std::string& arg, const std::string& help) {
  return make(flag, arg, "", help, [flag](const std::string& v) {
    check_output_prefix(flag, v);
    return v;
  });
}

OptionSpec opt_choice(const std::string& flag, const std::vector<std::string>& choices, const std::string& def,
                      const std::string& help) {
  return make(flag, join(choices, "|"), def, help, [flag, choices](const std::string& v) {
    if (std::find(choices.begin(), choices.end(), v) == choices.end()) {
      std::string alts = join(std::vector<std::string>(choices.begin(), choices.end() - 1), ", ");
      throw CliError(fmt::format("option {}: '{}' is not {} or {}", flag, v, alts, choices.back()));
    }
    return v;
  });
}

OptionSpec opt_count(const std::string& flag, const std::string& arg, uint64_t min, uint64_t max,
                     const std::string& def, const std::string& help) {
  return make(flag, arg, def, help, [flag, min, max](const std::string& v) {
    return std::to_string(parse_count(flag, v, min, max));
  });
}

OptionSpec opt_counts(const std::string& flag, const std::string& arg, uint64_t min, uint64_t max,
                      const std::string& def, const std::string& help) {
  return make(flag, arg, def, help, [flag, min, max](const std::string& v) {
    std::vector<std::string> out;
    for (const auto& item : split_list(v)) out.push_back(std::to_string(parse_count(flag, item, min, max)));
    return join(out, ",");
  });
}

OptionSpec opt_reals(const std::string& flag, const std::string& arg, const std::string& what,
                     std::function<bool(double)> ok, const std::string& def, const std::string& help) {
  return make(flag, arg, def, help, [flag, what, ok](const std::string& v) {
    for (const auto& item : split_list(v)) {
      char* end = nullptr;
      const double f = std::strtod(item.c_str(), &end);
      if (item.empty() || *end != '\0' || !ok(f))
        throw CliError(fmt::format("option {}: '{}' is not {}", flag, item, what));
    }
    return v;
  });
}

OptionSpec opt_names(const std::string& flag, const std::string& arg, const std::vector<std::string>& choices,
                     const std::string& def, const std::string& help) {
  return make(flag, arg, def, help, [flag, choices](const std::string& v) {
    for (const auto& item : split_list(v))
      if (std::find(choices.begin(), choices.end(), item) == choices.end())
        throw CliError(fmt::format("option {}: '{}' is not {} or {}", flag, item,
                                   join(std::vector<std::string>(choices.begin(), choices.end() - 1), ", "),
                                   choices.back()));
    return v;
  });
}

const std::string& Options::text(const std::string& flag) const {
  if (auto it = values_.find(flag); it != values_.end()) return it->second;
  if (auto it = defaults_.find(flag); it != defaults_.end()) return it->second;
  throw std::logic_error("option " + flag + " is not declared by the experiment");
}

uint64_t Options::count(const std::string& flag) const { return std::stoull(text(flag)); }

std::vector<std::string> Options::list(const std::string& flag) const {
  const std::string& t = text(flag);
  return t.empty() ? std::vector<std::string>{} : split_list(t);
}

std::vector<uint64_t> Options::counts(const std::string& flag) const {
  std::vector<uint64_t> out;
  for (const auto& item : list(flag)) out.push_back(std::stoull(item));
  return out;
}

std::vector<double> Options::reals(const std::string& flag) const {
  std::vector<double> out;
  for (const auto& item : list(flag)) out.push_back(std::strtod(item.c_str(), nullptr));
  return out;
}

std::string Options::canonical() const {
  std::string out;
  for (const auto& [flag, value] : values_) {
    auto it = all_.find(flag);
    if (it == all_.end()) out += flag + "=" + value + "\n";
    else
      for (const auto& v : it->second) out += flag + "=" + v + "\n";
  }
  return out;
}

const std::vector<std::string>& Options::all(const std::string& flag) const {
  static const std::vector<std::string> none;
  auto it = all_.find(flag);
  return it == all_.end() ? none : it->second;
}

ParsedArgs parse_args(const std::string& command, const std::vector<OptionSpec>& specs,
                      const std::vector<std::string>& args, Config* cfg, bool positionals) {
  ParsedArgs p;
  for (const auto& s : specs)
    if (!s.arg.empty()) p.options.set_default(s.flag, s.def);
  Args a(args);
  while (!a.done()) {
    std::string v;
    if (a.flag("--help") || a.flag("-h")) {
      p.help = true;
      continue;
    }
    if (cfg) {
      if (a.option("--config", v)) { cfg->load_file(v); continue; }
      if (a.option("--set", v)) { cfg->apply_set(v); continue; }
      if (a.option("--format", v)) {
        if (v != "table" && v != "json" && v != "csv")
          throw CliError("option --format: '" + v + "' is not table, json or csv");
        p.format = v;
        continue;
      }
      if (a.option("--out", v)) {
        check_output_dir("--out", v);   // before anything runs
        p.out_dir = v;
        continue;
      }
      if (a.option("--point", v)) {
        check_output_file("--point", v);
        p.point = v;
        continue;
      }
    }
    bool taken = false;
    for (const auto& s : specs) {
      if (s.arg.empty()) {
        if (!a.flag(s.flag)) continue;
        p.options.set(s.flag, "1");
      } else {
        if (!a.option(s.flag, v)) continue;
        if (!s.key.empty()) {
          if (!cfg) throw std::logic_error("option " + s.flag + " sets a key but the command has no configuration");
          cfg->apply(s.key, v, "option " + s.flag);
        } else if (s.repeat) {
          p.options.add(s.flag, s.check(v));
        } else {
          p.options.set(s.flag, s.check(v));
        }
      }
      taken = true;
      break;
    }
    if (taken) continue;
    if (positionals && !a.peek().empty() && a.peek()[0] != '-') {
      a.positional(v);
      p.positional.push_back(v);
      continue;
    }
    const std::string flag = a.peek().substr(0, a.peek().find('='));
    if (flag == "--payload")   // an earlier version's name
      throw CliError("option --payload was renamed --size (the message's bytes, key workload.size)");
    throw CliError("unknown option '" + a.peek() + "' for 'ubsim " + command + "' (see ubsim help " + command + ")");
  }
  return p;
}

std::string command_help(const std::string& usage, const std::string& about, const std::vector<OptionSpec>& specs,
                         bool common) {
  std::string out = "usage: " + usage + "\n\n" + about + "\n\noptions:\n";
  auto line = [&](const std::string& left, const std::string& help) {
    std::string h = help;
    std::string pad(24, ' ');
    for (size_t nl = h.find('\n'); nl != std::string::npos; nl = h.find('\n', nl + 1)) h.insert(nl + 1, pad + "  ");
    out += left.size() < 24 ? fmt::format("  {:<22}{}\n", left, h) : fmt::format("  {}\n{}  {}\n", left, pad, h);
  };
  for (const auto& s : specs)
    line(s.flag + (s.arg.empty() ? "" : " " + s.arg),
         s.help + (s.arg.empty() || s.def.empty() || !s.key.empty() ? "" : " (default " + s.def + ")"));
  if (common) {
    out += "\ncommon options:\n";
    line("--config FILE", "TOML configuration (may repeat; later wins)");
    line("--set KEY=VALUE", "override one parameter, with units: --set wire.latency=50ns (ubsim params lists them)");
    line("--format F", "table (default) | json | csv");
    line("--out DIR", "also write the JSON, CSV, table, resolved config.json and plots to DIR");
    line("--help", "this text");
  }
  return out;
}

std::string experiment_help(const Experiment& e) {
  std::string usage = "ubsim " + e.name + " [options]";
  std::string out = command_help(usage, e.summary + (e.about.empty() ? "" : "\n\n" + e.about), e.options, true);
  if (!e.fields.empty()) {
    out += "\nresult fields (--format json; CSV flattens nested fields as a.b):\n";
    for (const auto& f : e.fields)
      out += fmt::format("  {:<30} {:<10} {}\n", f.name, f.unit.empty() ? "" : "[" + f.unit + "]", f.doc);
  }
  if (!e.keys.empty()) {
    out += "\na row is identified by:";
    for (const auto& k : e.keys) out += " " + k;
    out += "\n";
  }
  return out;
}

std::vector<Value> rows_in_child(const std::function<std::vector<Value>()>& fn) {
  const ChildResult c = run_in_child([&] { return json::write(Value::array(fn()), true); });
  if (c.exit_code == 2) throw CliError(c.output);   // bad input, already one line with key and source
  if (c.exit_code == 4) throw NoProgressError(c.output);
  if (c.exit_code != 0) throw std::runtime_error(c.output);
  return json::parse(c.output).items;
}

std::vector<std::string> select_paths(const std::string& path, const std::string& stack) {
  if (!stack.empty()) {
    if (path != "all") throw CliError("options --path and --stack: give one of them (--stack names the paths of a stack)");
    if (stack == "ub") return {"ub-async", "ub-load"};
    if (stack == "roce") return {"pcie-nic"};
    if (stack == "both") return kPathIds;
    throw CliError("option --stack: '" + stack + "' is not ub, roce or both");
  }
  if (path == "all") return kPathIds;
  for (const auto& p : kPathIds)
    if (p == path) return {p};
  throw CliError("option --path: '" + path + "' is not pcie-nic, ub-async, ub-load or all");
}

}  // namespace ubsim
