// Reference model of the context cache's visible behaviour, written from its
// contract (not from the RTL): per set, the records present (on chip or being
// refilled) with their last-access stamps and pins; a miss takes a free
// place, else evicts the least recently used record whose refill is not in
// flight and that no granted request still holds (pins: +1 per lookup of
// the record, -1 per release); the two keys of one lookup are accessed in
// order and key 1 never evicts key 0's record; at most `mshrs` refills in
// flight; responses in lookup order, each when its refills are back; a
// lookup that hits everything with no older response waiting is answered
// in its own cycle.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

namespace ubsim::test {

class CtxCacheRef {
 public:
  struct Outcome {
    bool taken = false;
    bool hit[2] = {false, false}, merge[2] = {false, false}, miss[2] = {false, false};
    bool evict[2] = {false, false};
    uint32_t evict_key[2] = {0, 0};
    int refill_instance[2] = {-1, -1};   // new refills (miss)
  };

  CtxCacheRef(int entries, int ways, int mshrs, int rob_depth)
      : sets_(ways == 0 ? 1 : entries / ways),
        per_set_(ways == 0 ? entries : ways),
        mshrs_(mshrs),
        rob_depth_(rob_depth),
        set_(static_cast<size_t>(sets_)) {}

  // The response this cycle (id), given the instance whose fill lands now.
  std::optional<uint32_t> head_response(int fill_instance) const {
    if (rob_.empty()) return std::nullopt;
    for (int w : rob_.front().waits)
      if (w != fill_instance && !done_.count(w)) return std::nullopt;
    return rob_.front().id;
  }

  // Evaluates a lookup this cycle (with or without committing it).
  Outcome lookup(uint32_t id, int nkeys, const uint32_t* keys, bool m_ready, int fill_instance, bool commit,
                 bool honour_pins = true) {
    Outcome o;
    auto sets_copy = set_;   // evaluate on a copy, commit by swapping
    const uint64_t stamp0 = stamp_;
    int need = 0;
    bool all_hit = true;
    std::vector<int> waits;
    const uint32_t key0 = keys[0];
    for (int k = 0; k < nkeys; ++k) {
      auto& set = sets_copy[static_cast<size_t>(keys[k] & static_cast<uint32_t>(sets_ - 1))];
      auto it = std::find_if(set.begin(), set.end(), [&](const Rec& r) { return r.key == keys[k]; });
      if (it != set.end()) {
        it->stamp = stamp0 + static_cast<uint64_t>(k);
        ++it->pins;
        if (it->instance >= 0 && !done_.count(it->instance)) {
          o.merge[k] = true;
          all_hit = false;
          if (it->instance != fill_instance) waits.push_back(it->instance);
        } else {
          o.hit[k] = true;
        }
        continue;
      }
      all_hit = false;
      o.miss[k] = true;
      ++need;
      if (static_cast<int>(set.size()) >= per_set_) {
        // evict the LRU record that is not being refilled, never key 0's
        auto victim = set.end();
        for (auto v = set.begin(); v != set.end(); ++v) {
          const bool in_flight = v->instance >= 0 && !done_.count(v->instance);
          if (in_flight || (honour_pins && v->pins > 0) || (k == 1 && v->key == key0)) continue;
          if (victim == set.end() || v->stamp < victim->stamp) victim = v;
        }
        if (victim == set.end()) return Outcome{};   // everything pending or pinned: not taken
        o.evict[k] = true;
        o.evict_key[k] = victim->key;
        set.erase(victim);
      }
      o.refill_instance[k] = next_instance_ + (need - 1);
      waits.push_back(o.refill_instance[k]);
      set.push_back(Rec{keys[k], stamp0 + static_cast<uint64_t>(k), o.refill_instance[k], 1});
    }
    if (in_flight_ + need > mshrs_) return Outcome{};
    const bool bypass = rob_.empty() && all_hit;
    if (bypass ? !m_ready : static_cast<int>(rob_.size()) >= rob_depth_) return Outcome{};
    o.taken = true;
    if (commit) {
      set_.swap(sets_copy);
      stamp_ += 2;
      next_instance_ += need;
      in_flight_ += need;
      if (!bypass) rob_.push_back({id, waits});
      last_bypass_ = bypass;
    }
    return o;
  }
  bool last_bypass() const { return last_bypass_; }
  // Whether the lookup could be taken if no record were pinned (not committed).
  Outcome lookup_ignoring_pins(uint32_t id, int nkeys, const uint32_t* keys, bool m_ready, int fill_instance) {
    return lookup(id, nkeys, keys, m_ready, fill_instance, false, false);
  }

  void fill(int instance) {
    done_.insert(instance);
    --in_flight_;
  }
  void pop_head() { rob_.pop_front(); }
  // A granted request is done with its records.
  void release(int nkeys, const uint32_t* keys) {
    for (int k = 0; k < nkeys; ++k) {
      auto& set = set_[static_cast<size_t>(keys[k] & static_cast<uint32_t>(sets_ - 1))];
      auto it = std::find_if(set.begin(), set.end(), [&](const Rec& r) { return r.key == keys[k]; });
      if (it == set.end() || it->pins == 0) throw std::logic_error("release of a record no request holds");
      --it->pins;
    }
  }
  bool rob_empty() const { return rob_.empty(); }

 private:
  struct Rec {
    uint32_t key;
    uint64_t stamp;
    int instance;   // refill that brought it (-1: none)
    int pins;       // granted requests not yet done with it
  };
  struct RobEntry {
    uint32_t id;
    std::vector<int> waits;
  };
  int sets_, per_set_, mshrs_, rob_depth_;
  std::vector<std::vector<Rec>> set_;
  std::deque<RobEntry> rob_;
  std::set<int> done_;
  uint64_t stamp_ = 0;
  int next_instance_ = 0;
  int in_flight_ = 0;
  bool last_bypass_ = false;
};

}  // namespace ubsim::test
