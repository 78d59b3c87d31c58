// The slot-release experiment (spec §13): a handful of large operations on
// one path, submitted at most one per slots.submit_interval, each holding a
// request slot from its submit until software has handled its completion;
// completions handled in batches (sw.cq_batch every sw.cq_period). Per slot
// count, every operation's submit, transfer done (its completion visible to
// software) and slot freed times, measured from the run's events: the data
// of a Gantt chart like the textbook's figures 7-38 / 7-39.
//
// With a handler cost per completion (the route's completion-handling
// stages), the run is repeated with those stages at 0 and the shift of the
// figures reported beside the measured time the handler spent on a batch.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "experiment.h"
#include "pipeline_limits.h"
#include "latency.h"

namespace ubsim {

namespace {

struct OpTimes {
  uint64_t id = 0;
  double submit_us = 0, done_us = 0, freed_us = 0, handled_from_us = 0;
};

// When the request's completion became visible to software: its arrival at
// the completion batch wait, else at its first completion-handling stage on
// node A after the wire, else (a Load) when it completed.
uint64_t completion_visible_fs(const Request& r) {
  const auto& hops = r.route->hops;
  size_t after_wire = 0;
  for (size_t i = 0; i < hops.size(); ++i)
    if (is_link_op(hops[i].op)) after_wire = i + 1;
  for (size_t i = after_wire; i < hops.size(); ++i)
    if (hops[i].node == NodeId::A && std::string(op_info(hops[i].op).category) == "completion")
      return r.times[i].arrive_fs;
  return r.completed_fs;
}

// When the handler took it (the batch run), or when it became visible.
uint64_t handled_from_fs(const Request& r) {
  for (size_t i = 0; i < r.route->hops.size(); ++i)
    if (r.route->hops[i].op == Op::SwCqBatchWait) return r.times[i].depart_fs;
  return completion_visible_fs(r);
}

// One run in a child: every operation's times.
std::vector<OpTimes> run_ops(const Config& cfg, const std::string& path) {
  const auto rows = rows_in_child([&] {
    std::vector<OpTimes> ops;
    LatencyOptions o;
    o.path = path;
    o.observe = [&](const Request& r) {
      ops.push_back({r.id, static_cast<double>(r.slot_fs) / 1e9, static_cast<double>(completion_visible_fs(r)) / 1e9,
                     static_cast<double>(r.completed_fs) / 1e9, static_cast<double>(handled_from_fs(r)) / 1e9});
    };
    run_latency(cfg, o);
    std::vector<Value> out;
    for (const OpTimes& t : ops)
      out.push_back(Value::object()
                        .add("op", Value::number(static_cast<double>(t.id)))
                        .add("submit_us", Value::number(t.submit_us))
                        .add("done_us", Value::number(t.done_us))
                        .add("freed_us", Value::number(t.freed_us))
                        .add("handled_from_us", Value::number(t.handled_from_us)));
    return out;
  });
  std::vector<OpTimes> ops;
  for (const Value& v : rows)
    ops.push_back({static_cast<uint64_t>(v.num("op")), v.num("submit_us"), v.num("done_us"), v.num("freed_us"),
                   v.num("handled_from_us")});
  std::sort(ops.begin(), ops.end(), [](const OpTimes& a, const OpTimes& b) { return a.id < b.id; });
  return ops;
}

struct Summary {
  double op_time_us = 0, transfers_done_us = 0, all_free_us = 0, batch_handling_us = 0;
};

Summary summarize(const std::vector<OpTimes>& ops) {
  Summary s;
  std::map<double, double> batch_end;   // handler run -> its last completion handled
  for (const OpTimes& t : ops) {
    s.op_time_us += (t.done_us - t.submit_us) / static_cast<double>(ops.size());
    s.transfers_done_us = std::max(s.transfers_done_us, t.done_us);
    s.all_free_us = std::max(s.all_free_us, t.freed_us);
    batch_end[t.handled_from_us] = std::max(batch_end[t.handled_from_us], t.freed_us);
  }
  for (const auto& [from, end] : batch_end) s.batch_handling_us = std::max(s.batch_handling_us, end - from);
  return s;
}

// The route's completion-handling stages on node A's CPU: their keys.
std::vector<std::string> handler_keys(const Config& cfg, const std::string& path) {
  std::vector<std::string> keys;
  for (const HopSpec& h : cfg.route(path, "read")) {
    const OpInfo& info = op_info(h.op);
    if (h.node == NodeId::A && info.owner == ComponentKind::Cpu && std::string(info.category) == "completion")
      keys.push_back(info.param_key);
  }
  return keys;
}

ResultSet run(Config& cfg, const Options& o) {
  const std::string path = o.text("--path");
  // the experiment's defaults where the configuration leaves them (spec §13)
  if (cfg.source(key::sw_cq_batch) == "default") cfg.apply(key::sw_cq_batch, "4", "slots experiment default");
  if (cfg.source(key::slots_submit_interval) == "default")
    cfg.apply(key::slots_submit_interval, "1us", "slots experiment default");
  cfg.set_by_experiment(key::workload_ops, "slots", fmt::format("{}", cfg.count(key::slots_ops)));
  cfg.apply(key::workload_size, cfg.text_of(key::slots_size), "slots.size");
  cfg.set_by_experiment(key::workload_outstanding, "slots", fmt::format("{}", cfg.count(key::slots_ops)));   // every operation ready at 0
  cfg.set_by_experiment(key::workload_warmup, "slots", "0");
  cfg.set_by_experiment(key::workload_rate, "slots", "0ops/s");
  validate_config(cfg);
  double handler_ns = 0;
  Config zero = cfg;
  for (const std::string& k : handler_keys(cfg, path)) {
    handler_ns += cfg.value(k) / 1e6;
    zero.apply(k, "0ns", "slots experiment: handler cost 0");
  }
  using V = json::Value;
  ResultSet rs;
  for (uint64_t n : o.counts("--slots")) {
    Config c = cfg;
    c.set_by_experiment(key::slots_count, "slots", fmt::format("{}", n));
    const std::vector<OpTimes> ops = run_ops(c, path);
    const Summary s = summarize(ops);
    Summary z = s;
    if (handler_ns > 0) {
      Config cz = zero;
      cz.set_by_experiment(key::slots_count, "slots", fmt::format("{}", n));
      z = summarize(run_ops(cz, path));
    }
    V list = V::array();
    for (const OpTimes& t : ops)
      list.items.push_back(V::object()
                               .add("op", V::number(static_cast<double>(t.id)))
                               .add("submit_us", V::number(t.submit_us))
                               .add("done_us", V::number(t.done_us))
                               .add("freed_us", V::number(t.freed_us)));
    const double batch = static_cast<double>(cfg.count(key::sw_cq_batch));
    const double period_us = cfg.value(key::sw_cq_period) / 1e9;
    rs.rows.push_back(V::object()
                          .add("path", V::string(path))
                          .add("slots", V::number(static_cast<double>(n)))
                          .add("size_bytes", V::number(static_cast<double>(cfg.count(key::workload_size))))
                          .add("op_time_us", V::number(s.op_time_us))
                          .add("transfers_done_us", V::number(s.transfers_done_us))
                          .add("all_free_us", V::number(s.all_free_us))
                          .add("handler_ns", V::number(handler_ns))
                          .add("batch_handling_us", V::number(s.batch_handling_us))
                          .add("shift_transfers_done_us", V::number(s.transfers_done_us - z.transfers_done_us))
                          .add("shift_all_free_us", V::number(s.all_free_us - z.all_free_us))
                          .add("derived_completions_per_us", batch > 0 ? V::number(batch / period_us) : V::null())
                          .add("ops", list));
  }
  rs.notes = fmt::format(
      "{} operations of {} B on {}, at most one submit per {}; completions handled {}; a slot is freed when its\n"
      "completion is handled. op_time = submit -> transfer done (completion visible), mean; batch_handling = the\n"
      "longest time the handler spent on one batch (measured); shift_* = these figures minus a run with the\n"
      "completion-handling stages at 0 (handler_ns per completion, derived from the route's keys).\n",
      cfg.count(key::slots_ops), cfg.count(key::workload_size), path, cfg.text_of(key::slots_submit_interval),
      cfg.count(key::sw_cq_batch) ? fmt::format("in batches of up to {} every {}", cfg.count(key::sw_cq_batch),
                                             cfg.text_of(key::sw_cq_period))
                               : std::string("each as it comes"));
  rs.table_omit = {"ops"};
  return rs;
}

}  // namespace

const Experiment& slots_experiment() {
  static const Experiment e{
      "slots",
      "slot release: operations that hold their request slot until software has handled the completion (Gantt)",
      "slots.ops operations of slots.size bytes, all ready at time 0, submitted at most one per\n"
      "slots.submit_interval (1 us unless configured), each taking one of slots.count request slots until\n"
      "software has handled its completion; completions are handled in batches (sw.cq_batch, 4 unless\n"
      "configured, every sw.cq_period). One run per slot count; every operation's submit, transfer done and\n"
      "slot freed times are measured (spec 13, textbook figures 7-38 / 7-39).",
      {opt_choice("--path", {"pcie-nic", "ub-async"}, "ub-async", "the path"),
       opt_counts("--slots", "LIST", 1, 65536, "16,8", "slot counts (slots.count per run), comma-separated")},
      {"path", "slots"},
      {{"op_time_us", "us", "submit -> transfer done (completion visible), mean over the operations"},
       {"size_bytes", "B", "each operation's transfer (workload.size)"},
       {"transfers_done_us", "us", "the last transfer done"},
       {"all_free_us", "us", "the last slot freed (completion handled)"},
       {"handler_ns", "ns", "derived: the handler's CPU time per completion (the route's completion stages)"},
       {"batch_handling_us", "us", "measured: the longest handler run, batch start -> its last completion handled"},
       {"shift_transfers_done_us", "us", "transfers_done minus the same run with the handler cost at 0"},
       {"shift_all_free_us", "us", "all_free minus the same run with the handler cost at 0"},
       {"derived_completions_per_us", "1/us", "derived: sw.cq_batch / sw.cq_period, the sustained completion rate"},
       {"ops", "", "per operation: op, submit_us, done_us, freed_us"}},
      "slots",
      "plot_slots.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
