// congestion: a queue that fills faster than it drains (textbook §7.5.1,
// §7.5.2, spec §17), open loop: traffic sources into one switch whose
// egress is the bottleneck, its buffer finite or not, no pause yet. Per
// point measured from the egress queue: its peak backlog, when it first
// dropped (full), the bytes it dropped, when it drained to at most one
// packet; beside each the fluid value derived from dQ/dt = lambda(t) - B.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "experiment.h"
#include "simulation_run.h"
#include "fabric.h"
#include "fabric_network.h"
#include "latency.h"
#include "rate_limiter_bridge.h"

namespace ubsim {

namespace {

using V = json::Value;

constexpr double kGBps = 1e9;

struct Source {
  std::string name;
  double link_Bps;
  std::vector<TopoFlow> flows;   // src/dst filled in by the builder
};

struct Point {
  std::string scenario, label;
  std::vector<Source> sources;
  double egress_Bps = 50 * kGBps;
  uint64_t buffer = 0;           // 0: unbounded
  std::string prefill;           // the source whose bytes sit in the queue at the start ("": none)
  uint64_t cable_fs = 0;         // every sender's link: propagation
  uint64_t mtu = 0;              // the packets' payload (0: transport.mtu), set by the scenario
  // > 0: search the senders' packet boundaries against the pause for the
  // worst phase (worst_phase: that many even steps, then halving to a byte)
  int phases = 0;
  PausePolicy pause;
  double headroom_derived = -1, feedback_us_derived = -1;
  // derived (fluid), negative: not applicable
  double peak_derived = -1, full_us_derived = -1, dropped_derived = -1, empty_us_derived = -1, drain_us_derived = -1;
  double senders_stop_us = -1;   // when the last sender stops (the drain is counted from there)
  // closed loop (issue 33): ECN at the switch, a CNP back, each sender's RTL rate limiter
  bool feedback = false;
  uint64_t egress_delay_fs = 0;   // the switch-sink link's propagation, each way (the feedback path)
  EcnPolicy ecn;
  double limiter_decrease = 0.5, limiter_rate_min_Bps = 0;
  uint64_t limiter_interval_fs = 0;
  double free_bytes = -1;         // the buffer's free bytes at the start (drops and tolerable T_f derived from it)
};

// Wire bytes -> payload bytes of packets with the model's header.
uint64_t payload_of(double wire_bytes, uint64_t mtu, uint64_t header) {
  return static_cast<uint64_t>(std::floor(wire_bytes * static_cast<double>(mtu) / static_cast<double>(mtu + header)));
}

TopoFlow flow(double rate, double start_us, double wire_bytes, uint64_t mtu, uint64_t header) {
  TopoFlow f;
  f.rate_Bps = rate;
  f.start_fs = static_cast<uint64_t>(std::llround(start_us * 1e9));
  f.bytes = std::max<uint64_t>(1, payload_of(wire_bytes, mtu, header));
  return f;
}

// closed loop: ECN marks (every packet leaving a queue above 0 bytes), a
// CNP back over the sink's link, the senders' RTL rate limiters
void closed_loop(Point& p, double egress_delay_us) {
  p.feedback = true;
  p.egress_delay_fs = static_cast<uint64_t>(std::llround(egress_delay_us * 1e9));
  p.ecn.enabled = true;
  p.ecn.kmin = 0;
  p.ecn.kmax = 1;
  p.limiter_interval_fs = static_cast<uint64_t>(1e15);   // one cut per run (the spec's cases)
}

// two jobs of job_ms at 50 GB/s, overlapping fully, by a quarter, not at all
void two_jobs_points(const Config& cfg, uint64_t mtu, uint64_t hdr, double B, std::vector<Point>& out, double job_ms) {
  // two jobs of job_ms at 50 GB/s; the second starts after `offset`
  for (double overlap_ms : {job_ms, job_ms / 4, 0.0}) {
    Point p;
    p.scenario = "two-jobs";
    p.label = fmt::format("overlap {:g} ms", overlap_ms);
    const double job_us = job_ms * 1e3, offset_us = (job_ms - overlap_ms) * 1e3;
    p.sources = {{"job0", B, {flow(B, 0, B * job_us * 1e-6, mtu, hdr)}},
                 {"job1", B, {flow(B, offset_us, B * job_us * 1e-6, mtu, hdr)}}};
    p.peak_derived = (2 * B - B) * overlap_ms * 1e-3;
    p.senders_stop_us = offset_us + job_us;
    p.drain_us_derived = p.peak_derived / B * 1e6;
    out.push_back(p);
  }
}

// 100 GB/s into 512 KiB holding 256 KiB, stepped to 40 or 50 GB/s at 20 us
void step_points(const Config& cfg, uint64_t mtu, uint64_t hdr, double B, std::vector<Point>& out) {
  // 100 GB/s into 50 GB/s, 512 KiB buffer with 256 KiB in it; at 20 us the
  // arrival steps to 40 GB/s, or to exactly 50 GB/s
  for (double after : {40.0, 50.0}) {
    Point p;
    p.scenario = "step";
    p.label = fmt::format("100 then {:g} GB/s at 20 us", after);
    p.buffer = 512 * 1024;
    const double lambda = 100 * kGBps, lambda2 = after * kGBps, step_us = 20, run_us = 100;
    // the main source's first packet reaches the switch one packet time at 100 GB/s after 0
    const double first_us = static_cast<double>(mtu + hdr) / lambda * 1e6;
    p.sources = {{"src", lambda,
                  {flow(lambda, 0, lambda * step_us * 1e-6, mtu, hdr),
                   flow(lambda2, step_us, lambda2 * run_us * 1e-6, mtu, hdr)}},
                 // 256 KiB already in the queue: a burst landing with the main source's first packet
                 {"prefill", 1e15, {flow(1e15, first_us - 262144 / 1e15 * 1e6, 262144, mtu, hdr)}}};
    p.prefill = "prefill";
    const double free = 512 * 1024 - 256 * 1024;
    p.full_us_derived = free / (lambda - B) * 1e6;
    p.dropped_derived = (lambda - B) * (step_us - p.full_us_derived) * 1e-6;
    p.empty_us_derived = after < 50 ? step_us + 512 * 1024 / (B - lambda2) * 1e6 : -1;
    out.push_back(p);
  }
}

// incast under per-port link-level pause
void pause_points(const Config& cfg, uint64_t mtu, uint64_t hdr, double B, std::vector<Point>& out) {
  // incast under link-level pause over 30 m of cable (5 ns/m): what the
  // switch takes in after a port passes XOFF, until the pause has reached
  // its sender, its packet in serialization has finished and crossed back
  const double cable_ns = 150, pkt_s = static_cast<double>(mtu + hdr) / B, frame_s = 64.0 / B;
  const double t_fb = 2 * cable_ns * 1e-9 + pkt_s + frame_s;
  for (int sizing : {0, 1, 2})   // unbounded; XOFF with no headroom; XOFF plus the derived headroom
    for (int n : {8, 16, 64}) {
      Point p;
      p.scenario = "pause";
      p.cable_fs = static_cast<uint64_t>(cable_ns * 1e6);
      p.pause.enabled = true;
      p.pause.xoff = cfg.count(key::fabric_pause_xoff);
      p.pause.xon = cfg.count(key::fabric_pause_xon);
      p.pause.quanta_fs = cfg.fs(key::fabric_pause_quanta);
      p.headroom_derived = (n - 2) * B * t_fb;
      p.feedback_us_derived = t_fb * 1e6;
      // sized: the buffer is every port's XOFF plus the derived headroom
      // (and a packet per port, which one arrival may take past XOFF)
      p.buffer = sizing == 0 ? 0
                 : sizing == 1 ? static_cast<uint64_t>((n - 1) * (p.pause.xoff + mtu + hdr))
                               : static_cast<uint64_t>((n - 1) * (p.pause.xoff + mtu + hdr) + p.headroom_derived);
      p.label = fmt::format("N={}{}", n, sizing == 0 ? "" : sizing == 1 ? " no headroom" : " with headroom");
      for (int i = 0; i < n - 1; ++i)
        p.sources.push_back({fmt::format("s{}", i), B, {flow(B, 0, B * 20e-6, mtu, hdr)}});
      out.push_back(p);
    }
}

// spec 17's 1500 B pause case, XOFF on the bytes the switch holds in all
void pause_switch_points(const Config& cfg, uint64_t mtu, uint64_t hdr, double B, std::vector<Point>& out) {
  // spec 17's pause case: 1500 B on the wire (the scenario's own MTU), 30 m
  // of cable, the switch's XOFF on the bytes it holds in all, 1 MiB free,
  // XOFF = free - the derived headroom, and one packet more and one less
  // of headroom: the derivation drains the queue as a fluid, the switch
  // frees a frame's buffer when its last byte has left, so the boundary
  // lies within a packet of the derived headroom. At the default packets
  // the feedback is longer, and the headroom sized for 1500 B loses what
  // the longer feedback brings in.
  const uint64_t small = 1500 - hdr, free = 1 << 20;
  const double cable_ns = 150;
  auto t_fb = [&](uint64_t payload) {
    return 2 * cable_ns * 1e-9 + static_cast<double>(payload + hdr) / B + 64.0 / B;
  };
  auto point = [&](int n, uint64_t payload, double headroom_sized, const std::string& what) {
    Point p;
    p.scenario = "pause-switch";
    p.mtu = payload;
    p.cable_fs = static_cast<uint64_t>(cable_ns * 1e6);
    p.pause.enabled = true;
    p.pause.switch_wide = true;
    p.pause.xoff = free - static_cast<uint64_t>(std::ceil(headroom_sized));
    p.pause.xon = p.pause.xoff / 2;
    p.buffer = free;
    p.headroom_derived = (n - 2) * B * t_fb(payload);
    p.feedback_us_derived = t_fb(payload) * 1e6;
    p.free_bytes = static_cast<double>(free);
    p.dropped_derived = std::max(0.0, p.headroom_derived - headroom_sized);
    p.label = fmt::format("N={} {} B packets, {}", n, payload + hdr, what);
    // every sender at line rate; the derived headroom is the worst case, a
    // sender that has just started a packet when the pause reaches it, so
    // the run is repeated over the phases of the packet boundaries (worst_phase)
    // (each sends until 2 us after the fluid queue passes XOFF: several feedback times)
    p.phases = 8;
    const double send_s = static_cast<double>(p.pause.xoff) / ((n - 2) * B) + 2e-6;
    for (int i = 0; i < n - 1; ++i)
      p.sources.push_back({fmt::format("s{}", i), B, {flow(B, 0, B * send_s, payload, hdr)}});
    out.push_back(p);
  };
  for (int n : {8, 16, 64}) {
    const double h = (n - 2) * B * t_fb(small);
    point(n, small, h, "XOFF = free - headroom");
    point(n, small, h + static_cast<double>(small + hdr), "one packet more headroom");
    point(n, small, h - static_cast<double>(small + hdr), "one packet less headroom");
  }
  point(64, mtu, (64 - 2) * B * t_fb(small), "XOFF = free - the 1500 B headroom");
}

// figure 7-43 closed loop
void feedback_step_points(const Config& cfg, uint64_t mtu, uint64_t hdr, double B, std::vector<Point>& out) {
  // figure 7-43 closed loop: 100 GB/s into 512 KiB holding 256 KiB; the
  // source cut to 40 GB/s by its first notification; the sink 7.5 us away
  Point p;
  p.scenario = "feedback-step";
  p.label = "100 GB/s cut to 40 GB/s by the first CNP";
  p.buffer = 512 * 1024;
  const double lambda = 100 * kGBps, run_us = 100;
  const double first_us = static_cast<double>(mtu + hdr) / lambda * 1e6;
  p.sources = {{"src", lambda, {flow(lambda, 0, lambda * run_us * 1e-6, mtu, hdr)}},
               {"prefill", 1e15, {flow(1e15, first_us - 262144 / 1e15 * 1e6, 262144, mtu, hdr)}}};
  p.prefill = "prefill";
  closed_loop(p, 7.5);
  p.limiter_decrease = 0.4;
  p.free_bytes = 512 * 1024 - 256 * 1024;
  p.full_us_derived = p.free_bytes / (lambda - B) * 1e6;
  out.push_back(p);
}

// N - 1 senders at 50 GB/s for 30 us each into the egress, the sink 10 us away
void closed_incast(const Config& cfg, uint64_t mtu, uint64_t hdr, double B, std::vector<Point>& out, const std::string& scenario, int n, uint64_t free,
                   double decrease, uint64_t interval_fs, const std::string& label) {
  Point p;
  p.scenario = scenario;
  p.label = label;
  p.buffer = free;
  for (int i = 0; i < n - 1; ++i) p.sources.push_back({fmt::format("s{}", i), B, {flow(B, 0, B * 30e-6, mtu, hdr)}});
  closed_loop(p, 10);
  p.limiter_decrease = decrease;
  // 0: cut to the fair share 50 / (N - 1) GB/s at once (the floor); else never below limiter.rate_min
  p.limiter_rate_min_Bps = decrease == 0 ? B / (n - 1) : cfg.value(key::limiter_rate_min);
  if (interval_fs) p.limiter_interval_fs = interval_fs;
  p.free_bytes = static_cast<double>(free);
  p.full_us_derived = static_cast<double>(free) / ((n - 2) * B) * 1e6;
  out.push_back(p);
}

// incast of N - 1 senders into 1 and 4 MiB
void incast_points(const Config& cfg, uint64_t mtu, uint64_t hdr, double B, std::vector<Point>& out) {
  for (uint64_t free_mib : {1, 4})
    for (int n : {8, 16, 64}) {
      Point p;
      p.scenario = "incast";
      p.label = fmt::format("N={} with {} MiB free", n, free_mib);
      p.buffer = free_mib << 20;
      const double fill_us = static_cast<double>(p.buffer) / ((n - 2) * B) * 1e6;
      for (int i = 0; i < n - 1; ++i)
        p.sources.push_back({fmt::format("s{}", i), B, {flow(B, 0, B * 2 * fill_us * 1e-6 + 8 * (mtu + hdr), mtu, hdr)}});
      p.full_us_derived = fill_us;
      out.push_back(p);
    }
}

std::vector<Point> points(const Config& cfg, const std::vector<std::string>& scenarios, double job_ms) {
  const uint64_t mtu = cfg.count(key::transport_mtu), hdr = cfg.count(key::transport_header_bytes);
  const double B = 50 * kGBps;
  std::vector<Point> out;
  auto want = [&](const char* s) { return std::find(scenarios.begin(), scenarios.end(), s) != scenarios.end(); };
  if (want("two-jobs")) two_jobs_points(cfg, mtu, hdr, B, out, job_ms);
  if (want("step")) step_points(cfg, mtu, hdr, B, out);
  if (want("pause")) pause_points(cfg, mtu, hdr, B, out);
  if (want("pause-switch")) pause_switch_points(cfg, mtu, hdr, B, out);
  if (want("feedback-step")) feedback_step_points(cfg, mtu, hdr, B, out);
  if (want("feedback-incast"))
    for (const auto& [n, mib] : {std::pair{3, 1}, {4, 1}, {6, 4}, {7, 4}})
      closed_incast(cfg, mtu, hdr, B, out, "feedback-incast", n, static_cast<uint64_t>(mib) << 20, 0, 0,
                    fmt::format("N={} with {} MiB free cut to the fair share", n, mib));
  if (want("feedback-tolerable"))
    for (int n : {8, 16, 64})
      closed_incast(cfg, mtu, hdr, B, out, "feedback-tolerable", n, 1 << 20, 0, 0, fmt::format("N={} with 1 MiB free", n));
  if (want("feedback-decrease"))
    // the limiter's own cut, at most once per 20 us (about one feedback delay)
    for (double d : {0.25, 0.5, 0.75})
      closed_incast(cfg, mtu, hdr, B, out, "feedback-decrease", 6, 4 << 20, d, 20000000000ull,
                    fmt::format("N=6 with 4 MiB free x{:g} per 20 us", d));
  if (want("incast")) incast_points(cfg, mtu, hdr, B, out);
  return out;
}

// The sources behind one switch, its egress to the sink the bottleneck.
Topology topology_of(const Point& p, std::vector<FlowRecord>& flows) {
  Topology t;
  auto dev = [&](const std::string& name, TopoDevice::Kind k) {
    t.devices.push_back({name, k, "congestion"});
    return static_cast<int>(t.devices.size() - 1);
  };
  auto link = [&](int a, int b, double rate, uint64_t buffer, uint64_t delay_fs) {
    TopoLink l;
    l.a = a;
    l.b = b;
    l.rate_Bps = rate;
    l.delay_fs = delay_fs;
    l.rate_text = fmt::format("{:g}GB/s", rate / kGBps);
    l.delay_text = "0ns";
    l.buffer_bytes = buffer;
    l.where = "congestion";
    t.links.push_back(l);
  };
  const int sw = dev("sw", TopoDevice::Kind::Switch), sink = dev("sink", TopoDevice::Kind::Source);
  link(sw, sink, p.egress_Bps, p.buffer, p.egress_delay_fs);   // (the buffer is the switch's output queue towards the sink)
  uint32_t entropy = 49152;
  for (const Source& s : p.sources) {
    const int d = dev(s.name, TopoDevice::Kind::Source);
    link(d, sw, s.link_Bps, 0, p.cable_fs);
    for (TopoFlow f : s.flows) {
      FlowRecord r;
      r.src = static_cast<uint32_t>(d);
      r.dst = static_cast<uint32_t>(sink);
      r.entropy = entropy++;
      r.bytes = f.bytes;
      r.rate_Bps = f.rate_Bps;
      r.start_fs = f.start_fs;
      flows.push_back(r);
    }
  }
  t.finish();
  return t;
}

// The fluid queue (dQ/dt = lambda(t) - B, held in [0, buffer]) at each bin's
// end: lambda from the flows' schedule (each at its rate from its first
// packet's arrival for its wire bytes / rate), the prefill landing at once.
std::vector<double> fluid_queue(const Point& p, const std::vector<FlowRecord>& flows, const Topology& t,
                                uint64_t mtu, uint64_t header, uint64_t width_fs, size_t bins) {
  struct Span {
    double from_s, to_s, rate;
  };
  std::vector<Span> spans;
  double prefill_at = -1, prefill_bytes = 0;
  for (const FlowRecord& f : flows) {
    const double link = t.links[t.ports()[f.src][0].link].rate_Bps;
    const uint64_t packets = (f.bytes + mtu - 1) / mtu;
    const double wire = static_cast<double>(f.bytes + packets * header);
    const double from = (static_cast<double>(f.start_fs + p.cable_fs) + static_cast<double>(mtu + header) / link * 1e15) / 1e15;
    if (!p.prefill.empty() && t.devices[f.src].name == p.prefill) {
      prefill_at = from;
      prefill_bytes = wire;
      continue;
    }
    spans.push_back({from, from + wire / f.rate_Bps, f.rate_Bps});
  }
  const double B = p.egress_Bps, cap = p.buffer ? static_cast<double>(p.buffer) : 1e300;
  const double bin_s = static_cast<double>(width_fs) / 1e15, dt = bin_s / 64;
  std::vector<double> out;
  double q = 0, now = 0;
  bool prefilled = false;
  for (size_t b = 0; b < bins; ++b) {
    for (int k = 0; k < 64; ++k, now += dt) {
      if (!prefilled && prefill_at >= 0 && now + dt > prefill_at) q = std::min(cap, q + prefill_bytes), prefilled = true;
      double lambda = 0;
      for (const Span& s : spans)
        lambda += s.rate * std::max(0.0, std::min(now + dt, s.to_s) - std::max(now, s.from_s)) / dt;
      q = std::min(cap, std::max(0.0, q + (lambda - B) * dt));
    }
    out.push_back(q);
  }
  return out;
}

// The point against time, per bin: the egress queue (measured, and the
// fluid one derived where no pause acts), bytes dropped so far, pause
// frames sent, the egress's and each sender's rate (what its link put on
// the wire; the first eight senders by name, the rest summed).
V series(const FabricNetwork& net, const Topology& t, const Point& p, const std::vector<FlowRecord>& schedule,
         uint64_t width, size_t bins, uint64_t t0, uint64_t mtu, uint64_t header) {
  const int sw = t.find("sw");
  const FabricLink::Bins egress = net.egress(sw, 0).bins();
  const double bin_s = static_cast<double>(width) / 1e15;
  auto numbers = [](const std::vector<double>& v) {
    V a = V::array();
    for (double x : v) a.items.push_back(V::number(x));
    return a;
  };
  std::vector<double> t_us, queue, dropped, xoff(bins, 0), xon(bins, 0), out_rate;
  double cum = 0;
  for (size_t b = 0; b < bins; ++b) {
    t_us.push_back((static_cast<double>((b + 1) * width) - static_cast<double>(t0)) / 1e9);
    queue.push_back(static_cast<double>(egress.queue_max[b]));
    cum += static_cast<double>(egress.dropped[b]);
    dropped.push_back(cum);
    out_rate.push_back(static_cast<double>(egress.departed[b]) / bin_s / kGBps);
  }
  for (const auto& e : net.switch_at(sw)->pause_events())
    (e.xoff ? xoff : xon)[std::min<size_t>(e.fs / width, bins - 1)] += 1;
  V senders = V::object();
  std::vector<double> others(bins, 0);
  int named = 0, rest = 0;
  for (size_t d = 0; d < t.devices.size(); ++d) {
    if (t.devices[d].kind != TopoDevice::Kind::Source || static_cast<int>(d) == t.find("sink") ||
        t.devices[d].name == p.prefill)
      continue;
    const FabricLink::Bins s = net.egress(static_cast<int>(d), 0).bins();
    std::vector<double> rate;
    for (size_t b = 0; b < bins; ++b) rate.push_back(static_cast<double>(s.departed[b]) / bin_s / kGBps);
    if (named < 8) {
      senders.add(t.devices[d].name, numbers(rate));
      ++named;
    } else {
      for (size_t b = 0; b < bins; ++b) others[b] += rate[b];
      ++rest;
    }
  }
  if (rest) senders.add(fmt::format("{} others (sum)", rest), numbers(others));
  V v = V::object()
            .add("t_us", numbers(t_us))
            .add("queue_bytes", numbers(queue))
            .add("queue_bytes_derived",
                 p.pause.enabled ? V::null() : numbers(fluid_queue(p, schedule, t, mtu, header, width, bins)))
            .add("dropped_bytes", numbers(dropped))
            .add("xoff_frames", numbers(xoff))
            .add("xon_frames", numbers(xon))
            .add("egress_GBps", numbers(out_rate))
            .add("sender_GBps", senders);
  return v;
}

// Closed loop: the first ECN mark at the egress, each sender's first cut
// after it (the feedback delay T_f), its rate at the end, the CNPs.
V feedback_of(const FabricNetwork& net, const Topology& t, const std::vector<std::unique_ptr<RateLimiterBridge>>& limiters,
              uint64_t t0) {
  const FabricLink& egress = net.egress(t.find("sw"), 0);
  const uint64_t mark = egress.first_mark_fs();
  double sum = 0, worst = 0, cuts = 0, rate_end = 0;
  size_t cut = 0;
  for (const auto& l : limiters) {
    cuts += static_cast<double>(l->decreases());
    rate_end += l->rate_Bps();
    if (!l->first_decrease_fs() || !mark) continue;
    // the sender's rate change as its wire shows it (its link's earlier bytes out at the line rate)
    const double tf = (static_cast<double>(l->first_decrease_on_wire_fs()) - static_cast<double>(mark)) / 1e9;
    sum += tf;
    worst = std::max(worst, tf);
    ++cut;
  }
  uint64_t cnps = 0;
  for (size_t d = 0; d < t.devices.size(); ++d)
    if (!t.devices[d].is_switch()) cnps += net.endpoint(static_cast<int>(d))->cnps_sent();
  return V::object()
      .add("first_mark_us", mark ? V::number((static_cast<double>(mark) - static_cast<double>(t0)) / 1e9) : V::null())
      .add("marked", V::number(static_cast<double>(egress.marked_frames())))
      .add("cnps", V::number(static_cast<double>(cnps)))
      .add("tf_us", cut ? V::number(sum / static_cast<double>(cut)) : V::null())
      .add("tf_max_us", cut ? V::number(worst) : V::null())
      .add("senders_cut", V::number(static_cast<double>(cut)))
      .add("cuts", V::number(cuts))
      .add("rate_end_GBps", V::number(rate_end / kGBps));
}

// Each sender's first packet carries `lead` bytes of payload (less than a
// full one), the rest follows back to back, so the packet boundaries move
// against the (fluid) moment the switch pauses.
Point at_phase(const Point& p, uint64_t lead, uint64_t header) {
  Point q = p;
  if (lead == 0) return q;
  for (Source& s : q.sources) {
    TopoFlow first = s.flows.front();
    TopoFlow main = first;
    first.bytes = lead;
    main.bytes -= std::min(main.bytes - 1, lead);
    main.start_fs += static_cast<uint64_t>(std::llround(static_cast<double>(lead + header) / first.rate_Bps * 1e15));
    s.flows = {first, main};
  }
  return q;
}

V measure(const Config& cfg, const Point& p, size_t bins) {
  return rows_in_child([&] {
           SimulationRun run;
           std::vector<FlowRecord> flows;
           const Topology t = topology_of(p, flows);
           FabricOptions o;
           o.mtu = static_cast<uint32_t>(p.mtu ? p.mtu : cfg.count(key::transport_mtu));
           o.header_bytes = static_cast<uint32_t>(cfg.count(key::transport_header_bytes));
           o.pause = p.pause;
           o.ecn = p.ecn;
           o.ecn.seed = cfg.count(key::seed);
           const std::vector<FlowRecord> schedule = flows;
           FabricNetwork net("fabric", t, std::move(flows), o);
           // closed loop: each sender's frames through its verilated rate limiter
           std::vector<std::unique_ptr<RateLimiterBridge>> limiters;
           // (the bridges' sockets: the limiters take frames by offer(), not transactions)
           std::unique_ptr<StageFabric> stages = p.feedback ? std::make_unique<StageFabric>("stages") : nullptr;
           if (p.feedback)
             for (size_t d = 0; d < t.devices.size(); ++d) {
               if (t.devices[d].kind != TopoDevice::Kind::Source || t.devices[d].name == "sink" ||
                   t.devices[d].name == p.prefill)
                 continue;
               RateLimiterSettings ls = RateLimiterSettings::from(cfg, t.links[t.ports()[d][0].link].rate_Bps);
               ls.decrease = p.limiter_decrease;
               ls.rate_min_Bps = p.limiter_rate_min_Bps;
               ls.interval_fs = p.limiter_interval_fs;
               auto b = std::make_unique<RateLimiterBridge>((t.devices[d].name + "_limiter").c_str(), cfg, ls);
               RateLimiterBridge* lim = b.get();
               FabricLink* out = &net.egress(static_cast<int>(d), 0);
               lim->send = [out](void* f) { out->send(*static_cast<Frame*>(f)); };
               lim->downstream_bytes = [out] { return out->bytes_held(); };
               TrafficEndpoint& ep = *net.endpoint(static_cast<int>(d));
               ep.gate = [lim](Frame& f) { lim->offer(&f, f.bytes); };
               ep.on_cnp = [lim](uint32_t) { lim->notify(); };
               stages->attach(lim);
               limiters.push_back(std::move(b));
             }
           // the bins span the senders' schedule and the worst drain after it
           uint64_t horizon = 0, total = 0;
           for (const FlowRecord& f : schedule) {
             const uint64_t wire = f.bytes + (f.bytes / o.mtu + 1) * o.header_bytes;
             horizon = std::max<uint64_t>(horizon, f.start_fs + static_cast<uint64_t>(wire / f.rate_Bps * 1e15));
             total += wire;
           }
           horizon += static_cast<uint64_t>(static_cast<double>(total) / p.egress_Bps * 1e15) + p.cable_fs * 4;
           const uint64_t width = bins ? horizon / bins + 1 : 0;
           const int sw_dev = t.find("sw");
           if (bins) {
             net.egress(sw_dev, 0).record_bins(width, bins);
             for (size_t d = 0; d < t.devices.size(); ++d)
               if (t.devices[d].kind == TopoDevice::Kind::Source && !t.ports()[d].empty() && static_cast<int>(d) != t.find("sink"))
                 net.egress(static_cast<int>(d), 0).record_bins(width, bins);
           }
           run.run();
           run.finish();
           const int sw = t.find("sw");
           const FabricLink& egress = net.egress(sw, 0);
           // t = 0: a sender's first packet in the queue (its first byte out, then
           // one packet time on its link: store and forward, no propagation)
           uint64_t t0 = UINT64_MAX, stop = 0, delivered = 0, dropped = 0, last_arrival = 0;
           for (const auto& f : net.flows()) {
             const bool prefill = !p.prefill.empty() && t.devices[f.src].name == p.prefill;
             const double link = t.links[t.ports()[f.src][0].link].rate_Bps;
             if (!prefill && f.sent)
               t0 = std::min(t0, f.first_sent_fs + p.cable_fs + static_cast<uint64_t>(std::llround(
                                                       static_cast<double>(o.mtu + o.header_bytes) / link * 1e15)));
             stop = std::max(stop, f.first_sent_fs + static_cast<uint64_t>(std::llround(
                                                          static_cast<double>(f.bytes + f.packets * o.header_bytes) /
                                                          f.rate_Bps * 1e15)));
             delivered += f.delivered;
             dropped += f.dropped;
             if (!prefill) last_arrival = std::max(last_arrival, f.last_arrival_fs);
           }
           if (t0 == UINT64_MAX) t0 = egress.first_enqueue_fs();
           auto us = [t0](uint64_t fs) { return V::number((static_cast<double>(fs) - static_cast<double>(t0)) / 1e9); };
           const FabricSwitch& s = *net.switch_at(sw);
           uint64_t port_peak = 0;   // one ingress port's most bytes held
           for (size_t q = 0; q < t.ports()[sw].size(); ++q) port_peak = std::max(port_peak, s.ingress_peak(static_cast<int>(q)));
           uint64_t paused = 0;
           for (size_t d = 0; d < t.devices.size(); ++d)
             if (t.devices[d].kind == TopoDevice::Kind::Source && !t.ports()[d].empty())
               paused = std::max(paused, net.egress(static_cast<int>(d), 0).paused_fs());
           return std::vector<V>{V::object()
                                     .add("peak", V::number(static_cast<double>(egress.max_queue_bytes())))
                                     .add("full_us", egress.dropped_frames() ? us(egress.first_drop_fs()) : V::null())
                                     .add("dropped", V::number(static_cast<double>(egress.dropped_bytes())))
                                     .add("drained_us", egress.drained_fs() ? us(egress.drained_fs()) : V::null())
                                     .add("stop_us", us(stop))
                                     .add("delivered", V::number(static_cast<double>(delivered)))
                                     .add("dropped_packets", V::number(static_cast<double>(dropped)))
                                     .add("xoffs", V::number(static_cast<double>(s.xoffs_sent())))
                                     .add("xons", V::number(static_cast<double>(s.xons_sent())))
                                     .add("headroom", s.xoffs_sent() ? V::number(static_cast<double>(s.held_peak() -
                                                                                                   s.held_at_first_xoff()))
                                                                     : V::null())
                                     .add("feedback_us", s.xoffs_sent() ? V::number((static_cast<double>(s.held_peak_fs()) -
                                                                                    static_cast<double>(s.first_xoff_fs())) / 1e9)
                                                                        : V::null())
                                     .add("paused_us", V::number(static_cast<double>(paused) / 1e9))
                                     .add("port_peak", V::number(static_cast<double>(port_peak)))
                                     .add("done_us", last_arrival ? us(last_arrival) : V::null())
                                     .add("series", bins ? series(net, t, p, schedule, width, bins, t0, o.mtu, o.header_bytes)
                                                         : V::null())
                                     .add("feedback", p.feedback ? feedback_of(net, t, limiters, t0) : V::null())};
         })
      .front();
}

// The worst phase of the senders' packet boundaries against the pause: the
// headroom taken grows with what the senders still have to finish when the
// pause reaches them and falls back by a whole packet where a boundary
// passes the pause, a sawtooth in the phase. `phases` even steps find the
// largest tooth; halving the step beside it (towards the rising side)
// finds its edge to a byte of the first packet. Kept: the most bytes
// dropped, then the most headroom, of every run.
V worst_phase(const Config& cfg, const Point& p, size_t bins, uint64_t header) {
  std::map<uint64_t, V> runs;   // lead bytes -> result
  auto at = [&](uint64_t lead) -> const V& {
    auto it = runs.find(lead);
    if (it == runs.end()) it = runs.emplace(lead, measure(cfg, at_phase(p, lead, header), bins)).first;
    return it->second;
  };
  auto headroom = [&](uint64_t lead) { return at(lead).num("headroom"); };
  const uint64_t step = p.mtu / static_cast<uint64_t>(p.phases);
  uint64_t best = 0;
  for (int k = 1; k < p.phases; ++k)
    if (headroom(step * static_cast<uint64_t>(k)) > headroom(best)) best = step * static_cast<uint64_t>(k);
  // the tooth's edge lies on the side whose neighbour is lower by less than
  // a tooth: rising towards `best` from below means the edge is above it
  const uint64_t below = best >= step ? best - step : step * static_cast<uint64_t>(p.phases - 1);
  const bool rising = headroom(below) < headroom(best);
  uint64_t lo = rising ? best : (best >= step ? best - step : 0), hi = rising ? std::min(best + step, p.mtu - 1) : best;
  while (hi - lo > 1) {   // keep the higher end of the ramp inside [lo, hi]
    const uint64_t mid = lo + (hi - lo) / 2;
    if (rising == (headroom(mid) >= headroom(rising ? lo : hi))) (rising ? lo : hi) = mid;
    else (rising ? hi : lo) = mid;
  }
  const V* worst = nullptr;
  for (const auto& [lead, m] : runs)
    if (!worst || std::make_pair(m.num("dropped"), m.num("headroom")) >
                      std::make_pair(worst->num("dropped"), worst->num("headroom")))
      worst = &m;
  return *worst;
}

// A controller among the senders: node i0's UB controller writes 64 KiB
// messages (four outstanding, 20 in all) to t0 through one switch while
// three traffic sources send 1 MiB each at line rate to t0 too; 256 KiB
// output queues, link-level pause per port (16 KiB XOFF, 8 KiB XON). The
// verilated send pipeline waits on m_ready while its link is paused. Its
// packets and the sources' cross the same egress.
constexpr int kControllerSources = 3;   // traffic sources beside the controller
V controller_row(const Config& base, bool feedback) {
  Config cfg = base;
  std::string toml =
      "fabric.pause = true\nfabric.pause_xoff = \"16KiB\"\nfabric.pause_xon = \"8KiB\"\nfabric.buffer = \"256KiB\"\n"
      "[[topology.node]]\nname = \"i0\"\nrole = \"initiator\"\n[[topology.node]]\nname = \"t0\"\nrole = \"target\"\n"
      "[[topology.switch]]\nname = \"sw\"\n"
      "[[topology.link]]\nfrom = \"i0\"\nto = \"sw\"\n[[topology.link]]\nfrom = \"t0\"\nto = \"sw\"\n";
  for (int i = 0; i < kControllerSources; ++i)
    toml += fmt::format("[[topology.node]]\nname = \"s{0}\"\nkind = \"source\"\n[[topology.link]]\nfrom = \"s{0}\"\n"
                        "to = \"sw\"\n[[topology.flow]]\nfrom = \"s{0}\"\nto = \"t0\"\nbytes = \"1MiB\"\n",
                        i);
  cfg.load_text(toml, "experiment congestion (controller scenario)");
  cfg.set_by_experiment(key::workload_size, "congestion", "64KiB");
  cfg.set_by_experiment(key::workload_ops, "congestion", "20");
  cfg.set_by_experiment(key::workload_outstanding, "congestion", "4");
  cfg.set_by_experiment(key::workload_warmup, "congestion", "0");
  if (feedback) {   // ECN at the switch, the peer's CNPs, the controller's verilated rate limiter
    cfg.set_by_experiment(key::fabric_ecn, "congestion", "true");
    cfg.set_by_experiment(key::limiter_controllers, "congestion", "true");
  }
  V m = rows_in_child([&] {
           LatencyOptions lo;
           lo.path = "ub-async";
           lo.verb = Verb::Write;
           const LatencyResult r = run_latency(cfg, lo);
           std::map<std::string, double> st;
           for (const auto& s : r.stats.rows) st[s.component + "." + s.name] = s.value;
           const std::string w = "sys.fabric_wire.";
           double delivered = 0, pauses = 0, paused_ns = 0;
           for (int i = 0; i < kControllerSources; ++i) {
             delivered += st[fmt::format("{}flow.s{}_to_t0.delivered", w, i)];
             pauses += st[fmt::format("{}link_s{}_to_sw_0.pauses_received", w, i)];
             paused_ns = std::max(paused_ns, st[fmt::format("{}link_s{}_to_sw_0.paused_ns", w, i)]);
           }
           pauses += st[w + "link_i0_to_sw_0.pauses_received"];
           return std::vector<V>{V::object()
                                     .add("peak", V::number(st[w + "link_sw_to_t0_1.queue_max"]))
                                     .add("dropped_packets", V::number(st[w + "link_sw_to_t0_1.dropped"]))
                                     .add("pauses", V::number(pauses))
                                     .add("sources_paused_us", V::number(paused_ns / 1e3))
                                     .add("delivered", V::number(delivered))
                                     .add("controller_paused_us", V::number(st[w + "link_i0_to_sw_0.paused_ns"] / 1e3))
                                     .add("controller_blocked", V::number(st["sys.i0_ub_tx.output_blocked_cycles"]))
                                     .add("controller_writes", V::number(static_cast<double>(r.ops)))
                                     .add("controller_failed", V::number(static_cast<double>(r.failed)))
                                     .add("controller_mean_us", V::number(r.mean_ns / 1e3))
                                     .add("marked", V::number(st[w + "link_sw_to_t0_1.ecn_marked"]))
                                     .add("first_mark_ns", V::number(st[w + "link_sw_to_t0_1.first_mark_ns"]))
                                     .add("cuts", V::number(st[w + "i0_limiter.decreases"]))
                                     .add("first_cut_ns", V::number(st[w + "i0_limiter.first_cut_on_wire_ns"]))
                                     .add("rate_end_GBps", V::number(st[w + "i0_limiter.rate_end_GBps"]))};
         })
             .front();
  // the scenario's configuration, as the run read it
  m.add("buffer_bytes", V::number(static_cast<double>(cfg.count(key::fabric_buffer))))
      .add("pause_xoff_bytes", V::number(static_cast<double>(cfg.count(key::fabric_pause_xoff))))
      .add("egress_GBps", V::number(cfg.value(key::wire_rate) / kGBps));
  return m;
}

ResultSet run(Config& cfg, const Options& o) {
  const auto scenarios =
      o.flag("--feedback")
          ? std::vector<std::string>{"feedback-step", "feedback-incast", "feedback-tolerable", "feedback-decrease", "controller-feedback"}
          : o.list("--scenarios");
  cfg.validate_fabric(std::find(scenarios.begin(), scenarios.end(), "pause") != scenarios.end());
  const uint64_t cfg_mtu = cfg.count(key::transport_mtu), header = cfg.count(key::transport_header_bytes);
  const auto pts = points(cfg, scenarios, static_cast<double>(o.count("--job-us")) / 1e3);
  ResultSet rs;
  auto opt = [](double v) { return v >= 0 ? V::number(v) : V::null(); };
  for (const Point& p : pts) {
    V m = p.phases ? worst_phase(cfg, p, o.count("--series-bins"), header) : measure(cfg, p, o.count("--series-bins"));
    const Value* drained = m.get("drained_us");
    // after the senders stop: how long the queue took to drain (two jobs)
    V drain = V::null();
    if (p.senders_stop_us >= 0 && drained && drained->kind == Value::Number && m.num("peak") > 4128)
      drain = V::number(std::max(0.0, m.num("drained_us") - m.num("stop_us")));
    rs.rows.push_back(V::object()
                          .add("scenario", V::string(p.scenario))
                          .add("point", V::string(p.label))
                          .add("senders", V::number(static_cast<double>(p.sources.size() - (p.prefill.empty() ? 0 : 1))))
                          .add("egress_GBps", V::number(p.egress_Bps / kGBps))
                          .add("buffer_bytes", V::number(static_cast<double>(p.buffer)))
                          .add("packet_bytes", V::number(static_cast<double>((p.mtu ? p.mtu : cfg_mtu) + header)))
                          .add("pause_xoff_bytes", p.pause.enabled ? V::number(static_cast<double>(p.pause.xoff)) : V::null())
                          .add("peak_backlog_bytes", m.get("peak") ? *m.get("peak") : V::null())
                          .add("peak_backlog_bytes_derived", opt(p.peak_derived))
                          .add("full_at_us", *m.get("full_us"))
                          .add("full_at_us_derived", opt(p.full_us_derived))
                          .add("dropped_bytes", *m.get("dropped"))
                          .add("dropped_bytes_derived", opt(p.dropped_derived))
                          .add("empty_at_us", p.empty_us_derived >= 0 ? *m.get("drained_us") : V::null())
                          .add("empty_at_us_derived", opt(p.empty_us_derived))
                          .add("drain_after_stop_us", drain)
                          .add("drain_after_stop_us_derived", opt(p.drain_us_derived))
                          .add("pauses_sent", *m.get("xoffs"))
                          .add("resumes_sent", *m.get("xons"))
                          .add("headroom_bytes", p.pause.enabled ? *m.get("headroom") : V::null())
                          .add("headroom_bytes_derived", opt(p.headroom_derived))
                          .add("port_headroom_bytes",
                               p.pause.enabled ? V::number(m.num("port_peak") - static_cast<double>(p.pause.xoff)) : V::null())
                          .add("port_headroom_bytes_derived",
                               opt(p.pause.enabled ? (50 * kGBps - p.egress_Bps / static_cast<double>(p.sources.size())) *
                                                         p.feedback_us_derived * 1e-6
                                                   : -1))
                          .add("feedback_us", p.pause.enabled ? *m.get("feedback_us") : V::null())
                          .add("feedback_us_derived", opt(p.feedback_us_derived))
                          .add("sender_paused_us", p.pause.enabled ? *m.get("paused_us") : V::null())
                          .add("delivered_packets", *m.get("delivered"))
                          .add("dropped_packets", *m.get("dropped_packets"))
                          .add("done_us", *m.get("done_us")));
    // closed loop: the feedback the run measured, and what it implies
    V& row = rs.rows.back();
    const Value* fb = m.get("feedback");
    const bool closed = fb && fb->kind == Value::Object;
    double lambda = 0;
    for (const Source& src : p.sources)
      if (src.name != p.prefill) lambda += src.flows.front().rate_Bps;
    const Value* tf = closed ? fb->get("tf_us") : nullptr;
    const bool has_tf = tf && tf->kind == Value::Number;
    row.add("feedback_delay_us", has_tf ? *tf : V::null())
        .add("feedback_delay_max_us", closed ? *fb->get("tf_max_us") : V::null())
        .add("tolerable_feedback_us_derived", closed && lambda > p.egress_Bps ? V::number(p.free_bytes / (lambda - p.egress_Bps) * 1e6) : V::null())
        // (the derivation holds when one cut brings the senders to B or below)
        .add("closed_loop_dropped_bytes_derived",
             has_tf && (p.limiter_decrease == 0 ? p.limiter_rate_min_Bps * static_cast<double>(p.sources.size())
                                                : lambda * p.limiter_decrease) <= p.egress_Bps * (1 + 1e-9)
                 ? V::number(std::max(0.0, (lambda - p.egress_Bps) * std::stod(tf->text) * 1e-6 - p.free_bytes))
                 : V::null())
        .add("ecn_marked", closed ? *fb->get("marked") : V::null())
        .add("cnps_sent", closed ? *fb->get("cnps") : V::null())
        .add("rate_cuts", closed ? *fb->get("cuts") : V::null())
        .add("senders_rate_end_GBps", closed ? *fb->get("rate_end_GBps") : V::null())
        .add("series", *m.get("series"));
  }
  for (const bool feedback : {false, true}) {
    const char* name = feedback ? "controller-feedback" : "controller";
    if (std::find(scenarios.begin(), scenarios.end(), name) == scenarios.end()) continue;
    const V m = controller_row(cfg, feedback);
    auto n = [&](const char* k) { return *m.get(k); };
    V row = V::object()
                .add("scenario", V::string(name))
                .add("point", V::string(fmt::format("i0's UB controller writing 64 KiB beside {} line-rate sources{}",
                                                    kControllerSources,
                                                    feedback ? ", its rate limiter cut by t0's CNPs" : "")))
                .add("senders", V::number(kControllerSources + 1))
                .add("egress_GBps", n("egress_GBps"))
                .add("buffer_bytes", n("buffer_bytes"))
                .add("packet_bytes", V::number(static_cast<double>(cfg_mtu + header)))
                .add("pause_xoff_bytes", n("pause_xoff_bytes"))
                .add("peak_backlog_bytes", n("peak"))
                .add("pauses_sent", n("pauses"))
                .add("sender_paused_us", n("sources_paused_us"))
                .add("delivered_packets", n("delivered"))
                .add("dropped_packets", n("dropped_packets"))
                .add("controller_paused_us", n("controller_paused_us"))
                .add("controller_blocked_cycles", n("controller_blocked"))
                .add("controller_writes", n("controller_writes"))
                .add("controller_writes_failed", n("controller_failed"))
                .add("controller_write_mean_us", n("controller_mean_us"));
    if (feedback) {
      const bool cut = m.num("cuts") > 0 && m.num("marked") > 0;
      row.add("ecn_marked", n("marked"))
          .add("rate_cuts", n("cuts"))
          .add("senders_rate_end_GBps", n("rate_end_GBps"))
          .add("feedback_delay_us", cut ? V::number((m.num("first_cut_ns") - m.num("first_mark_ns")) / 1e3) : V::null());
    }
    rs.rows.push_back(row);
  }
  rs.table_omit = {"series"};
  rs.notes =
      "t = 0: the senders' first packet in the egress queue. Measured at the switch's output queue towards the sink\n"
      "(waiting + in serialization, wire bytes with headers): its peak, its first drop (full), the bytes it dropped,\n"
      "when it drained to at most one packet. *_derived: the fluid model dQ/dt = lambda - B (spec 17). Packets\n"
      "arrive whole: the fill time is within one packet time of the fluid one (all N - 1 incast senders' packets\n"
      "land together). pause: link-level pause (PFC-like), XOFF per ingress port; pause-switch: XOFF on the bytes\n"
      "the switch holds in all, every port holding bytes paused at once, XOFF = 1 MiB - a headroom. feedback-*: closed loop, every packet leaving the egress\n"
      "queue marked (ECN), the sink returning a 64 B CNP per marked packet over its 7.5 or 10 us link, each\n"
      "sender's verilated rate limiter cutting on it; feedback_delay_us is measured, the drops derived from it.\n";
  return rs;
}

}  // namespace

const Experiment& congestion_experiment() {
  static const Experiment e{
      "congestion",
      "a queue filling faster than it drains: backlog, full time, drops, drain (open loop; spec §17)",
      "Traffic sources into one switch whose 50 GB/s egress is the bottleneck, its output queue finite (drops)\n"
      "or not: two jobs of --job-us at 50 GB/s with full, quarter and no overlap (unbounded queue); 100 GB/s\n"
      "into a 512 KiB buffer holding 256 KiB, stepped to 40 or 50 GB/s at 20 us; incast of N - 1 = 7, 15, 63\n"
      "senders into 1 MiB and 4 MiB; incast under link-level pause, per ingress port (pause) and on the bytes the\n"
      "switch holds in all with 1500 B packets and 1 MiB free (pause-switch); a UB controller among the senders, its\n"
      "verilated send pipeline stalled by the pause (controller). Measured beside the fluid values. --feedback:\n"
      "the same closed loop (ECN marks at the egress, a CNP back, each sender's RTL rate limiter), with the\n"
      "feedback delay measured and the drops derived from it (docs/fabric.md).",
      {opt_names("--scenarios", "LIST",
                 {"two-jobs", "step", "incast", "pause", "pause-switch", "controller", "controller-feedback",
                  "feedback-step", "feedback-incast", "feedback-tolerable", "feedback-decrease"},
                 "two-jobs,step,incast,pause,pause-switch,controller", "the scenarios to run, comma-separated"),
       opt_flag("--feedback", "the closed-loop scenarios (feedback-step,feedback-incast,feedback-tolerable,feedback-decrease,\ncontroller-feedback)"),
       opt_count("--job-us", "US", 10, 100000, "20000", "two-jobs: each job's length in us (the spec's 20 ms)"),
       opt_count("--series-bins", "N", 0, 10000, "200", "time bins of each point's series (0: none)")},
      {"scenario", "point"},
      {{"scenario", "", "two-jobs, step, incast, pause, pause-switch or a feedback-* scenario"},
       {"point", "", "the point of the scenario"},
       {"senders", "sources", "traffic sources sending"},
       {"egress_GBps", "GB/s", "the bottleneck's rate"},
       {"buffer_bytes", "bytes", "the egress queue's capacity (0: unbounded)"},
       {"packet_bytes", "bytes", "a full packet on the wire (payload + header; pause-switch sets its own payload)"},
       {"pause_xoff_bytes", "bytes", "pause: the XOFF threshold (pause: per ingress port; pause-switch: the bytes the switch holds in all)"},
       {"peak_backlog_bytes", "bytes", "the egress queue's largest occupancy (waiting + in serialization)"},
       {"peak_backlog_bytes_derived", "bytes", "derived: (lambda - B) x the overlap"},
       {"full_at_us", "us", "the queue's first drop"},
       {"full_at_us_derived", "us", "derived: free buffer / (lambda - B)"},
       {"dropped_bytes", "bytes", "bytes the full queue dropped (with headers)"},
       {"dropped_bytes_derived", "bytes", "derived: (lambda - B) x (step time - full time); pause-switch: the derived headroom beyond the one XOFF left"},
       {"empty_at_us", "us", "when the queue drained to at most one packet after the step"},
       {"empty_at_us_derived", "us", "derived: step time + buffer / (B - lambda after)"},
       {"drain_after_stop_us", "us", "two jobs: the senders' stop to the queue drained"},
       {"drain_after_stop_us_derived", "us", "derived: peak backlog / B"},
       {"pauses_sent", "frames", "pause: XOFF frames the switch sent (per ingress port passing xoff)"},
       {"resumes_sent", "frames", "pause: XON frames it sent"},
       {"headroom_bytes", "bytes", "pause: what the switch took in after its first XOFF (peak held - held then)"},
       {"headroom_bytes_derived", "bytes", "derived: (N - 2) x 50 GB/s x the one-hop feedback time"},
       {"port_headroom_bytes", "bytes", "pause: the most one ingress port held beyond its XOFF"},
       {"port_headroom_bytes_derived", "bytes", "derived: (50 GB/s - its share of the egress) x the one-hop feedback time"},
       {"feedback_us", "us", "pause: the first XOFF to the switch's peak (what was on its way has arrived)"},
       {"feedback_us_derived", "us", "derived: 2 x 150 ns of cable + the sender's packet in serialization + the pause frame"},
       {"sender_paused_us", "us", "pause: the longest time a sender's link was paused (controller: a traffic source's)"},
       {"controller_paused_us", "us", "controller: the time the controller's link was paused"},
       {"controller_blocked_cycles", "cycles", "controller: cycles its verilated send pipeline waited on m_ready (its link paused and holding a packet)"},
       {"controller_writes", "requests", "controller: the writes it completed"},
       {"controller_writes_failed", "requests", "controller: writes completed with an error (none: lossless)"},
       {"controller_write_mean_us", "us", "controller: mean write latency (64 KiB, four outstanding)"},
       {"delivered_packets", "packets", "packets delivered to the sink"},
       {"dropped_packets", "packets", "packets dropped"},
       {"done_us", "us", "the last packet delivered (completion)"},
       {"feedback_delay_us", "us", "closed loop: T_f, the first ECN mark at the egress to a sender's first rate cut on its wire (its limiter's cut, then what its link still held at the line rate; mean over senders)"},
       {"feedback_delay_max_us", "us", "closed loop: the same, the last sender"},
       {"tolerable_feedback_us_derived", "us", "derived: the longest T_f that loses nothing, free buffer / (lambda - B)"},
       {"closed_loop_dropped_bytes_derived", "bytes", "derived: max(0, (lambda - B) x the measured T_f - free buffer)"},
       {"ecn_marked", "packets", "closed loop: packets the egress queue marked"},
       {"cnps_sent", "frames", "closed loop: notifications the sink returned"},
       {"rate_cuts", "events", "closed loop: rate cuts over all senders' limiters"},
       {"senders_rate_end_GBps", "GB/s", "closed loop: the senders' limiters' rates at the end, summed"},
       {"series", "", "against time, per bin (t_us: its end): queue_bytes (the egress queue's largest), queue_bytes_derived (the fluid queue at its end; null under pause), dropped_bytes (so far), xoff_frames / xon_frames (sent in it), egress_GBps and sender_GBps (each sender's rate onto its link; the first eight by name, the rest summed)"}},
      "congestion",
      "plot_congestion.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
