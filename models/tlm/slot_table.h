// SlotTable: values kept in numbered slots that are reused once freed, so
// a small callback can carry a slot's index instead of the value itself,
// and a long run allocates only for its peak number of values.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace ubsim {

template <class T>
class SlotTable {
 public:
  // Keeps v in a free slot; returns the slot's index.
  uint32_t put(T v) {
    if (free_.empty()) {
      slots_.push_back(std::move(v));
      return static_cast<uint32_t>(slots_.size() - 1);
    }
    const uint32_t k = free_.back();
    free_.pop_back();
    slots_[k] = std::move(v);
    return k;
  }
  T& operator[](uint32_t k) { return slots_[k]; }
  // The value of slot k, moved out; the slot is free again (and reset, so
  // what it held is released now, unless there is nothing to release).
  T take(uint32_t k) {
    T v = std::move(slots_[k]);
    if constexpr (!std::is_trivially_destructible_v<T>) slots_[k] = T{};
    free_.push_back(k);
    return v;
  }

 private:
  std::vector<T> slots_;
  std::vector<uint32_t> free_;
};

}  // namespace ubsim
