// loss-paths: reads (or writes) on the three paths with the transport
// engines inside them and random loss of data and acks on the node-to-node
// wire (spec §14): latency percentiles, goodput, resends, timeouts and
// failures per path, outstanding count and loss. `ubsim loss --path P` runs it.
#include <fmt/format.h>

#include "experiment.h"
#include "pipeline_limits.h"
#include "latency.h"

namespace ubsim {

namespace {

using V = json::Value;

V point_row(const LatencyResult& r, double loss, uint64_t outstanding, const std::string& probe) {
  const double window_gbps = r.achieved_per_us * static_cast<double>(r.size_bytes) * 8.0 / 1e3;
  // no request succeeded: no latency (null), not a latency of 0
  auto lat = [&r](double ns) { return r.measured == 0 ? V::null() : V::number(ns); };
  return V::object()
      .add("path", V::string(r.path))
      .add("transport", V::string(r.transport_mode))
      .add("probe_after", V::string(probe))
      .add("outstanding", V::number(static_cast<double>(outstanding)))
      .add("loss", V::number(loss))
      .add("verb", V::string(r.verb))
      .add("latency_ns", V::object()
                             .add("mean", lat(r.mean_ns))
                             .add("p50", lat(r.p50_ns))
                             .add("p99", lat(r.p99_ns))
                             .add("p999", lat(r.p999_ns))
                             .add("max", lat(r.max_ns)))
      .add("goodput_gbps", V::number(window_gbps))
      .add("ops_per_us", V::number(r.achieved_per_us))
      .add("retransmitted_packets", V::number(static_cast<double>(r.retransmitted_packets)))
      .add("retransmitted_bytes", V::number(static_cast<double>(r.retransmitted_bytes)))
      .add("timeouts", V::number(static_cast<double>(r.timeouts)))
      .add("failed", V::number(static_cast<double>(r.failed)))
      .add("ops", V::number(static_cast<double>(r.ops)));
}

ResultSet run(Config& cfg, const Options& o) {
  const auto paths = select_paths(o.text("--path"), "");
  const Verb verb = o.text("--verb") == "read" ? Verb::Read : Verb::Write;
  const auto losses = o.reals("--loss");
  const auto outstanding = o.counts("--outstanding");
  const auto modes = o.list("--transport");
  const auto probes = o.list("--probe-after");
  cfg.set_by_experiment(key::transport_in_paths, "loss-paths", "true");
  for (const auto& probe : probes) {   // every probe time checked before anything runs
    Config c = cfg;
    c.apply(key::sack_probe_after, probe, "option --probe-after");
  }
  validate_config(cfg);
  for (const auto& p : paths) check_horizon(cfg, p, verb);
  ResultSet rs;
  for (const auto& path : paths)
    for (const auto& mode : modes) {
      // the PCIe NIC's transport is GoBackN whatever transport.mode says
      if (path == "pcie-nic" && mode != modes.front()) continue;
      for (const auto& probe : probes) {
        // the probe is a SACK-mode knob: GoBackN runs once, without it
        const bool gbn = path == "pcie-nic" || mode == "gbn";
        if (gbn && probe != probes.front()) continue;
        for (uint64_t k : outstanding)
          for (double loss : losses) {
            Config c = cfg;
            c.set_by_experiment(key::transport_mode, "loss-paths", mode);
            c.set_by_experiment(key::sack_probe_after, "loss-paths", gbn ? std::string("0ns") : probe);
            c.set_by_experiment(key::workload_outstanding, "loss-paths", fmt::format("{}", k));
            c.set_by_experiment(key::loss_data, "loss-paths", fmt::format("{:.17g}", loss));
            validate_config(c);
            LatencyOptions lo;
            lo.path = path;
            lo.verb = verb;
            for (auto& row : rows_in_child([&] {
                   return std::vector<json::Value>{point_row(run_latency(c, lo), loss, k, c.text_of(key::sack_probe_after))};
                 }))
              rs.rows.push_back(std::move(row));
          }
      }
    }
  for (const auto& row : rs.rows)
    if (const Value* m = row.find("latency_ns"); m && m->get("mean") && m->get("mean")->kind == Value::Null)
      rs.notes += fmt::format("{} {} loss {}: no request succeeded ({} failed): no latency to show.\n",
                              row.get("path")->text, row.get("transport")->text,
                              json::display_number(row.get("loss")->text), json::display_number(row.get("failed")->text));
  rs.notes +=
      "Every packet crossing the wire goes through its connection's transport engines (verilated SACK engine per\n"
      "TP channel on ub-*, GoBackN per QP on pcie-nic); data and acks are lost at random with probability loss\n"
      "(loss.ack overrides it for acks). Latency of the requests that succeeded; failed: error completions.\n";
  return rs;
}

}  // namespace

const Experiment& loss_paths_experiment() {
  static const Experiment e{
      "loss-paths",
      "read latency percentiles and goodput vs loss on the three paths, the transport engines inside them",
      "Each point runs --ops reads (or writes) on one path with the transport engines in the path (spec §14):\n"
      "the UB controller's SACK engine per TP channel (or GoBackN with --transport gbn), the PCIe NIC's GoBackN\n"
      "engine per QP, both verilated; the node-to-node wire loses data and ack packets with probability --loss.\n"
      "--outstanding 1 is sequential; 16 keeps 16 reads in flight on one TP channel / QP. `ubsim loss --path P`\n"
      "runs this experiment; `ubsim loss` alone is the two-engine experiment.",
      {opt_choice("--path", {"pcie-nic", "ub-async", "ub-load", "all"}, "all", "the path(s) to run"),
       opt_choice("--verb", {"read", "write"}, "read", "read, or write (Store on ub-load)"),
       opt_key("--ops", "N", "workload.ops", "requests per point"),
       opt_key("--size", "B", "workload.size", "message bytes of each read or write"),
       opt_reals("--loss", "LIST", "a probability in [0, 1]", [](double f) { return f >= 0 && f <= 1; },
                 "0,0.001,0.01,0.05,0.1", "loss probabilities of data (and acks), comma-separated"),
       opt_counts("--outstanding", "LIST", 1, 65536, "1,16", "requests in flight per point, comma-separated"),
       opt_names("--transport", "LIST", {"sack", "gbn"}, "sack",
                 "the UB transport mode(s) (transport.mode); pcie-nic is always GoBackN"),
       opt_text("--probe-after", "LIST", "0ns",
                "tail-loss probe times (sack.probe_after), comma-separated; 0ns = off")},
      {"path", "transport", "probe_after", "outstanding", "loss", "verb"},
      {{"latency_ns", "ns", "latency of the requests that succeeded: mean, p50, p99, p999, max"},
       {"goodput_gbps", "Gbit/s", "message bytes delivered per second over the measured window"},
       {"ops_per_us", "1/us", "requests completed per us over the measured window"},
       {"retransmitted_packets", "packets", "packets the engines resent (both directions)"},
       {"retransmitted_bytes", "bytes", "payload bytes resent"},
       {"timeouts", "events", "retransmit timer expiries"},
       {"failed", "ops", "requests completed with the transport error (retries exhausted)"},
       {"ops", "ops", "requests run"}},
      "loss_paths",
      "plot_loss_paths.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
