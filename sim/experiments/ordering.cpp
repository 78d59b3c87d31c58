#include "ordering.h"
#include "pipeline_limits.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "experiment.h"
#include "simulation_run.h"
#include "scripted_tx.h"
#include "two_node_system.h"

namespace ubsim {

namespace {

using enc::MODE_ROI;
using enc::MODE_ROL;
using enc::MODE_ROT;
using enc::MODE_UNO;
using enc::TAG_NO;
using enc::TAG_RO;
using enc::TAG_SO;
const char* kModeName[] = {"ROI", "ROT", "ROL", "UNO"};

// ---------------- scenarios ----------------

void submit_to_wire(const Config& p, std::vector<OrderingRow>& rows) {
  for (int mode : {MODE_ROI, MODE_ROT, MODE_ROL, MODE_UNO})
    for (const char* tag : {"NO", "RO", "SO", "FENCE"}) {
      Scripted s;
      s.mode = mode;
      s.tag = std::string(tag) == "RO" ? TAG_RO : std::string(tag) == "SO" ? TAG_SO : TAG_NO;
      s.fence = std::string(tag) == "FENCE";
      const auto ob = drive_ub_pipeline(p, {s}, 1000);
      OrderingRow r;
      r.scenario = "submit-to-wire";
      r.stack = "ub";
      r.mode = kModeName[mode];
      r.tag = tag;
      // "submit" = entering the send pipeline, the cycle after the bus interface took it
      r.cycles = ob[0].error ? -1 : ob[0].flit - (ob[0].in + 1);
      r.error_code = ob[0].error_code;
      rows.push_back(r);
    }
}

// The no-wait latency of one request of a tag (measured, for the baseline).
long lone_latency(const Config& p, int tag, bool fence) {
  Scripted s;
  s.tag = tag;
  s.fence = fence;
  const auto ob = drive_ub_pipeline(p, {s}, 1000);
  return ob[0].flit - (ob[0].in + 1);
}

void wait_after_predecessors(const Config& p, std::vector<OrderingRow>& rows) {
  for (const char* tag : {"NO", "RO", "SO", "FENCE"}) {
    const int t = std::string(tag) == "RO" ? TAG_RO : std::string(tag) == "SO" ? TAG_SO : TAG_NO;
    const bool fence = std::string(tag) == "FENCE";
    const long l0 = lone_latency(p, t, fence);
    for (int n = 0; n <= 4; ++n) {
      // n outstanding reads (RO) of Jetty 0, completing at cycles 200, 210, ...
      std::vector<Scripted> sc;
      for (int i = 0; i < n; ++i) {
        Scripted s;
        s.tag = TAG_RO;
        s.complete_at = 200 + 10 * i;
        sc.push_back(s);
      }
      // offered once the reads have left the pipeline (cycle 100), so only
      // ordering (not the TP-context port they hold) can delay it
      Scripted w;
      w.tag = t;
      w.fence = fence;
      w.offer_at = 100;
      sc.push_back(w);
      const auto ob = drive_ub_pipeline(p, sc, 5000);
      const Observed& o = ob.back();
      long last_cpl = -1;
      for (int i = 0; i < n; ++i) last_cpl = std::max(last_cpl, ob[static_cast<size_t>(i)].cpl);
      OrderingRow r;
      r.scenario = "wait-after-predecessors";
      r.stack = "ub";
      r.tag = tag;
      r.predecessors = n;
      r.submit_to_wire_cycles = o.flit - (o.in + 1);
      r.held = o.held;
      r.held_cycles = o.held ? o.issue - o.hold : 0;
      // Beyond the no-wait latency, counted from when it may go: submit, or
      // the cycle the last predecessor's completion reached the tracker.
      // A held request's remaining path from the tracker is l0 - 1 cycles
      // (the Jetty-scheduling cycle before the tracker is already behind it).
      r.extra_wait_cycles = o.held ? (o.flit - last_cpl) - (l0 - 1) : r.submit_to_wire_cycles - l0;
      rows.push_back(r);
    }
  }
}

// Initiator 0: a read (outstanding until release_after) then an SO request
// (unless !with_held); initiators 1-4: two NO requests each.
std::vector<Scripted> isolation_script(bool with_held, long release_after) {
  std::vector<Scripted> sc;
  Scripted rd;
  rd.initiator = 0;
  rd.tag = TAG_RO;
  rd.complete_at = release_after;
  sc.push_back(rd);
  if (with_held) {
    Scripted so;
    so.initiator = 0;
    so.tag = TAG_SO;
    sc.push_back(so);
  }
  for (int k = 0; k < 2; ++k)
    for (int i = 1; i <= 4; ++i) {
      Scripted s;
      s.initiator = i;
      s.tag = TAG_NO;
      s.rdat = false;
      sc.push_back(s);
    }
  return sc;
}

OrderingRow isolation_row(const std::string& stack, bool with_held, const std::vector<Scripted>& sc,
                          const std::vector<Observed>& ob) {
  long first_in = -1, last_flit = -1;
  int delivered = 0;
  for (size_t i = 0; i < sc.size(); ++i) {
    if (sc[i].initiator == 0) continue;
    if (first_in < 0 || ob[i].in < first_in) first_in = ob[i].in;
    last_flit = std::max(last_flit, ob[i].flit);
    delivered += ob[i].flit >= 0;
  }
  OrderingRow r;
  r.scenario = "isolation";
  r.stack = stack;
  r.held = with_held;
  // from the first of them entering the send pipeline (after the bus interface)
  r.last_unordered_delivery_cycles = last_flit - (first_in + 1);
  r.unordered_delivered = delivered;
  if (with_held) r.held_request_wire_cycles = ob[1].flit - (first_in + 1);
  return r;
}

void isolation(const Config& p, const OrderingOptions& o, std::vector<OrderingRow>& rows) {
  const auto release = static_cast<long>(o.release_after_cycles);
  for (bool with_held : {true, false}) {
    const auto sc = isolation_script(with_held, release);
    const bool trace = with_held && !o.trace_prefix.empty();
    rows.push_back(isolation_row("ub", with_held, sc,
                                 drive_ub_multi(p, sc, 20000, trace ? o.trace_prefix + ".isolation.ub.fst" : "")));
    rows.push_back(isolation_row("roce", with_held, sc,
                                 drive_roce_multi(p, sc, 20000, trace ? o.trace_prefix + ".isolation.roce.fst" : "")));
  }
}

// Two-node model, ub-async: n reads then an SO read of the same Jetty, all
// posted at once (the CPU core serializes their software stages).
OrderingRow end_to_end_point(const Config& base, int n) {
  SimulationRun run;
  Config cfg = base;
  cfg.set_by_experiment(key::workload_ops, "ordering", fmt::format("{}", n + 1));
  cfg.set_by_experiment(key::workload_outstanding, "ordering", fmt::format("{}", n + 1));
  cfg.set_by_experiment(key::workload_warmup, "ordering", "0");
  cfg.set_by_experiment(key::workload_rate, "ordering", "0ops/s");
  cfg.set_by_experiment(key::cache_enabled, "ordering", "false");   // the ordering alone, no cold context caches
  validate_config(cfg);
  Workload w;
  w.tags.assign(static_cast<size_t>(n), TAG_RO);
  w.tags.push_back(TAG_SO);
  auto& sys = *new TwoNodeSystem("sys", cfg, cfg.route("ub-async", "read"), w);   // lives until exit
  OrderingRow r;
  r.scenario = "end-to-end-so";
  r.stack = "ub";
  r.predecessors = n;
  sys.app().on_complete = [&](const Request& q) {
    if (q.id != static_cast<uint64_t>(n)) return;
    r.held = q.ord_hold_fs != 0;
    r.wait_ns = r.held ? static_cast<double>(q.ord_release_fs - q.ord_hold_fs) / 1e6 : 0.0;
    r.latency_ns = static_cast<double>(q.completed_fs - q.issued_fs) / 1e6;
  };
  run.run();
  run.finish(&sys.watchdog());
  if (sys.app().completed() != static_cast<uint64_t>(n + 1))
    throw std::runtime_error("end-to-end-so: requests did not complete");
  return r;
}

void end_to_end(const Config& cfg, std::vector<OrderingRow>& rows) {
  double lone = 0;
  for (int n = 0; n <= 4; ++n) {
    const auto child = rows_in_child([&] { return std::vector<json::Value>{ordering_row(end_to_end_point(cfg, n))}; });
    OrderingRow r = ordering_row_of(child.at(0));
    if (n == 0) lone = r.latency_ns;
    r.lone_latency_ns = lone;
    rows.push_back(r);
  }
}

}  // namespace

const std::vector<std::string>& ordering_scenarios() {
  static const std::vector<std::string> s = {"submit-to-wire", "wait-after-predecessors", "isolation",
                                             "end-to-end-so"};
  return s;
}

std::vector<OrderingRow> run_ordering(const Config& cfg, const OrderingOptions& o) {
  const Config& p = cfg;
  auto wanted = [&](const std::string& s) {
    return o.scenarios.empty() || std::find(o.scenarios.begin(), o.scenarios.end(), s) != o.scenarios.end();
  };
  std::vector<OrderingRow> rows;
  if (wanted("submit-to-wire")) submit_to_wire(p, rows);
  if (wanted("wait-after-predecessors")) wait_after_predecessors(p, rows);
  if (wanted("isolation")) isolation(p, o, rows);
  if (wanted("end-to-end-so")) end_to_end(cfg, rows);
  return rows;
}

json::Value ordering_row(const OrderingRow& r) {
  using V = json::Value;
  V v = V::object().add("scenario", V::string(r.scenario)).add("stack", V::string(r.stack));
  if (r.scenario == "submit-to-wire") {
    v.add("mode", V::string(r.mode));
    v.add("tag", V::string(r.tag));
    v.add("cycles", r.cycles >= 0 ? V::number(static_cast<double>(r.cycles)) : V::null());
    v.add("error", r.cycles >= 0 ? V::null()
                                 : V::string(r.error_code == enc::ERR_ORDER_UNDER_UNO ? "ordering not allowed under UNO"
                                                                                      : "payload above the MTU under UNO"));
  } else if (r.scenario == "wait-after-predecessors") {
    v.add("tag", V::string(r.tag));
    v.add("predecessors", V::number(r.predecessors));
    v.add("extra_wait_cycles", V::number(static_cast<double>(r.extra_wait_cycles)));
    v.add("held", V::boolean(r.held));
    v.add("held_cycles", V::number(static_cast<double>(r.held_cycles)));
    v.add("submit_to_wire_cycles", V::number(static_cast<double>(r.submit_to_wire_cycles)));
  } else if (r.scenario == "isolation") {
    v.add("held", V::boolean(r.held));
    v.add("last_unordered_delivery_cycles", V::number(static_cast<double>(r.last_unordered_delivery_cycles)));
    v.add("unordered_delivered", V::number(r.unordered_delivered));
    if (r.held) v.add("held_request_wire_cycles", V::number(static_cast<double>(r.held_request_wire_cycles)));
  } else {
    v.add("predecessors", V::number(r.predecessors));
    v.add("held", V::boolean(r.held));
    v.add("wait_ns", V::number(r.wait_ns));
    v.add("latency_ns", V::number(r.latency_ns));
    v.add("lone_read_latency_ns", V::number(r.lone_latency_ns));
  }
  return v;
}

OrderingRow ordering_row_of(const json::Value& v) {
  OrderingRow r;
  r.scenario = v.str("scenario");
  r.stack = v.str("stack");
  r.predecessors = static_cast<int>(v.num("predecessors"));
  r.held = v.flag("held");
  r.wait_ns = v.num("wait_ns");
  r.latency_ns = v.num("latency_ns");
  r.lone_latency_ns = v.num("lone_read_latency_ns");
  return r;
}

namespace {

ResultSet run(Config& cfg, const Options& o) {
  OrderingOptions oo;
  oo.scenarios = o.list("--scenario");
  oo.trace_prefix = o.text("--trace");
  oo.release_after_cycles = o.count("--release-after");
  validate_config(cfg);
  ResultSet rs;
  for (const auto& r : run_ordering(cfg, oo)) rs.rows.push_back(ordering_row(r));
  rs.notes =
      "submit-to-wire: cycles from entering the send pipeline (after the bus interface) to the first flit.\n"
      "wait-after-predecessors: Jetty 0, ROI; n reads outstanding, the request offered at cycle 100, the reads\n"
      "completing at cycles 200, 210, ...; extra wait = cycles beyond the no-wait latency after the last completion.\n"
      "isolation: 5 initiators to one remote; initiator 0's read outstanding, its SO held; initiators 1-4 post 2 NO\n"
      "each (UB: a Jetty each, one shared TP channel; RoCE: one shared QP).\n"
      "end-to-end-so: two-node model, ub-async: an SO read behind n outstanding reads of its Jetty.\n";
  return rs;
}

}  // namespace

const Experiment& ordering_experiment() {
  static const Experiment e{
      "ordering",
      "order tracker (spec 2, 7): submit-to-wire per mode x tag, wait after n predecessors, isolation of 5 "
      "initiators (UB vs RoCE RC), end-to-end SO",
      "The scenarios drive the verilated send pipelines cycle by cycle with scripted requests and completions\n"
      "and measure, from the RTL's own handshakes, what the order tracker does; end-to-end-so runs the\n"
      "two-node model.",
      {opt_names("--scenario", "LIST", ordering_scenarios(), "",
                 "submit-to-wire,wait-after-predecessors,isolation,end-to-end-so (default all)"),
       opt_out_prefix("--trace", "PREFIX",
                "FST of the isolation runs: PREFIX.isolation.{ub,roce}.fst (waveforms/isolation_{ub,roce}.gtkw)"),
       opt_count("--release-after", "N", 100, 100000, "400", "isolation: cycle at which initiator 0's read completes")},
      {"scenario", "stack", "mode", "tag", "predecessors", "held"},
      {{"cycles", "cycles", "submit-to-wire: entering the send pipeline to the first flit (null: error completion)"},
       {"extra_wait_cycles", "cycles", "beyond the no-wait latency, after the last predecessor's completion"},
       {"last_unordered_delivery_cycles", "cycles", "isolation: the 8 NO requests on the wire, from the first's entry"},
       {"wait_ns", "ns", "end-to-end-so: held at the tracker"},
       {"latency_ns", "ns", "end-to-end-so: the SO read's latency"},
       {"error", "", "submit-to-wire: why the request ended with an error completion (null: it went to the wire)"},
       {"held_cycles", "cycles", "wait-after-predecessors: cycles the request was held in the tracker's window"},
       {"submit_to_wire_cycles", "cycles", "wait-after-predecessors: entering the send pipeline to the first flit"},
       {"unordered_delivered", "requests", "isolation: NO requests of the other initiators on the wire"},
       {"held_request_wire_cycles", "cycles", "isolation: the held request's first flit, from the first entry (when held)"},
       {"lone_read_latency_ns", "ns", "end-to-end-so: the same read with nothing before it"}},
      "ordering",
      "plot_ordering.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
