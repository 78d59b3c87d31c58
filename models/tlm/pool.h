// Pool: transactions a component creates on its own (context refills,
// transport packets), each with its carrier extension, recycled instead of
// freed so a long run allocates only its peak number.
#pragma once
#include <memory>
#include <vector>

#include "transaction.h"

namespace ubsim {

template <class T>
class Pool {
 public:
  T* acquire() {
    if (free_.empty()) {
      auto t = std::make_unique<T>();
      attach_carrier(*t);
      free_.push_back(t.get());
      all_.push_back(std::move(t));
    }
    T* t = free_.back();
    free_.pop_back();
    return t;
  }
  void release(T* t) { free_.push_back(t); }

 private:
  std::vector<std::unique_ptr<T>> all_;
  std::vector<T*> free_;
};

}  // namespace ubsim
