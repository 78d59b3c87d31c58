#include "sweep.h"

#include <unistd.h>

#include <cstdlib>

#include <filesystem>

#include "args.h"
#include "experiment.h"
#include "file_util.h"
#include "json_value.h"
#include "subprocess.h"

namespace ubsim {

namespace fs = std::filesystem;
using file_util::read_file;
using file_util::self_binary;

namespace {

// Runs argv (no shell), returns its stdout; throws with its stderr's last line on failure.
std::string capture(const std::vector<std::string>& argv) {
  char out_path[] = "/tmp/ubsim_compare_XXXXXX";
  char err_path[] = "/tmp/ubsim_compare_err_XXXXXX";
  const int fo = ::mkstemp(out_path), fe = ::mkstemp(err_path);
  if (fo < 0 || fe < 0) throw std::runtime_error("compare: cannot create a temporary file");
  ::close(fo);
  ::close(fe);
  const int status = run_program(argv, out_path, err_path);
  std::string out = read_file(out_path), err = read_file(err_path);
  ::unlink(out_path);
  ::unlink(err_path);
  if (status != 0) {
    while (!err.empty() && err.back() == '\n') err.pop_back();
    const auto nl = err.rfind('\n');
    std::string last = nl == std::string::npos ? err : err.substr(nl + 1);
    const std::string prefix = "ubsim: error: ";
    if (last.rfind(prefix, 0) == 0) last = last.substr(prefix.size());
    if (status == 2) throw CliError(last);
    throw std::runtime_error(last);
  }
  return out;
}

}  // namespace

std::vector<CompareRow> compare_configs(const std::string& base_config, const std::string& candidate_config,
                                        const std::vector<std::string>& experiments,
                                        const std::vector<std::string>& experiment_args) {
  std::vector<CompareRow> out;
  const std::string self = self_binary();
  for (const auto& exp : experiments) {
    const Experiment* e = find_experiment(exp);
    json::Value docs[2];
    const std::string configs[2] = {base_config, candidate_config};
    for (int k = 0; k < 2; ++k) {
      std::vector<std::string> argv = {self, exp};
      argv.insert(argv.end(), experiment_args.begin(), experiment_args.end());
      argv.insert(argv.end(), {"--config", configs[k], "--format", "json"});
      docs[k] = json::parse(capture(argv));
    }
    const json::Value* rb = docs[0].get("results");
    const json::Value* rc = docs[1].get("results");
    if (!rb || !rc) continue;
    // a row's identity: its key fields' values (the experiment's descriptor names them)
    auto key_of = [&](const json::Value& row) {
      std::string label;
      for (const auto& k : e->keys)
        if (const json::Value* f = row.find(k))
          label += (label.empty() ? "" : " ") + k + "=" + (f->kind == json::Value::Null ? "-" : f->text);
      return label;
    };
    for (const auto& row_b : rb->items) {
      const std::string label = key_of(row_b);
      const json::Value* row_c = nullptr;
      for (const auto& r : rc->items)
        if (key_of(r) == label) {
          row_c = &r;
          break;
        }
      if (!row_c) continue;
      std::vector<std::pair<std::string, const json::Value*>> fb, fc;
      flatten_result(row_b, "", fb);
      flatten_result(*row_c, "", fc);
      auto numeric = [](const json::Value* x) { return x->kind == json::Value::Number || x->kind == json::Value::Null; };
      for (const auto& [k, v] : fb) {
        if (!numeric(v)) continue;
        for (const auto& [kc, vc] : fc)
          if (kc == k && numeric(vc)) {
            if (v->kind == json::Value::Null && vc->kind == json::Value::Null) break;   // no value on either side
            CompareRow row{exp, label, k, 0, 0};
            row.base_null = v->kind == json::Value::Null;
            row.candidate_null = vc->kind == json::Value::Null;
            if (!row.base_null) row.base = std::stod(v->text);
            if (!row.candidate_null) row.candidate = std::stod(vc->text);
            out.push_back(row);
            break;
          }
      }
    }
  }
  return out;
}

}  // namespace ubsim
