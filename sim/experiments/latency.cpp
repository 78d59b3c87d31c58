#include "latency.h"
#include "pipeline_limits.h"

#include <sys/resource.h>
#include <sys/statvfs.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "data_dir.h"
#include "experiment.h"
#include "json.h"
#include "packet.h"
#include "raw_speed.h"
#include "rtl_variant.h"
#include "routes.h"
#include "safe_file.h"
#include "simulation_run.h"
#include "timeline.h"
#include "subprocess.h"
#include "two_node_system.h"
#include "ubsim_build_info.h"

namespace ubsim {

using sc_core::SC_FS;

namespace {

// Whether the file system holding `dir` is (nearly) full.
bool disk_full(const std::string& dir) {
  struct statvfs sv {};
  if (::statvfs(dir.c_str(), &sv) != 0) return false;
  return static_cast<double>(sv.f_bavail) * static_cast<double>(sv.f_frsize) < 1024.0 * 1024.0;
}

}  // namespace

void check_horizon(const Config& cfg, const std::string& path, Verb verb) {
  const std::string v = verb == Verb::Read ? "read" : "write";
  const double period_s = static_cast<double>(cfg.clock_period_fs()) / 1e15;
  double per_op = 0;   // one request's derived latency, s
  for (const HopSpec& h : cfg.route(path, v)) {
    const OpInfo& info = op_info(h.op);
    per_op += info.in_cycles ? cfg.value(info.param_key) * period_s : cfg.value(info.param_key) / 1e15;
  }
  // the message's packets through the slowest resource they cross, both ways
  const uint64_t pkts = packets_of(cfg.count(key::workload_size), cfg.count(key::transport_mtu));
  const double slowest = std::min({cfg.value(key::wire_rate), cfg.value(key::bus_bandwidth), cfg.value(key::dram_bandwidth),
                                   cfg.value(key::pcie_bandwidth)});
  per_op += 2 * static_cast<double>(pkts * cfg.count(key::transport_header_bytes) + cfg.count(key::workload_size)) / slowest;
  // a cold context refill at each end
  per_op += 2 * std::max(cfg.value(key::pcie_dma_read), cfg.value(key::bus_traversal) + cfg.value(key::dram_row_miss)) / 1e15;
  const double ops = static_cast<double>(cfg.count(key::workload_ops));
  const double rate = cfg.value(key::workload_rate);
  const double span = rate > 0 ? ops / rate + per_op
                               : ops * per_op / static_cast<double>(cfg.count(key::workload_outstanding));
  const double horizon_s = static_cast<double>(kHorizonFs) / 1e15;
  if (transport_in_paths(cfg)) {
    // the transport's retry budget, as the engine-only loss experiment counts
    // it: a packet lost on every try waits out the whole back-off series
    const double budget_s = static_cast<double>(cfg.fs(key::sack_rto)) / 1e15 *
                            std::pow(cfg.value(key::sack_rto_backoff), cfg.value(key::sack_max_retries) + 1);
    if (span + budget_s > 0.9 * horizon_s)
      throw ConfigError(cfg.source(key::sack_rto), key::sack_rto.name,
                        fmt::format("with sack.rto_backoff {} and sack.max_retries {} the transport's retry budget "
                                    "alone spans about {:.4g} s, beyond the simulator's time horizon of {:.1f} s (2^64 fs)",
                                    cfg.exact(key::sack_rto_backoff).text(), cfg.count(key::sack_max_retries), budget_s,
                                    horizon_s));
  }
  if (span > 0.9 * horizon_s)
    throw ConfigError(
        cfg.source(key::workload_ops), key::workload_ops.name,
        fmt::format("{} {} requests on {} would simulate about {:.4g} s ({:.4g} s each{}), beyond the simulator's "
                    "time horizon of {:.1f} s (2^64 fs at 1 fs resolution): fewer requests or shorter latencies",
                    cfg.count(key::workload_ops), v, path, span, per_op,
                    rate > 0 ? fmt::format(", arriving at {:.4g}/s", rate) : std::string(), horizon_s));
}

// Derived (from the configuration, not the run): the time to stream a
// message's packets through each resource the payload crosses, the slowest
// one named. Wire: every packet with its header at wire.rate; send
// pipeline: every packet's flits at the clock; bus / DRAM / PCIe: the bytes
// at their bandwidth (where the route places or fetches per packet).
static void derive_message_stream(const Config& cfg, const Route& route, LatencyResult& r) {
  const uint64_t size = cfg.count(key::workload_size), mtu = cfg.count(key::transport_mtu);
  const uint64_t header = cfg.count(key::transport_header_bytes);
  r.size_bytes = size;
  r.packets = packets_of(size, mtu);
  std::vector<std::pair<std::string, double>> stream;
  // (over multipath.paths paths the packets share them, each a link at wire.rate)
  const uint64_t paths = cfg.count(key::multipath_paths);
  stream.emplace_back(paths > 1 ? fmt::format("wire ({} paths)", paths) : std::string("wire"),
                      static_cast<double>(size + r.packets * header) / cfg.value(key::wire_rate) * 1e9 /
                          static_cast<double>(paths));
  uint64_t flits = 0;
  for (uint32_t k = 0; k < r.packets; ++k)
    flits += (packet_payload(size, mtu, k) + header + rtl_variant::kFlitBytes - 1) / rtl_variant::kFlitBytes;
  stream.emplace_back("send-pipeline flits", static_cast<double>(flits) * 1e9 / cfg.value(key::clock));
  for (size_t i = 0; i < route.hops.size(); ++i) {
    const HopSpec& h = route.hops[i];
    if (!is_transfer_op(h.op) || !(h.per_packet || (!route.fetch.empty() && route.fetch[i]))) continue;
    const ComponentKind owner = op_info(h.op).owner;
    const char* name = owner == ComponentKind::Bus ? "on-chip bus" : owner == ComponentKind::Dram ? "DRAM" : "PCIe";
    const char* key = owner == ComponentKind::Bus ? "bus.bandwidth" : owner == ComponentKind::Dram ? "dram.bandwidth"
                                                                                                : "pcie.bandwidth";
    double bytes = static_cast<double>(size);
    if (owner == ComponentKind::Pcie)   // in TLPs of at most max_payload, each with its overhead
      bytes += std::ceil(bytes / static_cast<double>(cfg.count(key::pcie_max_payload))) *
               static_cast<double>(cfg.count(key::pcie_tlp_overhead));
    if (owner == ComponentKind::Dram) {
      // one access per packet: each holds the device for its occupancy (at
      // most the row-hit latency) and the bytes beyond the first 64 at the
      // DRAM's rate (the DRAM server's rule, dram.bandwidth)
      const double hold_ns = std::min(cfg.fs(key::dram_row_hit), cfg.fs(key::dram_occupancy)) / 1e6;
      double ns = 0;
      for (uint32_t k = 0; k < r.packets; ++k) {
        const uint64_t b = packet_payload(size, mtu, k);
        ns += hold_ns + static_cast<double>(b > 64 ? b - 64 : 0) / cfg.value(key) * 1e9;
      }
      stream.emplace_back(name, ns);
      continue;
    }
    stream.emplace_back(name, bytes / cfg.value(key) * 1e9);
  }
  const auto slowest = std::max_element(stream.begin(), stream.end(),
                                        [](const auto& a, const auto& b) { return a.second < b.second; });
  r.binding = slowest->first;
  r.derived_stream_ns = slowest->second;
  r.derived_message_ns = r.derived_total_ns + r.derived_stream_ns;
}

// Derived: what crossing the fabric from device a to device b (and back)
// adds to the route's wire stages over one link of wire.rate and
// wire.latency: per wire stage, the propagation of the path's links beyond
// wire.latency, and its largest packet serialized on every link of the
// path (store and forward) instead of once at wire.rate. Along the first
// equal-cost path (a hash may pick another of the same length).
static double derive_fabric_ns(const Config& cfg, const Topology& t, int a, int b, const Route& route, Verb verb) {
  const uint64_t header = cfg.count(key::transport_header_bytes);
  const uint64_t payload = std::min(cfg.count(key::workload_size), cfg.count(key::transport_mtu));
  double ns = 0;
  for (const HopSpec& h : route.hops) {
    if (h.op != Op::WireRequest && h.op != Op::WireResponse) continue;
    const bool request = h.op == Op::WireRequest;
    const bool carries = (verb == Verb::Read) != request;   // a read's payload comes back, a write's goes out
    const double bytes = static_cast<double>(header + (carries ? payload : 0));
    int at = request ? a : b;
    const int to = request ? b : a;
    double prop_fs = 0, ser_ns = 0;
    while (at != to) {
      const int port = t.devices[at].is_switch() ? t.next_ports(at, to).front() : 0;
      const TopoLink& l = t.links[t.ports()[at][port].link];
      prop_fs += static_cast<double>(l.delay_fs);
      ser_ns += bytes / l.rate_Bps * 1e9;
      at = t.ports()[at][port].peer;
    }
    ns += (prop_fs - static_cast<double>(cfg.fs(key::wire_latency))) / 1e6 + ser_ns - bytes / cfg.value(key::wire_rate) * 1e9;
  }
  return ns;
}

LatencyResult run_latency(const Config& cfg, const LatencyOptions& o) { return run_latency_sessions(cfg, o).front(); }

std::vector<LatencyResult> run_latency_sessions(const Config& cfg, const LatencyOptions& o) {
  SimulationRun run;   // before any sc_time exists
  validate_config(cfg);
  check_horizon(cfg, o.path, o.verb);
  const std::string verb = o.verb == Verb::Read ? "read" : "write";
  const uint64_t ops = cfg.count(key::workload_ops), warmup = cfg.count(key::workload_warmup);
  // The system lives until the process exits: each simulation runs in its own
  // child process, and tearing down verilated models after SystemC has run
  // gains nothing (Verilator 5.006 can deadlock in ~VerilatedScope there).
  std::vector<std::pair<int, int>> pairs = o.concurrent;
  if (pairs.empty() && o.pair.first >= 0) pairs = {o.pair};
  auto& sys = *new TwoNodeSystem("sys", cfg, cfg.route(o.path, verb), Workload{o.verb, {}}, pairs);
  if (o.on_system) o.on_system(sys);
  if (!o.drop.empty()) {
    TransportWire* w = sys.transport_wire_from(NodeId::A);
    if (!w) throw std::logic_error("--drop without the transport in the paths");
    w->set_drop_once(std::set<uint32_t>(o.drop.begin(), o.drop.end()));
  }
  std::unique_ptr<TimelineWriter> timeline;
  if (!o.timeline_path.empty())
    {
    std::vector<std::string> names;
    for (StageComponent* c : sys.components()) names.push_back(c->basename());
    timeline = std::make_unique<TimelineWriter>(o.timeline_path, o.timeline_ops, o.path, o.timeline_index, names);
  }
  // Cache counters at the end of the warm-up, so the window's are a difference.
  std::vector<CacheCounters> at_warmup;
  for (CtxCacheBridge* c : sys.caches()) at_warmup.push_back(c->counters());
  sys.app().on_complete = [&](const Request& r) {
    if (timeline) timeline->add(r);
    if (o.observe) o.observe(r);
    if (sys.app().completed() == warmup) {
      at_warmup.clear();
      for (CtxCacheBridge* c : sys.caches()) at_warmup.push_back(c->counters());
    }
  };
  run.trace_all(sys.bridges(), o.trace_prefix);
  run.run();
  run.finish(&sys.watchdog());
  if (timeline) timeline->finish();
  if (!o.trace_prefix.empty() && sys.transport_from(NodeId::A)) {
    // one view of the first connection's transport beside node A's send
    // pipeline (its order tracker inside): their FSTs merged on one time axis
    PathTransport& ab = *sys.transport_from(NodeId::A);
    PathTransport& ba = *sys.transport_from(NodeId::B);
    std::vector<std::string> argv = {"/usr/bin/python3", data_path("scripts/merge_fst.py"),
                                     o.trace_prefix + ".transport.fst"};
    for (RtlBridge* b : std::initializer_list<RtlBridge*>{&sys.initiator_tx(), &ab.sender(0), &ab.receiver(0), &ba.sender(0), &ba.receiver(0)})
      argv.push_back(std::string(b->basename()) + "=" + o.trace_prefix + "." + b->basename() + ".fst");
    if (run_program(argv) != 0)
      throw std::runtime_error("option --trace: merging the transport's waveforms into " + argv[2] + " failed");
  }
  for (size_t k = 0; k < sys.sessions(); ++k)
    if (sys.app(k).completed() != ops)   // nothing left to happen, and requests outstanding: a stall
      end_child_with(4, fmt::format("the simulation ran out of events with {} of {} requests completed{}",
                                    sys.app(k).completed(), ops,
                                    sys.sessions() > 1 ? fmt::format(" in session {}", k) : std::string()));

  std::vector<LatencyResult> results;
  for (size_t k = 0; k < sys.sessions(); ++k) {
  const Route& route = sys.route(k);
  InitiatorApp& app = sys.app(k);
  LatencyResult r;
  r.path = o.path;
  r.verb = verb;
  r.ops = ops;
  r.outstanding = static_cast<int>(cfg.count(key::workload_outstanding));
  r.clock_mhz = cfg.value(key::clock) / 1e6;
  r.wall_s = run.wall_s();
  r.cpu_s = run.cpu_s();
  r.sim_time_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  const LatencyRecord& rec = app.record();
  r.measured = rec.measured_ops;
  // every request may have failed (loss 100 %): then there is no latency
  const double n = static_cast<double>(std::max<uint64_t>(rec.measured_ops, 1));
  const double cycle_ns = 1e9 / cfg.value(key::clock);
  double fabric_hops = 0;
  double align = 0, ser = 0, queue = 0, hazard = 0, ctx_wait = 0, transfer = 0, reassembly = 0, cq_batch = 0, doorbell_batch = 0,
         pcie_link = 0, posted_early = 0, retransmit = 0, reorder = 0, transport = 0;
  for (size_t i = 0; i < route.hops.size(); ++i) {
    const HopSpec& h = route.hops[i];
    const OpInfo& info = op_info(h.op);
    const HopSums& s = rec.hops[i];
    StageResult st;
    st.stage = h.label;
    st.category = info.category;
    st.rtl = info.in_cycles;
    st.derived_ns = !has_latency_key(info) ? 0
                    : info.in_cycles      ? cfg.value(info.param_key) * cycle_ns
                                          : cfg.value(info.param_key) / 1e6;
    st.measured_ns = static_cast<double>(s.measured / n) / 1e6;
    st.align_ns = static_cast<double>(s.align / n) / 1e6;
    st.serialize_ns = static_cast<double>(s.serialize / n) / 1e6;
    st.queue_ns = static_cast<double>(s.queue / n) / 1e6;
    // Inside an RTL pipeline, time beyond its configured depth is a structural
    // hazard stall (e.g. two requests contending for the TP-context port).
    // Measured against the configured cycles on the simulated clock grid (an
    // integer number of fs per cycle), so it is exactly 0 without a stall.
    // The cycles the RTL reports waiting at its context gate are a refill,
    // itemized on their own.
    st.ctx_wait_ns = static_cast<double>(s.ctx_wait / n) / 1e6;
    const double reassembly_ns = static_cast<double>(s.reassembly / n) / 1e6;
    transfer += static_cast<double>(s.transfer / n) / 1e6;
    pcie_link += static_cast<double>(s.link / n) / 1e6;
    posted_early -= static_cast<double>(s.early / n) / 1e6;
    retransmit += static_cast<double>(s.retransmit / n) / 1e6;
    reorder += static_cast<double>(s.reorder / n) / 1e6;
    transport += static_cast<double>(s.transport / n) / 1e6;
    fabric_hops += static_cast<double>(s.fabric / n) / 1e6;
    if (h.op == Op::SwCqBatchWait) cq_batch += st.measured_ns;   // visible, waiting for the handler's next run
    if (h.op == Op::SwDoorbellBatchWait) doorbell_batch += st.measured_ns;   // posted, waiting for the doorbell
    reassembly += reassembly_ns;
    if (st.rtl)
      st.hazard_ns = static_cast<double>(s.service / n) / 1e6 - st.ctx_wait_ns - reassembly_ns -
                     cfg.value(info.param_key) * static_cast<double>(cfg.clock_period_fs()) / 1e6;
    align += st.align_ns;
    hazard += st.hazard_ns;
    ctx_wait += st.ctx_wait_ns;
    ser += st.serialize_ns;
    queue += st.queue_ns;
    if (st.rtl) ++r.rtl_entries;
    r.derived_total_ns += st.derived_ns;
    r.stages.push_back(st);
    r.hops.push_back(h);
  }
  r.mean_ns = rec.total.mean_ns();
  r.p50_ns = rec.total.quantile_ns(0.50);
  r.p99_ns = rec.total.quantile_ns(0.99);
  r.p999_ns = rec.total.quantile_ns(0.999);
  r.max_ns = rec.total.max_ns();
  r.min_ns = rec.total.min_ns();
  const double backlog = static_cast<double>(rec.backlog_fs / n) / 1e6;
  const double slot_wait = static_cast<double>(rec.slot_wait_fs / n) / 1e6;
  const double pacing = static_cast<double>(rec.pacing_fs / n) / 1e6;
  r.effects = {{"clock-edge alignment", align}, {"wire serialization", ser}, {"queueing", queue},
               {"pipeline hazard stall", hazard}, {"context-cache refill", ctx_wait},
               {"send-queue backlog", backlog}, {"payload transfer beyond 64 B", transfer},
               {"later packets of the message", reassembly},
               {"bus / PCIe link beyond a 64 B transaction", pcie_link},
               {"completion record behind the payload (nic.cqe_after = ordered)", posted_early},
               {"slot wait", slot_wait},
               {"submit pacing", pacing}, {"doorbell batch wait", doorbell_batch},
               {"completion batch wait", cq_batch}};
  if (sys.fabric_wire()) {
    const auto [a, b] = sys.session_devices(k);
    r.effects.push_back({"switch hops: propagation of the fabric links beyond wire.latency", fabric_hops});
    r.derived_fabric_ns = derive_fabric_ns(cfg, *cfg.topology(), a, b, route, o.verb);
    r.initiator = cfg.topology()->devices[a].name;
    r.target = cfg.topology()->devices[b].name;
  }
  if (PathTransport* t = sys.transport_from(NodeId::A)) {
    // the transport inside the paths: itemized from its engines' events
    r.effects.push_back({"transport engines and wire queue", transport});
    r.effects.push_back({"retransmission of lost packets", retransmit});
    r.effects.push_back({"in-order delivery wait (behind a hole)", reorder});
    r.transport = true;
    r.transport_mode = t->gbn() ? "gbn" : "sack";
    for (PathTransport* d : {t, sys.transport_from(NodeId::B)}) {
      r.retransmitted_packets += d->retransmitted_packets();
      r.retransmitted_bytes += d->retransmitted_bytes();
      r.timeouts += d->timeouts();
    }
  }
  r.failed = app.failed();
  r.unexplained_ns = r.mean_ns - r.derived_total_ns - align - ser - queue - hazard - ctx_wait - backlog - transfer -
                     reassembly - pcie_link - posted_early - slot_wait - pacing - doorbell_batch - cq_batch - transport -
                     retransmit - reorder - fabric_hops;
  r.slot_mean_ns = rec.slot_time.mean_ns();
  r.slot_p99_ns = rec.slot_time.quantile_ns(0.99);
  derive_message_stream(cfg, route, r);
  r.offered_per_us = cfg.value(key::workload_rate) / 1e6;
  const uint64_t window = rec.window_end_fs - rec.window_start_fs;
  r.achieved_per_us = window ? static_cast<double>(rec.window_ops) / (static_cast<double>(window) / 1e9) : 0;
  r.stats = sys.stats();
  const auto caches = sys.caches();
  for (size_t i = 0; i < caches.size(); ++i)
    r.cache_window.emplace_back(caches[i]->basename(), caches[i]->counters() - at_warmup[i]);
  for (RtlBridge* b : sys.bridges()) {
    r.cycles_evaluated += static_cast<double>(b->cycles_evaluated());
    if (b->cycles_evaluated()) r.cycles_by_block[b->block_name()] += static_cast<double>(b->cycles_evaluated());
  }
  r.cycles_total = r.sim_time_ns / cycle_ns;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  r.peak_rss_kib = ru.ru_maxrss;
  results.push_back(std::move(r));
  }
  return results;
}

json::Value latency_row(const LatencyResult& r, double reference_ns) {
  using V = json::Value;
  // no request succeeded (every one failed): there is no latency, not a latency of 0
  const bool none = r.measured == 0;
  auto lat = [none](double ns) { return none ? V::null() : V::number(ns); };
  V stages = V::array(), effects = V::array(), stats = V::array();
  for (const auto& st : r.stages)
    stages.items.push_back(V::object()
                               .add("stage", V::string(st.stage))
                               .add("category", V::string(st.category))
                               .add("derived_ns", V::number(st.derived_ns))
                               .add("measured_ns", lat(st.measured_ns))
                               .add("alignment_ns", lat(st.align_ns))
                               .add("serialization_ns", lat(st.serialize_ns))
                               .add("queueing_ns", lat(st.queue_ns))
                               .add("hazard_stall_ns", lat(st.hazard_ns))
                               .add("ctx_refill_ns", lat(st.ctx_wait_ns)));
  for (const auto& [cause, ns] : r.effects)
    effects.items.push_back(V::object().add("cause", V::string(cause)).add("ns", lat(ns)));
  for (const auto& row : r.stats.rows)
    stats.items.push_back(V::object()
                              .add("component", V::string(row.component))
                              .add("name", V::string(row.name))
                              .add("value", V::number(row.value))
                              .add("unit", V::string(row.unit)));
  V row = V::object();
  row.add("path", V::string(r.path)).add("verb", V::string(r.verb));
  if (!r.initiator.empty())   // over a switched fabric: which pair of controllers
    row.add("initiator", V::string(r.initiator)).add("target", V::string(r.target));
  return row
      .add("ops", V::number(static_cast<double>(r.ops)))
      .add("outstanding", V::number(r.outstanding))
      .add("stages", stages)
      .add("derived_total_ns", V::number(r.derived_total_ns))
      .add("size_bytes", V::number(static_cast<double>(r.size_bytes)))
      .add("packets", V::number(r.packets))
      .add("derived_stream_ns", V::number(r.derived_stream_ns))
      .add("derived_message_ns", V::number(r.derived_message_ns))
      .add_if(r.derived_fabric_ns >= 0, "derived_fabric_ns", V::number(r.derived_fabric_ns))
      .add("binding", V::string(r.binding))
      .add("measured_total_ns", V::object()
                                    .add("mean", lat(r.mean_ns))
                                    .add("p50", lat(r.p50_ns))
                                    .add("p99", lat(r.p99_ns))
                                    .add("p999", lat(r.p999_ns))
                                    .add("max", lat(r.max_ns))
                                    .add("min", lat(r.min_ns)))
      .add("effects", effects)
      .add("unexplained_ns", lat(r.unexplained_ns))
      .add("transport", V::string(r.transport ? r.transport_mode : "none"))
      .add("retransmitted_packets", V::number(static_cast<double>(r.retransmitted_packets)))
      .add("retransmitted_bytes", V::number(static_cast<double>(r.retransmitted_bytes)))
      .add("timeouts", V::number(static_cast<double>(r.timeouts)))
      .add("failed", V::number(static_cast<double>(r.failed)))
      .add("offered_per_us", V::number(r.offered_per_us))
      .add("achieved_per_us", V::number(r.achieved_per_us))
      .add("reference_ns", reference_ns > 0 ? V::number(reference_ns) : V::null())
      .add("sim", V::object()
                      .add("wall_s", V::number(r.wall_s))
                      .add("ops_per_s", V::number(static_cast<double>(r.ops) / r.wall_s))
                      .add("rtl_cycles_evaluated", V::number(r.cycles_evaluated))
                      .add("peak_rss_kib", V::number(static_cast<double>(r.peak_rss_kib))))
      .add("stats", stats);
}

namespace {

std::string reference_csv_path() { return data_path("docs/published_reference.csv"); }

ResultSet run(Config& cfg, const Options& o) {
  const auto paths = select_paths(o.text("--path"), o.text("--stack"));
  if (o.given("--drop")) cfg.apply(key::transport_in_paths, "true", "option --drop");
  validate_config(cfg);   // bad input fails here, before anything runs or is written
  // Over a switched fabric: every (initiator, target) pair of controllers, or the one --pair names.
  std::vector<std::pair<int, int>> pairs{{-1, -1}};
  if (const Topology* t = cfg.topology(); t && !t->is_back_to_back()) {
    pairs = t->controller_pairs();
    if (o.given("--pair")) {
      const std::string p = o.text("--pair");
      const auto colon = p.find(':');
      const int a = colon == std::string::npos ? -1 : t->find(p.substr(0, colon));
      const int b = colon == std::string::npos ? -1 : t->find(p.substr(colon + 1));
      if (std::find(pairs.begin(), pairs.end(), std::make_pair(a, b)) == pairs.end())
        throw CliError("option --pair: '" + one_line_text(p) + "' is not INITIATOR:TARGET of two controller nodes of " +
                       t->file);
      pairs = {{a, b}};
    }
  } else if (o.given("--pair") || o.flag("--concurrent")) {
    throw CliError(std::string("option ") + (o.given("--pair") ? "--pair" : "--concurrent") +
                   ": the configuration has no switched topology (--config FILE with [topology])");
  }
  // --concurrent: every pair at once, one run per path
  std::vector<std::vector<std::pair<int, int>>> runs;
  if (o.flag("--concurrent")) runs.push_back(pairs);
  else
    for (const auto& pr : pairs) runs.push_back({pr});
  const Verb verb = o.text("--verb") == "read" ? Verb::Read : Verb::Write;
  for (const auto& p : paths) check_horizon(cfg, p, verb);
  const auto reference = load_reference_csv(reference_csv_path());
  // The published figures are for one sequential 64 B read at the defaults:
  // beside any other configuration they would compare unlike with unlike.
  std::vector<std::string> changed;
  {
    static const std::set<std::string> kRunOnly = {"workload.ops", "workload.warmup", "seed"};
    const auto mine = cfg.resolved(), defaults = Config{}.resolved();
    for (const auto& [key, value] : mine)
      if (!kRunOnly.count(key) && (!defaults.count(key) || defaults.at(key) != value)) changed.push_back(key);
    if (cfg.resolved_routes() != Config{}.resolved_routes()) changed.push_back("path.*");
  }
  const std::string timeline = o.text("--timeline"), trace = o.text("--trace");
  // Timeline parts and waveforms are written into private staging folders
  // and moved to their final names only once every path has run: a failure,
  // a full disk or a kill leaves nothing under a final name.
  namespace fs = std::filesystem;
  safe_file::Temporary timeline_stage, trace_stage;
  if (!timeline.empty()) timeline_stage = safe_file::temp_dir(timeline, fs::path(timeline).filename().string() + ".parts");
  const fs::path trace_dir = trace.empty() ? fs::path() : fs::absolute(trace).parent_path();
  const std::string trace_stem = trace.empty() ? "" : fs::path(trace).filename().string();
  if (!trace.empty()) trace_stage = safe_file::temp_dir(fs::absolute(trace), trace_stem + ".trace");
  std::vector<std::string> parts;
  ResultSet rs;
  for (const auto& p : paths)
  for (const auto& run_pairs : runs) {
    const std::pair<int, int> pair = run_pairs.size() == 1 ? run_pairs[0] : std::pair<int, int>{-2, -2};
    LatencyOptions lo;
    lo.path = p;
    if (run_pairs.size() == 1) lo.pair = pair;
    else lo.concurrent = run_pairs;
    lo.verb = o.text("--verb") == "read" ? Verb::Read : Verb::Write;
    const std::string pair_tag =
        pair.first == -2 ? ".concurrent"
        : pair.first < 0 ? ""
                         : "." + cfg.topology()->devices[pair.first].name + "-" + cfg.topology()->devices[pair.second].name;
    if (!trace.empty()) lo.trace_prefix = (fs::path(trace_stage.path()) / (trace_stem + "." + p + pair_tag)).string();
    for (uint64_t d : o.counts("--drop")) lo.drop.push_back(static_cast<uint32_t>(d));
    if (!timeline.empty()) {   // one trace for the run: each path's part, assembled below
      lo.timeline_path = (fs::path(timeline_stage.path()) / ("part-" + std::to_string(parts.size()))).string();
      lo.timeline_index = static_cast<int>(parts.size());
      parts.push_back(lo.timeline_path);
    }
    const double ref = (lo.verb == Verb::Read && changed.empty() && reference.count(p)) ? reference.at(p) : 0.0;
    std::vector<json::Value> rows;
    try {
      rows = rows_in_child([&] {
        std::vector<json::Value> out;
        for (const LatencyResult& r : run_latency_sessions(cfg, lo)) out.push_back(latency_row(r, ref));
        return out;
      });
    } catch (const CliError&) {
      throw;
    } catch (const std::exception& e) {
      if (!trace.empty() && disk_full(trace_stage.path()))
        throw safe_file::IoError("option --trace: no space left on device in " + trace_dir.string() +
                                 " (writing the waveforms failed: " + e.what() + ")");
      if (!timeline.empty() && disk_full(timeline_stage.path()))
        throw safe_file::IoError("option --timeline: no space left on device (" + std::string(e.what()) + ")");
      throw;
    }
    for (auto& row : rows) rs.rows.push_back(std::move(row));
  }
  if (!timeline.empty()) assemble_timeline(timeline, parts);
  if (!trace.empty()) safe_file::move_contents(trace_stage.path(), trace_dir, "option --trace");
  if (!o.flag("--stats")) rs.table_omit = {"stats"};
  rs.notes = "measured - derived = the effects listed (clock-edge alignment: at most one cycle per RTL entry;\n"
             "wire serialization of every packet at wire.rate; queueing; hazard stalls; context refills);\n"
             "unexplained is rounding. reference_ns: the published cycle-level simulator's figure (spec §4).\n";
  for (const auto& row : rs.rows)
    if (const Value* m = row.find("measured_total_ns"); m && m->get("mean") && m->get("mean")->kind == Value::Null)
      rs.notes += fmt::format("{}: no request succeeded ({} failed): no latency to show.\n", row.get("path")->text,
                              json::display_number(row.get("failed")->text));
  if (!changed.empty()) {
    std::string keys;
    for (const auto& k : changed) keys += (keys.empty() ? "" : ", ") + k;
    rs.notes += "reference_ns omitted: the published figure is for the defaults, and this run changes " + keys + ".\n";
  } else if (verb == Verb::Write) {
    rs.notes += "reference_ns omitted: the published figures are for reads.\n";
  }
  return rs;
}

}  // namespace

const Experiment& latency_experiment() {
  static const Experiment e{
      "latency",
      "measured per-stage latency breakdown of remote reads/writes (64 B, or --size) on the three paths",
      "Requests go along one path of the two-node model (a route of stages, path.<id>.<verb>); every stage\n"
      "is measured from the simulation's event timestamps and shown beside its derived (configured) value.\n"
      "Closed loop by default (--outstanding requests in flight); --rate makes it open loop.",
      {opt_choice("--path", {"pcie-nic", "ub-async", "ub-load", "all"}, "all", "the path(s) to run"),
       opt_choice("--stack", {"ub", "roce", "both"}, "", "shorthand for the paths of a stack (instead of --path)"),
       opt_choice("--verb", {"read", "write"}, "read", "read, or write (Store on ub-load)"),
       opt_key("--ops", "N", "workload.ops", "requests per path"),
       opt_key("--size", "B", "workload.size", "message bytes of each read or write: ceil(size / transport.mtu) packets"),
       opt_key("--outstanding", "K", "workload.outstanding",
               "requests in flight per initiator; with --rate the send-queue depth"),
       opt_key("--rate", "R", "workload.rate", "open-loop arrivals at R (e.g. 5Mops/s, 5/us)"),
       opt_key("--loss", "P", "loss.data",
               "lose each data packet on the wire with probability P (acks too, unless loss.ack is set); the "
               "transport engines then run inside the paths"),
       opt_counts("--drop", "LIST", 0, 16777215, "",
                  "PSNs of node A's data packets lost on their first transmission (scripted; puts the transport\n"
                  "in the paths; every connection counts its PSNs from 0)"),
       opt_text("--pair", "I:T", "",
                "over a switched topology: the initiator and target controllers to run (default: every pair)"),
       opt_flag("--concurrent",
                "over a switched topology: every pair at once in one run (one initiator application each; the\n"
                "packets meet in the switches' queues), instead of each pair alone"),
       opt_flag("--stats", "show the per-component statistics in the table (always in the JSON)"),
       opt_out_file("--timeline", "FILE",
                    "Perfetto / Chrome trace of the first 100 requests of every path: a process per node, a track\n"
                    "per component, a slice per stage with flow arrows between a request's stages"),
       opt_out_prefix("--trace", "PREFIX", "FST waveforms of every RTL block: PREFIX.<path>.<block>.fst; with the\n"
                      "transport in the paths also PREFIX.<path>.transport.fst (node A's send pipeline and the first\n"
                      "connection's engines, merged)")},
      {"path", "verb"},
      {{"stages", "", "per stage: derived_ns, measured_ns and the itemized effects (ns per op)"},
       {"initiator", "", "over a switched topology: the controller that is node A (absent over one link)"},
       {"target", "", "over a switched topology: the controller that is node B"},
       {"derived_fabric_ns", "ns", "over a switched topology, derived: what the fabric path adds to the wire stages over one link (its links' propagation beyond wire.latency, every packet serialized on each of its links)"},
       {"derived_total_ns", "ns", "sum of the configured stages"},
       {"ops", "ops", "requests run (workload.ops)"},
       {"outstanding", "ops", "requests in flight at once (closed loop) or the send-queue depth (open loop)"},
       {"size_bytes", "B", "the message's payload bytes (workload.size)"},
       {"packets", "packets", "ceil(size / transport.mtu) packets in the payload direction"},
       {"derived_stream_ns", "ns", "derived: the message's packets streamed through the slowest resource on the way (the wire with every packet's header, the send pipeline's flits, the bus, DRAM or PCIe moving the bytes)"},
       {"derived_message_ns", "ns", "derived: derived_total_ns + derived_stream_ns"},
       {"binding", "", "the resource that sets derived_stream_ns"},
       {"measured_total_ns", "ns", "measured latency of the requests that succeeded: mean (exact), p50, p99, p999, max, min (histogram)"},
       {"effects", "ns", "measured - derived by cause"},
       {"unexplained_ns", "ns", "measured - derived - effects (rounding)"},
       {"transport", "", "the transport engines inside the paths: sack, gbn, or none (transport.in_paths)"},
       {"retransmitted_packets", "packets", "packets the transport engines resent (both directions)"},
       {"retransmitted_bytes", "bytes", "payload bytes resent"},
       {"timeouts", "events", "retransmit timer expiries"},
       {"failed", "ops", "requests completed with an error status (transport retries exhausted)"},
       {"offered_per_us", "1/us", "open loop: the offered rate"},
       {"achieved_per_us", "1/us", "completions per us over the measured window"},
       {"reference_ns", "ns", "the published cycle-level simulator's figure (reads at the defaults)"},
       {"sim", "", "the run itself: wall_s, ops_per_s, rtl_cycles_evaluated, peak_rss_kib"},
       {"stats", "", "per-component statistics: component, name, value, unit"}},
      "latency",
      "plot_latency.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
