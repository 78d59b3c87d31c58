#include "output.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "args.h"
#include "data_dir.h"
#include "file_util.h"
#include "json.h"
#include "safe_file.h"
#include "subprocess.h"
#include "ubsim_build_info.h"

namespace ubsim {

namespace fs = std::filesystem;

std::string config_json(const Config& cfg) {
  std::vector<std::pair<std::string, std::string>> kv;
  for (const auto& [k, v] : cfg.resolved()) kv.emplace_back(k, json::str(v));
  for (const auto& [k, hops] : cfg.resolved_routes()) {
    std::vector<std::string> items;
    for (const auto& h : hops) items.push_back(json::str(h));
    kv.emplace_back(k, json::array(items));
  }
  return json::object(kv);
}

namespace {
// Each value not at its default and what set it: a file, --set, or the
// experiment itself ("experiment ctx-cache").
std::string set_by(const Config& cfg) {
  std::vector<std::pair<std::string, std::string>> kv;
  for (const auto& [k, source] : cfg.sources()) kv.emplace_back(k, json::str(source));
  return json::object(kv);
}
}  // namespace

std::string document(const std::string& experiment, const Config& cfg, const std::vector<Value>& rows) {
  std::vector<std::string> results;
  for (const auto& r : rows) results.push_back(json::write(r));
  return "{\"experiment\": " + json::str(experiment) + ",\n\"config\": " + config_json(cfg) +
         ",\n\"provenance\": " +
         json::object({{"git", json::str(build_info::kGitHash)},
                       {"variant", json::str(build_info::kVariant)},
                       {"seed", cfg.exact(key::seed).text()},
                       {"set_by", set_by(cfg)}}) +
         ",\n\"results\": " + json::array(results, true) + "}\n";
}

namespace {

// A row's scalar fields, nested objects flattened with dots; arrays apart.
void flatten(const Value& v, const std::string& prefix, std::vector<std::pair<std::string, const Value*>>& scalars,
             std::vector<std::pair<std::string, const Value*>>& arrays, const std::vector<std::string>& omit) {
  for (const auto& [k, f] : v.fields) {
    const std::string name = prefix.empty() ? k : prefix + "." + k;
    if (std::find(omit.begin(), omit.end(), name) != omit.end()) continue;
    if (f.kind == Value::Object) flatten(f, name, scalars, arrays, omit);
    else if (f.kind == Value::Array) arrays.emplace_back(name, &f);
    else scalars.emplace_back(name, &f);
  }
}

std::string cell(const Value& v) {
  switch (v.kind) {
    case Value::Null: return "-";
    case Value::Number: return json::display_number(v.text);
    default: return v.text;
  }
}

// A column table of rows with the same scalar fields.
std::string column_table(const std::vector<std::string>& cols,
                         const std::vector<std::vector<std::string>>& cells, const std::string& indent) {
  std::vector<size_t> w(cols.size());
  for (size_t c = 0; c < cols.size(); ++c) {
    w[c] = cols[c].size();
    for (const auto& row : cells) w[c] = std::max(w[c], row[c].size());
  }
  auto numeric = [](const std::string& t) {
    char* end = nullptr;
    std::strtod(t.c_str(), &end);
    return !t.empty() && *end == '\0';
  };
  auto line = [&](const std::vector<std::string>& row) {
    std::string l = indent;
    for (size_t c = 0; c < cols.size(); ++c)
      l += numeric(row[c]) ? fmt::format("{:>{}}  ", row[c], w[c]) : fmt::format("{:<{}}  ", row[c], w[c]);
    while (!l.empty() && l.back() == ' ') l.pop_back();
    return l + "\n";
  };
  std::string out = line(cols);
  for (const auto& row : cells) out += line(row);
  return out;
}

std::string array_table(const std::string& name, const Value& arr, const std::string& indent) {
  if (arr.items.empty()) return indent + name + ": (none)\n";
  if (arr.items.front().kind != Value::Object) {
    std::string out = indent + name + ":";
    for (const auto& i : arr.items) out += " " + cell(i);
    return out + "\n";
  }
  std::vector<std::string> cols;
  for (const auto& [k, f] : arr.items.front().fields) cols.push_back(k);
  std::vector<std::vector<std::string>> cells;
  for (const auto& item : arr.items) {
    std::vector<std::string> row;
    for (const auto& c : cols) {
      const Value* f = item.get(c);
      row.push_back(f ? cell(*f) : "-");
    }
    cells.push_back(row);
  }
  return indent + name + ":\n" + column_table(cols, cells, indent + "  ");
}

std::string unit_of(const Experiment& e, const std::string& field) {
  for (const auto& f : e.fields)
    if (f.name == field) return f.unit;
  return "";
}

}  // namespace

std::string table_text(const Experiment& e, const ResultSet& rs) {
  constexpr size_t kMaxWidth = 170;   // a column table as wide as this, else records
  std::string out;
  size_t i = 0;
  while (i < rs.rows.size()) {
    // a group: consecutive rows with the same scalar fields
    std::vector<std::pair<std::string, const Value*>> s0, a0;
    flatten(rs.rows[i], "", s0, a0, rs.table_omit);
    std::vector<std::string> cols;
    for (const auto& [k, v] : s0) cols.push_back(k);
    size_t j = i;
    std::vector<std::vector<std::string>> cells;
    for (; j < rs.rows.size(); ++j) {
      std::vector<std::pair<std::string, const Value*>> s, a;
      flatten(rs.rows[j], "", s, a, rs.table_omit);
      std::vector<std::string> names;
      for (const auto& [k, v] : s) names.push_back(k);
      if (names != cols || (!a.empty() && j > i) || (!a0.empty() && j > i)) break;
      std::vector<std::string> row;
      for (const auto& [k, v] : s) row.push_back(cell(*v));
      cells.push_back(row);
    }
    out += "\n";
    size_t width = 0;
    for (size_t c = 0; c < cols.size(); ++c) {
      size_t w = cols[c].size();
      for (const auto& row : cells) w = std::max(w, row[c].size());
      width += w + 2;
    }
    if (width <= kMaxWidth && a0.empty()) {
      out += column_table(cols, cells, "  ");
    } else {
      // record layout: the key fields as a title, then one field per line
      const Value& row = rs.rows[i];
      std::string title = e.name;
      for (const auto& k : e.keys)
        if (const Value* f = row.find(k)) title += " " + k + "=" + cell(*f);
      out += title + "\n";
      size_t w = 0;
      for (const auto& [k, v] : s0) w = std::max(w, k.size());
      for (const auto& [k, v] : s0) {
        if (std::find(e.keys.begin(), e.keys.end(), k) != e.keys.end()) continue;
        const std::string unit = unit_of(e, k);
        out += fmt::format("  {:<{}}  {}{}\n", k, w, cell(*v), unit.empty() ? "" : " " + unit);
      }
      for (const auto& [k, v] : a0) out += array_table(k, *v, "  ");
      j = i + 1;
    }
    i = j;
  }
  return out + rs.notes;
}

std::string csv_text(const ResultSet& rs) {
  std::vector<std::string> cols;
  std::set<std::string> known;
  std::vector<std::vector<std::pair<std::string, const Value*>>> rows;
  for (const auto& r : rs.rows) {
    std::vector<std::pair<std::string, const Value*>> s, a;
    flatten(r, "", s, a, {});
    for (const auto& [k, v] : s)
      if (known.insert(k).second) cols.push_back(k);
    rows.push_back(std::move(s));
  }
  auto quote = [](const std::string& t) {
    if (t.find_first_of(",\"\n") == std::string::npos) return t;
    std::string q = "\"";
    for (char c : t) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string out;
  for (size_t c = 0; c < cols.size(); ++c) out += (c ? "," : "") + cols[c];
  out += "\n";
  for (const auto& row : rows) {
    for (size_t c = 0; c < cols.size(); ++c) {
      if (c) out += ",";
      for (const auto& [k, v] : row)
        if (k == cols[c]) {
          out += v->kind == Value::Null ? "" : v->kind == Value::Number ? json::display_number(v->text) : quote(v->text);
          break;
        }
    }
    out += "\n";
  }
  return out;
}

namespace {

bool writable_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec) && ::access(p.c_str(), W_OK | X_OK) == 0;
}

// The nearest existing ancestor of p (p itself if it exists).
fs::path existing_ancestor(fs::path p) {
  std::error_code ec;
  p = fs::absolute(p, ec);
  while (!p.empty() && !fs::exists(p, ec) && p != p.root_path()) p = p.parent_path();
  return p;
}

}  // namespace

// Every component of a path within NAME_MAX (255 bytes), the last with room
// for `suffix` more (the files a prefix names): checked before anything runs.
void check_name_lengths(const std::string& option, const std::string& path, size_t suffix) {
  const fs::path p(path);
  const std::string last = p.filename().string();
  for (const auto& part : p) {
    const size_t room = part.string() == last ? suffix : 0;
    if (part.string().size() + room > 255)
      throw CliError(fmt::format("option {}: the name '{}...' is {} bytes{}: a file name holds at most 255", option,
                                 safe_file::escaped(part.string().substr(0, 40)), part.string().size(),
                                 room ? fmt::format(" (and {} more for the files it names)", room) : ""));
  }
}

void check_output_dir(const std::string& option, const std::string& dir) {
  std::error_code ec;
  if (dir.empty()) throw CliError("option " + option + ": empty path");
  check_name_lengths(option, dir, 0);
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw CliError("option " + option + ": " + dir + " exists and is not a directory");
    if (!writable_dir(dir)) throw CliError("option " + option + ": " + dir + " is not writable");
    return;
  }
  const fs::path base = existing_ancestor(dir);
  if (!writable_dir(base))
    throw CliError("option " + option + ": " + dir + " cannot be created (" + base.string() +
                   " is not a writable directory)");
}

void check_output_file(const std::string& option, const std::string& path) {
  std::error_code ec;
  if (path.empty()) throw CliError("option " + option + ": empty path");
  check_name_lengths(option, path, 0);
  if (fs::is_directory(path, ec)) throw CliError("option " + option + ": " + path + " is a directory");
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))
    throw CliError("option " + option + ": " + path + " exists and is not a regular file");
  fs::path parent = fs::absolute(path, ec).parent_path();
  if (!writable_dir(parent)) throw CliError("option " + option + ": " + parent.string() + " is not a writable directory");
}

void check_output_prefix(const std::string& option, const std::string& prefix) {
  std::error_code ec;
  if (prefix.empty()) throw CliError("option " + option + ": empty prefix");
  check_name_lengths(option, prefix, 48);   // ".<path>.<block>.fst" follows it
  const fs::path parent = fs::absolute(prefix, ec).parent_path();
  if (!writable_dir(parent))
    throw CliError("option " + option + ": " + parent.string() + " is not a writable directory");
}

namespace {

// The parents of target that do not exist yet, innermost first.
std::vector<fs::path> missing_parents(const fs::path& target) {
  std::vector<fs::path> made;
  std::error_code ec;
  for (fs::path p = target.parent_path(); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) made.push_back(p);
  return made;
}

}  // namespace

StagedOutput::StagedOutput(const std::string& dir) : target_(fs::absolute(dir)) {
  made_ = missing_parents(target_);
  for (auto it = made_.rbegin(); it != made_.rend(); ++it)
    if (::mkdir(it->c_str(), 0755) != 0 && errno != EEXIST) {
      const std::string why = safe_file::describe_errno(errno);
      unmake();
      throw safe_file::IoError("option --out: cannot create " + it->string() + ": " + why);
    }
  try {
    staging_ = safe_file::temp_dir(target_, target_.filename().string() + ".partial");
  } catch (const std::exception& e) {
    unmake();
    throw safe_file::IoError(std::string("option --out: ") + e.what());
  }
  std::error_code ec;
  target_existed_ = fs::exists(target_, ec);
}

StagedOutput::~StagedOutput() {
  if (!committed_) {
    staging_ = safe_file::Temporary();   // removed with what it holds, before the parents it may sit in
    unmake();
  }
}

void StagedOutput::unmake() {
  std::error_code ec;
  for (const auto& p : made_) fs::remove(p, ec);   // empty parents we made, innermost first
}

void StagedOutput::add(const std::string& name, const std::string& text) {
  safe_file::write_new(staging() / name, text, "option --out: writing " + target_.string() + " failed");
}

void StagedOutput::commit() {
  try {
    safe_file::move_contents(staging(), target_, "option --out: writing " + target_.string() + " failed");
  } catch (...) {
    std::error_code ec;
    if (!target_existed_) fs::remove_all(target_, ec);
    throw;
  }
  committed_ = true;
  staging_ = safe_file::Temporary();   // empty now: removed
}

void write_outputs(const std::string& dir, const std::map<std::string, std::string>& files) {
  StagedOutput out(dir);
  for (const auto& [name, text] : files) out.add(name, text);
  out.commit();
}

std::string point_checksum(const std::string& document) {
  return fmt::format("fnv1a64 {} {}\n", file_util::fnv_hex(document), document.size());
}

void write_point(const std::string& path, const std::string& doc) {
  safe_file::write_whole(path, doc, "option --point");
  safe_file::write_whole(path + ".sum", point_checksum(doc), "option --point");
}

void emit(const Experiment& e, const Config& cfg, const ResultSet& rs, const std::string& format,
          const std::string& out_dir, const std::string& point) {
  const std::string doc = document(e.name, cfg, rs.rows);
  if (!point.empty()) write_point(point, doc);
  const std::string table = table_text(e, rs);
  const std::string csv = csv_text(rs);
  std::string pngs;
  if (!out_dir.empty()) {   // the files first: a failure there prints no result as if all went well
    StagedOutput out(out_dir);
    out.add(e.stem + ".json", doc);
    out.add(e.stem + ".csv", csv);
    out.add(e.stem + ".txt", table);
    out.add("config.json", config_json(cfg) + "\n");
    if (!e.plot.empty()) {   // drawn into the staging folder: a plot is published with the rest or not at all
      const std::vector<std::string> argv = {"/usr/bin/python3", data_path("scripts/" + e.plot),
                                             (out.staging() / (e.stem + ".json")).string(),
                                             (out.staging() / (e.stem + ".png")).string()};
      run_checked(argv, "option --out: the plot " + e.stem + ".png was not written");
    }
    // the plot script may draw more than one figure (<stem>_*.png)
    for (const auto& entry : fs::directory_iterator(out.staging())) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(e.stem, 0) == 0 && entry.path().extension() == ".png") pngs += "," + name;
    }
    out.commit();
  }
  if (format == "json") std::cout << doc;
  else if (format == "csv") std::cout << csv;
  else std::cout << table;
  std::cout << std::flush;
  if (!std::cout) throw safe_file::IoError("cannot write the results to standard output: " + safe_file::describe_errno(errno));
  if (out_dir.empty()) return;
  std::fprintf(stderr, "ubsim: wrote %s/{%s.json,%s.csv,%s.txt,config.json%s}\n", out_dir.c_str(), e.stem.c_str(),
               e.stem.c_str(), e.stem.c_str(), pngs.c_str());
}

}  // namespace ubsim
