// ContextRam: the bookkeeping around a send pipeline's context RAM, which is
// its node's context-cache data array. Refilled records are offered to the
// RTL's s_fill port in arrival order; the entry's next PSN is mirrored from
// the fill and from every write-back the RTL reports (wb_*), which is what
// an eviction writes back (dirty: advanced since its fill). Every packet's
// header is checked against its request: the peer its record names, and
// PSNs consecutive per record across evictions and refills.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "context_memory.h"
#include "rtl_variant.h"
#include "timed_queue.h"

namespace ubsim {

class ContextRam {
 public:
  struct Fill {
    uint32_t entry;
    RecordBits record;
  };
  struct Header {
    uint32_t psn = 0, peer = 0;
  };
  explicit ContextRam(enc::Field psn_field) : psn_field_(psn_field) {}

  void fill(uint32_t entry, const RecordBits& record, uint64_t at_fs) { fills_.push(at_fs, {entry, record}); }
  bool fills_pending() const { return !fills_.empty(); }
  const Fill* offered(uint64_t e) { return fills_.offered(e); }
  // The RTL took the offered fill: the entry holds the refilled record.
  void fill_taken() {
    const Fill& f = fills_.front();
    mirror(f.entry, static_cast<uint32_t>(f.record.get(psn_field_)), false);
    fills_.pop();
    ++fills_taken_;
  }
  void fill_refused() { ++fill_stall_cycles_; }
  // The RTL wrote an entry's next PSN back.
  void written_back(uint32_t entry, uint32_t psn) { mirror(entry, psn, true); }
  bool dirty(uint32_t entry) const { return entry < dirty_.size() && dirty_[entry]; }
  uint32_t psn(uint32_t entry) const { return entry < psn_.size() ? psn_[entry] : 0; }

  // A packet of request `id` left with header h for record `record`; `want`
  // is the peer its record must name (checked when known).
  void check(const char* who, uint64_t id, uint32_t record, const Header& h, const uint32_t* want_peer) {
    if (want_peer && h.peer != *want_peer)
      throw std::runtime_error(fmt::format(
          "{}: the packet of request {} names peer {:#x}, its record's peer is {:#x} (a stale context record)", who, id,
          h.peer, *want_peer));
    auto [it, first] = expected_psn_.try_emplace(record, h.psn);   // (no node made for a record it knows)
    if (!first && h.psn != it->second)
      throw std::runtime_error(fmt::format("{}: the packet of request {} carries PSN {}, its record's next PSN is {}", who,
                                           id, h.psn, it->second));
    it->second = (h.psn + 1) & 0xffffffu;
  }
  uint64_t fills_taken() const { return fills_taken_; }
  uint64_t fill_stall_cycles() const { return fill_stall_cycles_; }

 private:
  void mirror(uint32_t entry, uint32_t psn, bool dirty) {
    if (psn_.empty()) psn_.assign(rtl_variant::kCacheMaxEntries, 0), dirty_.assign(rtl_variant::kCacheMaxEntries, 0);
    psn_[entry] = psn;
    dirty_[entry] = dirty;
  }
  const enc::Field psn_field_;
  TimedQueue<Fill> fills_;
  std::vector<uint32_t> psn_;      // next PSN per entry
  std::vector<uint8_t> dirty_;     // advanced since the entry's fill
  std::unordered_map<uint32_t, uint32_t> expected_psn_;   // per record (or entry)
  uint64_t fills_taken_ = 0, fill_stall_cycles_ = 0;
};

}  // namespace ubsim
