// The verilated pipelines on their own, driven cycle by cycle: latency from
// input handshake to first flit out, the issue interval from the context
// RAMs' structure, the records' contents in the headers, and back-pressure
// without loss.
//
// Expected intervals are derived here from the spec's record sizes (TP
// channel 56 B, QP context 512 B) and this build's RAM macro (port width,
// read latency, turnaround: rtl_variant), never read back from the RTL.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <map>
#include <vector>

#include "block_config.h"
#include "burst.h"
#include "context_memory.h"
#include "rtl_variant.h"
#include "verilated_block.h"
#include "Vpsn_alloc_rmw_fast.h"
#include "Vroce_tx_pipeline.h"
#include "Vrx_pipeline.h"
#include "Vtp_ctx_lookup_w1.h"
#include "Vtp_ctx_lookup_w4.h"
#include "Vub_tx_pipeline.h"

using ubsim::BurstTrace;
using ubsim::RecordBits;
namespace enc = ubsim::enc;
namespace rv = ubsim::rtl_variant;

namespace {

// The send pipelines' segmenters: a 4 KiB MTU and 32 B headers (the spec's
// defaults); blocks without a segmenter have no such inputs.
template <class M>
auto segmenter_defaults(M& m, int) -> decltype(m.cfg_mtu = 0, void()) {
  m.cfg_mtu = 4096;
  m.cfg_header_bytes = 32;
}
template <class M>
void segmenter_defaults(M&, long) {}

template <class M, class Drive>
BurstTrace run(ubsim::VerilatedBlock<M>& b, int n, Drive drive, const std::function<bool(uint64_t)>& ready,
               uint32_t pkts = 1) {
  segmenter_defaults(b.model(), 0);
  BurstTrace t = ubsim::drive_burst(b, static_cast<uint32_t>(n), drive, ready, 1000000, ubsim::IgnoreOutput{}, 0, pkts);
  REQUIRE(t.duplicates == 0);   // exactly once
  return t;
}

auto always = [](uint64_t) { return true; };

// Spec §5: a 56 B TP-channel record read over the context RAM's port.
constexpr int kTpRecordBytes = 56;
constexpr int kUbWords = (kTpRecordBytes + rv::kCtxPortBytes - 1) / rv::kCtxPortBytes;
// RoCE: issue the read, wait its latency, increment, write back, turnaround.
constexpr int kRoceInterval = 1 + rv::kCtxRamLatency + 1 + 1 + rv::kCtxRamTurnaround;
// UB lookup: one read issue per word, the last word's read latency, then
// the output FIFO; RoCE: issue, read latency, increment into the output register.
constexpr int kUbLookupLatency = kUbWords + rv::kCtxRamLatency + 1;
constexpr int kRoceRmwLatency = 1 + rv::kCtxRamLatency + 1;

// Writes records into a send pipeline's context RAM through its fill port
// (before a burst: the RAM keeps its contents through the burst's reset).
template <class M>
void fill_records(ubsim::VerilatedBlock<M>& b, const std::vector<std::pair<uint32_t, RecordBits>>& records) {
  M& m = b.model();
  m.s_valid = 0;
  b.reset(4);
  size_t next = 0;
  for (int c = 0; c < 100000 && (next < records.size() || m.busy); ++c) {
    m.s_fill_valid = next < records.size();
    if (m.s_fill_valid) {
      m.s_fill_entry = records[next].first;
      const auto& w = records[next].second.words();
      constexpr size_t kWords = sizeof(m.s_fill_data) / sizeof(uint32_t);
      for (size_t i = 0; i < kWords; ++i) m.s_fill_data[i] = i < w.size() ? w[i] : 0u;
    }
    bool taken = false;
    b.cycle([&] { taken = m.s_fill_valid && m.s_fill_ready; });
    if (taken) ++next;
  }
  m.s_fill_valid = 0;
  REQUIRE(next == records.size());
}

RecordBits tp_record(uint32_t next_psn, uint32_t peer_tp, uint64_t eid_hi, uint64_t eid_lo) {
  RecordBits r(enc::tp_record::kBits);
  r.set(enc::tp_record::next_psn, next_psn);
  r.set(enc::tp_record::peer_tp_id, peer_tp);
  r.set_wide(enc::tp_record::remote_eid, eid_hi, eid_lo);
  r.set(enc::tp_record::mtu, 4096);
  return r;
}

}  // namespace

// The edge's generated copies (V<block>_settle.cpp) take the context's
// assertion switch as on (ubsim never turns it off): an RTL assertion at an
// edge of the fast path still stops the run with its message. Here the
// order tracker's, for a completion of a slot with nothing in flight.
TEST_CASE("RTL assertions fire at the fast edge: a completion of nothing in flight stops the run, named", "[rtl]") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  std::fflush(nullptr);   // (nothing of the parent's buffers in the child's output)
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {   // the child: its output into the pipe
    close(fds[0]);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    ubsim::VerilatedBlock<Vub_tx_pipeline> b;
    ubsim::configure(b.model(), ubsim::Config{});   // (the defaults: the configuration checks pass)
    auto& r = *b.model().rootp;
    r.m_ready = 1;
    b.reset(4);
    r.s_cpl_valid = 1;
    r.s_cpl_slot = 0;
    r.s_cpl_seq = 3;
    b.cycle([] {});
    r.s_cpl_valid = 0;
    for (int i = 0; i < 4; ++i) b.cycle([] {});
    _exit(0);   // (only if no assertion stopped it)
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  INFO(out);
  CHECK_FALSE((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  CHECK(out.find("order_tracker: completion of slot 0 seq 3 that is not in flight") != std::string::npos);
}

TEST_CASE("UB send pipeline: latency equals the configured depth on both routes", "[rtl]") {
  const int fixed_async = 4 + kUbLookupLatency, fixed_load = 2 + kUbLookupLatency;
  for (int depth : {fixed_load, fixed_async, 25, 40}) {
    ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
    auto& m = m_b.model();
    m.cfg_depth_async = static_cast<uint8_t>(std::max(depth, fixed_async));
    m.cfg_depth_load = static_cast<uint8_t>(depth);
    m.eval();
    CHECK(m.fixed_async == fixed_async);
    CHECK(m.fixed_load == fixed_load);
    auto t = run(m_b, 1, [](auto& mm, uint32_t) { mm.s_ctx = 0; mm.s_load = 0; mm.s_len = 64;
      mm.s_data_pkts = 1; }, always);
    CHECK(t.out_cycle.at(0) - t.in_cycle.at(0) == static_cast<uint64_t>(std::max(depth, fixed_async)));
    auto tl = run(m_b, 1, [](auto& mm, uint32_t) { mm.s_ctx = 0; mm.s_load = 1; mm.s_len = 64;
      mm.s_data_pkts = 1; }, always);
    CHECK(tl.out_cycle.at(0) - tl.in_cycle.at(0) == static_cast<uint64_t>(depth));
  }
}

TEST_CASE("UB send pipeline: the interval is the record's words on the context-RAM port", "[rtl]") {
  INFO("56 B record over a " << rv::kCtxPortBytes << " B port: " << kUbWords << " words");
  for (int channels : {1, 5}) {   // one TP channel (the PSN bypass) or several
    ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
    auto& m = m_b.model();
    m.cfg_depth_async = 25;
    m.cfg_depth_load = 8;
    const int n = 64;
    auto t = run(m_b, n, [channels](auto& mm, uint32_t id) {
      mm.s_ctx = id % static_cast<uint32_t>(channels);
      mm.s_load = 0;
      mm.s_len = 64;
      mm.s_data_pkts = 1;
    }, always);
    REQUIRE(t.delivered == static_cast<uint64_t>(n));
    // first input handshake -> last first flit = L + (N-1)·δ
    CHECK(t.out_cycle.at(n - 1) - t.in_cycle.at(0) == static_cast<uint64_t>(25 + (n - 1) * kUbWords));
    for (int i = 1; i < n; ++i) CHECK(t.out_cycle.at(i) - t.out_cycle.at(i - 1) == static_cast<uint64_t>(kUbWords));
    // every lookup read its whole record, one port word per cycle, and wrote word 0 back
    CHECK(m.ctx_reads == static_cast<uint32_t>(n * kUbWords));
    CHECK(m.ctx_writebacks == static_cast<uint32_t>(n));
    CHECK(m.ctx_hazard_cycles == 0);
  }
}

TEST_CASE("UB: back-to-back lookups of one TP channel get consecutive PSNs without a stall", "[rtl]") {
  ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
  auto& m = m_b.model();
  m.cfg_depth_async = 25;
  m.cfg_depth_load = 8;
  fill_records(m_b, {{9, tp_record(0xfffff0, 0x123456, 0xfd00000000000002ull, 77)}});
  std::vector<uint32_t> psns, peers, eid_lo;
  const int n = 40;
  segmenter_defaults(m_b.model(), 0);
  auto t = ubsim::drive_burst(
      m_b, n, [](auto& mm, uint32_t) { mm.s_ctx = 9; mm.s_load = 0; mm.s_len = 64;
      mm.s_data_pkts = 1; }, always, 100000,
      [&](const Vub_tx_pipeline& mm) {
        psns.push_back(mm.m_psn);
        peers.push_back(mm.m_peer_tp);
        eid_lo.push_back(mm.m_remote_eid[0]);
      });
  REQUIRE(t.delivered == static_cast<uint64_t>(n));
  for (int i = 0; i < n; ++i) {
    CHECK(psns[static_cast<size_t>(i)] == ((0xfffff0u + static_cast<uint32_t>(i)) & 0xffffffu));   // wraps at 2^24
    CHECK(peers[static_cast<size_t>(i)] == 0x123456u);   // header fields come from the record
    CHECK(eid_lo[static_cast<size_t>(i)] == 77u);
  }
  for (int i = 1; i < n; ++i) CHECK(t.out_cycle.at(i) - t.out_cycle.at(i - 1) == static_cast<uint64_t>(kUbWords));
  // when a lookup's word-0 read passed the RAM before the previous write-back
  // landed, the PSN came through the forwarding path
  if (kUbWords + rv::kCtxRamLatency > kUbWords) CHECK(m.ctx_forwards >= static_cast<uint32_t>(n - 1));
  CHECK(m.ctx_hazard_cycles == 0);
}

TEST_CASE("UB: interleaved TP channels each keep their own PSN sequence", "[rtl]") {
  ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
  auto& m = m_b.model();
  m.cfg_depth_async = 25;
  m.cfg_depth_load = 8;
  // an irregular pattern over 4 channels: runs of one channel, alternation, both routes
  auto channel = [](uint32_t id) { return (id * 7 + id / 3 + (id % 5 == 0 ? 1 : 0)) % 4; };
  std::map<uint32_t, std::vector<uint32_t>> psn_by_channel;
  const int n = 300;
  segmenter_defaults(m_b.model(), 0);
  auto t = ubsim::drive_burst(
      m_b, n, [&](auto& mm, uint32_t id) { mm.s_ctx = channel(id); mm.s_load = id % 3 == 0; mm.s_len = 64;
      mm.s_data_pkts = 1; },
      [](uint64_t c) { return c % 5 != 0; }, 100000,
      [&](const Vub_tx_pipeline& mm) { psn_by_channel[channel(mm.m_id)].push_back(mm.m_psn); });
  REQUIRE(t.delivered == static_cast<uint64_t>(n));
  REQUIRE(psn_by_channel.size() == 4);
  for (auto& [ch, psns] : psn_by_channel) {
    INFO("TP channel " << ch);
    for (size_t i = 0; i < psns.size(); ++i) CHECK(psns[i] == i);
  }
  CHECK(m.ctx_reads == static_cast<uint32_t>(n * kUbWords));
}

TEST_CASE("UB: a lookup of an entry whose refill is still being written waits for it", "[rtl]") {
  // A Load enters at cycle `in`; its lookup starts `start` cycles later (bus
  // interface, the load chain that pads the route to 8 cycles). A refill of
  // its entry that arrives up to that cycle must be what the lookup reads.
  const int start = 1 + (8 - (2 + kUbLookupLatency));
  const RecordBits rec = tp_record(500, 0xabcdef, 1, 2);
  for (int k = 1; k <= start; ++k) {
    INFO("refill arrives " << k << " cycles after the request, the lookup starts after " << start);
    ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
    auto& m = m_b.model();
    m.cfg_depth_async = 25;
    m.cfg_depth_load = 8;
    m.cfg_mtu = 4096;   // (the configuration is loaded at reset)
    m.cfg_header_bytes = 32;
    m.s_valid = 0;
    m_b.reset(4);
    m.s_valid = 1;
    m.s_id = 1;
    m.s_ctx = 3;
    m.s_load = 1;
    m.s_len = 64;
    m.s_data_pkts = 1;
    uint32_t psn = 0, peer = 0;
    bool out = false;
    int in = -1;
    for (int c = 0; c < 200 && !out; ++c) {
      m.s_fill_valid = in >= 0 && c == in + k;
      if (m.s_fill_valid) {
        m.s_fill_entry = 3;
        for (size_t i = 0; i < rec.words().size(); ++i) m.s_fill_data[i] = rec.words()[i];
      }
      bool in_fire = false;
      m_b.cycle([&] {
        in_fire = m.s_valid && m.s_ready;
        if (m.m_valid && m.m_first) {
          out = true;
          psn = m.m_psn;
          peer = m.m_peer_tp;
        }
      });
      if (in_fire) {
        m.s_valid = 0;
        in = c;
      }
    }
    REQUIRE(out);
    CHECK(psn == 500);
    CHECK(peer == 0xabcdef);
    CHECK(m.ctx_fill_words == static_cast<uint32_t>(kUbWords));
    if (k >= start - 1) CHECK(m.ctx_hazard_cycles > 0);   // its words were still to be written
  }
}

namespace {

// A context-RAM block alone (tp_ctx_lookup, psn_alloc_rmw): one request
// offered every cycle, entry(i) for request i; returns per request its
// accept and output cycle and PSN.
struct BlockRun {
  std::vector<uint64_t> in, out;
  std::vector<uint32_t> psn;
};
template <class M, class Entry>
BlockRun drive_block(int n, Entry entry) {
  ubsim::VerilatedBlock<M> b("blk");
  M& m = b.model();
  m.s_valid = 0;
  m.m_ready = 1;
  m.s_fill_valid = 0;
  b.reset(4);
  BlockRun r;
  r.in.assign(static_cast<size_t>(n), 0);
  r.out.assign(static_cast<size_t>(n), 0);
  r.psn.assign(static_cast<size_t>(n), 0);
  int next = 0, done = 0;
  for (uint64_t c = 1; c < 100000 && done < n; ++c) {
    m.s_valid = next < n;
    m.s_tag = static_cast<uint64_t>(next);
    m.s_entry = entry(next);
    bool in_fire = false, out_fire = false;
    uint64_t tag = 0;
    uint32_t psn = 0;
    b.cycle([&] {
      in_fire = m.s_valid && m.s_ready;
      out_fire = m.m_valid && m.m_ready;
      tag = m.m_tag;
      psn = m.m_psn;
    });
    if (in_fire) r.in[static_cast<size_t>(next++)] = c;
    if (out_fire) {
      REQUIRE(tag < static_cast<uint64_t>(n));
      REQUIRE(r.out[tag] == 0);
      r.out[tag] = c;
      r.psn[tag] = psn;
      ++done;
    }
  }
  REQUIRE(done == n);
  return r;
}

template <class M>
void check_lookup_structure(int port_bytes, int ram_latency) {
  const int words = (56 + port_bytes - 1) / port_bytes;   // spec: a 56 B record
  INFO(port_bytes << " B port (" << words << " words per record), read latency " << ram_latency);
  const int n = 60;
  // one TP channel, back to back: the PSN written by each lookup is
  // forwarded to the next; the read port alone sets the interval
  const BlockRun same = drive_block<M>(n, [](int) { return 5u; });
  for (int i = 0; i < n; ++i) {
    CHECK(same.psn[static_cast<size_t>(i)] == static_cast<uint32_t>(i));
    CHECK(same.out[static_cast<size_t>(i)] - same.in[static_cast<size_t>(i)] ==
          static_cast<uint64_t>(words + ram_latency + 1));
  }
  for (int i = 1; i < n; ++i) CHECK(same.in[static_cast<size_t>(i)] - same.in[static_cast<size_t>(i - 1)] ==
                                    static_cast<uint64_t>(words));
  // channels interleaved irregularly: each keeps its own sequence
  auto channel = [](int i) { return static_cast<uint32_t>((i * 7 + i / 3) % 4); };
  const BlockRun mixed = drive_block<M>(n, channel);
  std::map<uint32_t, uint32_t> next;
  for (int i = 0; i < n; ++i) CHECK(mixed.psn[static_cast<size_t>(i)] == next[channel(i)]++);
}

}  // namespace

TEST_CASE("the TP-channel lookup's interval is its record's words, for other ports and latencies", "[rtl]") {
  check_lookup_structure<Vtp_ctx_lookup_w1>(64, 2);   // the ctx-port-64 design point: 1 cycle
  check_lookup_structure<Vtp_ctx_lookup_w4>(16, 1);   // a narrow port: 4 cycles
}

TEST_CASE("the PSN read-modify-write's interval is the RAM's occupancy, for another macro", "[rtl]") {
  // read latency 1, no turnaround: issue 1 + latency 1 + increment 1 + write 1
  const BlockRun r = drive_block<Vpsn_alloc_rmw_fast>(40, [](int i) { return static_cast<uint32_t>(i % 3); });
  for (size_t i = 1; i < r.in.size(); ++i) CHECK(r.in[i] - r.in[i - 1] == 4);
  for (size_t i = 0; i < r.psn.size(); ++i) CHECK(r.psn[i] == i / 3);
}

TEST_CASE("RoCE send pipeline: the PSN read-modify-write holds the single QP-context port", "[rtl]") {
  INFO("read latency " << rv::kCtxRamLatency << ", turnaround " << rv::kCtxRamTurnaround);
  for (int qps : {1, 7}) {   // one QP or many: the single port serializes both
    ubsim::VerilatedBlock<Vroce_tx_pipeline> m_b("roce");
    auto& m = m_b.model();
    m.cfg_depth = 12;
    m.eval();
    CHECK(m.fixed_depth == 3 + kRoceRmwLatency);
    const int n = 40;
    auto t = run(m_b, n, [qps](auto& mm, uint32_t id) { mm.s_ctx = id % static_cast<uint32_t>(qps); mm.s_len = 64;
      mm.s_data_pkts = 1; },
                 always);
    REQUIRE(t.delivered == static_cast<uint64_t>(n));
    CHECK(t.out_cycle.at(n - 1) - t.in_cycle.at(0) == static_cast<uint64_t>(12 + (n - 1) * kRoceInterval));
    CHECK(m.ctx_reads == static_cast<uint32_t>(n));        // word 0 only
    CHECK(m.ctx_writebacks == static_cast<uint32_t>(n));
    // the port is held for the whole read-modify-write of every request
    CHECK(m.ctx_port_busy_cycles >= static_cast<uint32_t>((n - 1) * kRoceInterval));
  }
}

// Isolated requests into the RoCE pipeline, stepped either at every cycle or
// as a bridge steps it: an edge only where the pipeline is busy, a request
// is offered, or a timed item is due (a chain's tap, the QP-context RAM's
// word: chain_*, ram_*). What each request left as, the write-backs seen
// and the counters at the end.
struct IsolatedRun {
  std::vector<std::array<uint64_t, 3>> out;   // per packet: cycle, PSN, destination QP
  std::vector<std::array<uint32_t, 2>> wb;    // per write-back: entry, PSN written
  uint64_t evaluated = 0;
  std::vector<uint64_t> cycles, reads_at;   // the cycles stepped; those whose edge issued a QP-context read
  uint32_t busy_cycles = 0, reads = 0, writebacks = 0;
};
IsolatedRun isolated_roce(bool as_bridge, int n, uint64_t gap) {
  ubsim::VerilatedBlock<Vroce_tx_pipeline> b("roce");
  auto& m = b.model();
  m.cfg_depth = 12;
  segmenter_defaults(m, 0);
  m.s_valid = 0;
  m.m_ready = 1;
  b.reset(4);
  IsolatedRun r;
  constexpr uint64_t kMask = 2 * rv::kMaxChain - 1;
  int next = 0;
  uint64_t wake = 0;   // a bridge's next edge for a timed item (0: none)
  bool held = false;
  for (uint64_t c = 1; c < static_cast<uint64_t>(n + 2) * gap; ++c) {
    const bool offered = next < n && c >= 1 + static_cast<uint64_t>(next) * gap;
    if (as_bridge && !offered && !m.busy && c != wake) continue;
    bool in_fire = false;
    b.edge(c, 0, [&] {
      m.s_valid = offered;
      m.s_id = static_cast<uint32_t>(next);
      m.s_ctx = static_cast<uint16_t>(next % 3);
      m.s_len = 64;
      m.s_data_pkts = 1;
    }, [&] {
      in_fire = m.s_valid && m.s_ready;
      if (m.m_valid && m.m_ready && m.m_first) r.out.push_back({c, m.m_psn, m.m_dest_qpn});
      if (m.wb_valid) r.wb.push_back({m.wb_entry, m.wb_psn});
    });
    ++r.evaluated;
    r.cycles.push_back(c);
    if (in_fire) ++next;
    if (m.ram_held && !held) r.reads_at.push_back(c);
    held = m.ram_held;
    wake = 0;
    if (m.ram_held) wake = c + ((m.ram_due_at - c) & 0xffffu);
    if (m.chain_held & 1u) {
      const uint64_t tap = c + ((m.chain_tap_at0 - c) & kMask);
      wake = wake ? std::min(wake, tap) : tap;
    }
  }
  r.busy_cycles = m.ctx_port_busy_cycles;
  r.reads = m.ctx_reads;
  r.writebacks = m.ctx_writebacks;
  return r;
}

TEST_CASE("RoCE send pipeline: a QP-context read's cycles skipped as a bridge skips them change nothing", "[rtl]") {
  // The RAM's word is held from the read's edge and flagged when cfg_now
  // reaches its cycle (ram_sp.sv), so a bridge sleeps through the read.
  const int n = 30;
  const uint64_t gap = 40;   // every request alone in the pipeline
  const IsolatedRun every = isolated_roce(false, n, gap);
  const IsolatedRun bridge = isolated_roce(true, n, gap);
  REQUIRE(every.out.size() == static_cast<size_t>(n));
  CHECK(bridge.out == every.out);
  CHECK(bridge.wb == every.wb);
  for (int i = 0; i < n; ++i) {
    const uint64_t psn = every.out[static_cast<size_t>(i)][1];
    CHECK(psn == static_cast<uint64_t>(i / 3));   // per QP (i mod 3) in order, from 0
    // the write-back: the QP's entry and the PSN after this one
    CHECK(every.wb.at(static_cast<size_t>(i))[1] == psn + 1);
  }
  // the port is held 3 + read latency + turnaround cycles per
  // read-modify-write (issue, latency, increment, write, turnaround),
  // counted as much in the cycles the bridge skipped
  CHECK(every.busy_cycles == static_cast<uint32_t>(n * kRoceInterval));
  CHECK(bridge.busy_cycles == every.busy_cycles);
  CHECK(bridge.reads == static_cast<uint32_t>(n));
  CHECK(bridge.writebacks == static_cast<uint32_t>(n));
  // none of a read's latency cycles is stepped: the word's cycle is the
  // next edge after the read's own
  REQUIRE(bridge.reads_at.size() == static_cast<size_t>(n));
  for (uint64_t a : bridge.reads_at) {
    const auto it = std::upper_bound(bridge.cycles.begin(), bridge.cycles.end(), a);
    REQUIRE(it != bridge.cycles.end());
    CHECK(*it == a + 1 + static_cast<uint64_t>(rv::kCtxRamLatency));
  }
  CHECK(bridge.evaluated < every.evaluated);
}

TEST_CASE("RoCE: PSNs in order per QP, and the header's destination QP comes from the context", "[rtl]") {
  ubsim::VerilatedBlock<Vroce_tx_pipeline> m_b("roce");
  auto& m = m_b.model();
  m.cfg_depth = 9;
  std::vector<std::pair<uint32_t, RecordBits>> qpcs;
  for (uint32_t qp = 0; qp < 3; ++qp) {
    RecordBits r(enc::qp_context::kBits);
    r.set(enc::qp_context::next_psn, 100 * qp);
    r.set(enc::qp_context::dest_qpn, 0x500 + qp);
    qpcs.emplace_back(qp, r);
  }
  fill_records(m_b, qpcs);
  CHECK(m.ctx_fill_words == static_cast<uint32_t>(3 * enc::qp_context::kBits / (8 * rv::kCtxPortBytes)));
  m.cfg_depth = 9;
  std::map<uint32_t, std::vector<uint32_t>> psn_by_qp;
  segmenter_defaults(m_b.model(), 0);
  auto t = ubsim::drive_burst(
      m_b, 200, [](auto& mm, uint32_t id) { mm.s_ctx = id % 3; mm.s_len = 64;
      mm.s_data_pkts = 1; }, always, 100000,
      [&](const Vroce_tx_pipeline& mm) {
        CHECK(mm.m_dest_qpn == 0x500 + mm.m_id % 3);
        psn_by_qp[mm.m_id % 3].push_back(mm.m_psn);
      });
  REQUIRE(t.delivered == 200);
  REQUIRE(psn_by_qp.size() == 3);
  for (auto& [qp, psns] : psn_by_qp)
    for (size_t i = 0; i < psns.size(); ++i) CHECK(psns[i] == 100 * qp + i);
}

TEST_CASE("a stalled output back-pressures the submitter and loses nothing", "[rtl]") {
  ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
  auto& m = m_b.model();
  m.cfg_depth_async = 25;
  m.cfg_depth_load = 8;
  const int n = 300;
  // output ready only 1 cycle in 7, with long stretches of none
  // several Jetties/TP channels, both routes, packets of 1 to 5 flits
  auto t = run(m_b, n, [](auto& mm, uint32_t id) {
        mm.s_ctx = id % 3;
        mm.s_load = id % 4 == 0;
        mm.s_len = (id % 5) * 256;
        mm.s_data_pkts = 1;
      },
               [](uint64_t c) { return c % 7 == 0 && (c / 500) % 2 == 0; });
  REQUIRE(t.delivered == static_cast<uint64_t>(n));
  CHECK(std::count(t.in_cycle.begin(), t.in_cycle.end(), 0u) == 0);
  // the input was refused for long stretches: the last request entered late
  CHECK(t.in_cycle.at(n - 1) > static_cast<uint64_t>(n) * 3);
  // requests of one route leave in submission order
  std::vector<uint32_t> async_order;
  for (uint32_t id : t.out_order)
    if (id % 4 != 0) async_order.push_back(id);
  CHECK(std::is_sorted(async_order.begin(), async_order.end()));
}

TEST_CASE("receive pipeline: both routes take their configured depth", "[rtl]") {
  ubsim::VerilatedBlock<Vrx_pipeline> m_b("rx");
  auto& m = m_b.model();
  m.cfg_depth_full = 25;
  m.cfg_depth_short = 8;
  m.eval();
  CHECK(m.fixed_depth == 2);
  auto t = run(m_b, 2, [](auto& mm, uint32_t id) { mm.s_short = id == 1; }, always);
  CHECK(t.out_cycle.at(0) - t.in_cycle.at(0) == 25);
  CHECK(t.out_cycle.at(1) - t.in_cycle.at(1) == 8);
}

TEST_CASE("multi-flit packets: interval is the larger of record words and flits", "[rtl]") {
  for (int payload : {64, 480, 1024, 4096}) {
    const int bytes = 32 + payload;
    const int flits = (bytes + rv::kFlitBytes - 1) / rv::kFlitBytes;
    ubsim::VerilatedBlock<Vub_tx_pipeline> m_b("ub");
    auto& m = m_b.model();
    m.cfg_depth_async = 25;
    m.cfg_depth_load = 8;
    const int n = 100;
    auto t = run(m_b, n, [payload](auto& mm, uint32_t id) {
          mm.s_ctx = id % 7;
          mm.s_load = 0;
          mm.s_len = static_cast<uint32_t>(payload);
          mm.s_data_pkts = 1;
        }, always);
    INFO("payload " << payload);
    REQUIRE(t.delivered == static_cast<uint64_t>(n));
    // the driver stops at the last packet's first flit
    CHECK(t.flits == static_cast<uint64_t>((n - 1) * flits + 1));
    CHECK(t.out_cycle.at(0) - t.in_cycle.at(0) == 25);   // first flit latency unchanged
    const uint64_t interval = static_cast<uint64_t>(std::max(kUbWords, flits));
    CHECK(t.out_cycle.at(n - 1) - t.out_cycle.at(n - 2) == interval);
  }
}

// ---------------------------------------------------------------------------
// Segmentation (spec §11): a message of m bytes leaves as ceil(m / MTU)
// packets, each with its own PSN and its flits through the send pipeline.
// Expected figures from the spec: 4 KiB MTU, 32 B header, 256 B flits.

namespace {

constexpr uint32_t kMtu = 4096, kHeader = 32;
uint32_t flits_of(uint32_t payload) { return (kHeader + payload + rv::kFlitBytes - 1) / rv::kFlitBytes; }

// One packet as it left: message id, index, last flag, PSN, cycle.
struct PacketOut {
  uint32_t id, pkt;
  bool last;
  uint32_t psn;
  uint64_t cycle;
};

// Drives messages (sizes[i] bytes, on context ctx_of(i)) into a send
// pipeline; payload of packets >= data_pkts arrives as credits from
// credit_at(i, pkt) (cycle, in send order); m_ready from ready(c).
template <class M, class Setup>
std::vector<PacketOut> drive_messages(ubsim::VerilatedBlock<M>& b, const std::vector<uint32_t>& sizes,
                                      uint32_t data_pkts, const std::function<uint64_t(uint32_t, uint32_t)>& credit_at,
                                      const std::function<bool(uint64_t)>& ready, Setup setup,
                                      uint64_t* data_wait_cycles = nullptr) {
  M& m = b.model();
  segmenter_defaults(m, 0);
  m.s_valid = 0;
  m.s_credit_valid = 0;
  b.reset(4);
  // credits in the order packets are sent: messages in order, packets in order
  struct Credit { uint64_t at; uint32_t id; };
  std::vector<Credit> credits;
  uint64_t total = 0;
  for (uint32_t i = 0; i < sizes.size(); ++i) {
    const uint32_t pkts = std::max<uint32_t>(1, (sizes[i] + kMtu - 1) / kMtu);
    total += pkts;
    for (uint32_t k = data_pkts; k < pkts; ++k) credits.push_back({credit_at(i, k), i});
  }
  std::vector<PacketOut> out;
  size_t next = 0, next_credit = 0, credited_out = 0;
  for (uint64_t c = 1; c < 2000000 && out.size() < total; ++c) {
    m.s_valid = next < sizes.size();
    m.s_id = static_cast<uint32_t>(next);
    if (m.s_valid) {
      m.s_len = sizes[next];
      m.s_data_pkts = data_pkts;
      setup(m, static_cast<uint32_t>(next));
    }
    // a credit is offered once its payload has arrived and one of the
    // PAYLOAD_BUFFERS is free: a buffer frees when its packet has left
    // (conservative: the segmenter frees it when the packet passes it)
    const bool credit = next_credit < credits.size() && credits[next_credit].at <= c &&
                        next_credit < credited_out + rv::kPayloadBuffers;
    m.s_credit_valid = credit;
    m.s_credit_id = credit ? credits[next_credit].id : 0;
    m.m_ready = ready(c);
    bool in_fire = false, out_fire = false, waiting = false;
    PacketOut p{};
    b.cycle([&] {
      in_fire = m.s_valid && m.s_ready;
      out_fire = m.m_valid && m.m_ready && m.m_first;
      waiting = m.data_wait;
      if (out_fire) p = {m.m_id, m.m_pkt, static_cast<bool>(m.m_pkt_last), m.m_psn, c};
    });
    if (in_fire) ++next;
    if (credit) ++next_credit;
    if (out_fire) out.push_back(p), credited_out += p.pkt >= data_pkts;
    if (data_wait_cycles && waiting) ++*data_wait_cycles;
  }
  return out;
}

// Every packet of every message exactly once, each message's packets in
// order with the last flag on the last; PSNs consecutive per context.
void check_packets(const std::vector<PacketOut>& out, const std::vector<uint32_t>& sizes,
                   const std::function<uint32_t(uint32_t)>& ctx_of) {
  std::map<uint32_t, uint32_t> next_pkt;
  std::map<uint32_t, uint32_t> psn_of_ctx;
  uint64_t total = 0;
  for (uint32_t s : sizes) total += std::max<uint32_t>(1, (s + kMtu - 1) / kMtu);
  REQUIRE(out.size() == total);
  for (const PacketOut& p : out) {
    REQUIRE(p.id < sizes.size());
    const uint32_t pkts = std::max<uint32_t>(1, (sizes[p.id] + kMtu - 1) / kMtu);
    INFO("message " << p.id << " packet " << p.pkt << " of " << pkts);
    CHECK(p.pkt == next_pkt[p.id]++);   // in order, none twice, none skipped
    CHECK(p.last == (p.pkt + 1 == pkts));
    const uint32_t ctx = ctx_of(p.id);
    auto [it, first] = psn_of_ctx.emplace(ctx, p.psn);
    if (!first) CHECK(p.psn == ((it->second + 1) & 0xffffffu));
    it->second = p.psn;
  }
  for (uint32_t i = 0; i < sizes.size(); ++i)
    CHECK(next_pkt[i] == std::max<uint32_t>(1, (sizes[i] + kMtu - 1) / kMtu));
}

}  // namespace

TEST_CASE("segmentation: 64 KiB messages leave as 16 packets at the flit rate, PSN per packet", "[rtl][segment]") {
  const std::vector<uint32_t> sizes(8, 64 * 1024);
  const uint32_t want_interval = std::max<uint32_t>(flits_of(kMtu), static_cast<uint32_t>(kUbWords));
  SECTION("UB, one TP channel") {
    ubsim::VerilatedBlock<Vub_tx_pipeline> b("ub");
    b.model().cfg_depth_async = 25;
    b.model().cfg_depth_load = 8;
    auto out = drive_messages(b, sizes, 16, [](uint32_t, uint32_t) { return 0; }, always,
                              [](Vub_tx_pipeline& m, uint32_t) { m.s_ctx = 0; m.s_load = 0; });
    check_packets(out, sizes, [](uint32_t) { return 0u; });
    REQUIRE(out.size() == 128);
    // steady state: one packet every max(record words, flits) cycles: 17
    CHECK(out.back().cycle - out[64].cycle == 63 * want_interval);
  }
  SECTION("RoCE, one QP") {
    ubsim::VerilatedBlock<Vroce_tx_pipeline> b("roce");
    b.model().cfg_depth = 9;
    auto out = drive_messages(b, sizes, 16, [](uint32_t, uint32_t) { return 0; }, always,
                              [](Vroce_tx_pipeline& m, uint32_t) { m.s_ctx = 0; });
    check_packets(out, sizes, [](uint32_t) { return 0u; });
    const uint32_t roce = std::max<uint32_t>(flits_of(kMtu), static_cast<uint32_t>(kRoceInterval));
    CHECK(out.back().cycle - out[64].cycle == 63 * roce);
  }
}

TEST_CASE("segmentation: later packets wait for their payload, back-pressure mid-message loses nothing",
          "[rtl][segment]") {
  // messages of 1..5 packets on 4 TP channels, and Load/Store accesses (one
  // 64 B packet each: a CPU load or store) on the short route between them;
  // only packet 0 has its payload; the rest arrives late and irregularly
  // (credits in send order: the URMA route keeps its order); the output
  // stalls in long stretches
  std::vector<uint32_t> sizes;
  for (uint32_t i = 0; i < 40; ++i) sizes.push_back(i % 5 == 0 ? 64 : 1 + (i * 7919u) % (5 * kMtu));
  auto ctx_of = [](uint32_t id) { return id % 4; };
  ubsim::VerilatedBlock<Vub_tx_pipeline> b("ub");
  b.model().cfg_depth_async = 25;
  b.model().cfg_depth_load = 8;
  uint64_t waited = 0;
  auto out = drive_messages(
      b, sizes, 1, [](uint32_t i, uint32_t k) { return 200u * i + 37u * k * k; },
      [](uint64_t c) { return c % 3 != 0 && (c / 300) % 4 != 3; },
      [&](Vub_tx_pipeline& m, uint32_t id) { m.s_ctx = ctx_of(id); m.s_load = id % 5 == 0; }, &waited);
  check_packets(out, sizes, ctx_of);
  CHECK(waited > 0);   // the segmenter did wait for payload
  // a packet never leaves before its payload arrived
  for (const PacketOut& p : out)
    if (p.pkt >= 1) CHECK(p.cycle > 200u * p.id + 37u * p.pkt * p.pkt);
}

TEST_CASE("the order tracker tracks messages: 16 messages of 32 packets fill a 16-entry window, not 512",
          "[rtl][segment]") {
  // tracked messages of one Jetty, no completion comes back: the window
  // (UBSIM_RTL_ORDER_WIN requests in flight per queue) counts messages
  const uint32_t n = static_cast<uint32_t>(rv::kOrderWindow);
  const std::vector<uint32_t> sizes(n, 32 * kMtu);
  ubsim::VerilatedBlock<Vub_tx_pipeline> b("ub");
  b.model().cfg_depth_async = 25;
  b.model().cfg_depth_load = 8;
  auto out = drive_messages(b, sizes, 32, [](uint32_t, uint32_t) { return 0; }, always,
                            [](Vub_tx_pipeline& m, uint32_t) {
                              m.s_ctx = 0;
                              m.s_load = 0;
                              m.s_ord_track = 1;
                              m.s_ord_jetty = 5;
                              m.s_ord_mode = ubsim::enc::MODE_ROI;
                              m.s_ord_tag = ubsim::enc::TAG_NO;
                              m.s_ord_fence = 0;
                              m.s_ord_comp_order = 0;
                              m.s_ord_rdat = 0;
                              m.s_ord_payload = 32 * kMtu;
                            });
  check_packets(out, sizes, [](uint32_t) { return 0u; });
  CHECK(out.size() == n * 32);
}

TEST_CASE("UNO: a message above one MTU is an error completion, and one MTU passes", "[rtl][segment]") {
  for (uint32_t size : {kMtu, kMtu + 1, 16 * kMtu}) {
    ubsim::VerilatedBlock<Vub_tx_pipeline> b("ub");
    auto& m = b.model();
    segmenter_defaults(m, 0);
    m.cfg_depth_async = 25;
    m.cfg_depth_load = 8;
    m.s_valid = 0;
    m.s_credit_valid = 0;
    m.m_ready = 1;
    b.reset(4);
    bool error = false, out = false;
    int code = 0;
    for (int c = 0; c < 200; ++c) {
      m.s_valid = c == 0;
      m.s_id = 1;
      m.s_ctx = 0;
      m.s_load = 0;
      m.s_len = size;
      m.s_data_pkts = (size + kMtu - 1) / kMtu;
      m.s_ord_track = 1;
      m.s_ord_jetty = 1;
      m.s_ord_mode = ubsim::enc::MODE_UNO;
      m.s_ord_tag = ubsim::enc::TAG_NO;
      m.s_ord_fence = 0;
      m.s_ord_comp_order = 0;
      m.s_ord_rdat = 0;
      m.s_ord_payload = size;
      b.cycle([&] {
        if (m.m_err_valid) error = true, code = m.m_err_code;
        if (m.m_valid && m.m_first) out = true;
      });
    }
    INFO("size " << size);
    CHECK(error == (size > kMtu));
    CHECK(out == (size <= kMtu));
    if (error) CHECK(code == ubsim::enc::ERR_UNO_OVER_MTU);
  }
}

TEST_CASE("segmentation: messages of 4 Jetties on one TP channel, each intact and once, PSNs consecutive on the channel",
          "[rtl][segment]") {
  // 32 tracked messages (8 per Jetty, under the 16-entry window) of 1..6
  // packets, all on TP channel 3, payload fetched late for every packet
  // after the first
  std::vector<uint32_t> sizes;
  for (uint32_t i = 0; i < 32; ++i) sizes.push_back(1 + (i * 104729u) % (6 * kMtu));
  ubsim::VerilatedBlock<Vub_tx_pipeline> b("ub");
  b.model().cfg_depth_async = 25;
  b.model().cfg_depth_load = 8;
  auto out = drive_messages(
      b, sizes, 1, [](uint32_t i, uint32_t k) { return 50u * i + 20u * k; }, [](uint64_t c) { return c % 4 != 0; },
      [&](Vub_tx_pipeline& m, uint32_t id) {
        m.s_ctx = 3;
        m.s_load = 0;
        m.s_ord_track = 1;
        m.s_ord_jetty = static_cast<uint16_t>(id % 4);
        m.s_ord_mode = ubsim::enc::MODE_ROI;
        m.s_ord_tag = ubsim::enc::TAG_NO;
        m.s_ord_fence = 0;
        m.s_ord_comp_order = 0;
        m.s_ord_rdat = 0;
        m.s_ord_payload = sizes[id];
      });
  check_packets(out, sizes, [](uint32_t) { return 3u; });   // one PSN sequence: the TP channel's
}
