// ecmp: n equal flows from sources behind one leaf switch to destinations
// behind another, across m spine switches (m equal-cost uplinks): the
// leaf's ECMP hash places each flow on an uplink (textbook §7.5.3, spec
// §16). Over --seeds hash seeds it counts the flows the leaf places on each
// uplink (the switch's own forwarding decision, no traffic): the busiest
// uplink's count L_max, its mean and distribution, P(L_max = ceil(n/m)).
// On --sim-seeds of them the group runs as packets: every flow --packets
// packets at line rate from time 0; measured there: the group's completion
// T (first packet sent to last delivered), the busiest uplink's busy time,
// and beside them one flow alone (T1) and the collision-free placement
// (fabric.ecmp = flow_rr). Derived beside: E[L_max] of n balls thrown
// uniformly into m bins, computed exactly.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "experiment.h"
#include "simulation_run.h"
#include "fabric_network.h"
#include "flow_hash.h"

namespace ubsim {

namespace {

using V = json::Value;

struct Case {
  uint32_t n = 0, m = 0;
};

std::vector<Case> parse_cases(const std::string& text) {
  std::vector<Case> out;
  for (const auto& item : split_list(text)) {
    const auto x = item.find('x');
    Case c;
    bool ok = x != std::string::npos && x > 0 && x + 1 < item.size() && item.size() < 16 &&
              item.find_first_not_of("0123456789x") == std::string::npos && item.find('x', x + 1) == std::string::npos;
    if (ok) {
      c.n = static_cast<uint32_t>(std::stoul(item.substr(0, x)));
      c.m = static_cast<uint32_t>(std::stoul(item.substr(x + 1)));
      ok = c.n >= 1 && c.n <= 1024 && c.m >= 2 && c.m <= 256;
    }
    if (!ok)
      throw CliError("option --cases: '" + one_line_text(item) +
                     "' is not FLOWSxUPLINKS with 1..1024 flows and 2..256 uplinks (e.g. 8x32)");
    out.push_back(c);
  }
  return out;
}

// Sources src0.. behind leaf0, uplinks to spine0..spine(m-1), each spine to
// leaf1, destinations dst0.. behind leaf1; every link at wire.rate with
// wire.latency propagation. Flow i runs src i -> dst i.
Topology leaf_spine(uint32_t n, uint32_t m, const Config& cfg) {
  Topology t;
  auto dev = [&](const std::string& name, TopoDevice::Kind k) {
    t.devices.push_back({name, k, "ecmp"});
    return static_cast<int>(t.devices.size() - 1);
  };
  auto link = [&](int a, int b) {
    TopoLink l;
    l.a = a;
    l.b = b;
    l.rate_Bps = cfg.value(key::wire_rate);
    l.delay_fs = cfg.fs(key::wire_latency);
    l.rate_text = cfg.text_of(key::wire_rate);
    l.delay_text = cfg.text_of(key::wire_latency);
    l.where = "ecmp";
    t.links.push_back(l);
  };
  std::vector<int> src, dst, spine;
  for (uint32_t i = 0; i < n; ++i) src.push_back(dev(fmt::format("src{}", i), TopoDevice::Kind::Source));
  const int leaf0 = dev("leaf0", TopoDevice::Kind::Switch);
  for (uint32_t j = 0; j < m; ++j) spine.push_back(dev(fmt::format("spine{}", j), TopoDevice::Kind::Switch));
  const int leaf1 = dev("leaf1", TopoDevice::Kind::Switch);
  for (uint32_t i = 0; i < n; ++i) dst.push_back(dev(fmt::format("dst{}", i), TopoDevice::Kind::Source));
  for (uint32_t i = 0; i < n; ++i) link(src[i], leaf0);   // leaf0's ports 0..n-1
  for (uint32_t j = 0; j < m; ++j) link(leaf0, spine[j]);   // leaf0's ports n..n+m-1: the uplinks
  for (uint32_t j = 0; j < m; ++j) link(spine[j], leaf1);
  for (uint32_t i = 0; i < n; ++i) link(leaf1, dst[i]);
  t.finish();
  return t;
}

std::vector<FlowRecord> group_flows(const Topology& t, uint32_t n, uint64_t bytes, double rate) {
  std::vector<FlowRecord> flows;
  for (uint32_t i = 0; i < n; ++i) {
    FlowRecord f;
    f.src = static_cast<uint32_t>(t.find(fmt::format("src{}", i)));
    f.dst = static_cast<uint32_t>(t.find(fmt::format("dst{}", i)));
    f.entropy = 49152 + i;   // each flow its own ephemeral source port
    f.bytes = bytes;
    f.rate_Bps = rate;
    flows.push_back(f);
  }
  return flows;
}

// Flows per uplink as the leaf's forwarding places them under `seed`.
std::vector<uint32_t> placement(const Topology& t, const std::vector<FlowRecord>& flows, uint64_t seed) {
  const int leaf0 = t.find("leaf0");
  std::map<int, uint32_t> per_port;
  for (const auto& f : flows) {
    const auto& group = t.next_ports(leaf0, static_cast<int>(f.dst));
    ++per_port[FabricSwitch::hash_choice(f.src, f.dst, f.entropy, group, seed, static_cast<uint32_t>(leaf0))];
  }
  std::vector<uint32_t> out;
  for (const auto& [p, k] : per_port) out.push_back(k);
  return out;
}

// One packet-level run in a child: the group's completion and per uplink
// its flows and busy time.
V simulate(const Topology& t, std::vector<FlowRecord> flows, const Config& cfg, EcmpMode mode, uint64_t seed) {
  return rows_in_child([&] {
           SimulationRun run;
           FabricOptions o;
           o.ecmp = mode;
           o.hash_seed = seed;
           o.mtu = static_cast<uint32_t>(cfg.count(key::transport_mtu));
           o.header_bytes = static_cast<uint32_t>(cfg.count(key::transport_header_bytes));
           FabricNetwork net("fabric", t, std::move(flows), o);
           run.run();
           run.finish();
           uint64_t first = UINT64_MAX, last = 0, delivered = 0, sent = 0;
           for (const auto& f : net.flows()) {
             first = std::min(first, f.first_sent_fs);
             last = std::max(last, f.last_arrival_fs);
             delivered += f.delivered;
             sent += f.packets;
           }
           const int leaf0 = t.find("leaf0");
           uint64_t busiest_flows = 0, busiest_busy = 0, max_queue = 0;
           for (size_t p = 0; p < t.ports()[leaf0].size(); ++p) {
             const TopoDevice& peer = t.devices[t.ports()[leaf0][p].peer];
             if (peer.name.rfind("spine", 0) != 0) continue;
             const FabricLink& l = net.egress(leaf0, static_cast<int>(p));
             const uint64_t busy = l.frames() ? l.last_end_fs() - l.first_start_fs() : 0;
             if (l.flows_seen() > busiest_flows || (l.flows_seen() == busiest_flows && busy > busiest_busy)) {
               busiest_flows = l.flows_seen();
               busiest_busy = busy;
             }
             max_queue = std::max(max_queue, l.max_queue_bytes());
           }
           return std::vector<V>{V::object()
                                     .add("t_fs", V::number(static_cast<double>(last - first)))
                                     .add("lmax", V::number(static_cast<double>(busiest_flows)))
                                     .add("busy_fs", V::number(static_cast<double>(busiest_busy)))
                                     .add("max_queue", V::number(static_cast<double>(max_queue)))
                                     .add("lost", V::number(static_cast<double>(sent - delivered)))};
         })
      .front();
}

// Exact E[L_max] and P(L_max <= k) for n balls into m bins, uniform:
// P(max <= k) by conditioning bin by bin on its binomial share.
double p_max_at_most(uint32_t n, uint32_t m, uint32_t k) {
  std::vector<double> g(n + 1, 0.0);   // g[r]: r balls in the bins so far, all <= k
  for (uint32_t r = 0; r <= n; ++r) g[r] = r <= k ? 1.0 : 0.0;   // one bin
  for (uint32_t b = 2; b <= m; ++b) {
    std::vector<double> h(n + 1, 0.0);
    const double p = 1.0 / b;
    for (uint32_t r = 0; r <= n; ++r)
      for (uint32_t j = 0; j <= std::min(k, r); ++j) {
        const double logc = std::lgamma(r + 1.0) - std::lgamma(j + 1.0) - std::lgamma(r - j + 1.0);
        const double pmf = std::exp(logc + j * std::log(p) + (r - j) * std::log1p(-p));
        h[r] += pmf * g[r - j];
      }
    g = std::move(h);
  }
  return g[n];
}

double expected_max(uint32_t n, uint32_t m) {
  double e = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const double tail = 1.0 - p_max_at_most(n, m, k);
    e += tail;
    if (tail < 1e-15) break;
  }
  return e;
}

ResultSet run(Config& cfg, const Options& o) {
  const auto cases = parse_cases(o.text("--cases"));
  const uint64_t seeds = o.count("--seeds"), sim_seeds = std::min<uint64_t>(o.count("--sim-seeds"), seeds);
  const uint64_t packets = o.count("--packets");
  const uint64_t mtu = cfg.count(key::transport_mtu), header = cfg.count(key::transport_header_bytes);
  const uint64_t base_seed = cfg.count(key::fabric_hash_seed);
  const double rate = cfg.value(key::wire_rate);
  const double t_pkt_fs = static_cast<double>(mtu + header) / rate * 1e15;
  ResultSet rs;
  for (const Case& c : cases) {
    const Topology topo = leaf_spine(c.n, c.m, cfg);
    const auto flows = group_flows(topo, c.n, packets * mtu, rate);
    const uint32_t ideal = (c.n + c.m - 1) / c.m;
    // the hash over many seeds
    std::vector<uint64_t> hist(c.n + 1, 0);
    std::vector<uint32_t> lmax_of(seeds);
    double sum = 0;
    for (uint64_t s = 0; s < seeds; ++s) {
      const auto per = placement(topo, flows, base_seed + s);
      lmax_of[s] = *std::max_element(per.begin(), per.end());
      ++hist[lmax_of[s]];
      sum += lmax_of[s];
    }
    const double e_lmax = sum / static_cast<double>(seeds);
    const double p_ideal = static_cast<double>(hist[ideal]) / static_cast<double>(seeds);
    const double e_derived = expected_max(c.n, c.m);
    // packet level: one flow alone, the collision-free placement, then the seeds
    const Topology one = leaf_spine(1, c.m, cfg);
    const V alone = simulate(one, group_flows(one, 1, packets * mtu, rate), cfg, EcmpMode::Hash, base_seed);
    const V ideal_run = simulate(topo, flows, cfg, EcmpMode::FlowRoundRobin, base_seed);
    const double t1 = alone.num("t_fs"), busy1 = alone.num("busy_fs");
    double t_sum = 0, lmax_sim = 0, err_busy = 0, err_t = 0, lost = ideal_run.num("lost") + alone.num("lost");
    uint64_t agree = 0;
    for (uint64_t s = 0; s < sim_seeds; ++s) {
      const V r = simulate(topo, flows, cfg, EcmpMode::Hash, base_seed + s);
      const double l = r.num("lmax");
      t_sum += r.num("t_fs");
      lmax_sim += l;
      agree += static_cast<uint64_t>(l) == lmax_of[s];
      err_busy = std::max(err_busy, std::abs(r.num("busy_fs") - l * busy1) / t_pkt_fs);
      err_t = std::max(err_t, std::abs(r.num("t_fs") - t1 - (l - 1) * busy1) / t_pkt_fs);
      lost += r.num("lost");
    }
    const double t_mean = sim_seeds ? t_sum / static_cast<double>(sim_seeds) : 0;
    V histogram = V::array();
    for (uint32_t k = 1; k <= c.n; ++k)
      if (hist[k]) histogram.items.push_back(V::array({V::number(k), V::number(static_cast<double>(hist[k]) / seeds)}));
    V row = V::object()
                .add("flows", V::number(c.n))
                .add("uplinks", V::number(c.m))
                .add("seeds", V::number(static_cast<double>(seeds)))
                .add("e_lmax", V::number(e_lmax))
                .add("e_lmax_derived", V::number(e_derived))
                .add("p_ideal", V::number(p_ideal))
                .add("p_ideal_derived", V::number(p_max_at_most(c.n, c.m, ideal) - (ideal > 1 ? p_max_at_most(c.n, c.m, ideal - 1) : 0.0)))
                .add("speed_hash", V::number(ideal / e_lmax))
                .add("speed_derived", V::number(ideal / e_derived))
                .add("lmax_histogram", histogram)
                .add("packets", V::number(static_cast<double>(packets)))
                .add("sim_seeds", V::number(static_cast<double>(sim_seeds)))
                .add("t1_us", V::number(t1 / 1e9))
                .add("t_free_us", V::number(ideal_run.num("t_fs") / 1e9))
                .add("t_mean_us", sim_seeds ? V::number(t_mean / 1e9) : V::null())
                .add("speed_sim", sim_seeds ? V::number(ideal_run.num("t_fs") / t_mean) : V::null())
                .add("lmax_sim_mean", sim_seeds ? V::number(lmax_sim / static_cast<double>(sim_seeds)) : V::null())
                .add("sim_agrees", V::number(static_cast<double>(agree)))
                .add("uplink_error_packets", V::number(err_busy))
                .add("t_error_packets", V::number(err_t))
                .add("lost", V::number(lost));
    rs.rows.push_back(std::move(row));
  }
  rs.table_omit = {"lmax_histogram"};
  rs.notes = fmt::format(
      "e_lmax, p_ideal: the leaf's ECMP hash (fabric.ecmp = hash) over {} seeds from fabric.hash_seed = {}, counting\n"
      "the flows it places on each uplink; *_derived: n balls into m bins uniformly, exact. speed_hash =\n"
      "ceil(n/m) / e_lmax (a ratio of means). Packet level on {} of those seeds, {} packets of {} B per flow at\n"
      "line rate: t_mean_us the group's completion (first packet sent to last delivered), t_free_us the\n"
      "collision-free placement (fabric.ecmp = flow_rr), t1_us one flow alone; speed_sim = t_free / t_mean\n"
      "(measured; above speed_hash by the path's fill time, the same in both). uplink_error_packets: the\n"
      "busiest uplink's busy time against L_max x one flow's, t_error_packets: T against T1 + (L_max - 1) x\n"
      "one flow's uplink time, worst seed, in packet times; sim_agrees: seeds whose packets loaded the uplinks\n"
      "as the hash count says.\n",
      seeds, base_seed, sim_seeds, packets, mtu + header);
  return rs;
}

}  // namespace

const Experiment& ecmp_experiment() {
  static const Experiment e{
      "ecmp",
      "n equal flows hashed onto m uplinks: E[L_max], P(no collision), the group's completion (spec §16)",
      "Per case FLOWSxUPLINKS: n sources behind one leaf switch, n destinations behind another, m spine\n"
      "switches between them (every link wire.rate, wire.latency; unbounded queues). The leaf hashes each\n"
      "flow's header fields with the seed onto one of its m uplinks (flow_hash.h). Over --seeds seeds the\n"
      "flows per uplink are counted from the switch's forwarding decision; on --sim-seeds of them every flow\n"
      "sends --packets packets from time 0 and the completion is measured. docs/fabric.md explains the model.",
      {opt_text("--cases", "LIST", "8x32,8x16,32x32,32x16,128x16", "FLOWSxUPLINKS cases, comma-separated"),
       opt_count("--seeds", "N", 1, 1000000, "10000", "hash seeds counted per case"),
       opt_count("--sim-seeds", "N", 0, 1000, "20", "of those, seeds run as packets"),
       opt_count("--packets", "N", 1, 100000, "64", "packets per flow in the packet-level runs")},
      {"flows", "uplinks"},
      {{"flows", "flows", "n: equal flows, one per source"},
       {"uplinks", "links", "m: the leaf's equal-cost uplinks"},
       {"seeds", "seeds", "hash seeds counted"},
       {"e_lmax", "flows", "mean over the seeds of the busiest uplink's flow count (the switch's hash)"},
       {"e_lmax_derived", "flows", "derived: E[max load] of n balls into m bins, uniform, exact"},
       {"p_ideal", "", "share of seeds with L_max = ceil(n/m) (for n <= m: no collision)"},
       {"p_ideal_derived", "", "derived: P(L_max = ceil(n/m)), uniform"},
       {"speed_hash", "", "ceil(n/m) / e_lmax: the group's speed relative to no collision (ratio of means)"},
       {"speed_derived", "", "derived: ceil(n/m) / e_lmax_derived"},
       {"lmax_histogram", "", "[L, share of seeds] for every L_max that occurred"},
       {"packets", "packets", "packets per flow in the packet-level runs"},
       {"sim_seeds", "seeds", "seeds run as packets (the first of the counted ones)"},
       {"t1_us", "us", "one flow alone: its first packet sent to its last delivered"},
       {"t_free_us", "us", "the group with the collision-free placement (fabric.ecmp = flow_rr)"},
       {"t_mean_us", "us", "the group's completion, mean over the packet-level seeds"},
       {"speed_sim", "", "t_free_us / t_mean_us, measured"},
       {"lmax_sim_mean", "flows", "mean busiest-uplink flow count the packet-level runs saw on the links"},
       {"sim_agrees", "seeds", "packet-level seeds whose busiest uplink carried the flows the hash count says"},
       {"uplink_error_packets", "packets", "worst |busiest uplink busy time - L_max x one flow's| in packet times"},
       {"t_error_packets", "packets", "worst |T - T1 - (L_max - 1) x one flow's uplink time| in packet times"},
       {"lost", "packets", "packets sent and not delivered (0: the queues are unbounded)"}},
      "ecmp",
      "plot_ecmp.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
