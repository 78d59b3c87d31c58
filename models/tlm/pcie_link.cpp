#include "pcie_link.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "component.h"   // (StageComponent::settle_touched)
#include "config.h"
#include "transaction.h"

namespace ubsim {

namespace {
uint64_t ser_fs(double bytes_per_s, uint32_t tlp_bytes) {
  return static_cast<uint64_t>(std::llround(static_cast<double>(tlp_bytes) / bytes_per_s * 1e15));
}
}  // namespace


PcieLink::PcieLink(sc_core::sc_module_name name, const Config& c) : PcieLink(name, LinkParams::pcie(c)) {}

PcieLink::PcieLink(sc_core::sc_module_name name, const LinkParams& p)
    : sc_module(name),
      bytes_per_s_(p.bytes_per_s),
      overhead_(p.overhead),
      max_payload_(p.max_payload),
      max_read_(p.max_read),
      rcb_(p.rcb),
      doorbell_bytes_(p.doorbell_bytes),
      prop_fs_(p.prop_fs),
      tags_(p.tags),
      np_credits_(static_cast<uint32_t>(p.np_credits)),
      p_credits_(static_cast<uint32_t>(p.p_credits)),
      device_p_credits_(static_cast<uint32_t>(p.p_credits)),
      host_tags_(static_cast<uint32_t>(p.tags)) {
  up_.round_robin = true;
  host_read_fs_ = p.read_fs - 2 * prop_fs_ - serialize_fs(overhead_) - serialize_fs(64 + overhead_);
  host_write_fs_ = p.write_fs - prop_fs_ - serialize_fs(64 + overhead_);
  device_write_fs_ = p.doorbell_fs - prop_fs_ - serialize_fs(doorbell_bytes_ + overhead_);
  for (uint32_t t = static_cast<uint32_t>(tags_.size()); t-- > 0;) free_tags_.push_back(t);
  // a completion's callback packs its tag, offset and length into one word
  // (the keys' ranges: at most 4096 tags, 4096 B requests and payloads)
  sc_assert(tags_.size() <= 0xffff && max_read_ < (1u << 24) && max_payload_ < (1u << 24));
  SC_HAS_PROCESS(PcieLink);
  SC_METHOD(run_due);
  sensitive << wake_;
  dont_initialize();
}

// (a TLP's size recurs: each size's time is worked out once, the same
// rounding of the same division)
uint64_t PcieLink::serialize_fs(uint32_t tlp_bytes) const {
  if (tlp_bytes < kSerMemo) {
    uint64_t& t = ser_memo_[tlp_bytes];
    if (t == 0) t = ser_fs(bytes_per_s_, tlp_bytes);
    return t;
  }
  return ser_fs(bytes_per_s_, tlp_bytes);
}

void PcieLink::send(Direction& d, TlpClass c, uint32_t payload, InlineCallback then, uint64_t after_fs) {
  const uint64_t t = now();
  Tlp tlp{seq_tlp_++, payload + overhead_, then, after_fs};
  if (!d.restart_scheduled && t >= d.free_at_fs && d.q[0].empty() && d.q[1].empty()) {
    // idle lanes and nothing queued: it is the TLP start_next would take, at
    // once (it enters and leaves the queue at this instant)
    waiting_.pass(t);
    start(d, c, tlp, t);
    return;
  }
  d.q[c].push_back(tlp);
  waiting_.change(t, +1);
  if (d.restart_scheduled) return;   // the restart takes the queues in their order
  if (t >= d.free_at_fs) start_next(d);
  else restart_at_free(d);
}

// The lanes' next TLP when they free up (a TLP waits for them).
void PcieLink::restart_at_free(Direction& d) {
  d.restart_scheduled = true;
  at(d.free_at_fs, d.restart_seq, [this, &d] {
    d.restart_scheduled = false;
    start_next(d);
  });
}

// Puts the next TLP on the lanes: the oldest (host -> device), or the other
// queue than last time when both wait (device -> host).
void PcieLink::start_next(Direction& d) {
  if (d.q[0].empty() && d.q[1].empty()) return;
  int c;
  if (d.q[0].empty()) c = 1;
  else if (d.q[1].empty()) c = 0;
  else if (d.round_robin) c = 1 - d.last;
  else c = d.q[0].front().seq < d.q[1].front().seq ? 0 : 1;
  const Tlp tlp = d.q[c].front();
  d.q[c].pop_front();
  const uint64_t t = now();
  waiting_.change(t, -1);
  start(d, c, tlp, t);
}

// The TLP of queue class c on the lanes from t on (they are free).
void PcieLink::start(Direction& d, int c, const Tlp& tlp, uint64_t t) {
  d.last = c;
  const uint64_t ser = serialize_fs(tlp.bytes);
  d.busy_fs += ser;
  ++d.tlps;
  d.bytes += tlp.bytes;
  const uint64_t end = t + ser;
  at(end + prop_fs_ + tlp.after_fs, tlp.arrived);
  d.free_at_fs = end;
  d.restart_seq = seq_++;
  if (!d.q[0].empty() || !d.q[1].empty()) restart_at_free(d);
}

// A small event list: callbacks at their times, in (time, order of
// scheduling) order, one kernel event for the earliest.
void PcieLink::at(uint64_t t_fs, uint64_t seq, InlineCallback fn) {
  const bool earliest = due_.empty() || t_fs < due_.top().at_fs;
  due_.push({t_fs, seq, callbacks_.put(fn)});
  if (owner_) owner_->touch();
  // (inside run_due() the loop takes what is due now and re-arms the event
  // for the rest when it ends: a notification here would be a second
  // activation at this instant that finds nothing to do)
  // (in a settling process the owner's settle runs it ahead or arms it:
  // StageComponent::settling_process)
  if (earliest && !running_due_) {
    if (owner_ && StageComponent::settling_deferred()) wake_deferred_ = true;
    else wake_.notify(delay_fs(t_fs - now_fs()));
  }
  if (wake_deferred_) keep_deferred();   // (otherwise none, as before)
}

uint64_t PcieLink::deferred_fs() const { return wake_deferred_ && !due_.empty() ? due_.top().at_fs : UINT64_MAX; }

// The owner keeps it as a field (StageComponent::deferred_fs_): set after
// every change of the event list or of wake_deferred_.
void PcieLink::keep_deferred() {
  if (owner_) owner_->keep_deferred(deferred_fs());
}

void PcieLink::arm_deferred() {
  const bool deferred = std::exchange(wake_deferred_, false);
  keep_deferred();
  if (!deferred || due_.empty()) return;
  wake_.notify(delay_fs(due_.top().at_fs - now_fs()));
}

void PcieLink::run_due() {
  StageComponent::settling_process();   // (it ends with settle_touched())
  const uint64_t now = now_fs();
  running_due_ = true;
  while (!due_.empty() && due_.top().at_fs <= now) {
    // moved out of its slot before the call (which may schedule more)
    const uint32_t slot = due_.top().slot;
    due_.pop();
    InlineCallback fn = callbacks_.take(slot);
    fn();
  }
  running_due_ = false;
  wake_deferred_ = false;   // (armed here)
  keep_deferred();
  if (!due_.empty()) wake_.notify(delay_fs(due_.top().at_fs - now));
  StageComponent::settle_touched();   // (its last statement: component.h)
}

void PcieLink::run_ahead() {
  if (ahead_fs_ || running_due_) {
    arm_deferred();
    return;
  }
  const uint64_t now = now_fs();
  const bool deferred = std::exchange(wake_deferred_, false);
  keep_deferred();
  bool moved = false;
  while (!due_.empty()) {
    const uint64_t at = due_.top().at_fs;
    if (at <= now) break;   // (due now: run_due's)
    if (!moved) wake_.cancel();   // (its own: the question is about everything else)
    moved = true;
    if (at >= StageComponent::next_activity_fs(owner_)) break;
    const uint32_t slot = due_.top().slot;
    due_.pop();
    InlineCallback fn = callbacks_.take(slot);
    ahead_fs_ = at;
    running_due_ = true;   // (what it schedules is looked at by this loop)
    fn();
    running_due_ = false;
    ahead_fs_ = 0;
  }
  if ((moved || deferred) && !due_.empty()) wake_.notify(delay_fs(due_.top().at_fs - now));
}

void PcieLink::dma_read(uint64_t addr, uint32_t bytes, Callback done) {
  ++reads_;
  const uint32_t op = read_ops_.put(ReadOp{0, std::move(done)});
  // requests of at most max_read_request bytes, split at its multiples
  for (uint64_t pos = addr, end = addr + bytes; pos < end;) {
    const uint64_t next = std::min<uint64_t>(end, (pos / max_read_ + 1) * max_read_);
    np_waiting_.push_back({op, pos, static_cast<uint32_t>(next - pos), 0, false});
    waiting_.change(now(), +1);
    ++read_ops_[op].requests_left;
    pos = next;
  }
  issue_reads();
}

void PcieLink::issue_reads() {
  while (!np_waiting_.empty()) {
    if (free_tags_.empty() || np_credits_ == 0) {
      ReadRequest& head = np_waiting_.front();
      if (!head.wait_counted) {   // count each request once, by what it waits for first
        head.wait_counted = true;
        ++(free_tags_.empty() ? tag_waits_ : credit_waits_);
      }
      return;
    }
    ReadRequest rq = np_waiting_.front();
    np_waiting_.pop_front();
    waiting_.change(now(), -1);
    const uint32_t tag = free_tags_.back();
    free_tags_.pop_back();
    sc_assert(np_credits_ > 0);   // credits never go negative
    --np_credits_;
    tags_used_.change(now(), +1);
    np_used_.change(now(), +1);
    tags_[tag] = rq;
    // the request TLP up; the host reads memory; completions come down
    send(up_, kRequestOrPosted, 0, [this, tag] {
      const ReadRequest& r = tags_[tag];
      const uint64_t end = r.addr + r.bytes;
      for (uint64_t pos = r.addr; pos < end;) {
        // the largest completion that ends on an RCB boundary (or the end)
        uint64_t next = end;
        if (pos + max_payload_ < end) next = (pos + max_payload_) / rcb_ * rcb_;
        const auto offset = static_cast<uint32_t>(pos - r.addr), len = static_cast<uint32_t>(next - pos);
        // (tag, offset and length in one word: the callback stays small)
        const uint64_t part = static_cast<uint64_t>(tag) << 48 | static_cast<uint64_t>(offset) << 24 | len;
        send(down_, kCompletion, len, [this, part] {
          on_completion(static_cast<uint32_t>(part >> 48), static_cast<uint32_t>(part >> 24) & 0xffffffu,
                        static_cast<uint32_t>(part) & 0xffffffu);
        });
        pos = next;
      }
    }, host_read_fs_);
  }
}

void PcieLink::on_completion(uint32_t tag, uint32_t offset, uint32_t bytes) {
  ReadRequest& r = tags_[tag];
  ++completions_;
  if (offset != r.received)
    throw std::logic_error(fmt::format("PCIe tag {}: completion at offset {} while {} bytes arrived", tag, offset,
                                       r.received));
  r.received += bytes;
  if (r.received == r.bytes) complete(tag);
}

// All of a request's data is back: its tag and non-posted credit are free.
void PcieLink::complete(uint32_t tag) {
  const uint32_t op = tags_[tag].op;
  tags_[tag] = ReadRequest{};
  free_tags_.push_back(tag);
  ++np_credits_;
  tags_used_.change(now(), -1);
  np_used_.change(now(), -1);
  sc_assert(free_tags_.size() <= tags_.size());
  if (--read_ops_[op].requests_left == 0) read_ops_.take(op).done();
  issue_reads();
}

void PcieLink::dma_write(uint64_t addr, uint32_t bytes, Callback visible) {
  dma_write(addr, bytes, std::move(visible), Callback{});
}

void PcieLink::dma_write(uint64_t addr, uint32_t bytes, Callback visible, Callback sent) {
  ++writes_;
  for (uint64_t pos = addr, end = addr + bytes; pos < end;) {
    const uint64_t next = std::min<uint64_t>(end, (pos / max_payload_ + 1) * max_payload_);
    const bool last = next == end;
    p_waiting_.push_back({static_cast<uint32_t>(next - pos), last ? std::move(visible) : Callback{},
                          last ? std::move(sent) : Callback{}});
    pos = next;
  }
  issue_posted();
}

void PcieLink::arm_return(bool posted) {
  CreditsInFlight& c = posted ? p_returning_ : device_p_returning_;
  if (c.armed || c.at.empty()) return;
  c.armed = true;
  at(c.at.front(), [this, posted] {
    if (posted) {
      p_returning_.armed = false;
      issue_posted();
    } else {
      device_p_returning_.armed = false;
      issue_host_writes();
    }
  });
}

void PcieLink::issue_posted() {
  p_returning_.take_back(now(), [this](uint64_t at_fs) {
    ++p_credits_;
    p_used_.change(at_fs, -1);
  });
  while (!p_waiting_.empty()) {
    if (p_credits_ == 0) {
      ++p_credit_waits_;
      arm_return(true);
      return;
    }
    PostedTlp tlp = std::move(p_waiting_.front());
    p_waiting_.pop_front();
    sc_assert(p_credits_ > 0);
    --p_credits_;
    p_used_.change(now(), +1);
    Callback sent = std::move(tlp.sent);
    const uint32_t k = tlp.consumed ? held_.put(std::move(tlp.consumed)) : kNoneHeld;
    send(up_, kRequestOrPosted, tlp.bytes, [this, k] {
      if (k != kNoneHeld) held_.take(k)();
      // the credit update travels back to the device
      p_returning_.at.push_back(now() + prop_fs_);
      if (!p_waiting_.empty()) arm_return(true);
    }, host_write_fs_);
    if (sent) sent();
  }
}

void PcieLink::host_write(uint32_t bytes, Callback visible) {
  ++host_writes_;
  host_p_waiting_.emplace_back(bytes, std::move(visible));
  issue_host_writes();
}

// The host's posted writes into the device, each holding one of the
// device's posted credits until the device consumed it and the update is back.
void PcieLink::issue_host_writes() {
  device_p_returning_.take_back(now(), [this](uint64_t) { ++device_p_credits_; });
  while (!host_p_waiting_.empty() && device_p_credits_ > 0) {
    auto [bytes, visible] = std::move(host_p_waiting_.front());
    host_p_waiting_.pop_front();
    sc_assert(device_p_credits_ > 0);
    --device_p_credits_;
    const uint32_t k = held_.put(std::move(visible));
    send(down_, kRequestOrPosted, bytes, [this, k] {
      held_.take(k)();
      device_p_returning_.at.push_back(now() + prop_fs_);
      if (!host_p_waiting_.empty()) arm_return(false);
    }, device_write_fs_);
  }
  if (!host_p_waiting_.empty()) arm_return(false);
}

void PcieLink::host_read(uint32_t bytes, Callback done) {
  ++host_reads_;
  host_np_waiting_.emplace_back(bytes, std::move(done));
  issue_host_reads();
}

// The host's reads of device memory: a host tag each until the data is
// back; the device answers after the same latency the host's memory has,
// in completions of at most max_payload on the device -> host direction.
void PcieLink::issue_host_reads() {
  while (!host_np_waiting_.empty() && host_tags_ > 0) {
    auto [bytes, done] = std::move(host_np_waiting_.front());
    host_np_waiting_.pop_front();
    --host_tags_;
    const uint32_t h = host_reads_in_flight_.put(HostRead{bytes, std::move(done)});
    send(down_, kRequestOrPosted, 0, [this, bytes, h] {
      for (uint32_t pos = 0; pos < bytes;) {
        const uint32_t len = std::min(max_payload_, bytes - pos);
        send(up_, kCompletion, len, [this, len, h] {
          if ((host_reads_in_flight_[h].left -= len) > 0) return;
          ++host_tags_;
          host_reads_in_flight_.take(h).done();
          issue_host_reads();
        });
        pos += len;
      }
    }, host_read_fs_);
  }
}

void PcieLink::collect_stats(StatsTable& table) const {
  const uint64_t end = now_fs();
  const std::string n = name();
  table.add(n, "reads", static_cast<double>(reads_), "ops", "DMA reads (non-posted)");
  table.add(n, "writes", static_cast<double>(writes_), "ops", "DMA writes (posted)");
  table.add(n, "host_writes", static_cast<double>(host_writes_), "ops", "host writes into the device (doorbells)");
  table.add(n, "host_reads", static_cast<double>(host_reads_), "ops", "host reads of device memory");
  table.add(n, "completions", static_cast<double>(completions_), "TLPs", "completion TLPs with data received");
  table.add(n, "up_tlps", static_cast<double>(up_.tlps), "TLPs", "TLPs device -> host");
  table.add(n, "down_tlps", static_cast<double>(down_.tlps), "TLPs", "TLPs host -> device");
  table.add(n, "up_utilization", end ? static_cast<double>(up_.busy_fs) / static_cast<double>(end) : 0, "fraction",
            "share of time the device -> host direction was sending");
  table.add(n, "down_utilization", end ? static_cast<double>(down_.busy_fs) / static_cast<double>(end) : 0,
            "fraction", "share of time the host -> device direction was sending");
  table.add(n, "queue_mean", waiting_.mean(end), "TLPs",
            "time-weighted mean of TLPs waiting for the lanes and read requests waiting for a tag or credit");
  table.add(n, "queue_max", waiting_.max(), "TLPs", "most TLPs and read requests waiting at once");
  table.add(n, "tags_in_use_mean", tags_used_.mean(end), "tags", "time-weighted mean of tags held");
  table.add(n, "tags_in_use_max", tags_used_.max(), "tags", "most tags held at once");
  table.add(n, "np_credits_in_use_max", np_used_.max(), "credits", "most non-posted credits held at once");
  table.add(n, "p_credits_in_use_max", p_used_.max(), "credits", "most posted credits held at once");
  table.add(n, "tag_waits", static_cast<double>(tag_waits_), "requests", "read requests that waited for a tag");
  table.add(n, "credit_waits", static_cast<double>(credit_waits_), "requests",
            "read requests that had a tag but waited for a non-posted credit");
  table.add(n, "p_credit_waits", static_cast<double>(p_credit_waits_), "times",
            "posted TLPs found no posted credit");
}

void PcieLink::holdings(std::vector<Holding>& out) const {
  const size_t tags = tags_.size() - free_tags_.size();
  if (tags > 0)
    out.push_back({fmt::format("{} tag(s) and {} non-posted credit(s) (reads to host memory)", tags, np_used_.level()),
                   "their completions from host memory"});
  // (a credit whose update is back counts as returned, taken back or not)
  const int p_held = p_used_.level() - static_cast<int>(p_returning_.due_by(now_fs()));
  if (p_held > 0) out.push_back({fmt::format("{} posted credit(s)", p_held), "host memory to consume the writes"});
  if (!np_waiting_.empty())
    out.push_back({"", fmt::format("a tag or non-posted credit for {} read request(s) ({} of {} tags, {} credits free)",
                                   np_waiting_.size(), free_tags_.size(), tags_.size(), np_credits_)});
  if (!p_waiting_.empty())
    out.push_back({"", fmt::format("a posted credit for {} write TLP(s)", p_waiting_.size())});
}

}  // namespace ubsim
