// Merging a sweep's points into sweep.csv and sweep.json.
#include <filesystem>
#include <map>

#include "args.h"
#include "file_util.h"
#include "safe_file.h"
#include "json.h"
#include "json_value.h"
#include "sweep.h"

namespace ubsim {

namespace fs = std::filesystem;
using file_util::read_file;

void flatten_result(const json::Value& v, const std::string& prefix,
                    std::vector<std::pair<std::string, const json::Value*>>& out) {
  for (const auto& [k, f] : v.fields) {
    if (k == "sim" || f.kind == json::Value::Array) continue;
    const std::string name = prefix.empty() ? k : prefix + "." + k;
    if (f.kind == json::Value::Object) flatten_result(f, name, out);
    else out.emplace_back(name, &f);
  }
}

// ---------------- merge ----------------

namespace {


std::string csv_cell(const json::Value& v) {
  if (v.kind == json::Value::Null) return "";
  if (v.kind != json::Value::String) return v.text;
  if (v.text.find_first_of(",\"\n") == std::string::npos) return v.text;
  std::string out = "\"";
  for (char c : v.text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string json_text(const json::Value& v) {
  switch (v.kind) {
    case json::Value::Null: return "null";
    case json::Value::String: return json::str(v.text);
    default: return v.text;
  }
}

}  // namespace

namespace {
// The last line a failed job wrote on stderr (its error), or "not run".
std::string failure_of(const fs::path& pts, const std::string& id) {
  const fs::path err = pts / (id + ".err");
  std::string why = fs::exists(err) ? read_file(err) : std::string("not run");
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  const auto nl = why.rfind('\n');
  return nl == std::string::npos ? why : why.substr(nl + 1);
}
}  // namespace

SweepMerge merge_points(const SweepPlan& plan, bool strict) {
  const fs::path pts = fs::path(plan.dir) / "points";
  std::vector<std::string> failures, columns, rows_json;
  std::map<std::string, bool> known;
  struct Row {
    const SweepPoint* point;
    std::vector<std::pair<std::string, const json::Value*>> cells;
  };
  std::vector<json::Value> docs;   // keep the parsed documents alive
  docs.reserve(plan.points.size());
  std::vector<Row> rows;
  // area jobs: per variant, columns area.<block>.<figure>
  std::vector<json::Value> area_docs;
  area_docs.reserve(plan.area_jobs.size());
  std::map<std::string, std::vector<std::pair<std::string, const json::Value*>>> area_cols;
  // a point is merged only when intact; a damaged one is named (and with
  // `strict`, as `sweep --merge` runs, it is bad input)
  auto usable = [&](const SweepPoint& p) {
    std::string why;
    if (point_intact(plan.dir, p.id, why)) return true;
    if (why != "missing" && strict) throw CliError("sweep --merge: point " + p.label + ": " + why);
    failures.push_back(p.label + ": " + (why == "missing" ? failure_of(pts, p.id) : why));
    return false;
  };
  for (const auto& job : plan.area_jobs) {
    const fs::path doc = pts / (job.id + ".json");
    if (!usable(job)) continue;
    area_docs.push_back(json::parse(read_file(doc)));
    if (const json::Value* results = area_docs.back().get("results"))
      for (const auto& r : results->items) {
        const json::Value* block = r.get("block");
        if (!block) throw std::runtime_error("sweep --merge: " + doc.string() + ": an area row without 'block'");
        for (const char* figure : {"cells", "logic_bits", "ff_bits", "latch_bits", "mem_bits"}) {
          const json::Value* f = r.get(figure);
          if (!f) throw std::runtime_error("sweep --merge: " + doc.string() + ": an area row without '" + figure + "'");
          area_cols[job.variant].emplace_back("area." + block->text + "." + figure, f);
        }
      }
  }
  for (const auto& p : plan.points) {
    const fs::path doc = pts / (p.id + ".json");
    std::string point_obj;
    {
      std::vector<std::pair<std::string, std::string>> kv;
      for (size_t a = 0; a < plan.axes.size(); ++a) kv.emplace_back(plan.axes[a].key, json::str(p.values[a]));
      point_obj = json::object(kv);
    }
    if (!usable(p)) {
      rows_json.push_back(json::object({{"point", point_obj}, {"status", json::str("failed")},
                                        {"error", json::str(failures.back().substr(p.label.size() + 2))}}));
      continue;
    }
    docs.push_back(json::parse(read_file(doc)));
    // the document must be of the configuration the plan resolved for this
    // point (a job that read another file of the same name is not this point)
    if (!p.config.empty()) {
      const json::Value* got = docs.back().get("config");
      if (!got || json::write(*got) != p.config) {
        const std::string why = doc.string() + ": its configuration is not the one planned for this point "
                                "(the job read other configuration files)";
        if (strict) throw CliError("sweep --merge: point " + p.label + ": " + why);
        failures.push_back(p.label + ": " + why);
        docs.pop_back();
        rows_json.push_back(json::object({{"point", point_obj}, {"status", json::str("failed")}, {"error", json::str(why)}}));
        continue;
      }
    }
    const json::Value* results = docs.back().get("results");
    std::vector<std::string> res_json;
    if (results)
      for (const auto& r : results->items) {
        Row row{&p, {}};
        flatten_result(r, "", row.cells);
        if (area_cols.count(p.variant))
          row.cells.insert(row.cells.end(), area_cols[p.variant].begin(), area_cols[p.variant].end());
        std::vector<std::pair<std::string, std::string>> kv;
        for (const auto& [k, v] : row.cells) {
          if (!known[k]) {
            known[k] = true;
            columns.push_back(k);
          }
          kv.emplace_back(k, json_text(*v));
        }
        res_json.push_back(json::object(kv));
        rows.push_back(std::move(row));
      }
    rows_json.push_back(json::object({{"point", point_obj}, {"status", json::str("ok")}, {"results", json::array(res_json)}}));
  }
  std::string csv;
  for (const auto& a : plan.axes) csv += a.key + ",";
  for (size_t c = 0; c < columns.size(); ++c) csv += (c ? "," : "") + columns[c];
  csv += "\n";
  for (const auto& row : rows) {
    for (const auto& v : row.point->values) csv += v + ",";
    for (size_t c = 0; c < columns.size(); ++c) {
      if (c) csv += ",";
      for (const auto& [k, v] : row.cells)
        if (k == columns[c]) {
          csv += csv_cell(*v);
          break;
        }
    }
    csv += "\n";
  }
  std::vector<std::string> axes;
  for (const auto& a : plan.axes) axes.push_back(json::str(a.key));
  safe_file::write_whole(fs::path(plan.dir) / "sweep.csv", csv, "sweep --merge");
  safe_file::write_whole(fs::path(plan.dir) / "sweep.json",
                    json::object({{"experiment", json::str(plan.experiment)},
                                  {"swept", json::array(axes)},
                                  {"points", json::array(rows_json, true)}}) + "\n",
                         "sweep --merge");
  std::vector<std::string> all_columns;
  for (const auto& a : plan.axes) all_columns.push_back(a.key);
  all_columns.insert(all_columns.end(), columns.begin(), columns.end());
  return {failures, all_columns};
}

}  // namespace ubsim
