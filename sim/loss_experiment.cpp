#include "loss_experiment.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "histogram.h"
#include "json.h"
#include "subprocess.h"
#include "transport.h"

namespace ubsim {

namespace {

TransportParams transport_params(const Config& cfg, const std::string& mode, double loss,
                                 const std::vector<uint32_t>& drop_once) {
  TransportParams tp;
  tp.gbn = mode == "gbn";
  tp.fast_retransmit = cfg.value("sack.fast_retransmit") != 0;
  tp.window = static_cast<int>(cfg.value("sack.window"));
  tp.rto_fs = static_cast<uint64_t>(cfg.value("sack.rto"));
  tp.backoff_shift = static_cast<int>(std::lround(std::log2(cfg.value("sack.rto_backoff"))));
  tp.max_retries = static_cast<int>(cfg.value("sack.max_retries"));
  tp.first_psn = static_cast<uint32_t>(cfg.value("loss.first_psn"));
  tp.header_bytes = static_cast<uint32_t>(cfg.value("transport.header_bytes"));
  tp.link_bytes_per_s = cfg.value("wire.rate");
  tp.propagation_fs = static_cast<uint64_t>(cfg.value("loss.wire_latency"));
  tp.p_loss_data = loss;
  tp.p_loss_ack = cfg.value("loss.ack") < 0 ? loss : cfg.value("loss.ack");
  tp.p_dup = cfg.value("loss.duplicate");
  tp.p_reorder = cfg.value("loss.reorder");
  tp.reorder_max_fs = static_cast<uint64_t>(cfg.value("loss.reorder_delay"));
  for (uint32_t off : drop_once) tp.drop_once.insert((tp.first_psn + off) & 0xffffffu);
  tp.seed = static_cast<uint64_t>(cfg.value("seed"));
  return tp;
}

}  // namespace

LossPoint run_loss_point(const Config& base, const std::string& mode, double loss,
                         const std::vector<uint32_t>& drop_once, const std::string& trace_prefix) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);   // before any sc_time exists
  base.validate();
  const ModelParams mp = base.model_params();
  const TransportParams tp = transport_params(base, mode, loss, drop_once);
  const auto messages = static_cast<uint64_t>(base.value("loss.messages"));
  const auto bytes = static_cast<uint32_t>(base.value("loss.message_bytes"));
  auto& sys = *new TransportSystem("transport", mp, tp);   // lives until the (child) process exits

  std::vector<uint64_t> accepted(messages, 0);
  std::vector<uint8_t> seen(messages, 0);
  LatencyHistogram lat;
  uint64_t delivered = 0, dup_deliveries = 0, last_fs = 0, next_expected = 0;
  bool in_order = true, bogus = false;
  sys.sender().on_accepted = [&](uint32_t msg, uint64_t at) { accepted.at(msg) = at; };
  sys.receiver().on_deliver = [&](uint32_t msg, uint32_t, uint64_t at) {
    if (msg >= messages) {
      bogus = true;
      return;
    }
    if (seen[msg]) {
      ++dup_deliveries;
      return;
    }
    seen[msg] = 1;
    ++delivered;
    if (msg != next_expected) in_order = false;
    next_expected = msg + 1;
    lat.add(at - accepted[msg]);
    last_fs = at;
  };
  // "all deliverable": the first time every PSN has reached the receiver
  std::vector<uint8_t> arrived(messages, 0);
  uint64_t distinct = 0, complete_fs = 0;
  sys.receiver().on_arrive = [&](uint32_t psn, uint64_t at) {
    const uint32_t off = (psn - tp.first_psn) & 0xffffffu;
    if (off < messages && !arrived[off]) {
      arrived[off] = 1;
      if (++distinct == messages) complete_fs = at;
    }
  };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  if (!trace_prefix.empty()) {
    sys.sender().open_trace(trace_prefix + "." + mode + ".sack_tx.fst");
    sys.receiver().open_trace(trace_prefix + "." + mode + ".sack_rx.fst");
  }
  for (uint64_t i = 0; i < messages; ++i) sys.sender().submit(static_cast<uint32_t>(i), bytes, 0);
  // Watchdog: beyond any recovery the retry budget allows (the longest
  // backoff series), plus the time to send everything many times over.
  const double rto_s = static_cast<double>(tp.rto_fs) / 1e15;
  const double limit_s = rto_s * std::pow(2.0, tp.backoff_shift * (tp.max_retries + 1)) + 10e-6 +
                         20.0 * static_cast<double>(messages) * (bytes + tp.header_bytes) / tp.link_bytes_per_s;
  sc_core::sc_start(sc_core::sc_time(limit_s, sc_core::SC_SEC));
  sys.sender().close_trace();
  sys.receiver().close_trace();

  LossPoint p;
  p.mode = mode;
  p.loss = loss;
  p.window = tp.window;
  p.ack_loss = tp.p_loss_ack;
  p.messages = messages;
  p.delivered = delivered;
  p.failed = sys.sender().failed();
  p.exactly_once = delivered == messages && dup_deliveries == 0 && !bogus;
  p.in_order = in_order && !bogus;
  const uint64_t first = accepted.empty() ? 0 : *std::min_element(accepted.begin(), accepted.end());
  const double span_s = static_cast<double>(last_fs - first) / 1e15;
  p.finish_ns = static_cast<double>(last_fs - first) / 1e6;
  p.complete_ns = complete_fs ? static_cast<double>(complete_fs - first) / 1e6 : 0;
  p.goodput_gbps = span_s > 0 ? static_cast<double>(delivered) * bytes * 8 / span_s / 1e9 : 0;
  p.retransmitted_bytes = sys.sender().retransmitted_bytes();
  p.timeouts = sys.sender().timeouts();
  p.retransmits = sys.sender().retransmits();
  p.duplicates = sys.receiver().duplicates();
  p.lost_packets = sys.data_wire().lost() + sys.ack_wire().lost();
  p.p50_ns = lat.quantile_ns(0.50);
  p.p99_ns = lat.quantile_ns(0.99);
  p.max_ns = lat.max_ns();
  // derived: payload share of the line, and the modes' simple loss models
  const double rate = tp.link_bytes_per_s;
  const double t_pkt = (bytes + tp.header_bytes) / rate;
  const double t_ack = (tp.header_bytes + (tp.gbn ? 0 : tp.window / 8)) / rate;
  const double rtt = 2 * static_cast<double>(tp.propagation_fs) / 1e15 + t_pkt + t_ack;
  p.line_gbps = rate * 8 / 1e9 * bytes / (bytes + tp.header_bytes);
  // packets sent before a loss is known (at most the window)
  const double in_flight = std::min(std::ceil(rtt / t_pkt), static_cast<double>(tp.window));
  p.derived_goodput_gbps = tp.gbn ? p.line_gbps * (1 - loss) / (1 + loss * in_flight) : p.line_gbps * (1 - loss);
  if (!p.exactly_once && delivered < messages && !p.failed)
    throw std::runtime_error(fmt::format(
        "loss: stopped at {:.3f} us simulated (watchdog {} s): {} of {} messages delivered, next expected {} (stuck); "
        "sender: {} outstanding, {} timeouts, {} retransmits",
        sc_core::sc_time_stamp().to_seconds() * 1e6, limit_s, delivered, messages, next_expected,
        sys.sender().outstanding(), p.timeouts, p.retransmits));
  return p;
}

std::vector<LossPoint> run_loss(const Config& base, const LossOptions& o) {
  std::vector<LossPoint> out;
  std::vector<int> windows = o.windows;
  if (windows.empty()) windows.push_back(static_cast<int>(base.value("sack.window")));
  for (const auto& mode : o.modes)
   for (int window : windows)
    for (double loss : o.losses) {
      const bool first_of_mode = window == windows.front() && loss == o.losses.front();
      Config cfg = base;
      cfg.apply_set(fmt::format("sack.window={}", window));
      const ChildResult c = run_in_child([&] {
        const LossPoint p = run_loss_point(cfg, mode, loss, o.drop_once, first_of_mode ? o.trace_prefix : "");
        return fmt::format("{} {} {:.17g} {:.17g} {:.17g} {} {:.17g} {:.17g} {:.17g} {:.17g} {} {} {} {} {} {} {} {:.17g} {:.17g}",
                           p.messages, p.delivered, p.goodput_gbps, p.derived_goodput_gbps, p.line_gbps,
                           p.retransmitted_bytes, p.p50_ns, p.p99_ns, p.max_ns, p.finish_ns, p.timeouts,
                           p.retransmits, p.duplicates, p.lost_packets, p.exactly_once ? 1 : 0, p.in_order ? 1 : 0,
                           p.failed ? 1 : 0, p.ack_loss, p.complete_ns);
      });
      if (c.exit_code != 0) throw std::runtime_error(c.output);
      LossPoint p;
      p.mode = mode;
      p.loss = loss;
      p.window = window;
      int eo = 0, io = 0, f = 0;
      std::istringstream in(c.output);
      in >> p.messages >> p.delivered >> p.goodput_gbps >> p.derived_goodput_gbps >> p.line_gbps >>
          p.retransmitted_bytes >> p.p50_ns >> p.p99_ns >> p.max_ns >> p.finish_ns >> p.timeouts >> p.retransmits >>
          p.duplicates >> p.lost_packets >> eo >> io >> f >> p.ack_loss >> p.complete_ns;
      p.exactly_once = eo;
      p.in_order = io;
      p.failed = f;
      out.push_back(p);
    }
  return out;
}

std::string loss_json(const LossPoint& p) {
  return json::object({{"mode", json::str(p.mode)},
                       {"loss", json::num(p.loss)},
                       {"window", json::num(p.window)},
                       {"ack_loss", json::num(p.ack_loss)},
                       {"messages", json::num(static_cast<double>(p.messages))},
                       {"delivered", json::num(static_cast<double>(p.delivered))},
                       {"goodput_gbps", json::num(p.goodput_gbps)},
                       {"derived_goodput_gbps", json::num(p.derived_goodput_gbps)},
                       {"line_gbps", json::num(p.line_gbps)},
                       {"retransmitted_bytes", json::num(static_cast<double>(p.retransmitted_bytes))},
                       {"latency_ns", json::object({{"p50", json::num(p.p50_ns)}, {"p99", json::num(p.p99_ns)},
                                                    {"max", json::num(p.max_ns)}})},
                       {"finish_ns", json::num(p.finish_ns)},
                       {"all_deliverable_ns", json::num(p.complete_ns)},
                       {"timeouts", json::num(static_cast<double>(p.timeouts))},
                       {"retransmits", json::num(static_cast<double>(p.retransmits))},
                       {"duplicates_received", json::num(static_cast<double>(p.duplicates))},
                       {"lost_packets", json::num(static_cast<double>(p.lost_packets))},
                       {"exactly_once", p.exactly_once ? "true" : "false"},
                       {"in_order", p.in_order ? "true" : "false"},
                       {"failed", p.failed ? "true" : "false"}});
}

std::string loss_table(const std::vector<LossPoint>& pts, const Config& cfg) {
  std::string out = fmt::format(
      "\nloss: {} messages of {:.0f} B, A -> B over {:.0f} Gbit/s, {:.0f} ns propagation; RTO {:.0f} ns "
      "(x{:.0f} per retry), fast retransmit {}\n",
      pts.empty() ? 0 : pts.front().messages, cfg.value("loss.message_bytes"), cfg.value("wire.rate") * 8 / 1e9,
      cfg.value("loss.wire_latency") / 1e6, cfg.value("sack.rto") / 1e6,
      cfg.value("sack.rto_backoff"), cfg.value("sack.fast_retransmit") != 0 ? "on" : "off");
  out += fmt::format("  {:<5} {:>6} {:>6} {:>9} {:>9} {:>11} {:>10} {:>10} {:>10} {:>12} {:>11} {:>8} {:>7}  {}\n",
                     "mode", "window", "loss", "goodput", "derived", "resent B", "p50 ns", "p99 ns", "max ns", "deliverable", "finish ns",
                     "timeouts", "lost", "exactly once, in order");
  for (const auto& p : pts)
    out += fmt::format("  {:<5} {:>6} {:>6.3f} {:>9.2f} {:>9.2f} {:>11} {:>10.1f} {:>10.1f} {:>10.1f} {:>12.2f} {:>11.2f} {:>8} {:>7}  {}\n",
                       p.mode, p.window, p.loss, p.goodput_gbps, p.derived_goodput_gbps, p.retransmitted_bytes, p.p50_ns,
                       p.p99_ns, p.max_ns, p.complete_ns, p.finish_ns, p.timeouts, p.lost_packets,
                       p.failed ? "FAILED (retries exhausted)"
                                : (p.exactly_once && p.in_order ? "yes" : "NO"));
  out += "  goodput in Gbit/s (payload delivered in order / time from the first message taken to the last\n"
         "  delivery); deliverable = every PSN has reached the receiver, finish = the last in-order delivery\n"
         "  (both ns from the first message taken); derived: SACK (1-p) x line, GoBackN (1-p)/(1+p*W) x line\n"
         "  with W packets in flight per round trip.\n";
  return out;
}

std::string loss_csv(const std::vector<LossPoint>& pts) {
  std::string out =
      "mode,window,loss,messages,delivered,goodput_gbps,derived_goodput_gbps,line_gbps,retransmitted_bytes,p50_ns,p99_ns,"
      "max_ns,complete_ns,finish_ns,timeouts,exactly_once,in_order\n";
  for (const auto& p : pts)
    out += fmt::format("{},{},{:.6f},{},{},{:.4f},{:.4f},{:.4f},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{},{},{}\n", p.mode,
                       p.window, p.loss, p.messages, p.delivered, p.goodput_gbps, p.derived_goodput_gbps, p.line_gbps,
                       p.retransmitted_bytes, p.p50_ns, p.p99_ns, p.max_ns, p.complete_ns, p.finish_ns, p.timeouts,
                       p.exactly_once ? 1 : 0, p.in_order ? 1 : 0);
  return out;
}

}  // namespace ubsim
