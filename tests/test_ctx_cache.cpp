// The context-cache RTL against its reference model (ctx_cache_ref.h),
// cycle by cycle: random lookups of one or two records, refills returned
// after random delays in random order, random response back-pressure,
// answered requests releasing their records after random delays. Every
// cycle the RTL must take the same lookups, report the same hits, merges,
// misses and victims, and answer the same ids as the reference; every
// response must name the entries that hold its records.
#include <catch2/catch.hpp>

#include <array>
#include <map>
#include <random>

#include <fmt/format.h>

#include "block_config.h"
#include "ctx_cache_ref.h"
#include "verilated_block.h"
#include "Vctx_cache.h"
#include "Vctx_cache_parallel.h"
#include "rtl_variant.h"

using ubsim::test::CtxCacheRef;

namespace {

constexpr int kRobDepth = 16;   // ctx_cache ROB_DEPTH default

struct Totals {
  uint64_t taken = 0, hits = 0, misses = 0, merges = 0, evictions = 0, responses = 0, releases = 0;
  uint64_t pin_stalls = 0;   // lookups refused only because every victim was pinned
};

template <class Model>
void reset(ubsim::VerilatedBlock<Model>& b, int entries, int ways) {
  Model& m = b.model();
  ubsim::configure(m, static_cast<uint32_t>(entries), static_cast<uint32_t>(ways));
  m.s_valid = 0;
  m.s_fill_valid = 0;
  m.s_rel_valid = 0;
  m.m_ready = 1;
  m.m_refill_ready = 1;
  b.reset();
}

// Runs `cycles` random cycles; returns totals (REQUIREs agreement throughout).
template <class Model>
Totals run_random(uint64_t seed, int entries, int ways, uint32_t universe, int cycles, int max_fill_delay) {
  ubsim::VerilatedBlock<Model> b("cache");
  Model& m = b.model();
  reset(b, entries, ways);
  CtxCacheRef ref(entries, ways, ubsim::rtl_variant::kCacheMshrs, kRobDepth);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint32_t> key_of(0, universe - 1);
  struct Pending {
    int instance;
    uint32_t slot;
    int due;
  };
  std::vector<Pending> refills;                 // in flight, returned in random order
  bool presenting = false;
  uint32_t id = 0, next_id = 0;
  int nkeys = 1;
  uint32_t keys[2] = {0, 0};
  uint32_t next_expected_response = 0;
  Totals t;
  struct Held {
    int n;
    uint32_t key[2], entry[2];
  };
  std::map<uint32_t, std::pair<int, std::array<uint32_t, 2>>> keys_of;   // id -> keys of its lookup
  std::vector<Held> held;                       // answered, records not yet released
  std::map<uint32_t, uint32_t> slot_key;        // entry -> the key refilled into it
  // Random traffic for `cycles`, then a drain (no new lookups, m_ready high)
  // until every taken lookup has been answered: a watchdog bounds it.
  for (int cyc = 0;; ++cyc) {
    const bool draining = cyc >= cycles;
    if (draining && !presenting && refills.empty() && t.responses == t.taken && held.empty()) break;
    INFO(fmt::format("seed {} entries {} ways {} cycle {}", seed, entries, ways, cyc));
    REQUIRE(cyc < cycles + 10000);   // watchdog: stuck responses
    if (!draining && !presenting && rng() % 4 != 0) {   // a new lookup (held until taken)
      presenting = true;
      id = next_id++;
      nkeys = rng() % 3 == 0 ? 1 : 2;
      keys[0] = key_of(rng);
      do keys[1] = key_of(rng); while (nkeys == 2 && keys[1] == keys[0]);
    }
    // at most one fill per cycle: a random due refill
    int fill_idx = -1;
    for (size_t i = 0; i < refills.size(); ++i)
      if (refills[i].due <= cyc && (fill_idx < 0 || rng() % 2)) fill_idx = static_cast<int>(i);
    const bool m_ready = draining || rng() % 5 != 0;
    // a random answered request releases its records (every one while draining)
    int rel_idx = -1;
    if (!held.empty() && (draining || rng() % 3 == 0)) rel_idx = static_cast<int>(rng() % held.size());

    m.clk = 0;
    m.s_valid = presenting;
    m.s_id = id;
    m.s_keys = nkeys == 2 ? 3 : 1;
    m.s_key0 = keys[0];
    m.s_key1 = keys[1];
    m.s_fill_valid = fill_idx >= 0;
    m.s_fill_slot = fill_idx >= 0 ? refills[static_cast<size_t>(fill_idx)].slot : 0;
    m.m_ready = m_ready;
    m.s_rel_valid = rel_idx >= 0;
    if (rel_idx >= 0) {
      const Held& h = held[static_cast<size_t>(rel_idx)];
      m.s_rel_keys = h.n == 2 ? 3 : 1;
      m.s_rel_slot0 = h.entry[0];
      m.s_rel_slot1 = h.entry[1];
    }
    m.eval();

    const int fill_instance = fill_idx >= 0 ? refills[static_cast<size_t>(fill_idx)].instance : -1;
    // response: the oldest waiting one, else a same-cycle answer
    const auto head = ref.head_response(fill_instance);
    // o: what happens this cycle; offer: what would with m_ready high (a
    // same-cycle answer is offered on m_valid whether or not m_ready is high)
    CtxCacheRef::Outcome o, offer;
    if (presenting) {
      o = ref.lookup(id, nkeys, keys, m_ready, fill_instance, false);
      offer = ref.lookup(id, nkeys, keys, true, fill_instance, false);
    }
    REQUIRE(static_cast<bool>(m.lk_fire) == (presenting && o.taken));
    bool expect_valid = head.has_value();
    uint32_t expect_id = head.value_or(0);
    if (!head && presenting && offer.taken && ref.rob_empty() && !offer.merge[0] && !offer.merge[1] &&
        !offer.miss[0] && !offer.miss[1]) {
      expect_valid = true;
      expect_id = id;
    }
    REQUIRE(static_cast<bool>(m.m_valid) == expect_valid);
    if (expect_valid) {
      REQUIRE(m.m_id == expect_id);
      if (m_ready) {   // taken
        REQUIRE(expect_id == next_expected_response);   // in lookup order, none lost
        ++next_expected_response;
        ++t.responses;
        // the response names the entries its records are in
        const bool bypass = !head;
        const int n = bypass ? nkeys : keys_of.at(expect_id).first;
        Held h{n, {0, 0}, {m.m_entry0, m.m_entry1}};
        for (int k = 0; k < n; ++k) {
          h.key[k] = bypass ? keys[k] : keys_of.at(expect_id).second[static_cast<size_t>(k)];
          // a hit's entry holds it from an earlier refill; a miss's from the refill of this lookup
          REQUIRE(slot_key.at(h.entry[k]) == h.key[k]);
        }
        held.push_back(h);
        keys_of.erase(expect_id);
      }
    }
    if (m.lk_fire) {
      for (int k = 0; k < nkeys; ++k) {
        INFO("key " << k);
        REQUIRE(static_cast<bool>(m.lk_hit & (1u << k)) == o.hit[k]);
        REQUIRE(static_cast<bool>(m.lk_merge & (1u << k)) == o.merge[k]);
        REQUIRE(static_cast<bool>(m.lk_miss & (1u << k)) == o.miss[k]);
        REQUIRE(static_cast<bool>(m.lk_evict & (1u << k)) == o.evict[k]);
        if (o.evict[k]) REQUIRE((k == 0 ? m.lk_evict_key0 : m.lk_evict_key1) == o.evict_key[k]);
        t.hits += o.hit[k];
        t.merges += o.merge[k];
        t.misses += o.miss[k];
        t.evictions += o.evict[k];
      }
      REQUIRE(m.m_refill_valid == ((o.miss[0] ? 1u : 0u) | (o.miss[1] ? 2u : 0u)));
      keys_of[id] = {nkeys, {keys[0], keys[1]}};
      for (int k = 0; k < 2; ++k) {
        if (o.miss[k]) slot_key[k == 0 ? m.m_refill_slot0 : m.m_refill_slot1] = keys[k];
      }
      for (int k = 0; k < 2; ++k)
        if (o.miss[k])
          refills.push_back({o.refill_instance[k], k == 0 ? m.m_refill_slot0 : m.m_refill_slot1,
                             cyc + 1 + static_cast<int>(rng() % static_cast<uint64_t>(max_fill_delay))});
      ref.lookup(id, nkeys, keys, m_ready, fill_instance, true);
      ++t.taken;
      presenting = false;
    } else if (presenting && !o.taken) {
      CtxCacheRef::Outcome unpinned = ref.lookup_ignoring_pins(id, nkeys, keys, m_ready, fill_instance);
      t.pin_stalls += unpinned.taken;
    }
    if (rel_idx >= 0) {   // the release takes effect at this edge, after the lookup's choice
      const Held& h = held[static_cast<size_t>(rel_idx)];
      ref.release(h.n, h.key);
      held.erase(held.begin() + rel_idx);
      ++t.releases;
    }
    if (head && m_ready) ref.pop_head();
    else if (!head && expect_valid && m_ready && !ref.last_bypass()) FAIL("same-cycle answer not bypassed");
    if (fill_idx >= 0) {
      ref.fill(fill_instance);
      refills.erase(refills.begin() + fill_idx);
    }
    m.clk = 1;
    m.eval();
  }
  // the counters agree with what was observed
  CHECK(m.cnt_lookups == t.taken);
  CHECK(m.cnt_hits == t.hits);
  CHECK(m.cnt_misses == t.misses);
  CHECK(m.cnt_merges == t.merges);
  CHECK(m.cnt_evictions == t.evictions);
  return t;
}

}  // namespace

namespace {
// The random check over every shape: both lookup descriptions must pass it.
template <class Model>
void check_against_reference() {
  Totals all;
  int runs = 0;
  // fully associative and set-associative, small enough to evict constantly
  const struct { int entries, ways; uint32_t universe; int delay; } shapes[] = {
      {8, 0, 12, 6}, {16, 0, 40, 20}, {16, 2, 40, 10}, {32, 4, 64, 30}, {64, 8, 80, 3}, {16, 16, 24, 40}};
  for (const auto& s : shapes)
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const Totals t = run_random<Model>(seed * 7919 + static_cast<uint64_t>(s.entries), s.entries, s.ways,
                                         s.universe, 1500, s.delay);
      all.taken += t.taken; all.hits += t.hits; all.misses += t.misses; all.merges += t.merges;
      all.evictions += t.evictions; all.responses += t.responses; all.releases += t.releases;
      all.pin_stalls += t.pin_stalls;
      ++runs;
    }
  // every case was exercised, many times
  CHECK(runs == 120);
  CHECK(all.hits > 10000);
  CHECK(all.misses > 10000);
  CHECK(all.merges > 1000);
  CHECK(all.evictions > 10000);
  CHECK(all.responses == all.taken);   // every lookup answered exactly once
  CHECK(all.releases == all.taken);    // and every one released its records
  CHECK(all.pin_stalls > 100);         // pinned records were kept from eviction
}
}  // namespace

TEST_CASE("context cache RTL matches the reference model (random lookups, many seeds)", "[rtl][cache]") {
  check_against_reference<Vctx_cache>();
}

// The form scripts/area synthesizes (per-entry comparators, OR-encoders and
// an LRU compare chain), verilated at 64 entries.
TEST_CASE("context cache, parallel (synthesized) form, matches the reference model", "[rtl][cache]") {
  check_against_reference<Vctx_cache_parallel>();
}

TEST_CASE("context cache: cyclic access one entry too many misses every time (true LRU)", "[rtl][cache]") {
  for (int extra : {0, 1}) {
    const int entries = 64;
    ubsim::VerilatedBlock<Vctx_cache> b("cache");
    Vctx_cache& m = b.model();
    reset(b, entries, 0);
    const int n = entries + extra;   // distinct records cycled through
    uint64_t hits_after_warmup = 0, misses_after_warmup = 0;
    for (int i = 0; i < 10 * n; ++i) {
      // present one single-key lookup; return its refill in the next cycle
      m.clk = 0; m.s_valid = 1; m.s_id = static_cast<uint32_t>(i); m.s_keys = 1;
      m.s_key0 = static_cast<uint32_t>(i % n); m.s_fill_valid = 0; m.eval();
      REQUIRE(m.lk_fire);
      const bool miss = m.m_refill_valid & 1;
      const uint32_t slot = m.m_refill_slot0;
      if (i >= n) (miss ? misses_after_warmup : hits_after_warmup)++;
      m.clk = 1; m.eval();
      m.clk = 0; m.s_valid = 0; m.s_fill_valid = miss; m.s_fill_slot = slot; m.eval();
      m.clk = 1; m.eval();
      // the request is done with its record
      m.clk = 0; m.s_fill_valid = 0; m.s_rel_valid = 1; m.s_rel_keys = 1; m.s_rel_slot0 = slot; m.eval();
      m.clk = 1; m.eval();
      m.s_rel_valid = 0;
    }
    INFO("records " << n << " entries " << entries);
    if (extra == 0) {
      CHECK(misses_after_warmup == 0);
    } else {
      CHECK(hits_after_warmup == 0);
    }
  }
}

// Two reasons a lookup waits that random traffic does not reach: the refill
// port busy (m_refill_ready low) for a lookup that misses, and a record whose
// pin count (PIN_W = 8 bits: 255 requests not yet done with it) is full.
TEST_CASE("context cache: a miss waits for the refill port, and a record pinned 255 times takes no 256th lookup",
          "[rtl][cache]") {
  ubsim::VerilatedBlock<Vctx_cache> b("cache");
  Vctx_cache& m = b.model();
  reset(b, 64, 0);
  auto edge = [&] { m.clk = 1; m.eval(); m.clk = 0; };
  auto present = [&](uint32_t id, uint32_t key) {
    m.s_valid = 1; m.s_id = id; m.s_keys = 1; m.s_key0 = key; m.s_fill_valid = 0; m.eval();
  };
  // a miss with the refill port busy: not taken, no refill issued, for as long as it stays busy
  m.m_refill_ready = 0;
  for (int cycle = 0; cycle < 5; ++cycle) {
    present(1, 7);
    CHECK(!m.s_ready);
    CHECK(!m.lk_fire);
    CHECK(m.m_refill_valid == 0);
    edge();
  }
  m.m_refill_ready = 1;
  present(1, 7);
  REQUIRE(m.lk_fire);
  REQUIRE((m.m_refill_valid & 1));
  const uint32_t slot = m.m_refill_slot0;
  edge();
  m.s_valid = 0; m.s_fill_valid = 1; m.s_fill_slot = slot; m.eval();
  REQUIRE(m.m_valid);                 // answered in the fill's cycle
  REQUIRE(m.m_id == 1);
  edge();
  m.s_fill_valid = 0;
  // a hit needs no refill: taken with the port busy
  m.m_refill_ready = 0;
  present(2, 7);
  REQUIRE(m.lk_fire);
  REQUIRE(m.m_valid);
  REQUIRE(m.m_entry0 == slot);
  edge();
  m.m_refill_ready = 1;
  // 2 requests hold the record; 253 more fill its pin count to 255
  for (uint32_t id = 3; id <= 255; ++id) {
    present(id, 7);
    REQUIRE(m.lk_fire);
    edge();
  }
  for (int cycle = 0; cycle < 3; ++cycle) {   // the 256th waits
    present(256, 7);
    CHECK(!m.s_ready);
    CHECK(!m.m_valid);
    edge();
  }
  // one request done with the record: the 256th goes, in that cycle's next edge
  m.s_valid = 0; m.s_rel_valid = 1; m.s_rel_keys = 1; m.s_rel_slot0 = slot; m.eval();
  edge();
  m.s_rel_valid = 0;
  present(256, 7);
  CHECK(m.lk_fire);
  CHECK(m.m_entry0 == slot);
  edge();
  m.s_valid = 0; m.eval();
}
