// The throughput experiment (spec §11): effective bandwidth vs request
// slots, closed loop, per path and message size, with every bound the
// configuration and the measurements give, the binding one named.
//
// A slot is one of node A's requests in flight: taken when the application
// submits, freed when software has handled the completion (the route's last
// stages): the closed loop sets slots.count = N with a request always ready.
// Per point the run measures the bandwidth (payload delivered over the
// measured window), the slot time T (submit -> completion handled: the
// request's latency), and the busiest component; T0 is the slot time at
// N = 1, and δ(m) the send pipeline's interval for an m-byte message,
// measured by the issue-rate machinery on this build.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "experiment.h"
#include "pipeline_limits.h"
#include "issue_rate.h"
#include "latency.h"
#include "packet.h"
#include "rtl_variant.h"

namespace ubsim {

namespace {

struct Measured {
  double requests_per_us = 0, mean_ns = 0, p99_ns = 0, busiest_utilization = 0;
  // How long a request holds its order-tracker entry: from its arrival at
  // node A's send pipeline to its completion leaving node A's receive
  // pipeline (mean over the run).
  double order_hold_ns = 0;
  // the transport inside the paths (with --loss): resends and failures
  double retransmitted_packets = 0, failed = 0;
  std::string busiest;
  json::Value timeline = json::Value::null();
};

// The first `horizon_fs` of a run: request slots in use (a step series) and
// the busy intervals of the link the payload crosses (node B to A for reads).
json::Value slot_timeline(const std::vector<std::pair<uint64_t, uint64_t>>& held,
                          const std::vector<std::pair<uint64_t, uint64_t>>& busy, uint64_t horizon_fs) {
  using V = json::Value;
  std::vector<std::pair<uint64_t, int>> events;
  for (const auto& [from, to] : held) {
    events.emplace_back(from, +1);
    if (to < horizon_fs) events.emplace_back(to, -1);
  }
  std::sort(events.begin(), events.end());
  V steps = V::array();
  int level = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    level += events[i].second;
    if (i + 1 < events.size() && events[i + 1].first == events[i].first) continue;   // one step per instant
    steps.items.push_back(V::array({V::number(static_cast<double>(events[i].first) / 1e9), V::number(level)}));
  }
  V link = V::array();
  uint64_t s = 0, e = 0;
  bool open = false;
  for (const auto& [from, to] : busy) {   // in time order; adjacent intervals merged
    if (open && from <= e) {
      e = std::max(e, to);
      continue;
    }
    if (open) link.items.push_back(V::array({V::number(static_cast<double>(s) / 1e9), V::number(static_cast<double>(e) / 1e9)}));
    s = from, e = to, open = true;
  }
  if (open) link.items.push_back(V::array({V::number(static_cast<double>(s) / 1e9), V::number(static_cast<double>(e) / 1e9)}));
  return V::object()
      .add("horizon_us", V::number(static_cast<double>(horizon_fs) / 1e9))
      .add("link", V::string("wire B to A (the read's payload)"))
      .add("slots_in_use", steps)
      .add("link_busy_us", link);
}

// One closed-loop run with N slots, in a child process; with a horizon, the
// first horizon_fs of it as a timeline.
Measured measure(const Config& base, const std::string& path, uint64_t slots, uint64_t min_ops,
                 uint64_t horizon_fs = 0) {
  const auto rows = rows_in_child([&] {
    std::vector<std::pair<uint64_t, uint64_t>> held, busy;
    LatencyOptions o;
    if (horizon_fs > 0) {
      o.observe = [&](const Request& r) {
        if (r.slot_fs < horizon_fs) held.emplace_back(r.slot_fs, r.completed_fs);
      };
      o.on_system = [&](TwoNodeSystem& sys) {
        sys.wire_from(NodeId::B).on_busy = [&](uint64_t from, uint64_t to) {
          if (from < horizon_fs) busy.emplace_back(from, std::min(to, horizon_fs));
        };
      };
    }
    Config cfg = base;
    // 20 turns of every slot: with bunched completions the measured window's edges
    // cost about 2 % at 10 turns (pcie-nic, 256 B, 128 slots, textbook configuration)
    const uint64_t ops = std::max(min_ops, 20 * slots);
    cfg.set_by_experiment(key::workload_outstanding, "throughput", fmt::format("{}", slots));   // the application always has a request ready
    cfg.set_by_experiment(key::slots_count, "throughput", fmt::format("{}", slots));
    cfg.set_by_experiment(key::workload_ops, "throughput", fmt::format("{}", ops));
    cfg.set_by_experiment(key::workload_warmup, "throughput", fmt::format("{}", std::max<uint64_t>(slots, ops / 10)));
    o.path = path;
    const LatencyResult r = run_latency(cfg, o);
    std::string busiest = "-";
    double util = 0;
    for (const StatRow& row : r.stats.rows)
      if (row.name == "utilization" && row.value > util) util = row.value, busiest = row.component;
    double hold = 0;
    bool holding = false;
    for (size_t i = 0; i < r.hops.size(); ++i) {
      const HopSpec& h = r.hops[i];
      if (h.node == NodeId::A && is_send_op(h.op)) holding = true;
      if (holding) hold += r.stages[i].measured_ns;
      if (h.node == NodeId::A && is_receive_op(h.op)) break;
    }
    using V = json::Value;
    return std::vector<V>{V::object()
                              .add("rate", V::number(r.achieved_per_us))
                              .add("hold", V::number(hold))
                              .add("mean", V::number(r.slot_mean_ns))
                              .add("p99", V::number(r.slot_p99_ns))
                              .add("busiest", V::string(busiest))
                              .add("util", V::number(util))
                              .add("retransmitted_packets", V::number(static_cast<double>(r.retransmitted_packets)))
                              .add("failed", V::number(static_cast<double>(r.failed)))
                              .add("timeline", horizon_fs ? slot_timeline(held, busy, horizon_fs) : V::null())};
  });
  const json::Value& v = rows.at(0);
  return {v.num("rate"), v.num("mean"), v.num("p99"), v.num("util"), v.num("hold"), v.num("retransmitted_packets"),
          v.num("failed"), v.str("busiest"), *v.get("timeline")};
}

// The send pipeline's interval for one m-byte message (ns): the packet
// interval of a back-to-back burst times the message's packets.
double issue_interval_ns(const Config& cfg, const std::string& path) {
  const IssueRateResult r = run_issue_rate(cfg, path == "pcie-nic" ? "roce" : "ub", 64, 1);
  return r.interval_ns * r.packets_per_message;
}

// Software time per request on node A's core: its software stages in turn
// (the core is held for each whole stage).
double software_ns(const Config& cfg, const std::string& path) {
  double ns = 0;
  for (const HopSpec& h : cfg.route(path, "read")) {
    const OpInfo& info = op_info(h.op);
    if (h.node == NodeId::A && info.owner == ComponentKind::Cpu) ns += cfg.value(info.param_key) / 1e6;
  }
  return ns;
}

// The memory-side resources (each node's bus, DRAM, PCIe link): the time
// each is held per request, from the route's stages as the servers charge
// them (min(latency, occupancy), plus (bytes - 64) / bandwidth for the bytes
// a stage moves) and the send engine's payload fetches; the most loaded one.
struct MemoryBound {
  std::string resource;
  double held_ns = 0;
};
MemoryBound memory_bound(const Config& cfg, const std::string& path) {
  const uint64_t size = cfg.count(key::workload_size), mtu = cfg.count(key::transport_mtu);
  const uint32_t pkts = packets_of(size, mtu);
  const bool write = false;   // the experiment reads
  Route route;
  route.hops = cfg.route(path, write ? "write" : "read");
  route.mark_segments(!write);
  std::map<std::string, double> held;   // "B DRAM" -> ns per request
  auto key_of = [](const OpInfo& info, NodeId n) {
    const std::string node = n == NodeId::A ? "A " : "B ";
    if (info.owner == ComponentKind::Bus) return node + "on-chip bus";
    if (info.owner == ComponentKind::Dram) return node + "DRAM";
    return node + "PCIe";
  };
  // k work requests per doorbell: the doorbell and one fetch of k descriptors (64 B each) per k requests
  const double per_doorbell = static_cast<double>(cfg.count(key::sw_wr_per_doorbell));
  // The PCIe link: bytes per direction (TLP payloads and pcie.tlp_overhead
  // each); the busier direction is the link's time.
  const double ovh = static_cast<double>(cfg.count(key::pcie_tlp_overhead));
  const double mps = static_cast<double>(cfg.count(key::pcie_max_payload));
  const double mrrs = static_cast<double>(cfg.count(key::pcie_max_read_request));
  double pcie_up[2] = {0, 0}, pcie_down[2] = {0, 0};   // per node: device -> host, host -> device
  // The on-chip bus likewise: toward memory (the controller's writes) and
  // from it (read data, and the CPU's submits into the controller).
  double bus_to_mem[2] = {0, 0}, bus_from_mem[2] = {0, 0};
  enum class BusUse { Read, Write, Into };   // what a bus stage is (other stages say it by their op)
  auto charge = [&](Op op, NodeId node, uint64_t bytes, BusUse bus_use, double share = 1.0) {
    const OpInfo& info = op_info(op);
    const int n = static_cast<int>(node);
    const double b = static_cast<double>(std::max<uint64_t>(bytes, 64));
    if (op == Op::BusTraversal) {
      if (bus_use == BusUse::Write) bus_to_mem[n] += b * share;
      else if (bus_use == BusUse::Read) bus_from_mem[n] += b * share;
      else bus_from_mem[n] += 64 * share;
      return;
    }
    if (op == Op::PcieDoorbell) {
      pcie_down[n] += (8 + ovh) * share;
      return;
    }
    if (op == Op::PcieDmaRead) {
      pcie_up[n] += std::ceil(b / mrrs) * ovh * share;
      pcie_down[n] += (b + std::ceil(b / mps) * ovh) * share;
      return;
    }
    if (op == Op::PcieDmaWrite) {
      pcie_up[n] += (b + std::ceil(b / mps) * ovh) * share;
      return;
    }
    double ns = std::min(cfg.value(info.param_key), cfg.value(key::dram_occupancy)) / 1e6;
    if (is_transfer_op(op) && bytes > 64) ns += static_cast<double>(bytes - 64) / cfg.value(key::dram_bandwidth) * 1e9;
    held[key_of(info, node)] += ns * share;
  };
  bool sent = false;   // past the first send pipeline (before it, the CPU submits into the controller)
  for (size_t i = 0; i < route.hops.size(); ++i) {
    const HopSpec& h = route.hops[i];
    if (is_send_op(h.op)) sent = true;
    const ComponentKind owner = op_info(h.op).owner;
    if (owner != ComponentKind::Bus && owner != ComponentKind::Dram && owner != ComponentKind::Pcie) continue;
    const BusUse use = route.fetch[i] ? BusUse::Read : sent ? BusUse::Write : BusUse::Into;
    const bool carrying = (h.node == NodeId::B) == write;   // per-packet stages of the payload's segment
    const bool doorbell = h.node == NodeId::A && h.op == Op::PcieDoorbell;
    const bool descriptors = i > 0 && route.hops[i - 1].node == NodeId::A && route.hops[i - 1].op == Op::PcieDoorbell &&
                             h.node == NodeId::A && h.op == Op::PcieDmaRead;
    if (doorbell || descriptors) {
      charge(h.op, h.node, descriptors ? static_cast<uint64_t>(per_doorbell) * 64 : 0, use, 1.0 / per_doorbell);
    } else if (route.fetch[i]) {
      charge(h.op, h.node, packet_payload(size, mtu, 0), use);
    } else if (h.per_packet && carrying) {
      for (uint32_t k = 0; k < pkts; ++k) charge(h.op, h.node, packet_payload(size, mtu, k), use);
    } else {
      charge(h.op, h.node, 0, use);
    }
  }
  // the read's later response packets: fetched by node B's send engine
  const bool nic = path == "pcie-nic";
  for (uint32_t k = 1; k < pkts; ++k) {
    const uint64_t bytes = packet_payload(size, mtu, k);
    if (nic) {
      charge(Op::PcieDmaRead, NodeId::B, bytes, BusUse::Read);
    } else {
      charge(Op::BusTraversal, NodeId::B, bytes, BusUse::Read);
      charge(Op::DramRowHit, NodeId::B, bytes, BusUse::Read);
    }
  }
  for (int n = 0; n < 2; ++n) {
    if (pcie_up[n] + pcie_down[n] > 0)
      held[n == 0 ? "A PCIe" : "B PCIe"] = std::max(pcie_up[n], pcie_down[n]) / cfg.value(key::pcie_bandwidth) * 1e9;
    if (bus_to_mem[n] + bus_from_mem[n] > 0)
      held[n == 0 ? "A on-chip bus" : "B on-chip bus"] =
          std::max(bus_to_mem[n], bus_from_mem[n]) / cfg.value(key::bus_bandwidth) * 1e9;
  }
  MemoryBound best;
  for (const auto& [name, ns] : held)
    if (ns > best.held_ns) best = {name, ns};
  return best;
}

// GB/s that `key` (tags or non-posted credits per node) allows: each read
// request holds one from its send until its data is back, unloaded
// pcie.dma_read for 64 B plus its larger completions' extra bytes; the node
// whose reads hold them longest per message sets it (infinite without
// PCIe reads).
double pcie_tag_bound(const Config& cfg, const std::string& path, const char* key) {
  const uint64_t size = cfg.count(key::workload_size), mtu = cfg.count(key::transport_mtu);
  const double mrrs = static_cast<double>(cfg.count(key::pcie_max_read_request));
  const double mps = static_cast<double>(cfg.count(key::pcie_max_payload));
  const double ovh = static_cast<double>(cfg.count(key::pcie_tlp_overhead));
  const double rate = cfg.value(key::pcie_bandwidth);
  // a read of b bytes: its requests and the time they hold a tag each (ns)
  auto hold_ns = [&](double b) {
    double ns = 0;
    for (double left = std::max(b, 64.0); left > 0; left -= mrrs) {
      const double r = std::min(left, mrrs);
      ns += cfg.value(key::pcie_dma_read) / 1e6 + (r + std::ceil(r / mps) * ovh - (64 + ovh)) / rate * 1e9;
    }
    return ns;
  };
  Route route;
  route.hops = cfg.route(path, "read");
  route.mark_segments(true);
  double held[2] = {0, 0};
  const double k = static_cast<double>(cfg.count(key::sw_wr_per_doorbell));
  for (size_t i = 0; i < route.hops.size(); ++i) {
    const HopSpec& h = route.hops[i];
    if (h.op != Op::PcieDmaRead) continue;
    const int n = static_cast<int>(h.node);
    const bool descriptors = i > 0 && route.hops[i - 1].op == Op::PcieDoorbell;
    if (descriptors) held[n] += hold_ns(k * 64) / k;
    else if (route.fetch[i]) held[n] += hold_ns(static_cast<double>(packet_payload(size, mtu, 0)));
    else held[n] += hold_ns(64);
  }
  if (path == "pcie-nic")   // the later response packets, fetched by node B's send engine
    for (uint32_t p = 1; p < packets_of(size, mtu); ++p)
      held[1] += hold_ns(static_cast<double>(packet_payload(size, mtu, p)));
  const double most = std::max(held[0], held[1]);
  if (most == 0) return std::numeric_limits<double>::infinity();
  return static_cast<double>(cfg.count(key)) * static_cast<double>(size) / most;
}

ResultSet run(Config& cfg, const Options& o) {
  const auto paths = select_paths(o.text("--path"), "");
  const auto slot_list = o.counts("--slots");
  const uint64_t min_ops = o.count("--ops");
  std::vector<Config> sized;   // one configuration per --size entry
  for (const std::string& s : split_list(o.text("--size"))) {
    Config c = cfg;
    c.apply(key::workload_size, s, "option --size");
    validate_config(c);
    sized.push_back(std::move(c));
  }
  using V = json::Value;
  ResultSet rs;
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto& path : paths)
    for (const Config& c : sized) {
      const double m = static_cast<double>(c.count(key::workload_size));
      const uint64_t pkts = packets_of(c.count(key::workload_size), c.count(key::transport_mtu));
      const Measured unloaded = measure(c, path, 1, min_ops);
      const double t0 = unloaded.mean_ns;
      const double delta = issue_interval_ns(c, path);
      const double sw = software_ns(c, path);
      const bool tracked = path != "ub-load";   // URMA requests and RC QPs pass the order tracker
      // the order tracker's queues: the Jettys / QPs (one per endpoint, or per core), at most the
      // queues it tracks at once
      const double queues = std::min<double>(
          rtl_variant::kOrderSlots, std::max<double>({1.0, static_cast<double>(c.count(key::workload_endpoints)),
                                                      static_cast<double>(c.count(key::host_cores))}));
      // bounds in GB/s (bytes per ns)
      const double b_path = c.value(key::wire_rate) / 1e9 * m / (m + static_cast<double>(pkts * c.count(key::transport_header_bytes)));
      const double b_issue = m / delta;
      const double cores = static_cast<double>(c.count(key::host_cores));
      const double b_sw = sw > 0 ? cores * m / sw : inf;
      const MemoryBound mem = memory_bound(c, path);
      const double b_mem = mem.held_ns > 0 ? m / mem.held_ns : inf;
      // Load/Store: each core's outstanding-miss buffers are its slots
      const double b_miss = path == "ub-load"
                                ? cores * static_cast<double>(c.count(key::core_outstanding_loads)) * m / t0
                                : inf;
      // batched completion handling: at most sw.cq_batch completions per sw.cq_period
      const bool batched = c.count(key::sw_cq_batch) > 0 && path != "ub-load";
      const double b_cq = batched ? static_cast<double>(c.count(key::sw_cq_batch)) * m / (c.value(key::sw_cq_period) / 1e6)
                                  : inf;
      // The NIC's PCIe tags and the host's non-posted credits: each DMA read
      // request holds one for its round trip (pcie.dma_read unloaded); per node,
      // the requests a message's reads make there (derived)
      const double b_tags = pcie_tag_bound(c, path, "pcie.tags"), b_credits = pcie_tag_bound(c, path, "pcie.np_credits");
      for (uint64_t n : slot_list) {
        const auto horizon_fs = n == o.count("--timeline") ? static_cast<uint64_t>(4 * t0 * 1e6) : 0;
        const Measured x = measure(c, path, n, min_ops, horizon_fs);
        const double b_slots = static_cast<double>(n) * m / t0;
        const double b_order = tracked ? rtl_variant::kOrderWindow * queues * m / unloaded.order_hold_ns : inf;
        const std::vector<std::pair<std::string, double>> bounds = {
            {"path", b_path}, {"slots", b_slots}, {"issue", b_issue}, {"software", b_sw}, {"ordering", b_order},
            {"memory", b_mem}, {"miss_buffers", b_miss}, {"completion", b_cq}, {"pcie_tags", b_tags},
            {"pcie_credits", b_credits}};
        const auto binding = std::min_element(bounds.begin(), bounds.end(),
                                              [](const auto& a, const auto& b) { return a.second < b.second; });
        V bv = V::object();
        for (const auto& [name, gbs] : bounds) bv.add(name, std::isinf(gbs) ? V::null() : V::number(gbs));
        const double gbs = x.requests_per_us * m / 1e3;
        rs.rows.push_back(V::object()
                              .add("path", V::string(path))
                              .add("size_bytes", V::number(m))
                              .add("slots", V::number(static_cast<double>(n)))
                              .add("gbytes_per_s", V::number(gbs))
                              .add("requests_per_us", V::number(x.requests_per_us))
                              .add("slot_time_ns", V::object().add("mean", V::number(x.mean_ns)).add("p99", V::number(x.p99_ns)))
                              .add("t0_ns", V::number(t0))
                              .add("order_hold_ns", tracked ? V::number(unloaded.order_hold_ns) : V::null())
                              .add("delta_ns", V::number(delta))
                              .add("software_ns", V::number(sw))
                              .add("bounds_gbytes_per_s", bv)
                              .add("memory_resource", V::string(mem.resource))
                              .add("bound", V::string(binding->first))
                              .add("bound_gbytes_per_s", V::number(binding->second))
                              .add("of_bound", V::number(gbs / binding->second))
                              .add("busiest", V::string(x.busiest))
                              .add("busiest_utilization", V::number(x.busiest_utilization))
                              .add("retransmitted_packets", V::number(x.retransmitted_packets))
                              .add("failed", V::number(x.failed))
                              .add("timeline", x.timeline));
      }
    }
  rs.notes =
      "closed loop: N slots (slots.count = N) at node A, a request always ready for each; a slot is freed when\n"
      "software has handled the completion (on ub-load a core's miss buffers are its slots).\n"
      "bounds (derived from this configuration and the measured T0, delta): path = wire.rate x m / (m + packets x\n"
      "header); slots = N x m / T0; issue = m / delta(m) (the send pipeline's interval for the message, measured by\n"
      "issue-rate); software = host.cores x m / (node A's software time per request); ordering = order window x\n"
      "min(queues, tracked queues) x m / (the unloaded time a request holds its tracker entry: node A's send\n"
      "pipeline -> its completion out of node A's receive pipeline; tracked paths); memory = m / (the time the most loaded bus, DRAM or PCIe link is held per request:\n"
      "DRAM min(latency, occupancy) per access plus the bytes beyond 64 at its bandwidth; the bus its bytes and a\n"
      "PCIe link its TLPs' bytes (payload and pcie.tlp_overhead each) on the busier direction); miss_buffers = host.cores x\n"
      "core.outstanding_loads x m / T0 (ub-load); completion = sw.cq_batch x m / sw.cq_period (batched handling);\n"
      "pcie_tags / pcie_credits = pcie.tags / pcie.np_credits x m / (the time a message's read requests hold them\n"
      "on the busiest node: pcie.dma_read each, plus their completions' bytes beyond 64 B).\n"
      "bound = the smallest;\n"
      "of_bound = measured / bound.\n";
  rs.table_omit = {"software_ns", "timeline", "order_hold_ns"};
  return rs;
}

}  // namespace

const Experiment& throughput_experiment() {
  static const Experiment e{
      "throughput",
      "effective bandwidth vs request slots (closed loop) per path and size, with every bound and the binding one",
      "N slots are N requests of m bytes in flight from node A (closed loop); per point the bandwidth (payload\n"
      "over the measured window), the slot time T (submit -> completion handled) and the busiest component are\n"
      "measured; T0 is T at N = 1 and delta(m) the send pipeline's interval for the message. The bounds of spec\n"
      "11 are computed from them and the configuration, and the smallest is named.",
      {opt_choice("--path", {"pcie-nic", "ub-async", "ub-load", "all"}, "all", "the path(s) to run"),
       opt_text("--size", "LIST", "64B,256B,4KiB", "message sizes, comma-separated (each sets workload.size)"),
       opt_counts("--slots", "LIST", 1, 65536, "1,2,4,8,16,32,64,128,256", "slot counts N, comma-separated"),
       opt_count("--ops", "N", 50, 100000000, "400", "completed requests per point at least (20 x N when more)"),
       opt_count("--timeline", "N", 0, 65536, "0",
                 "at N slots, record the first 4 x T0 of each run: slots in use and the payload link's busy time\n"
                 "(0 = none)"),
       opt_key("--loss", "P", "loss.data", "lose data (and ack) packets on the wire with probability P (the transport\n"
               "engines then run inside the paths)")},
      {"path", "size_bytes", "slots"},
      {{"gbytes_per_s", "GB/s", "payload delivered / measured window"},
       {"requests_per_us", "1/us", "requests completed per us"},
       {"slot_time_ns", "ns", "slot occupancy T (submit -> completion handled): mean, p99"},
       {"t0_ns", "ns", "T at N = 1 (measured)"},
       {"order_hold_ns", "ns", "at N = 1: node A's send pipeline -> completion out of its receive pipeline (tracked paths)"},
       {"delta_ns", "ns", "the send pipeline's interval for one message (measured by issue-rate)"},
       {"software_ns", "ns", "derived: the CPU time per request of the route's software stages (the software bound's)"},
       {"bounds_gbytes_per_s", "GB/s",
        "derived bounds: path, slots, issue, software, ordering, memory, miss_buffers, completion, pcie_tags,\n"
        "pcie_credits (null: none)"},
       {"memory_resource", "", "the most loaded bus / DRAM / PCIe link (the memory bound's)"},
       {"bound", "", "the smallest bound"},
       {"bound_gbytes_per_s", "GB/s", "the smallest bound's value"},
       {"of_bound", "", "measured / smallest bound"},
       {"busiest", "", "the component with the highest utilization"},
       {"busiest_utilization", "fraction", "that component's utilization over the run"},
       {"retransmitted_packets", "packets", "packets the transport engines resent (0 without loss)"},
       {"failed", "ops", "requests completed with an error status (transport retries exhausted)"},
       {"timeline", "", "at --timeline N: horizon_us, slots_in_use [[us, n]...], link_busy_us [[from, to]...]"}},
      "throughput",
      "plot_throughput.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
