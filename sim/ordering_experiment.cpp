#include "ordering_experiment.h"

#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "json.h"
#include "latency_experiment.h"
#include "subprocess.h"
#include "system.h"
#include "verilated_compat.h"
#include "Vroce_tx_multi.h"
#include "Vub_tx_multi.h"
#include "Vub_tx_pipeline.h"

namespace ubsim {

namespace {

enum { ROI = 0, ROT = 1, ROL = 2, UNO = 3 };
enum { TAG_NO = 0, TAG_RO = 1, TAG_SO = 2 };
const char* kModeName[] = {"ROI", "ROT", "ROL", "UNO"};

// One scripted request and what the RTL did with it (cycle numbers).
struct Scripted {
  int initiator = 0;            // Jetty (UB) / port of the multi-initiator tops
  int mode = ROI, tag = TAG_NO;
  bool fence = false, rdat = true;
  long complete_at = -1;        // absolute cycle of its completion; -1 = issue + 100
  bool never_complete = false;
  long offer_at = 0;            // not offered before this cycle
};
struct Observed {
  long in = -1, hold = -1, issue = -1, flit = -1, cpl = -1;
  bool held = false, error = false;
  int error_code = 0, slot = -1, seq = -1;
};

struct PendingCompletion {
  long due;
  int slot, seq;
  size_t req;
};

class FstDump {
 public:
  FstDump(VerilatedContext& ctx, uint64_t period_ps) : period_ps_(period_ps) {
    ctx.traceEverOn(true);
    ctx.timeunit(-12);
    ctx.timeprecision(-12);
  }
  // The writer is made here, after the context's time unit (ps) is set.
  template <class M>
  void open(M& m, const std::string& path) {
    if (path.empty()) return;
    fst_ = std::make_unique<VerilatedFstC>();
    m.trace(fst_.get(), 99);
    fst_->open(path.c_str());
  }
  void dump(long cycle, bool high) {
    if (fst_) fst_->dump(static_cast<uint64_t>(cycle) * period_ps_ - (high ? 0 : period_ps_ / 2));
  }
  ~FstDump() {
    if (fst_) fst_->close();
  }

 private:
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t period_ps_;
};

// Earliest due completion (one per cycle), or null.
const PendingCompletion* due_completion(const std::vector<PendingCompletion>& pend, long cycle) {
  const PendingCompletion* best = nullptr;
  for (const auto& p : pend)
    if (p.due <= cycle && (!best || p.due < best->due)) best = &p;
  return best;
}

void schedule_completion(std::vector<PendingCompletion>& pend, const Scripted& s, Observed& o, long cycle,
                         size_t req) {
  if (s.never_complete) return;
  const long due = s.complete_at >= 0 ? std::max(s.complete_at, cycle + 1) : cycle + 100;
  pend.push_back({due, o.slot, o.seq, req});
}

bool all_out(const std::vector<Observed>& ob) {
  return std::all_of(ob.begin(), ob.end(), [](const Observed& o) { return o.flit >= 0 || o.error; });
}

// The UB send pipeline on its own, requests offered in script order.
std::vector<Observed> drive_ub_pipeline(const ModelParams& p, const std::vector<Scripted>& sc, long max_cycles) {
  VerilatedContext ctx;
  Vub_tx_pipeline m(&ctx, "dut");
  m.cfg_depth_async = static_cast<uint8_t>(p.cycles("pipeline.ub_async"));
  m.cfg_depth_load = static_cast<uint8_t>(p.cycles("pipeline.ub_load"));
  m.cfg_tpc_beats = static_cast<uint8_t>(p.ub_tpc_beats);
  m.cfg_ctx_gate = 0;
  m.cfg_mtu = static_cast<uint16_t>(std::min<uint32_t>(p.mtu_bytes, 0xffff));
  m.m_ready = 1;
  m.s_valid = 0;
  m.s_cpl_valid = 0;
  m.rst = 1;
  for (int i = 0; i < 4; ++i) { m.clk = 0; m.eval(); m.clk = 1; m.eval(); }
  m.rst = 0;
  std::vector<Observed> ob(sc.size());
  std::vector<PendingCompletion> pend;
  size_t next = 0;
  for (long c = 1; c < max_cycles && !all_out(ob); ++c) {
    m.clk = 0;
    m.s_valid = next < sc.size() && sc[next].offer_at <= c;
    if (m.s_valid) {
      const Scripted& s = sc[next];
      m.s_id = static_cast<uint32_t>(next);
      m.s_ctx = 0;
      m.s_load = 0;
      m.s_bytes = static_cast<uint16_t>(p.header_bytes + 64);
      m.s_ord_track = 1;
      m.s_ord_jetty = static_cast<uint16_t>(s.initiator);
      m.s_ord_mode = static_cast<uint8_t>(s.mode);
      m.s_ord_tag = static_cast<uint8_t>(s.tag);
      m.s_ord_fence = s.fence;
      m.s_ord_comp_order = 0;
      m.s_ord_rdat = s.rdat;
      m.s_ord_payload = 64;
    }
    const PendingCompletion* cpl = due_completion(pend, c);
    m.s_cpl_valid = cpl != nullptr;
    m.s_cpl_slot = cpl ? static_cast<uint8_t>(cpl->slot) : 0;
    m.s_cpl_seq = cpl ? static_cast<uint8_t>(cpl->seq) : 0;
    m.eval();
    const bool in_fire = m.s_valid && m.s_ready;
    if (m.ord_in_hold) {
      ob.at(m.ord_in_id).held = true;
      ob.at(m.ord_in_id).hold = c;
    }
    if (m.ord_issue) {
      Observed& o = ob.at(m.ord_issue_id);
      o.issue = c;
      o.slot = m.ord_issue_slot;
      o.seq = m.ord_issue_seq;
      schedule_completion(pend, sc[m.ord_issue_id], o, c, m.ord_issue_id);
    }
    if (m.m_err_valid) {
      ob.at(m.m_err_id).error = true;
      ob.at(m.m_err_id).error_code = m.m_err_code;
    }
    if (m.m_valid && m.m_first) ob.at(m.m_id).flit = c;
    if (cpl) {
      ob.at(cpl->req).cpl = c;
      pend.erase(pend.begin() + (cpl - pend.data()));
    }
    m.clk = 1;
    m.eval();
    if (in_fire) ob[next++].in = c;
  }
  if (!all_out(ob)) throw std::runtime_error("ordering: a request never left the UB send pipeline");
  return ob;
}

// The five-initiator tops: requests offered per initiator in script order.
template <class M>
std::vector<Observed> drive_multi(M& m, FstDump& fst, const std::vector<Scripted>& sc, long max_cycles) {
  constexpr int kInits = 5;
  constexpr uint32_t kLowMask = (1u << 29) - 1;   // the top 3 id bits name the initiator
  m.s_valid = 0;
  m.s_cpl_valid = 0;
  m.rst = 1;
  for (int i = 0; i < 4; ++i) { m.clk = 0; m.eval(); m.clk = 1; m.eval(); }
  m.rst = 0;
  std::vector<Observed> ob(sc.size());
  std::vector<PendingCompletion> pend;
  std::vector<std::vector<size_t>> queue(kInits);
  for (size_t i = 0; i < sc.size(); ++i) queue[static_cast<size_t>(sc[i].initiator)].push_back(i);
  std::vector<size_t> head(kInits, 0);
  for (long c = 1; c < max_cycles && !all_out(ob); ++c) {
    m.clk = 0;
    uint32_t valid = 0, fence = 0, rdat = 0, tag = 0;
    for (int i = 0; i < kInits; ++i) {
      const auto& q = queue[static_cast<size_t>(i)];
      if (head[static_cast<size_t>(i)] >= q.size()) continue;
      const size_t g = q[head[static_cast<size_t>(i)]];
      valid |= 1u << i;
      m.s_id[i] = static_cast<uint32_t>(g);
      fence |= (sc[g].fence ? 1u : 0u) << i;
      rdat |= (sc[g].rdat ? 1u : 0u) << i;
      tag |= static_cast<uint32_t>(sc[g].tag) << (2 * i);
    }
    m.s_valid = static_cast<uint8_t>(valid);
    m.s_fence = static_cast<uint8_t>(fence);
    m.s_rdat = static_cast<uint8_t>(rdat);
    m.s_tag = static_cast<uint16_t>(tag);
    const PendingCompletion* cpl = due_completion(pend, c);
    m.s_cpl_valid = cpl != nullptr;
    m.s_cpl_slot = cpl ? static_cast<uint8_t>(cpl->slot) : 0;
    m.s_cpl_seq = cpl ? static_cast<uint8_t>(cpl->seq) : 0;
    m.eval();
    fst.dump(c, false);
    const uint32_t fired = m.s_valid & m.s_ready;
    if (m.ord_in_hold) {
      Observed& o = ob.at(m.ord_in_id & kLowMask);
      o.held = true;
      o.hold = c;
    }
    if (m.ord_issue) {
      const size_t g = m.ord_issue_id & kLowMask;
      Observed& o = ob.at(g);
      o.issue = c;
      o.slot = m.ord_issue_slot;
      o.seq = m.ord_issue_seq;
      schedule_completion(pend, sc[g], o, c, g);
    }
    if (m.m_valid && m.m_first) ob.at(m.m_id & kLowMask).flit = c;
    if (cpl) {
      ob.at(cpl->req).cpl = c;
      pend.erase(pend.begin() + (cpl - pend.data()));
    }
    m.clk = 1;
    m.eval();
    fst.dump(c, true);
    for (int i = 0; i < kInits; ++i)
      if (fired & (1u << i)) ob[queue[static_cast<size_t>(i)][head[static_cast<size_t>(i)]++]].in = c;
  }
  if (!all_out(ob)) throw std::runtime_error("ordering: a request never left the send pipeline");
  return ob;
}

// ---------------- scenarios ----------------

void submit_to_wire(const ModelParams& p, std::vector<OrderingRow>& rows) {
  for (int mode : {ROI, ROT, ROL, UNO})
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
long lone_latency(const ModelParams& p, int tag, bool fence) {
  Scripted s;
  s.tag = tag;
  s.fence = fence;
  const auto ob = drive_ub_pipeline(p, {s}, 1000);
  return ob[0].flit - (ob[0].in + 1);
}

void wait_after_predecessors(const ModelParams& p, std::vector<OrderingRow>& rows) {
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

void isolation(const ModelParams& p, const OrderingOptions& o, std::vector<OrderingRow>& rows) {
  const auto release = static_cast<long>(o.release_after_cycles);
  for (bool with_held : {true, false}) {
    const auto sc = isolation_script(with_held, release);
    {
      VerilatedContext ctx;
      FstDump fst(ctx, p.clock_period_fs / 1000);
      Vub_tx_multi m(&ctx, "dut");
      m.cfg_depth_async = static_cast<uint8_t>(p.cycles("pipeline.ub_async"));
      m.cfg_tpc_beats = static_cast<uint8_t>(p.ub_tpc_beats);
      m.cfg_mtu = static_cast<uint16_t>(std::min<uint32_t>(p.mtu_bytes, 0xffff));
      if (with_held && !o.trace_prefix.empty()) fst.open(m, o.trace_prefix + ".isolation.ub.fst");
      rows.push_back(isolation_row("ub", with_held, sc, drive_multi(m, fst, sc, 20000)));
    }
    {
      VerilatedContext ctx;
      FstDump fst(ctx, p.clock_period_fs / 1000);
      Vroce_tx_multi m(&ctx, "dut");
      m.cfg_depth = static_cast<uint8_t>(p.cycles("pipeline.pcie_nic"));
      m.cfg_qpc_rd_latency = static_cast<uint8_t>(p.roce_qpc_rd_latency);
      m.cfg_qpc_turnaround = static_cast<uint8_t>(p.roce_qpc_turnaround);
      if (with_held && !o.trace_prefix.empty()) fst.open(m, o.trace_prefix + ".isolation.roce.fst");
      rows.push_back(isolation_row("roce", with_held, sc, drive_multi(m, fst, sc, 20000)));
    }
  }
}

// Two-node model, ub-async: n reads then an SO read of the same Jetty, all
// posted at once (the CPU core serializes their software stages).
OrderingRow end_to_end_point(const Config& base, int n) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
  Config cfg = base;
  cfg.apply_set(fmt::format("workload.ops={}", n + 1));
  cfg.apply_set(fmt::format("workload.outstanding={}", n + 1));
  cfg.apply_set("workload.warmup=0");
  cfg.apply_set("workload.rate=0ops/s");
  cfg.apply_set("cache.enabled=false");   // the ordering alone, no cold context caches
  cfg.validate();
  const ModelParams p = cfg.model_params();
  WorkloadConfig w = workload_from(cfg);
  w.tags.assign(static_cast<size_t>(n), TAG_RO);
  w.tags.push_back(TAG_SO);
  auto& sys = *new TwoNodeSystem("sys", p, cfg.route("ub-async", "read"), w);   // lives until exit
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
  sc_core::sc_start();
  if (sys.app().completed() != static_cast<uint64_t>(n + 1))
    throw std::runtime_error("end-to-end-so: requests did not complete");
  return r;
}

void end_to_end(const Config& cfg, std::vector<OrderingRow>& rows) {
  double lone = 0;
  for (int n = 0; n <= 4; ++n) {
    const ChildResult c = run_in_child([&] {
      const OrderingRow r = end_to_end_point(cfg, n);
      return fmt::format("{} {:.17g} {:.17g}", r.held ? 1 : 0, r.wait_ns, r.latency_ns);
    });
    if (c.exit_code != 0) throw std::runtime_error(c.output);
    OrderingRow r;
    r.scenario = "end-to-end-so";
    r.stack = "ub";
    r.predecessors = n;
    int held = 0;
    std::istringstream in(c.output);
    in >> held >> r.wait_ns >> r.latency_ns;
    r.held = held != 0;
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
  const ModelParams p = cfg.model_params();
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

std::string ordering_json(const OrderingRow& r) {
  std::vector<std::pair<std::string, std::string>> kv = {{"scenario", json::str(r.scenario)},
                                                         {"stack", json::str(r.stack)}};
  if (r.scenario == "submit-to-wire") {
    kv.push_back({"mode", json::str(r.mode)});
    kv.push_back({"tag", json::str(r.tag)});
    kv.push_back({"cycles", r.cycles >= 0 ? json::num(static_cast<double>(r.cycles)) : "null"});
    kv.push_back({"error", r.cycles >= 0 ? "null"
                                         : json::str(r.error_code == 1 ? "ordering not allowed under UNO"
                                                                       : "payload above the MTU under UNO")});
  } else if (r.scenario == "wait-after-predecessors") {
    kv.push_back({"tag", json::str(r.tag)});
    kv.push_back({"predecessors", json::num(r.predecessors)});
    kv.push_back({"extra_wait_cycles", json::num(static_cast<double>(r.extra_wait_cycles))});
    kv.push_back({"held", r.held ? "true" : "false"});
    kv.push_back({"held_cycles", json::num(static_cast<double>(r.held_cycles))});
    kv.push_back({"submit_to_wire_cycles", json::num(static_cast<double>(r.submit_to_wire_cycles))});
  } else if (r.scenario == "isolation") {
    kv.push_back({"held", r.held ? "true" : "false"});
    kv.push_back({"last_unordered_delivery_cycles", json::num(static_cast<double>(r.last_unordered_delivery_cycles))});
    kv.push_back({"unordered_delivered", json::num(r.unordered_delivered)});
    if (r.held) kv.push_back({"held_request_wire_cycles", json::num(static_cast<double>(r.held_request_wire_cycles))});
  } else {
    kv.push_back({"predecessors", json::num(r.predecessors)});
    kv.push_back({"held", r.held ? "true" : "false"});
    kv.push_back({"wait_ns", json::num(r.wait_ns)});
    kv.push_back({"latency_ns", json::num(r.latency_ns)});
    kv.push_back({"lone_read_latency_ns", json::num(r.lone_latency_ns)});
  }
  return json::object(kv);
}

std::string ordering_table(const std::vector<OrderingRow>& rows) {
  std::string out;
  std::string last;
  for (const auto& r : rows) {
    if (r.scenario != last) {
      last = r.scenario;
      if (last == "submit-to-wire")
        out += "\nsubmit-to-wire (UB send pipeline, nothing to wait for): cycles from entering the send pipeline "
               "to the first flit\n  mode  tag     cycles\n";
      else if (last == "wait-after-predecessors")
        out += "\nwait-after-predecessors (Jetty 0, ROI; n reads outstanding, offered at cycle 100; the reads "
               "complete at cycles 200, 210, ...)\n"
               "  tag    n  held  held cyc  submit->wire cyc  extra wait cyc (after the last completion)\n";
      else if (last == "isolation")
        out += "\nisolation: 5 initiators to one remote; initiator 0's read stays outstanding, its SO is held;\n"
               "initiators 1-4 post 2 NO requests each (UB: a Jetty each, one shared TP channel; RoCE: one "
               "shared QP)\n  stack  held   8 NO on the wire within (cycles)  delivered  held request on the wire\n";
      else
        out += "\nend-to-end-so (two-node model, ub-async): an SO read behind n outstanding reads of its Jetty\n"
               "  n  held  wait at the tracker ns  SO read latency ns  (lone read ns)\n";
    }
    if (r.scenario == "submit-to-wire")
      out += r.cycles >= 0 ? fmt::format("  {:<5} {:<6} {:>6}\n", r.mode, r.tag, r.cycles)
                           : fmt::format("  {:<5} {:<6} {:>6}  error completion ({})\n", r.mode, r.tag, "-",
                                         r.error_code == 1 ? "ordering not allowed under UNO" : "payload > MTU");
    else if (r.scenario == "wait-after-predecessors")
      out += fmt::format("  {:<5} {:>2}  {:<4} {:>9} {:>17} {:>15}\n", r.tag, r.predecessors, r.held ? "yes" : "no",
                         r.held_cycles, r.submit_to_wire_cycles, r.extra_wait_cycles);
    else if (r.scenario == "isolation")
      out += fmt::format("  {:<6} {:<5} {:>34} {:>10}  {}\n", r.stack, r.held ? "yes" : "no",
                         r.last_unordered_delivery_cycles, fmt::format("{}/8", r.unordered_delivered),
                         r.held ? fmt::format("{} cycles", r.held_request_wire_cycles) : std::string("-"));
    else
      out += fmt::format("  {}  {:<4} {:>22.2f} {:>19.2f}  ({:.2f})\n", r.predecessors, r.held ? "yes" : "no",
                         r.wait_ns, r.latency_ns, r.lone_latency_ns);
  }
  return out;
}

std::string ordering_csv(const std::vector<OrderingRow>& rows) {
  std::string out =
      "scenario,stack,mode,tag,cycles,predecessors,held,held_cycles,submit_to_wire_cycles,extra_wait_cycles,"
      "last_unordered_delivery_cycles,held_request_wire_cycles,wait_ns,latency_ns\n";
  for (const auto& r : rows)
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{:.4f},{:.4f}\n", r.scenario, r.stack, r.mode, r.tag,
                       r.cycles, r.predecessors, r.held ? 1 : 0, r.held_cycles, r.submit_to_wire_cycles,
                       r.extra_wait_cycles, r.last_unordered_delivery_cycles, r.held_request_wire_cycles, r.wait_ns,
                       r.latency_ns);
  return out;
}

}  // namespace ubsim
