// RingQueue: a FIFO in one growing ring buffer (power-of-two capacity).
// What the per-request queues need of std::deque (push at the back, pop at
// the front, index from the front) without its allocation and release of a
// node every few hundred bytes that pass through: once grown to its
// largest occupancy, a ring allocates nothing.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace ubsim {

template <class T>
class RingQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return (*this)[size_ - 1]; }
  // The i-th from the front.
  T& operator[](size_t i) { return buf_[(head_ + i) & mask_]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & mask_]; }
  void push_back(T v) {
    if (size_ == capacity_) grow();
    buf_[(head_ + size_) & mask_] = std::move(v);
    ++size_;
  }
  template <class... A>
  void emplace_back(A&&... a) {
    push_back(T{std::forward<A>(a)...});
  }
  // The front leaves; its slot is reset (what it held is released now).
  void pop_front() {
    buf_[head_] = T{};
    head_ = (head_ + 1) & mask_;
    --size_;
  }

 private:
  void grow() {
    std::vector<T> bigger(buf_.empty() ? 8 : 2 * buf_.size());
    for (size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
    buf_.swap(bigger);
    head_ = 0;
    capacity_ = buf_.size();
    mask_ = capacity_ - 1;
  }
  std::vector<T> buf_;
  // buf_.size() and it less one, kept (the vector's size is a division by
  // the element's size, which need not be a power of two)
  size_t capacity_ = 0, mask_ = 0;
  size_t head_ = 0, size_ = 0;
};

}  // namespace ubsim
