// InlineCallback: a call with no arguments whose callable (a lambda of at
// most a few words that captures pointers and integers) is stored in the
// object itself. Moving or dropping one copies or forgets bytes: unlike
// std::function there is no manager call per move and destruction, and it
// never allocates. For a component's own event lists (PcieLink), which hold
// one per TLP and per step of a transfer, and for what a caller hands in
// (held in a slot whose index the link's own callback carries).
#pragma once
#include <cstddef>
#include <new>
#include <type_traits>

namespace ubsim {

class InlineCallback {
 public:
  static constexpr size_t kBytes = 24;
  InlineCallback() = default;
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InlineCallback>>>
  InlineCallback(F f) {   // NOLINT: implicit, as std::function's
    static_assert(sizeof(F) <= kBytes && alignof(F) <= alignof(std::max_align_t),
                  "capture at most three words (hold anything larger in a slot)");
    static_assert(std::is_trivially_copyable_v<F> && std::is_trivially_destructible_v<F>,
                  "capture pointers and integers only (bytes are copied, never destroyed)");
    ::new (static_cast<void*>(buf_)) F(f);
    call_ = [](void* p) { (*static_cast<F*>(p))(); };
  }
  void operator()() { call_(buf_); }
  explicit operator bool() const { return call_ != nullptr; }

 private:
  alignas(std::max_align_t) unsigned char buf_[kBytes] = {};
  void (*call_)(void*) = nullptr;
};

}  // namespace ubsim
