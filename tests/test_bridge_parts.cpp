// The pipeline bridges' parts (models/bridges/parts/), each by itself
// against a fake neighbour: the bridge that drives it edge by edge is the
// test, the context cache is a fake that records lookups and releases.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <random>
#include <vector>

#include "context_client.h"
#include "context_ram.h"
#include "id_map.h"
#include "order_port.h"
#include "payload_credits.h"
#include "request_input.h"
#include "segmenter.h"
#include "stats.h"

namespace {

using namespace ubsim;

constexpr uint64_t kPeriod = 1000;   // fs

// A route of one send hop on node A, then a wire hop.
Route send_route() {
  Route r;
  r.hops = {{Op::UbTx, NodeId::A, "send"}, {Op::WireRequest, NodeId::A, "wire"}};
  r.component = {0, 1};
  return r;
}

void init(Request& r, const Route& route, uint64_t id, uint64_t arrive_fs) {
  r.reset(&route);
  r.id = id;
  r.now_times().arrive_fs = arrive_fs;
}

struct FakeCache : ContextCacheService {
  std::vector<uint64_t> looked_up;
  std::vector<uint64_t> looked_up_at;
  std::vector<std::pair<uint32_t, uint64_t>> released;   // (id, at)
  void lookup(const Request& r, GrantSink*, uint64_t at_fs) override {
    looked_up.push_back(r.id);
    looked_up_at.push_back(at_fs);
  }
  void release(const CtxGrant& g, uint64_t at_fs) override { released.emplace_back(g.id, at_fs); }
  Stack stack() const override { return Stack::Ub; }
  NodeId node() const override { return NodeId::A; }
};

}  // namespace

TEST_CASE("bridge part RequestInput: offered after arrival, taken with its alignment, refusals counted", "[bridge]") {
  const Route route = send_route();
  RequestInput in(kPeriod);
  Request a, b;
  init(a, route, 1, 2500);
  init(b, route, 2, 2500);
  in.push(a, 2500);
  in.push(b, 2500);
  CHECK(in.offered(2000) == nullptr);    // not before it arrived
  CHECK(in.offered(2500) == nullptr);    // nor at its arrival instant
  CHECK(in.offered(3000) == &a);         // the first edge strictly after
  in.refused();                          // edge 3000: s_ready low
  Request& t = in.take(4000);
  CHECK(&t == &a);
  CHECK(t.now_times().start_fs == 4000);
  CHECK(t.now_times().align_fs == 500);  // arrival 2500 to the first edge after it
  CHECK(in.offered(4000) == &b);
  // skipped edges 5..9 while refusing: b was refused at each
  in.refused_while_skipped(5, 5);
  CHECK(in.stall_cycles() == 1 + 5);
  CHECK(in.accepted() == 1);
  CHECK(in.queue().max() == 2);
}

TEST_CASE("bridge part ContextClient: lookups bounded by the grant FIFO, pins released once", "[bridge]") {
  const Route route = send_route();
  FakeCache cache;
  ContextClient c(2);   // two grant-FIFO entries
  c.attach(&cache, nullptr);
  std::deque<Request> rs(4);
  for (uint64_t i = 0; i < 4; ++i) init(rs[i], route, i + 10, 0);
  for (uint64_t i = 0; i < 4; ++i) c.request(rs[i], 1000 + i);   // (arrivals, which may lie ahead)
  REQUIRE(cache.looked_up == std::vector<uint64_t>{10, 11});   // the FIFO holds two
  CHECK(cache.looked_up_at == std::vector<uint64_t>{1000, 1001});   // each as of its arrival
  CHECK(c.credit_waits() == 2);
  CtxGrant g;
  g.id = 10;
  c.granted(g, 1500);
  CHECK(c.offered(1500) == nullptr);
  REQUIRE(c.offered(2000) != nullptr);
  // the gate took it: its entry is free; the next lookup goes out when the
  // pipeline issues it, at that edge's own time (not from inside the edge,
  // which may be stepped ahead of the kernel's time)
  CHECK(c.taken());
  CHECK(cache.looked_up == std::vector<uint64_t>{10, 11});
  c.issue(3000);
  CHECK(cache.looked_up == std::vector<uint64_t>{10, 11, 12});
  CHECK(cache.looked_up_at.back() == 3000);   // at the edge that freed its entry, not its arrival
  REQUIRE(c.pinned(10) != nullptr);
  c.release(10, 7000);
  c.release(10, 8000);   // released once
  CHECK(cache.released == std::vector<std::pair<uint32_t, uint64_t>>{{10, 7000}});
  CHECK(c.pinned(10) == nullptr);
}

TEST_CASE("bridge part ContextRam: the PSN mirror follows fills and write-backs, the header check catches gaps", "[bridge]") {
  ContextRam ram(enc::tp_record::next_psn);
  RecordBits rec(enc::tp_record::kBits);
  rec.set(enc::tp_record::next_psn, 41);
  ram.fill(7, rec, 100);
  CHECK(ram.offered(100) == nullptr);
  REQUIRE(ram.offered(1000) != nullptr);
  ram.fill_refused();
  ram.fill_taken();
  CHECK(ram.psn(7) == 41);
  CHECK_FALSE(ram.dirty(7));
  ram.written_back(7, 42);
  CHECK(ram.psn(7) == 42);
  CHECK(ram.dirty(7));
  CHECK(ram.fills_taken() == 1);
  CHECK(ram.fill_stall_cycles() == 1);
  // consecutive PSNs per record pass; a repeated one does not; a wrong peer does not
  const uint32_t peer = 0x55;
  ram.check("tx", 1, 3, {100, peer}, &peer);
  ram.check("tx", 2, 3, {101, peer}, &peer);
  CHECK_THROWS_WITH(ram.check("tx", 3, 3, {101, peer}, &peer), Catch::Contains("carries PSN 101, its record's next PSN is 102"));
  const uint32_t other = 0x66;
  CHECK_THROWS_WITH(ram.check("tx", 4, 4, {0, peer}, &other), Catch::Contains("a stale context record"));
}

TEST_CASE("bridge part Segmenter and PayloadCredits: packets of a message, fetches bounded by the buffers", "[bridge]") {
  const Route route = send_route();
  Segmenter seg(4096);
  PayloadCredits pay(2, seg);
  Route fetch;
  fetch.hops = {{Op::BusTraversal, NodeId::A, "fetch"}};
  fetch.component = {2};
  pay.set_route(fetch);
  Request m;
  init(m, route, 5, 0);
  m.verb = Verb::Write;   // a write from node A carries its payload: 3 packets, none inline
  m.size = 3 * 4096 - 100;
  seg.start(m);
  CHECK(m.pkts == 3);
  CHECK(m.data_pkts == 0);
  CHECK(m.payload_bytes == 4096);
  // the segmenter names it waiting: two fetches start (two buffers), then none
  pay.waiting(5);
  std::vector<Request*> launched;
  CHECK(pay.fetch(m, 9000, "tx", [&](Request& f) { launched.push_back(&f); }));
  REQUIRE(launched.size() == 2);
  CHECK_FALSE(pay.fetch(m, 10000, "tx", [&](Request& f) { launched.push_back(&f); }));
  CHECK(launched[1]->pkt == 1);
  CHECK(launched[1]->issued_fs == 9000);
  CHECK_FALSE(pay.credit_due());
  pay.fetched(*launched[0]);
  CHECK(pay.credit_due());
  pay.credited(5);
  CHECK_FALSE(pay.credit_due());
  // packet 1 leaves as a child of the message; its buffer frees a fetch
  Request* p1 = seg.packet(m, 1);
  CHECK(p1->parent == &m);
  CHECK(p1->payload_bytes == 4096);
  pay.buffer_sent();
  CHECK(pay.fetch(m, 11000, "tx", [&](Request& f) { launched.push_back(&f); }));
  CHECK(launched.back()->pkt == 2);
  CHECK(launched.back()->payload_bytes == 4096 - 100);
  pay.done(5);
  CHECK_FALSE(pay.is_waiting());
  CHECK(seg.later_packets() == 1);
  CHECK(pay.fetches() == 3);
}

TEST_CASE("bridge part OrderPort: one completion offered per edge after it is known", "[bridge]") {
  OrderPort o;
  o.complete(1, 7, 2000);
  o.complete(2, 3, 2000);
  CHECK(o.offered(2000) == nullptr);
  REQUIRE(o.offered(3000) != nullptr);
  CHECK(o.offered(3000)->seq == 7);
  o.taken();
  REQUIRE(o.offered(4000) != nullptr);
  CHECK(o.offered(4000)->slot == 2);
  o.taken();
  CHECK_FALSE(o.pending());
  CHECK(o.completions_taken() == 2);
}

// The map of the requests inside a pipeline and of its pinned grants:
// against std::map over random inserts and erases of ids that collide in
// its table (sequential ids, ids 2^k apart, repeats), through its growth.
TEST_CASE("bridge part IdMap: the same contents as std::map under inserts, erases and growth", "[bridge]") {
  std::mt19937 rng(7);
  for (const uint32_t stride : {1u, 16u, 1024u, 0x10000u}) {
    IdMap<uint64_t> m;
    std::map<uint32_t, uint64_t> ref;
    for (int step = 0; step < 20000; ++step) {
      const uint32_t id = static_cast<uint32_t>(rng() % 300) * stride;
      const uint64_t v = rng();
      if (rng() % 3 != 0) {
        const auto [p, inserted] = m.emplace(id, v);
        const auto [it, ref_inserted] = ref.emplace(id, v);
        REQUIRE(inserted == ref_inserted);
        REQUIRE(*p == it->second);
      } else {
        REQUIRE(m.erase(id) == (ref.erase(id) == 1));
      }
      REQUIRE(m.size() == ref.size());
      if (step % 97 == 0)
        for (uint32_t k = 0; k < 300; ++k) {
          const uint64_t* p = m.find(k * stride);
          const auto it = ref.find(k * stride);
          REQUIRE((p != nullptr) == (it != ref.end()));
          if (p) REQUIRE(*p == it->second);
        }
    }
  }
}

TEST_CASE("OccupancyTracker: the time-weighted mean and the maximum of a queue's level", "[bridge]") {
  // Reference: the level as a step function over [0, end), integrated
  // interval by interval (changes in time order, each at its instant).
  std::mt19937_64 rng(11);
  for (int run = 0; run < 20; ++run) {
    OccupancyTracker q;
    std::vector<std::pair<uint64_t, int>> steps;   // (time, level after it)
    uint64_t t = 0;
    int level = 0, max_level = 0;
    for (int i = 0; i < 2000; ++i) {
      t += rng() % 5000000;   // (several changes at one instant too)
      const int delta = level == 0 || rng() % 2 ? +1 : -1;
      if (rng() % 7 == 0) {
        q.pass(t);   // an item through at one instant: level + 1 counts in the maximum only
        max_level = std::max(max_level, level + 1);
        continue;
      }
      q.change(t, delta);
      level += delta;
      max_level = std::max(max_level, level);
      steps.push_back({t, level});
    }
    const uint64_t end = t + 123456789;
    long double area = 0;
    for (size_t i = 0; i < steps.size(); ++i) {
      const uint64_t to = i + 1 < steps.size() ? steps[i + 1].first : end;
      area += static_cast<long double>(steps[i].second) * static_cast<long double>(to - steps[i].first);
    }
    REQUIRE(q.level() == level);
    REQUIRE(q.max() == max_level);
    REQUIRE(q.mean(end) == Approx(static_cast<double>(area / end)).epsilon(1e-12));
  }
  // times near the end of the 64-bit fs range stay exact
  OccupancyTracker big;
  const uint64_t t0 = UINT64_MAX - 3000;
  big.change(t0, +1);
  big.change(t0 + 1000, +1);
  big.change(t0 + 2000, -2);
  REQUIRE(big.mean(UINT64_MAX) == Approx(3000.0 / static_cast<double>(UINT64_MAX)));
  REQUIRE(big.level() == 0);
  REQUIRE(big.max() == 2);
}
