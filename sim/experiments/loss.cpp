#include "loss.h"
#include "pipeline_limits.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "experiment.h"
#include "simulation_run.h"
#include "histogram.h"
#include "rtl_variant.h"
#include "transport_system.h"

namespace ubsim {

namespace {
constexpr uint64_t kMaxLossPackets = 10000000;   // per point: a delivery flag per packet
uint32_t packets_per_message(const Config& c) {
  return packets_of(c.count(key::workload_size), c.count(key::transport_mtu));
}
}  // namespace

double loss_watchdog_s(const Config& c) {
  const double rto_s = static_cast<double>(c.fs(key::sack_rto)) / 1e15;
  const double rtt_s = 2 * static_cast<double>(c.fs(key::loss_wire_latency) + c.fs(key::loss_reorder_delay)) / 1e15;
  const double transfer_s = static_cast<double>(c.count(key::loss_messages)) *
                            static_cast<double>(c.count(key::workload_size) +
                                                packets_per_message(c) * c.count(key::transport_header_bytes)) /
                            c.value(key::wire_rate);
  // the longest backoff series, a round trip per retry, and the stream many times over
  return rto_s * std::pow(c.value(key::sack_rto_backoff), c.value(key::sack_max_retries) + 1) +
         rtt_s * (c.value(key::sack_max_retries) + 4) + 10e-6 + 20.0 * transfer_s;
}

void check_loss_config(const Config& c) {
  // a message is ceil(size / MTU) packets; every packet of a point is tracked
  const uint64_t packets = c.count(key::loss_messages) * packets_per_message(c);
  if (packets > kMaxLossPackets)
    throw ConfigError(c.source(key::workload_size), key::workload_size.name,
                      fmt::format("{} messages of {} packets: more than {} packets in one point", c.count(key::loss_messages),
                                  packets_per_message(c), kMaxLossPackets));
}

void default_loss_message(Config& c) {
  // the spec's loss experiment moves 4 KiB messages unless a size is given
  if (c.source(key::workload_size) == "default") c.apply(key::workload_size, "4KiB", "the loss experiment's default");
}

void check_loss_horizon(const Config& c) {
  const double horizon_s = static_cast<double>(kHorizonFs) / 1e15;
  const double limit_s = loss_watchdog_s(c);
  if (limit_s > 0.9 * horizon_s)
    throw ConfigError(c.source(key::sack_rto), key::sack_rto.name,
                      fmt::format("with sack.rto_backoff {} and sack.max_retries {} the retry budget and the stream "
                                  "span about {:.4g} s, beyond the simulator's time horizon of {:.1f} s (2^64 fs)",
                                  c.exact(key::sack_rto_backoff).text(), c.count(key::sack_max_retries), limit_s, horizon_s));
}

LossPoint run_loss_point(const Config& base, const std::string& mode, double loss,
                         const std::vector<uint32_t>& drop_once, const std::string& trace_prefix) {
  SimulationRun run;   // before any sc_time exists
  validate_config(base);
  check_loss_config(base);
  check_loss_horizon(base);
  const SackMode sm{mode == "gbn", static_cast<uint32_t>(base.count(key::loss_first_psn))};
  const double ack_loss = base.value(key::loss_ack) < 0 ? loss : base.value(key::loss_ack);
  std::set<uint32_t> drops;
  for (uint32_t off : drop_once) drops.insert((sm.first_psn + off) & 0xffffffu);
  const auto messages = base.count(key::loss_messages);
  const uint64_t size = base.count(key::workload_size);
  const uint64_t mtu = base.count(key::transport_mtu);
  const uint32_t pkts = packets_of(size, mtu);
  const uint64_t packets = messages * pkts;
  const uint32_t header = static_cast<uint32_t>(base.count(key::transport_header_bytes));
  const double rate = base.value(key::wire_rate);
  const int window = static_cast<int>(base.count(key::sack_window));
  // lives until the (child) process exits
  auto& sys = *new TransportSystem("transport", base, sm, loss, ack_loss, std::move(drops));

  // The engines carry packets: packet k of message i is tagged i x pkts + k
  // (its PSN follows from the order the sender takes them). A message is
  // accepted with its first packet and delivered with its last, its packets
  // in order and each once.
  std::vector<uint64_t> accepted(messages, 0);
  std::vector<uint8_t> seen(packets, 0);
  LatencyHistogram lat;
  uint64_t delivered = 0, delivered_packets = 0, dup_deliveries = 0, last_fs = 0, next_expected = 0;
  bool in_order = true, bogus = false;
  sys.sender().on_accepted = [&](uint32_t tag, uint64_t at) {
    if (tag < packets && tag % pkts == 0) accepted[tag / pkts] = at;
  };
  sys.receiver().on_deliver = [&](uint32_t tag, uint32_t, uint64_t at) {
    if (tag >= packets) {
      bogus = true;
      return;
    }
    if (seen[tag]) {
      ++dup_deliveries;
      return;
    }
    seen[tag] = 1;
    ++delivered_packets;
    if (tag != next_expected) in_order = false;
    next_expected = tag + 1;
    if (tag % pkts == pkts - 1) {   // the message's last packet: all of it is there, in order
      ++delivered;
      lat.add(at - accepted[tag / pkts]);
      last_fs = at;
    }
  };
  // "all deliverable": the first time every PSN has reached the receiver
  std::vector<uint8_t> arrived(packets, 0);
  uint64_t distinct = 0, complete_fs = 0;
  sys.receiver().on_arrive = [&](const Packet& pk, uint64_t at) {
    const uint32_t psn = pk.psn;
    const uint32_t off = (psn - sm.first_psn) & 0xffffffu;
    if (off < packets && !arrived[off]) {
      arrived[off] = 1;
      if (++distinct == packets) complete_fs = at;
    }
  };
  if (!trace_prefix.empty()) {
    run.trace(sys.sender(), trace_prefix + "." + mode + ".sack_tx.fst");
    run.trace(sys.receiver(), trace_prefix + "." + mode + ".sack_rx.fst");
  }
  run.start();
  for (uint64_t i = 0; i < messages; ++i)
    for (uint32_t k = 0; k < pkts; ++k)
      sys.sender().submit(static_cast<uint32_t>(i * pkts + k), packet_payload(size, mtu, k), 0);
  // Watchdog: beyond any recovery the retry budget allows (the longest
  // backoff series), plus the time to send everything many times over.
  const double limit_s = loss_watchdog_s(base);
  run.run(sc_core::sc_time(limit_s, sc_core::SC_SEC).value());
  run.finish();

  LossPoint p;
  p.mode = mode;
  p.loss = loss;
  p.window = window;
  p.ack_loss = ack_loss;
  p.messages = messages;
  p.size_bytes = size;
  p.packets_per_message = pkts;
  p.delivered = delivered;
  p.failed = sys.sender().failed();
  p.exactly_once = delivered == messages && delivered_packets == packets && dup_deliveries == 0 && !bogus;
  p.in_order = in_order && !bogus;
  const uint64_t first = accepted.empty() ? 0 : *std::min_element(accepted.begin(), accepted.end());
  const double span_s = static_cast<double>(last_fs - first) / 1e15;
  p.finish_ns = static_cast<double>(last_fs - first) / 1e6;
  p.complete_ns = complete_fs ? static_cast<double>(complete_fs - first) / 1e6 : 0;
  p.goodput_gbps = span_s > 0 ? static_cast<double>(delivered) * static_cast<double>(size) * 8 / span_s / 1e9 : 0;
  p.retransmitted_bytes = sys.sender().retransmitted_bytes();
  p.timeouts = sys.sender().timeouts();
  p.retransmits = sys.sender().retransmits();
  p.duplicates = sys.receiver().duplicates();
  p.reorder_peak_bytes = sys.receiver().reorder_peak();
  p.reorder_drops = sys.receiver().reorder_drops();
  p.lost_packets = sys.data_wire().lost() + sys.ack_wire().lost();
  p.p50_ns = lat.quantile_ns(0.50);
  p.p99_ns = lat.quantile_ns(0.99);
  p.max_ns = lat.max_ns();
  // derived: payload share of the line, and the modes' simple loss models
  // a packet on average: the message's bytes and headers over its packets
  const double bytes = static_cast<double>(size) / pkts;
  const double t_pkt = (bytes + header) / rate;
  const double t_ack = (header + (sm.gbn ? 0 : window / 8)) / rate;
  const double rtt = 2 * static_cast<double>(base.fs(key::loss_wire_latency)) / 1e15 + t_pkt + t_ack;
  p.line_gbps = rate * 8 / 1e9 * bytes / (bytes + header);
  // packets sent before a loss is known (at most the window)
  const double in_flight = std::min(std::ceil(rtt / t_pkt), static_cast<double>(window));
  p.derived_goodput_gbps = sm.gbn ? p.line_gbps * (1 - loss) / (1 + loss * in_flight) : p.line_gbps * (1 - loss);
  if (!p.exactly_once && delivered < messages && !p.failed)
    throw std::runtime_error(fmt::format(
        "loss: stopped at {:.3f} us simulated (watchdog {} s): {} of {} messages delivered, next expected packet {} (stuck); "
        "sender: {} outstanding, {} timeouts, {} retransmits",
        sc_core::sc_time_stamp().to_seconds() * 1e6, limit_s, delivered, messages, next_expected,
        sys.sender().outstanding(), p.timeouts, p.retransmits));
  return p;
}

std::vector<json::Value> run_loss(const Config& base, const LossOptions& o) {
  std::vector<json::Value> out;
  std::vector<int> windows = o.windows;
  if (windows.empty()) windows.push_back(static_cast<int>(base.value(key::sack_window)));
  for (const auto& mode : o.modes)
   for (int window : windows)
    for (double loss : o.losses) {
      const bool first_of_mode = window == windows.front() && loss == o.losses.front();
      Config cfg = base;
      default_loss_message(cfg);
      cfg.set_by_experiment(key::sack_window, "loss", fmt::format("{}", window));
      for (auto& row : rows_in_child([&] {
             return std::vector<json::Value>{
                 loss_row(run_loss_point(cfg, mode, loss, o.drop_once, first_of_mode ? o.trace_prefix : ""))};
           }))
        out.push_back(std::move(row));
    }
  return out;
}

json::Value loss_row(const LossPoint& p) {
  using V = json::Value;
  return V::object()
      .add("mode", V::string(p.mode))
      .add("loss", V::number(p.loss))
      .add("window", V::number(p.window))
      .add("ack_loss", V::number(p.ack_loss))
      .add("messages", V::number(static_cast<double>(p.messages)))
      .add("size_bytes", V::number(static_cast<double>(p.size_bytes)))
      .add("packets_per_message", V::number(p.packets_per_message))
      .add("delivered", V::number(static_cast<double>(p.delivered)))
      .add("goodput_gbps", V::number(p.goodput_gbps))
      .add("derived_goodput_gbps", V::number(p.derived_goodput_gbps))
      .add("line_gbps", V::number(p.line_gbps))
      .add("retransmitted_bytes", V::number(static_cast<double>(p.retransmitted_bytes)))
      .add("latency_ns", V::object()
                             .add("p50", V::number(p.p50_ns))
                             .add("p99", V::number(p.p99_ns))
                             .add("max", V::number(p.max_ns)))
      .add("finish_ns", V::number(p.finish_ns))
      .add("all_deliverable_ns", V::number(p.complete_ns))
      .add("timeouts", V::number(static_cast<double>(p.timeouts)))
      .add("retransmits", V::number(static_cast<double>(p.retransmits)))
      .add("duplicates_received", V::number(static_cast<double>(p.duplicates)))
      .add("reorder_peak_bytes", V::number(static_cast<double>(p.reorder_peak_bytes)))
      .add("reorder_drops", V::number(static_cast<double>(p.reorder_drops)))
      .add("lost_packets", V::number(static_cast<double>(p.lost_packets)))
      .add("exactly_once", V::boolean(p.exactly_once))
      .add("in_order", V::boolean(p.in_order))
      .add("failed", V::boolean(p.failed));
}

namespace {

ResultSet run(Config& cfg, const Options& o) {
  LossOptions lo;
  lo.trace_prefix = o.text("--trace");
  const std::string mode = o.text("--mode");
  lo.modes = mode == "both" ? std::vector<std::string>{"sack", "gbn"} : std::vector<std::string>{mode};
  lo.losses = o.reals("--loss");
  for (uint64_t w : o.counts("--window")) lo.windows.push_back(static_cast<int>(w));
  for (uint64_t d : o.counts("--drop")) lo.drop_once.push_back(static_cast<uint32_t>(d));
  ResultSet rs;
  std::vector<json::Value> pts;
  if (o.flag("--worked-case")) {
    cfg.set_by_experiment(key::loss_messages, "loss", "8");
    cfg.set_by_experiment(key::workload_size, "loss", "4KiB");
    cfg.set_by_experiment(key::loss_wire_latency, "loss", "1us");
    cfg.set_by_experiment(key::sack_rto, "loss", "20us");
    lo.losses = {0};
    lo.drop_once = {0};
    validate_config(cfg);
    check_loss_config(cfg);
    Config off = cfg;
    off.set_by_experiment(key::sack_fast_retransmit, "loss", "false");
    pts = run_loss(off, lo);
    LossOptions sack_only = lo;
    sack_only.modes = {"sack"};
    if (!lo.trace_prefix.empty()) sack_only.trace_prefix = lo.trace_prefix + ".fast";
    Config on = cfg;
    on.set_by_experiment(key::sack_fast_retransmit, "loss", "true");
    const auto fast = run_loss(on, sack_only);
    pts.insert(pts.end(), fast.begin(), fast.end());
    rs.notes = "worked case (spec 8): the first rows with fast retransmit off (recovery by the retransmit timer),\n"
               "the last with it on (SACK).\n";
  } else {
    default_loss_message(cfg);
    validate_config(cfg);
    check_loss_config(cfg);
    check_loss_horizon(cfg);
    pts = run_loss(cfg, lo);
  }
  rs.rows = pts;
  rs.notes += fmt::format(
      "{} messages of {:.0f} B ({} packets each), A -> B over {:.0f} Gbit/s, {:.0f} ns propagation; RTO {:.0f} ns (x{:.0f} per retry).\n"
      "goodput in Gbit/s (payload delivered in order / time from the first message taken to the last delivery);\n"
      "all_deliverable = every PSN has reached the receiver, finish = the last in-order delivery (ns from the first\n"
      "message taken); derived: SACK (1-p) x line, GoBackN (1-p)/(1+p*W) x line with W packets in flight per RTT.\n",
      cfg.count(key::loss_messages), cfg.value(key::workload_size), packets_per_message(cfg), cfg.value(key::wire_rate) * 8 / 1e9,
      cfg.value(key::loss_wire_latency) / 1e6, cfg.value(key::sack_rto) / 1e6, cfg.value(key::sack_rto_backoff));
  return rs;
}

}  // namespace

const Experiment& loss_experiment() {
  static const Experiment e{
      "loss",
      "SACK engine vs GoBackN under loss (spec 8): goodput, resent bytes, message latency, exactly-once verdict",
      "A stream of messages (ceil(size / MTU) packets each) from node A's verilated SACK sender to node B's\n"
      "receiver over\n"
      "a lossy link (serialization at wire.rate, loss.wire_latency propagation; loss, duplication and\n"
      "reordering of data and acks, seeded; scripted drops with --drop).",
      {opt_choice("--mode", {"sack", "gbn", "both"}, "both", "the transport mode(s)"),
       opt_reals("--loss", "LIST", "a probability in [0, 1)", [](double f) { return f >= 0 && f < 1; },
                 "0,0.001,0.002,0.005,0.01,0.02,0.03,0.05,0.07,0.1",
                 "data-packet loss probabilities; acks lose at the same rate unless loss.ack is set"),
       opt_counts("--drop", "LIST", 0, 16777215, "", "PSN offsets lost on their first transmission (scripted)"),
       opt_counts("--window", "LIST", 128, rtl_variant::kSackMaxWindow, "",
                  "sack.window per curve, e.g. 32,128,1024 (default: sack.window)"),
       opt_key("--messages", "N", "loss.messages", "messages per point"),
       opt_key("--size", "B", "workload.size", "message bytes (4 KiB when not set); ceil(size / MTU) packets each"),
       opt_flag("--worked-case", "spec 8's case: 8 x 4 KiB, 1 us propagation, PSN 0 lost once, fast retransmit off, "
                                 "then on (SACK)"),
       opt_out_prefix("--trace", "PREFIX",
                "FSTs of the engines, the first point of each mode: PREFIX.<mode>.{sack_tx,sack_rx}.fst")},
      {"mode", "window", "loss"},
      {{"goodput_gbps", "Gbit/s", "payload delivered in order / (first message taken -> last delivery)"},
       {"derived_goodput_gbps", "Gbit/s", "derived: the mode's loss model"},
       {"retransmitted_bytes", "B", "payload resent"},
       {"latency_ns", "ns", "message latency (engine takes it -> delivered in order): p50, p99, max"},
       {"all_deliverable_ns", "ns", "every PSN has reached the receiver"},
       {"exactly_once", "", "every message delivered once (and in_order: in order)"},
       {"ack_loss", "", "the acks' loss probability (loss.ack; -1 there: the data's)"},
       {"messages", "messages", "messages sent (loss.messages)"},
       {"size_bytes", "B", "each message's payload (workload.size)"},
       {"packets_per_message", "packets", "ceil(size / transport.mtu)"},
       {"delivered", "messages", "messages delivered in order"},
       {"line_gbps", "Gbit/s", "derived: the payload share of the link rate (headers excluded)"},
       {"finish_ns", "ns", "first message taken -> last delivery"},
       {"timeouts", "events", "retransmit timer expiries"},
       {"retransmits", "packets", "packets resent"},
       {"duplicates_received", "packets", "packets the receiver got again (dropped)"},
       {"reorder_peak_bytes", "bytes", "most payload bytes the receiver held at once (kept, not yet delivered in order)"},
       {"reorder_drops", "packets", "packets the receiver dropped at its reorder limit (sack.reorder_limit), resent"},
       {"lost_packets", "packets", "data packets and acks the wires lost"},
       {"in_order", "", "every message delivered in PSN order"},
       {"failed", "", "the sender ran out of retries (the engine stopped)"}},
      "loss",
      "plot_loss.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
