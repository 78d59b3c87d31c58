// IdMap: a map from 32-bit ids (request ids, grant ids) to small values,
// for the few entries a block holds at once (the requests inside a
// pipeline, the grants it has pinned), looked up several times per request.
//
// Open addressing with linear probing in one array of power-of-two size,
// at most half full, and deletion by shifting the probe run back (no
// tombstones): no allocation per entry, and a lookup is a multiply, a
// shift and usually one probe, where std::unordered_map walks a bucket's
// node list. A pointer from find() or emplace() is valid until the next
// emplace() or erase().
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace ubsim {

template <class V>
class IdMap {
 public:
  IdMap() { slots_.resize(kInitialSlots); }

  // Inserts (id, value) unless id is there: the value's place, and whether
  // it was inserted.
  std::pair<V*, bool> emplace(uint32_t id, const V& value) {
    if (2 * (size_ + 1) > mask_ + 1) grow();
    Slot* s = &slots_[home(id)];
    for (; s->used; s = next(s))
      if (s->id == id) return {&s->value, false};
    *s = Slot{true, id, value};
    ++size_;
    return {&s->value, true};
  }
  V* find(uint32_t id) {
    for (Slot* s = &slots_[home(id)]; s->used; s = next(s))
      if (s->id == id) return &s->value;
    return nullptr;
  }
  const V* find(uint32_t id) const { return const_cast<IdMap*>(this)->find(id); }
  // Removes id: whether it was there.
  bool erase(uint32_t id) {
    Slot* hole = find_slot(id);
    if (!hole) return false;
    --size_;
    // every later entry of the probe run whose home is not strictly between
    // the hole and itself moves back into the hole
    for (Slot* s = next(hole);; s = next(s)) {
      if (!s->used) break;
      const size_t h = home(s->id), i = index(hole), j = index(s);
      if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
        *hole = std::move(*s);
        hole = s;
      }
    }
    hole->used = false;
    return true;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  static constexpr size_t kInitialSlots = 16;
  struct Slot {
    bool used = false;
    uint32_t id = 0;
    V value{};
  };
  // Fibonacci hashing: consecutive ids spread over the table.
  size_t home(uint32_t id) const { return static_cast<size_t>((id * 0x9E3779B9u) >> shift_); }
  size_t index(const Slot* s) const { return static_cast<size_t>(s - slots_.data()); }
  Slot* next(Slot* s) { return index(s) == mask_ ? slots_.data() : s + 1; }
  Slot* find_slot(uint32_t id) {
    for (Slot* s = &slots_[home(id)]; s->used; s = next(s))
      if (s->id == id) return s;
    return nullptr;
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    --shift_;
    size_ = 0;
    for (Slot& s : old)
      if (s.used) emplace(s.id, s.value);
  }

  std::vector<Slot> slots_;
  size_t mask_ = kInitialSlots - 1;   // slots_.size() - 1, kept (the size is a division by the slot's size)
  unsigned shift_ = 28;   // 32 - log2(slots): home() is below slots_.size()
  size_t size_ = 0;
};

}  // namespace ubsim
