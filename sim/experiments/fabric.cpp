// fabric: the configuration's topology (docs/fabric.md) with its flows run
// by traffic sources: per flow what was sent and delivered and when, per
// link direction its load, busy share and output-queue occupancy (mean,
// maximum, the series for the plot). Every node acts as a traffic endpoint
// here; the controllers' own paths over a fabric are the next step.
#include <algorithm>

#include <fmt/format.h>

#include "experiment.h"
#include "simulation_run.h"
#include "fabric_network.h"

namespace ubsim {

namespace {

using V = json::Value;

// At most `points` (time, bytes) pairs: per time bucket its largest value
// (a plot of peaks must not lose one).
V downsample(const std::vector<std::pair<uint64_t, uint64_t>>& s, uint64_t end_fs, size_t points) {
  V out = V::array();
  if (s.empty()) return out;
  if (s.size() <= points) {
    for (const auto& [t, b] : s) out.items.push_back(V::array({V::number(t / 1e9), V::number(static_cast<double>(b))}));
    return out;
  }
  const double bucket = static_cast<double>(std::max<uint64_t>(end_fs, 1)) / static_cast<double>(points);
  size_t i = 0;
  for (size_t k = 0; k < points && i < s.size(); ++k) {
    const auto hi = static_cast<uint64_t>((k + 1) * bucket);
    uint64_t peak = 0;
    bool any = false;
    while (i < s.size() && s[i].first < hi) {
      peak = std::max(peak, s[i].second);
      any = true;
      ++i;
    }
    if (any) out.items.push_back(V::array({V::number(k * bucket / 1e9), V::number(static_cast<double>(peak))}));
  }
  return out;
}

ResultSet run(Config& cfg, const Options& o) {
  cfg.validate_fabric();
  const Topology* topo = cfg.topology();
  if (!topo)
    throw CliError("fabric: give a configuration with a [topology] (--config FILE; docs/fabric.md, configs/fabric-*.toml)");
  if (topo->flows.empty())
    throw ConfigError(topo->file, "topology.flow", "the topology has no [[topology.flow]] entries: nothing to run");
  const Topology t = *topo;
  const bool series = !o.flag("--no-series");
  ResultSet rs;
  rs.rows = rows_in_child([&] {
    SimulationRun run;
    const FabricOptions fo = fabric_options(cfg, series);
    FabricNetwork net("fabric", t, flow_records(t), fo);
    run.run();
    run.finish();
    const uint64_t end = sc_core::sc_time_stamp().value();
    std::vector<V> rows;
    for (size_t i = 0; i < net.flows().size(); ++i) {
      const FlowRecord& f = net.flows()[i];
      const double took_fs = f.delivered ? static_cast<double>(f.last_arrival_fs - f.first_sent_fs) : 0;
      rows.push_back(V::object()
                         .add("row", V::string("flow"))
                         .add("name", V::string(fmt::format("flow{} {}->{}", i, t.devices[f.src].name, t.devices[f.dst].name)))
                         .add("bytes", V::number(static_cast<double>(f.bytes)))
                         .add("packets", V::number(static_cast<double>(f.packets)))
                         .add("delivered", V::number(static_cast<double>(f.delivered)))
                         .add("dropped", V::number(static_cast<double>(f.dropped)))
                         .add("start_us", V::number(f.first_sent_fs / 1e9))
                         .add("first_arrival_us", f.delivered ? V::number(f.first_arrival_fs / 1e9) : V::null())
                         .add("done_us", f.delivered ? V::number(f.last_arrival_fs / 1e9) : V::null())
                         .add("completion_us", f.delivered ? V::number(took_fs / 1e9) : V::null())
                         .add("goodput_GBps", took_fs > 0 ? V::number(f.delivered_bytes / (took_fs / 1e15) / 1e9) : V::null()));
    }
    for (size_t d = 0; d < t.devices.size(); ++d)
      for (size_t p = 0; p < t.ports()[d].size(); ++p) {
        const FabricLink& l = net.egress(static_cast<int>(d), static_cast<int>(p));
        V row = V::object()
                    .add("row", V::string("link"))
                    .add("name", V::string(net.link_name(static_cast<int>(d), static_cast<int>(p))))
                    .add("frames", V::number(static_cast<double>(l.frames())))
                    .add("bytes", V::number(static_cast<double>(l.bytes())))
                    .add("flows", V::number(static_cast<double>(l.flows_seen())))
                    .add("busy_share", V::number(end ? static_cast<double>(l.busy_fs()) / static_cast<double>(end) : 0))
                    .add("queue_max_bytes", V::number(static_cast<double>(l.max_queue_bytes())))
                    .add("queue_mean_bytes", V::number(l.mean_queue_bytes(end)))
                    .add("buffer_bytes", V::number(static_cast<double>(l.capacity())))
                    .add("dropped", V::number(static_cast<double>(l.dropped_frames())))
                    .add("dropped_bytes", V::number(static_cast<double>(l.dropped_bytes())))
                    .add("shared_dropped", V::number(static_cast<double>(l.shared_dropped_frames())))
                    .add("first_drop_us", l.dropped_frames() ? V::number(l.first_drop_fs() / 1e9) : V::null())
                    .add("paused_us", V::number(static_cast<double>(l.paused_fs()) / 1e9))
                    .add("pause_frames", V::number(static_cast<double>(l.control_frames())));
        if (series) row.add("queue_series", downsample(l.series(), end, 2000));
        rows.push_back(std::move(row));
      }
    // flows not done with nothing left to happen: the links' waits, and their cycle
    if (net.unfinished_flows() > 0) {
      const WaitForGraph g = net.wait_for();
      const auto members = g.find_cycle();
      V cycle = V::array();
      for (size_t i : members)
        cycle.items.push_back(V::object()
                                  .add("link", V::string(g.vertex(i).name))
                                  .add("holds", V::string(g.vertex(i).holds))
                                  .add("waits_for", V::string(g.vertex(i).waits)));
      std::string blocked;
      for (size_t i = 0; i < g.size(); ++i) blocked += (blocked.empty() ? "" : "; ") + g.vertex(i).name + " waits for " + g.vertex(i).waits;
      rows.push_back(V::object()
                         .add("row", V::string(members.empty() ? "stall" : "deadlock"))
                         .add("name", V::string(fmt::format("{} of {} flows not done at {:.3f} us", net.unfinished_flows(),
                                                            net.flows().size(), static_cast<double>(end) / 1e9)))
                         .add("cycle", cycle)
                         .add("outstanding", V::string(blocked)));
    }
    return rows;
  });
  for (const V& r : rs.rows) {
    if (r.str("row") != "deadlock" && r.str("row") != "stall") continue;
    rs.exit_status = 4;
    std::string text = r.str("row") == "deadlock"
                           ? fmt::format("DEADLOCK: {}: a cycle of {} paused links (each waits for the next, the last "
                                         "for the first):\n",
                                         r.str("name"), r.get("cycle")->items.size())
                           : fmt::format("STALL without a cycle: {}: {}\n", r.str("name"), r.str("outstanding"));
    size_t k = 0;
    for (const auto& m : r.get("cycle")->items)
      text += fmt::format("  {}. {}: holds {}; waits for {}\n", ++k, m.str("link"), m.str("holds"), m.str("waits_for"));
    rs.notes += text;
  }
  rs.table_omit = {"queue_series", "cycle", "outstanding"};
  rs.notes +=
      "Flows: first packet sent to last delivered (completion_us), payload bytes over that time (goodput_GBps).\n"
      "Links (one row per direction, link_FROM_to_TO_PORT): frames and bytes serialized, the distinct flows\n"
      "that crossed it, its busy share of the run, its output queue (waiting + in serialization) max and\n"
      "time-weighted mean over the run; with a buffer (fabric.buffer, or the link's buffer) what did not fit is\n"
      "dropped and counted. Store and forward; no switch latency.\n";
  return rs;
}

}  // namespace

const Experiment& fabric_experiment() {
  static const Experiment e{
      "fabric",
      "the configuration's topology and flows run by traffic sources: per flow completion, per link load and queue",
      "The [topology] of --config (docs/fabric.md): nodes, switches, links (rate, delay) and flows (bytes,\n"
      "rate, start). Every flow leaves its node as packets of transport.mtu payload plus\n"
      "transport.header_bytes at its rate; switches forward by destination, among equal-cost ports by\n"
      "fabric.ecmp (keyed hash with fabric.hash_seed, or flow_rr). configs/fabric-*.toml are examples.",
      {opt_flag("--no-series", "leave the queue series out of the link rows")},
      {"row", "name"},
      {{"row", "", "flow or link; deadlock or stall when flows were left undone with nothing left to happen (exit 4)"},
       {"name", "", "flowI FROM->TO, or link_FROM_to_TO_PORT (one direction)"},
       {"bytes", "bytes", "flow: payload bytes to send; link: bytes serialized (headers included)"},
       {"packets", "packets", "flow: packets it leaves as"},
       {"delivered", "packets", "flow: packets delivered"},
       {"dropped", "packets", "flow: its packets a full queue dropped; link: packets its full queue dropped"},
       {"buffer_bytes", "bytes", "link: its output queue's capacity (0: unbounded)"},
       {"dropped_bytes", "bytes", "link: their bytes"},
       {"shared_dropped", "packets", "link: of them, dropped because the switch's shared buffer was full (fabric.shared_buffer)"},
       {"first_drop_us", "us", "link: its first drop"},
       {"cycle", "", "deadlock: the cycle of paused links, [{link, holds, waits_for}] in order, each waiting for the next"},
       {"outstanding", "", "deadlock or stall: every blocked link and what it waits for"},
       {"paused_us", "us", "link: time it was paused by the device it feeds (fabric.pause)"},
       {"pause_frames", "frames", "link: pause and resume frames it carried"},
       {"start_us", "us", "flow: its first packet left"},
       {"first_arrival_us", "us", "flow: its first packet arrived"},
       {"done_us", "us", "flow: its last packet arrived"},
       {"completion_us", "us", "flow: first packet sent to last delivered"},
       {"goodput_GBps", "GB/s", "flow: payload bytes delivered over its completion time"},
       {"frames", "packets", "link: packets serialized"},
       {"flows", "flows", "link: distinct flows that crossed it"},
       {"busy_share", "", "link: share of the run it was serializing"},
       {"queue_max_bytes", "bytes", "link: largest output-queue occupancy (waiting + in serialization)"},
       {"queue_mean_bytes", "bytes", "link: time-weighted mean occupancy over the run"},
       {"queue_series", "", "link: [time us, bytes] at its changes (at most 2000 points: each bucket's peak)"}},
      "fabric",
      "plot_fabric.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
