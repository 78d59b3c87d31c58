// Perfetto / Chrome trace-event output of a run (--timeline): one part file
// per path, written while it runs, assembled into the run's trace whole or
// not at all.
#pragma once
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "json.h"
#include "request.h"
#include "routes.h"

namespace ubsim {

// Perfetto / Chrome trace events of the first requests, one event per line,
// into a part file the run's trace is assembled from (one per path). A
// process per node (per path), a thread per component (CPU cores, PCIe link,
// bus, DRAM, each RTL pipeline, cache, wire direction or transport), a
// slice per stage a request spends there with flow arrows between its
// stages, and an async slice per request from issue to completion.
class TimelineWriter {
 public:
  TimelineWriter(std::string part, uint64_t max_ops, std::string path, int path_index,
                 std::vector<std::string> component_names)
      : part_(std::move(part)), out_(part_), max_ops_(max_ops), path_(std::move(path)), pid_base_(2 * path_index),
        names_(std::move(component_names)) {
    if (!out_) throw std::runtime_error("option --timeline: cannot write " + part_);
    for (int node = 0; node < 2; ++node) {
      line(fmt::format(R"({{"ph": "M", "name": "process_name", "pid": {}, "args": {{"name": {}}}}})", pid(node),
                       json::str(fmt::format("{}: node {}", path_, node == 0 ? 'A' : 'B'))));
      line(fmt::format(R"({{"ph": "M", "name": "process_sort_index", "pid": {}, "args": {{"sort_index": {}}}}})",
                       pid(node), pid(node)));
    }
  }
  ~TimelineWriter() {
    if (!finished_) std::remove(part_.c_str());
  }
  void add(const Request& r) {
    if (r.id >= max_ops_) return;
    const auto us = [](uint64_t fs) { return static_cast<double>(fs) / 1e9; };
    // the request's async slice on node A: begin at issue, end at completion
    const std::string name = json::str(fmt::format("{} #{}", r.verb == Verb::Read ? "read" : "write", r.id));
    const std::string id = json::str(fmt::format("{}-{}", path_, r.id));
    for (const auto& [ph, fs] : {std::pair{'b', r.issued_fs}, std::pair{'e', r.completed_fs}})
      line(fmt::format(R"({{"ph": "{}", "cat": "request", "name": {}, "id": {}, "pid": {}, "tid": 0, "ts": {:.6f}}})",
                       ph, name, id, pid(0), us(fs)));
    int prev_pid = -1, prev_tid = -1;
    uint64_t prev_ts = 0;
    for (size_t i = 0; i < r.times.size(); ++i) {
      const HopTimes& t = r.times[i];
      const HopSpec& h = r.route->hops[i];
      if (t.depart_fs == 0 && t.arrive_fs == 0) continue;   // not visited (an error completion)
      const int p = pid(h.node == NodeId::A ? 0 : 1);
      const int tid = r.route->component[i] + 1;
      thread_name(p, tid, static_cast<size_t>(r.route->component[i]));
      line(fmt::format(R"({{"name": {}, "cat": {}, "ph": "X", "pid": {}, "tid": {}, "ts": {:.6f}, "dur": {:.6f}, )"
                       R"("args": {{"request": {}, "waited_ns": {:.3f}}}}})",
                       json::str(h.label), json::str(op_info(h.op).category), p, tid, us(t.arrive_fs),
                       us(t.depart_fs - t.arrive_fs), r.id, static_cast<double>(t.start_fs - t.arrive_fs) / 1e6));
      if (prev_pid >= 0) {   // an arrow from the previous stage to this one
        ++flow_;
        line(fmt::format(R"({{"ph": "s", "cat": "flow", "name": "request", "id": {}, "pid": {}, "tid": {}, "ts": {:.6f}}})",
                         flow_, prev_pid, prev_tid, us(prev_ts)));
        line(fmt::format(R"({{"ph": "f", "bp": "e", "cat": "flow", "name": "request", "id": {}, "pid": {}, "tid": {}, )"
                         R"("ts": {:.6f}}})",
                         flow_, p, tid, us(t.arrive_fs)));
      }
      prev_pid = p;
      prev_tid = tid;
      prev_ts = t.arrive_fs;
    }
  }
  void finish() {
    out_.close();
    if (!out_) throw std::runtime_error("option --timeline: writing " + part_ + " failed: " + std::strerror(errno));
    finished_ = true;
  }

 private:
  int pid(int node) const { return pid_base_ + node + 1; }
  void thread_name(int p, int tid, size_t component) {
    if (!named_.insert({p, tid}).second) return;
    line(fmt::format(R"({{"ph": "M", "name": "thread_name", "pid": {}, "tid": {}, "args": {{"name": {}}}}})", p, tid,
                     json::str(component < names_.size() ? names_[component] : "?")));
  }
  void line(const std::string& event) { out_ << event << "\n"; }
  std::string part_;
  std::ofstream out_;
  uint64_t max_ops_;
  std::string path_;
  int pid_base_;
  std::vector<std::string> names_;
  std::set<std::pair<int, int>> named_;
  uint64_t flow_ = 0;
  bool finished_ = false;
};

void assemble_timeline(const std::string& path, const std::vector<std::string>& parts);

}  // namespace ubsim
