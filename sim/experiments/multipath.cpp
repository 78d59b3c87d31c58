// multipath: one transfer of 4 KiB packets spread over k paths of
// different delays (textbook §7.5.3, spec §16): the verilated SACK sender
// chooses each packet's path (path_select: round robin or weighted), each
// path is its own 50 GB/s link and delay, the verilated SACK receiver holds
// what arrives after a hole (its reorder state) and delivers in order; the
// acks come back on the fastest path. A traffic source offers every message
// at once, so nothing but the engine and the paths binds. Measured per
// packet: first byte sent, arrival, in-order delivery; per case the
// completion (packet 0's first byte to the last byte delivered in order),
// the receiver's peak reorder bytes, its reorder drops and the bytes
// resent. Derived beside them: the same schedule worked by hand from the
// spec (every path a FIFO at the line rate, store and forward, delivery in
// order, a lost packet resent one RTO after its first send ended).
#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "area.h"
#include "experiment.h"
#include "simulation_run.h"
#include "latency.h"
#include "units.h"
#include "multipath_system.h"
#include "pipeline_limits.h"
#include "rtl_variant.h"

namespace ubsim {

namespace {

using V = json::Value;

struct Case {
  std::string name, what;
  uint32_t packets = 8;
  std::vector<double> delays_us;
  std::vector<uint32_t> weights;   // empty: round robin
  double rto_us = 20;
  int drop = -1;                   // PSN lost on its first transmission
  std::string limit;               // sack.reorder_limit ("" = the build maximum)
  bool fast_rtx = false;           // sack.fast_retransmit (the spec's table: off)
  int reorder_thresh = -1;         // sack.reorder_threshold (-1: as configured)
  std::string ack_path;            // sack.ack_path ("" = as configured)
  std::vector<std::pair<std::string, std::string>> set;   // further keys (the controller's memory side)
  bool controller_only = false;    // a case about the controller as the sender
};

// The spraying case from a controller whose bus and DRAM are faster than its
// send pipeline: its issue interval binds.
Case fast_memory_case() {
  Case c{"spray-8-fast-memory", "spray-8 from the controller with bus and DRAM at 2 Tbit/s (its issue interval binds)",
         2048, {1, 2, 3, 4, 5, 6, 7, 8}};
  c.set = {{"dram.bandwidth", "2Tbit/s"}, {"bus.bandwidth", "2Tbit/s"}};
  c.controller_only = true;
  return c;
}

// The cases of the spec's table, then the ones it asks to be reported.
std::vector<Case> all_cases() {
  return {
      {"rr-2x1us", "8 packets round robin over two 1 us paths", 8, {1, 1}},
      {"one-path", "8 packets on one 1 us path", 8, {1}},
      {"rr-1us-9us", "8 packets round robin, the second path 9 us", 8, {1, 9}},
      {"drop0", "packet 0 lost, resent one RTO (20 us) after its first send ended", 8, {1, 1}, {}, 20, 0},
      {"spray-8", "8 MiB as 2048 packets sprayed over 8 paths of 1..8 us", 2048, {1, 2, 3, 4, 5, 6, 7, 8}},
      {"spray-1", "the same 2048 packets on one 1 us path", 2048, {1}},
      {"split-5-3", "8 packets split 5 : 3 over 1 us and 9 us", 8, {1, 9}, {5, 3}},
      {"drop0-rto40", "packet 0 lost, RTO 40 us", 8, {1, 1}, {}, 40, 0},
      {"drop0-fast-thresh3", "packet 0 lost, fast retransmit once a PSN 3 above it is SACKed", 8, {1, 1}, {}, 20, 0, "",
       true, 3},
      {"spray-8-fast-rtx", "the spraying case with fast retransmit on (late packets look lost)", 2048,
       {1, 2, 3, 4, 5, 6, 7, 8}, {}, 20, -1, "", true},
      {"spray-8-thresh", "the spraying case, fast retransmit on, a hole resent only 1024 PSNs behind", 2048,
       {1, 2, 3, 4, 5, 6, 7, 8}, {}, 20, -1, "", true, 1024},
      {"spray-8-limit", "the spraying case with the reorder limit at 512 KiB, fast retransmit on", 2048,
       {1, 2, 3, 4, 5, 6, 7, 8}, {}, 20, -1, "512KiB", true},
      {"spray-8-fast-rtx-ack-data", "spray-8-fast-rtx with each ack on the path of the data it answers", 2048,
       {1, 2, 3, 4, 5, 6, 7, 8}, {}, 20, -1, "", true, -1, "data"},
      {"drop0-skew-fast", "packet 0 lost over 1 us / 9 us, fast retransmit once a PSN 3 above it is SACKed", 8, {1, 9}, {},
       20, 0, "", true, 3},
      {"drop0-skew-fast-ack-data", "drop0-skew-fast with each ack on the path of the data it answers", 8, {1, 9}, {}, 20,
       0, "", true, 3, "data"},
      fast_memory_case(),
  };
}

struct Derived {
  double done_us = 0, peak_bytes = 0, resent_bytes = 0;
  double recovery_us = -1;   // the lost packet's first byte sent to its delivery in order
};

// The schedule by hand: the sender hands the packets over in PSN order,
// packet i to the path weighted round robin gives it, once that path's
// transmit FIFO has room (one packet behind the one in serialization); it
// starts when the path is free, arrives after its serialization and the
// path's delay; delivery in PSN order (the latest arrival so far).
// With a loss the lost packet (SACK) or it and every later one (GoBackN)
// leave again one RTO after its first send ended, on the next paths in
// turn. Reorder bytes: payload arrived above the next PSN to deliver.
Derived derive(const Case& c, bool gbn, double t_pkt_us, double payload) {
  const size_t k = c.delays_us.size();
  std::vector<std::vector<double>> ends(k);   // per path: last byte out of each packet
  double handed = 0;                          // the latest hand-over (in order)
  size_t path = 0, taken = 0;
  auto next_path = [&]() {
    const size_t p = path;
    const uint32_t w = c.weights.empty() ? 1 : std::max<uint32_t>(1, c.weights[path]);
    if (++taken >= w) {
      taken = 0;
      path = (path + 1) % k;
    }
    return p;
  };
  auto send = [&](double at) {
    const size_t p = next_path();
    const auto& e = ends[p];
    handed = std::max({handed, at, e.size() >= 2 ? e[e.size() - 2] : 0.0});   // FIFO room
    const double start = std::max(handed, e.empty() ? 0.0 : e.back());
    ends[p].push_back(start + t_pkt_us);
    return std::make_pair(start + t_pkt_us, start + t_pkt_us + c.delays_us[p]);   // (last byte out, arrival)
  };
  std::vector<double> arrive(c.packets);
  double lost_end = 0;
  for (uint32_t i = 0; i < c.packets; ++i) {
    const auto [end, at] = send(0);
    arrive[i] = at;
    if (static_cast<int>(i) == c.drop) lost_end = end;
  }
  const double rto = c.rto_us;
  Derived d;
  std::vector<double> dropped_arrivals;   // GoBackN: the receiver's drops before the resend
  if (c.drop >= 0) {
    const double resend_at = lost_end + rto;
    const uint32_t last = gbn ? c.packets : static_cast<uint32_t>(c.drop) + 1;
    for (uint32_t i = static_cast<uint32_t>(c.drop); i < last; ++i) arrive[i] = send(resend_at).second;
    d.resent_bytes = (last - static_cast<uint32_t>(c.drop)) * payload;
    double in_order = 0;   // delivered once it and every lower PSN arrived
    for (uint32_t i = 0; i <= static_cast<uint32_t>(c.drop); ++i) in_order = std::max(in_order, arrive[i]);
    d.recovery_us = in_order - (lost_end - t_pkt_us);
  }
  double latest = 0;
  for (uint32_t i = 0; i < c.packets; ++i) latest = std::max(latest, arrive[i]);
  d.done_us = latest;
  // reorder bytes over time (SACK keeps what arrives above a hole)
  if (!gbn) {
    std::vector<std::pair<double, uint32_t>> events;
    for (uint32_t i = 0; i < c.packets; ++i) events.emplace_back(arrive[i], i);
    std::sort(events.begin(), events.end());
    std::vector<bool> got(c.packets, false);
    uint32_t next = 0;
    double held = 0;
    for (const auto& [t, i] : events) {
      got[i] = true;
      if (i != next) held += payload;
      while (next < c.packets && got[next]) {
        ++next;
        if (next < c.packets && got[next]) held -= payload;
      }
      d.peak_bytes = std::max(d.peak_bytes, held);
    }
  }
  return d;
}

struct Measured {
  double done_us = 0, peak_bytes = 0, resent_bytes = 0, drops = 0, timeouts = 0;
  double recovery_us = -1;  // the lost packet's first byte sent to its delivery in order (-1: no loss)
  double interval_ns = 0;   // first transmissions: packet 0's start to the last's, per packet
  double interval_ns_derived = 0;   // the controller's: the slowest resource's time per packet
  std::string binding;              // ... that resource
  bool exactly_once = false, in_order = false;
  V gantt = V::array();
};

// What both senders' runs report of the receiving and sending engines.
V engine_figures(V row, const SackReceiverBridge& rx, const SackSenderBridge& tx) {
  return row.add("peak", V::number(static_cast<double>(rx.reorder_peak())))
      .add("drops", V::number(static_cast<double>(rx.reorder_drops())))
      .add("resent", V::number(static_cast<double>(tx.retransmitted_bytes())))
      .add("timeouts", V::number(static_cast<double>(tx.timeouts())));
}

// A child's row back as the figures (the fields one sender reports only are optional).
Measured measured_from(const V& r) {
  Measured m;
  m.done_us = r.num("done_us");
  m.peak_bytes = r.num("peak");
  m.drops = r.num("drops");
  m.resent_bytes = r.num("resent");
  m.timeouts = r.num("timeouts");
  m.exactly_once = r.flag("once");
  m.in_order = r.flag("in_order");
  m.interval_ns = r.num("interval_ns");
  m.recovery_us = r.num("recovery_us");
  if (const V* g = r.get("gantt")) m.gantt = *g;
  if (r.get("binding")) {
    m.interval_ns_derived = r.num("interval_ns_derived");
    m.binding = r.str("binding");
  }
  return m;
}

Measured simulate(const Config& base, const Case& c, bool gbn, size_t gantt_max) {
  const auto rows = rows_in_child([&] {
    SimulationRun run;
    Config cfg = base;
    cfg.apply(key::sack_rto, fmt::format("{}us", c.rto_us), "multipath case " + c.name);
    cfg.apply(key::sack_fast_retransmit, c.fast_rtx ? "true" : "false", "multipath case " + c.name);
    if (c.reorder_thresh >= 0)
      cfg.apply(key::sack_reorder_threshold, std::to_string(c.reorder_thresh), "multipath case " + c.name);
    if (!c.limit.empty()) cfg.apply(key::sack_reorder_limit, c.limit, "multipath case " + c.name);
    if (!c.ack_path.empty()) cfg.apply(key::sack_ack_path, c.ack_path, "multipath case " + c.name);
    SackMode mode;
    mode.gbn = gbn;
    mode.paths = static_cast<uint32_t>(c.delays_us.size());
    mode.path_weights = 0;
    for (size_t p = 0; p < 8; ++p)
      mode.path_weights |= (p < c.weights.size() ? c.weights[p] : 1u) << (4 * p);
    std::vector<uint64_t> delays;
    for (double us : c.delays_us) delays.push_back(static_cast<uint64_t>(std::llround(us * 1e9)));
    std::set<uint32_t> drop;
    if (c.drop >= 0) drop.insert(static_cast<uint32_t>(c.drop));
    auto& sys = *new MultipathSystem("sys", cfg, mode, delays, drop);   // lives until the process exits
    const uint32_t n = c.packets;
    std::vector<uint64_t> sent(n, 0), arrived(n, 0), delivered(n, 0);
    std::vector<uint32_t> path(n, 0);
    std::vector<uint8_t> deliveries(n, 0);
    bool in_order = true, bogus = false;
    uint32_t next = 0;
    uint64_t t0 = UINT64_MAX, last = 0;
    sys.data_wire().on_sent = [&](const Packet& p, uint64_t start, uint64_t end) {
      sys.sender().sent(p.psn, end);
      if (p.psn < n && !sent[p.psn]) {
        sent[p.psn] = start;
        path[p.psn] = p.path;
      }
      t0 = std::min(t0, start);
    };
    sys.receiver().on_arrive = [&](const Packet& p, uint64_t at) {
      if (p.psn < n && !arrived[p.psn]) arrived[p.psn] = at;
    };
    sys.receiver().on_deliver = [&](uint32_t msg, uint32_t, uint64_t at) {
      if (msg >= n) {
        bogus = true;
        return;
      }
      if (deliveries[msg]++ == 0) delivered[msg] = at;
      if (msg != next) in_order = false;
      next = msg + 1;
      last = std::max(last, at);
    };
    run.start();
    const uint32_t payload = static_cast<uint32_t>(cfg.count(key::transport_mtu));
    for (uint32_t i = 0; i < n; ++i) sys.sender().submit(i, payload, 0);
    run.run(sc_core::sc_time(0.1, sc_core::SC_SEC).value());
    run.finish();
    bool once = !bogus;
    for (uint32_t i = 0; i < n; ++i) once = once && deliveries[i] == 1;
    V gantt = V::array();
    for (uint32_t i = 0; i < n && i < gantt_max; ++i)
      gantt.items.push_back(V::array({V::number(i), V::number(path[i]), V::number((sent[i] - t0) / 1e9),
                                      V::number((arrived[i] - t0) / 1e9), V::number((delivered[i] - t0) / 1e9)}));
    const double interval = n > 1 ? static_cast<double>(sent[n - 1] - sent[0]) / (n - 1) / 1e6 : 0;
    const bool lost = c.drop >= 0 && static_cast<uint32_t>(c.drop) < n;
    const double recovery = lost ? (delivered[c.drop] - sent[c.drop]) / 1e9 : -1;
    return std::vector<V>{engine_figures(V::object()
                                             .add("done_us", V::number((last - t0) / 1e9))
                                             .add("recovery_us", V::number(recovery))
                                             .add("interval_ns", V::number(interval))
                                             .add("once", V::boolean(once))
                                             .add("in_order", V::boolean(in_order && !bogus))
                                             .add("gantt", gantt),
                                         sys.receiver(), sys.sender())};
  });
  return measured_from(rows.front());
}

// Whether the case's paths are wire.latency + p x step (what the two-node
// system's multipath keys express) and, if so, that step.
bool linear_paths(const Case& c, double& step_us) {
  step_us = c.delays_us.size() > 1 ? c.delays_us[1] - c.delays_us[0] : 0;
  for (size_t p = 0; p < c.delays_us.size(); ++p)
    if (std::abs(c.delays_us[p] - (c.delays_us[0] + static_cast<double>(p) * step_us)) > 1e-9) return false;
  return c.weights.empty();
}

// The same case with node A's UB controller as the sender: one write of the
// case's packets along ub-async, its send pipeline segmenting them, the
// transport inside the path (the same verilated engines) over the paths.
Measured simulate_controller(const Config& base, const Case& c, bool gbn) {
  double step_us = 0;
  linear_paths(c, step_us);
  const auto rows = rows_in_child([&] {
    Config cfg = base;
    const std::string why = "multipath case " + c.name + " (controller)";
    cfg.apply(key::transport_in_paths, "true", why);
    cfg.apply(key::transport_mode, gbn ? "gbn" : "sack", why);
    cfg.apply(key::wire_latency, fmt::format("{}us", c.delays_us[0]), why);
    cfg.apply(key::multipath_paths, std::to_string(c.delays_us.size()), why);
    cfg.apply(key::multipath_delay_step, fmt::format("{}us", step_us), why);
    cfg.apply(key::sack_rto, fmt::format("{}us", c.rto_us), why);
    cfg.apply(key::sack_fast_retransmit, c.fast_rtx ? "true" : "false", why);
    if (c.reorder_thresh >= 0) cfg.apply(key::sack_reorder_threshold, std::to_string(c.reorder_thresh), why);
    if (!c.limit.empty()) cfg.apply(key::sack_reorder_limit, c.limit, why);
    if (!c.ack_path.empty()) cfg.apply(key::sack_ack_path, c.ack_path, why);
    cfg.apply(key::workload_ops, "1", why);
    cfg.apply(key::workload_warmup, "0", why);
    cfg.apply(key::workload_size, std::to_string(c.packets * cfg.count(key::transport_mtu)) + "B", why);
    for (const auto& [key, value] : c.set) cfg.apply(key, value, why);
    const uint32_t n = c.packets;
    std::vector<uint64_t> start(n, 0), delivered(n, 0);
    std::vector<uint8_t> deliveries(n, 0);
    bool in_order = true, bogus = false;
    uint32_t next = 0;
    uint64_t t0 = UINT64_MAX, last = 0;
    PathTransport* t = nullptr;
    LatencyOptions lo;
    lo.path = "ub-async";
    lo.verb = Verb::Write;
    if (c.drop >= 0) lo.drop = {static_cast<uint32_t>(c.drop)};
    lo.on_system = [&](TwoNodeSystem& sys) {
      t = sys.transport_from(NodeId::A);
      TransportWire& w = *sys.transport_wire_from(NodeId::A);
      w.on_sent = [&start, &t0, n, prev = w.on_sent](const Packet& p, uint64_t s, uint64_t e) {
        prev(p, s, e);
        if (p.psn < n && !start[p.psn] && !p.retransmit) start[p.psn] = s;
        t0 = std::min(t0, s);
      };
      t->on_delivered = [&](uint32_t channel, uint32_t psn, uint64_t at) {
        if (channel != 0 || psn >= n) {
          bogus = true;
          return;
        }
        if (deliveries[psn]++ == 0) delivered[psn] = at;
        if (psn != next) in_order = false;
        next = psn + 1;
        last = std::max(last, at);
      };
    };
    const LatencyResult res = run_latency(cfg, lo);
    bool once = !bogus;
    for (uint32_t i = 0; i < n; ++i) once = once && deliveries[i] == 1;
    const double interval = n > 1 ? static_cast<double>(start[n - 1] - start[0]) / (n - 1) / 1e6 : 0;
    const bool lost = c.drop >= 0 && static_cast<uint32_t>(c.drop) < n;
    const double recovery = lost ? (static_cast<double>(delivered[c.drop]) - static_cast<double>(start[c.drop])) / 1e9 : -1;
    return std::vector<V>{engine_figures(V::object()
                                             .add("done_us", V::number((last - t0) / 1e9))
                                             .add("recovery_us", V::number(recovery))
                                             .add("interval_ns", V::number(interval))
                                             .add("interval_ns_derived", V::number(res.derived_stream_ns / res.packets))
                                             .add("binding", V::string(res.binding))
                                             .add("once", V::boolean(once))
                                             .add("in_order", V::boolean(in_order && !bogus)),
                                         t->receiver(0), t->sender(0))};
  });
  return measured_from(rows.front());
}

ResultSet run(Config& cfg, const Options& o) {
  std::vector<Case> cases;
  for (const auto& name : o.list("--cases"))
    for (const Case& c : all_cases())
      if (c.name == name) cases.push_back(c);
  if (o.text("--drop") != "case") {
    const std::string& text = o.text("--drop");
    char* end = nullptr;
    const unsigned long long psn = std::strtoull(text.c_str(), &end, 10);
    for (Case& c : cases) {
      if (text.empty() || *end || text[0] == '-' || psn >= c.packets)
        throw CliError(fmt::format("option --drop: '{}' is not a PSN of case {} (0..{}, or case)", text, c.name,
                                   c.packets - 1));
      c.drop = static_cast<int>(psn);
    }
  }
  const auto modes = o.list("--transport");
  // the window the spraying case needs (2048 packets in flight), unless one is given
  if (cfg.source(key::sack_window) == "default" && cfg.count(key::sack_window) < 2048 && rtl_variant::kSackMaxWindow >= 2048)
    cfg.apply(key::sack_window, "2048", "multipath");
  validate_config(cfg);
  const double rate = cfg.value(key::wire_rate);
  const double payload = static_cast<double>(cfg.count(key::transport_mtu));
  const double t_pkt_us = (payload + static_cast<double>(cfg.count(key::transport_header_bytes))) / rate * 1e6;
  ResultSet rs;
  const auto senders = o.list("--sender");
  for (const Case& c : cases)
    for (const auto& mode : modes)
      for (const auto& sender : senders) {
        const bool gbn = mode == "gbn", controller = sender == "controller";
        double step_us = 0;
        if (controller && !linear_paths(c, step_us)) continue;   // (the weighted split: a source only)
        if (!controller && c.controller_only) continue;
        const Derived d = derive(c, gbn, t_pkt_us, payload);
        // GoBackN drops whatever arrives out of order: over paths of different
        // delays (or with fast retransmit's resends) it is not worked by hand;
        // the controller hands packets over at its own issue interval
        const bool skewed = std::adjacent_find(c.delays_us.begin(), c.delays_us.end(), std::not_equal_to<>()) !=
                            c.delays_us.end();
        const bool by_hand = !(gbn && skewed) && !c.fast_rtx && c.limit.empty() && !controller;
        const Measured m = controller ? simulate_controller(cfg, c, gbn) : simulate(cfg, c, gbn, o.count("--gantt-packets"));
        // derived bound on the interval between packets: a source's, one
        // packet's serialization shared by the k paths; the controller's,
        // the slowest resource its packets cross (as latency derives it)
        const double interval_derived =
            controller ? m.interval_ns_derived : t_pkt_us * 1e3 / static_cast<double>(c.delays_us.size());
        const std::string binding = controller ? m.binding : "paths";
        V delays = V::array();
        for (double us : c.delays_us) delays.items.push_back(V::number(us));
        rs.rows.push_back(V::object()
                              .add("case", V::string(c.name))
                              .add("transport", V::string(mode))
                              .add("sender", V::string(sender))
                              .add("what", V::string(c.what))
                              .add("packets", V::number(c.packets))
                              .add("path_delays_us", delays)
                              .add("done_us", V::number(m.done_us))
                              .add("done_us_derived", by_hand ? V::number(d.done_us) : V::null())
                              .add("peak_reorder_bytes", V::number(m.peak_bytes))
                              .add("peak_reorder_bytes_derived", gbn || !by_hand ? V::null() : V::number(d.peak_bytes))
                              .add("reorder_drops", V::number(m.drops))
                              .add("resent_bytes", V::number(m.resent_bytes))
                              .add("resent_bytes_derived", by_hand ? V::number(d.resent_bytes) : V::null())
                              .add("timeouts", V::number(m.timeouts))
                              .add("recovery_us", m.recovery_us < 0 ? V::null() : V::number(m.recovery_us))
                              .add("recovery_us_derived", by_hand && d.recovery_us >= 0 ? V::number(d.recovery_us) : V::null())
                              .add("send_interval_ns", V::number(m.interval_ns))
                              .add("send_interval_ns_derived", V::number(interval_derived))
                              .add("binding", V::string(binding))
                              .add("exactly_once", V::boolean(m.exactly_once))
                              .add("in_order", V::boolean(m.in_order))
                              .add("gantt", m.gantt));
      }
  rs.table_omit = {"gantt", "what", "path_delays_us"};
  rs.notes = fmt::format(
      "t = 0: packet 0's first byte leaving the sender; done_us: the last byte delivered in order by the receiving\n"
      "SACK engine. 4 KiB packets + {} B header at {:g} GB/s ({:.2f} ns each); sack.fast_retransmit off; acks on the\n"
      "{} path. *_derived: the schedule by hand (packets handed over in order, each path's transmit FIFO one\n"
      "packet behind the one in serialization, delivery in order, a loss resent one RTO after its first send\n"
      "ended); none where the hand schedule does not apply (GoBackN over skewed paths drops what arrives early;\n"
      "fast retransmit; a reorder limit; the controller, which hands packets over at its own interval). GoBackN\n"
      "keeps nothing above a hole (no reorder peak to derive). send_interval_ns_derived / binding: the resource\n"
      "that bounds the interval between packets (a source: the paths; the controller: as latency derives it).\n",
      cfg.count(key::transport_header_bytes), rate / 1e9, t_pkt_us * 1e3,
      cfg.choice(key::sack_ack_path) == "data" ? "data's own" : "fastest");
  return rs;
}

std::vector<std::string> case_names() {
  std::vector<std::string> out;
  for (const Case& c : all_cases()) out.push_back(c.name);
  return out;
}

std::string all_case_names() {
  std::string s;
  for (const auto& n : case_names()) s += (s.empty() ? "" : ",") + n;
  return s;
}

}  // namespace

const Experiment& multipath_experiment() {
  static const Experiment e{
      "multipath",
      "one transfer sprayed over k paths: completion, reorder bytes held, bytes resent (spec §16)",
      "Each case sends its packets from a traffic source through the verilated SACK sender, which spreads them\n"
      "over the case's paths (round robin, or weighted), each a 50 GB/s link with its own delay, to the verilated\n"
      "SACK receiver (its reorder state: sack.reorder_limit), acks back on the fastest path (sack.ack_path). Per\n"
      "case: completion, peak reorder bytes, reorder drops, bytes resent, measured beside the schedule worked by\n"
      "hand; per packet (gantt) its path and when it was sent, arrived and was delivered in order. With --sender\n"
      "controller the same cases from node A's UB controller writing the message (its send pipeline, bus and DRAM\n"
      "in the path), with what binds its send interval. docs/fabric.md.",
      {opt_names("--cases", "LIST", case_names(), all_case_names(), "the cases to run, comma-separated"),
       opt_names("--transport", "LIST", {"sack", "gbn"}, "sack,gbn", "SACK and/or GoBackN"),
       opt_names("--sender", "LIST", {"source", "controller"}, "source,controller",
                 "what feeds the SACK sender: a traffic source offering every packet at once, and/or node A's UB\n"
                 "controller writing the message along ub-async (its send pipeline's issue interval; cases whose\n"
                 "paths are wire.latency + p x step, not the weighted split)"),
       opt_text("--drop", "PSN", "case", "lose this PSN's first transmission in every case (case: as each case says)"),
       opt_count("--gantt-packets", "N", 0, 4096, "64", "packets per case in the gantt table")},
      {"case", "transport", "sender"},
      {{"case", "", "the case (ubsim help multipath lists them)"},
       {"transport", "", "sack or gbn"},
       {"sender", "", "source (a traffic source into the SACK sender) or controller (node A's UB send pipeline, one write)"},
       {"what", "", "the case in words"},
       {"packets", "packets", "4 KiB packets sent"},
       {"path_delays_us", "us", "each path's propagation"},
       {"done_us", "us", "packet 0's first byte sent to the last byte delivered in order"},
       {"done_us_derived", "us", "derived: the same by hand"},
       {"peak_reorder_bytes", "bytes", "most payload the receiver held after a hole (its RTL counter)"},
       {"peak_reorder_bytes_derived", "bytes", "derived: the same by hand (SACK)"},
       {"reorder_drops", "packets", "packets dropped at the reorder limit"},
       {"resent_bytes", "bytes", "payload bytes the sender resent"},
       {"resent_bytes_derived", "bytes", "derived: the lost packet (SACK) or it and every later one (GoBackN)"},
       {"timeouts", "events", "retransmit timer expiries"},
       {"recovery_us", "us", "the lost packet's first byte sent to its delivery in order (null: no loss)"},
       {"recovery_us_derived", "us", "derived: the same by hand"},
       {"send_interval_ns", "ns", "first transmissions: packet 0's first byte to the last packet's, per packet"},
       {"send_interval_ns_derived", "ns", "derived: its bound, the binding resource's time per packet (a source: one packet's serialization / paths)"},
       {"binding", "", "derived: the resource that sets send_interval_ns_derived (paths; the controller: latency's binding)"},
       {"exactly_once", "", "every packet delivered once"},
       {"in_order", "", "delivered in PSN order"},
       {"gantt", "", "[psn, path, sent us, arrived us, delivered us] of the first --gantt-packets packets"}},
      "multipath",
      "plot_multipath.py",
      true,
      run};
  return e;
}

namespace {

// The smallest build maximum (UBSIM_RTL_SACK_REORDER_MAX: a power of two,
// at least 4 KiB) that admits a runtime limit.
uint64_t build_maximum_for(uint64_t limit) {
  uint64_t m = 4096;
  while (m < limit) m *= 2;
  return m;
}

ResultSet run_reorder_limit(Config& cfg, const Options& o) {
  // the window the spraying case needs (2048 packets in flight), unless one is given
  if (cfg.source(key::sack_window) == "default" && cfg.count(key::sack_window) < 2048 && rtl_variant::kSackMaxWindow >= 2048)
    cfg.apply(key::sack_window, "2048", "reorder-limit");
  validate_config(cfg);
  Case c;
  for (const Case& k : all_cases())
    if (k.name == "spray-8") c = k;
  c.fast_rtx = o.text("--fast-retransmit") == "on";
  const bool area = o.text("--area") == "yes";
  ResultSet rs;
  for (const std::string& text : split_list(o.text("--limits"))) {
    Config point = cfg;   // checks the value (one line naming the key on error)
    point.apply(key::sack_reorder_limit, text, "reorder-limit --limits");
    const uint64_t limit = point.count(key::sack_reorder_limit);
    c.limit = text;
    const Measured m = simulate(cfg, c, false, 0);
    const uint64_t maximum = build_maximum_for(limit);
    V cells = V::null(), ff = V::null(), mem = V::null();
    if (area) {
      RtlOptions opts = this_build_rtl_options();
      apply_rtl_override(opts, "UBSIM_RTL_SACK_REORDER_MAX=" + std::to_string(maximum));
      const AreaFigures f = synthesize_area(select_area_blocks(opts, "sack_receiver").front(), default_area_cache_dir());
      cells = V::number(static_cast<double>(f.coarse_cells));
      ff = V::number(static_cast<double>(f.ff_bits));
      mem = V::number(static_cast<double>(f.mem_bits));
    }
    rs.rows.push_back(V::object()
                          .add("reorder_limit_bytes", V::number(static_cast<double>(limit)))
                          .add("done_us", V::number(m.done_us))
                          .add("peak_reorder_bytes", V::number(m.peak_bytes))
                          .add("reorder_drops", V::number(m.drops))
                          .add("resent_bytes", V::number(m.resent_bytes))
                          .add("timeouts", V::number(m.timeouts))
                          .add("exactly_once", V::boolean(m.exactly_once && m.in_order))
                          .add("build_maximum_bytes", V::number(static_cast<double>(maximum)))
                          .add("receiver_cells", cells)
                          .add("receiver_ff_bits", ff)
                          .add("receiver_mem_bits", mem)
                          .add("reorder_buffer_bytes_derived", V::number(static_cast<double>(maximum))));
  }
  rs.notes = fmt::format(
      "The spraying case (2048 x 4 KiB packets round robin over 8 paths of 1..8 us, SACK, RTO 20 us, fast\n"
      "retransmit {}) at each reorder limit. build_maximum_bytes: the smallest RTL build maximum\n"
      "(UBSIM_RTL_SACK_REORDER_MAX, a power of two) that admits the limit; receiver_*: the SACK receiver\n"
      "synthesized with it (yosys generic; its reorder counter and limit compare widen with it);\n"
      "reorder_buffer_bytes_derived: the payload memory that maximum needs (held in TLM, not synthesized).\n",
      c.fast_rtx ? "on" : "off");
  return rs;
}

}  // namespace

const Experiment& reorder_limit_experiment() {
  static const Experiment e{
      "reorder-limit",
      "the receiver's reorder limit against the spraying case: completion, drops, resends, area (spec §16)",
      "The multipath spraying case (8 MiB over 8 paths of 1..8 us) run at each reorder limit: completion time,\n"
      "reorder drops, bytes resent and timeouts, beside the SACK receiver's area at the build maximum that\n"
      "admits the limit (yosys, cached in build-area/) and the payload buffer that maximum needs (derived).\n"
      "A limit below the transfer's reorder peak drops packets above the hole; each is resent. docs/fabric.md.",
      {opt_text("--limits", "LIST", "256KiB,512KiB,1MiB,1344KiB,1348KiB,2MiB",
                "reorder limits (sack.reorder_limit values), comma-separated"),
       opt_choice("--fast-retransmit", {"off", "on"}, "off", "the sender's fast retransmit (the spec's table: off)"),
       opt_choice("--area", {"yes", "no"}, "yes", "synthesize the receiver at each build maximum (yosys)")},
      {"reorder_limit_bytes"},
      {{"reorder_limit_bytes", "bytes", "sack.reorder_limit"},
       {"done_us", "us", "packet 0's first byte sent to the last byte delivered in order"},
       {"peak_reorder_bytes", "bytes", "most payload the receiver held after a hole (its RTL counter)"},
       {"reorder_drops", "packets", "packets dropped at the reorder limit"},
       {"resent_bytes", "bytes", "payload bytes the sender resent"},
       {"timeouts", "events", "retransmit timer expiries"},
       {"exactly_once", "", "every packet delivered once, in PSN order"},
       {"build_maximum_bytes", "bytes", "the smallest build maximum admitting the limit (UBSIM_RTL_SACK_REORDER_MAX)"},
       {"receiver_cells", "cells", "the SACK receiver at that maximum: word-level cells (yosys; null with --area no)"},
       {"receiver_ff_bits", "bits", "... its flip-flop bits"},
       {"receiver_mem_bits", "bits", "... its inferred memory bits"},
       {"reorder_buffer_bytes_derived", "bytes", "derived: the payload buffer the maximum needs (TLM, not synthesized)"}},
      "reorder_limit",
      "plot_reorder_limit.py",
      true,
      run_reorder_limit};
  return e;
}

}  // namespace ubsim
