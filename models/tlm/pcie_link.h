// PcieLink: a PCIe link between a device (the NIC) and the host as
// transactions (spec §12, textbook §7.3.4). Each direction is a serial
// link at pcie.bandwidth (after encoding) that carries TLPs in order: a
// TLP's payload plus pcie.tlp_overhead bytes (header, framing, sequence
// number, LCRC, padding), then pcie.propagation to the far end.
//
// - A DMA write is posted: TLPs of at most pcie.max_payload bytes, no tag,
//   no completion; each holds one of the host's posted credits
//   (pcie.p_credits) from its send until the host has consumed it and the
//   credit update is back. Posted TLPs stay in order (one FIFO).
// - A DMA read is non-posted: requests of at most pcie.max_read_request
//   bytes, each holding one of the device's tags (pcie.tags) and one of the
//   host's non-posted credits (pcie.np_credits) until all its completion
//   data has returned (as the textbook's figures assume). The host answers
//   with completions split at read-completion-boundary (pcie.rcb) multiples,
//   each at most pcie.max_payload, matched to the request by its tag and
//   reassembled in order.
// - A request finding no tag or credit waits, first come first served
//   (counted). Credits are asserted never to go negative.
//
// Calibration (derived, not measured): the host's read latency is chosen so
// that an unloaded 64 B read round trip is pcie.dma_read, its write
// processing so that a 64 B posted write is visible after pcie.dma_write,
// and the device's so that a doorbell is taken after pcie.doorbell.
#pragma once
#include <array>
#include <cstdint>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "inline_callback.h"
#include "link_params.h"
#include "ring_queue.h"
#include "sim_time.h"
#include "slot_table.h"
#include "stats.h"
#include "wait_for.h"

namespace ubsim {

class Config;
class StageComponent;

class PcieLink : public sc_core::sc_module {
 public:
  // A caller's callback: a lambda of at most three words (InlineCallback),
  // so handing one in and calling it neither allocates nor calls a manager.
  using Callback = InlineCallback;
  PcieLink(sc_core::sc_module_name name, const Config& c);
  PcieLink(sc_core::sc_module_name name, const LinkParams& p);

  // The device reads `bytes` of host memory at `addr`; `done` when all its
  // completion data has arrived at the device.
  void dma_read(uint64_t addr, uint32_t bytes, Callback done);
  // The device writes `bytes` to host memory at `addr` (posted); `visible`
  // when the host has consumed its last TLP.
  void dma_write(uint64_t addr, uint32_t bytes, Callback visible);
  // The same, also calling `sent` when its last TLP has its credit and is
  // queued on the link: anything posted after it is consumed after it.
  void dma_write(uint64_t addr, uint32_t bytes, Callback visible, Callback sent);
  // The host writes `bytes` into the device (an MMIO doorbell, posted, on
  // the host -> device direction behind the completions it sends);
  // `visible` when the device has taken it.
  void host_write(uint32_t bytes, Callback visible);
  // The host reads `bytes` of device memory (non-posted, the host's own
  // tags, pcie.tags of them): its request goes down, the device's
  // completions go up; `done` when the data is back at the host.
  void host_read(uint32_t bytes, Callback done);
  static constexpr uint32_t kDoorbellBytes = kPcieDoorbellBytes;
  uint32_t doorbell_bytes() const { return doorbell_bytes_; }

  // The link's calls from here to the matching leave_ahead() act as of
  // at_fs, later than now (a hand-off accepted ahead: LinkStage): nothing
  // else is pending in the kernel before at_fs, and none of them calls back
  // before it (every callback runs from the link's own event list).
  // (They nest: a hand-off ahead from a callback the link runs ahead,
  // run_ahead, to the link's own stage.)
  uint64_t enter_ahead(uint64_t at_fs) { return std::exchange(ahead_fs_, at_fs); }
  void leave_ahead(uint64_t before) { ahead_fs_ = before; }
  // The time the link acts at: now, or a hand-off's time accepted ahead, or
  // the time of a callback run ahead (run_ahead).
  uint64_t now() const { return ahead_fs_ ? ahead_fs_ : now_fs(); }
  // Settled by `owner` (StageComponent::settle_touched), which every
  // callback of this link acts as of now() for (LinkStage): the link asks
  // for it whenever it schedules a callback.
  void settle_with(StageComponent* owner) { owner_ = owner; }
  // Runs, ahead, the callbacks due before the kernel's next activity: the
  // run of run_due they would have had at their times, with nothing else in
  // between (called from the owner's settle only).
  [[gnu::flatten]] void run_ahead();   // (flattened: its callbacks' steps inlined, as run_due)
  // Its next callback's time while its event is not armed for it (in a
  // settling process: StageComponent::deferred_fs_), and arming it.
  uint64_t deferred_fs() const;
  void arm_deferred();

  void collect_stats(StatsTable& table) const;
  // The tags and credits its transfers hold, and what waits for one.
  void holdings(std::vector<Holding>& out) const;
  // Derived calibration (ns): the host's read latency and write processing.
  double host_read_ns() const { return static_cast<double>(host_read_fs_) / 1e6; }
  double host_write_ns() const { return static_cast<double>(host_write_fs_) / 1e6; }
  uint64_t tag_waits() const { return tag_waits_; }
  uint64_t credit_waits() const { return credit_waits_; }
  uint32_t tags_in_use_max() const { return static_cast<uint32_t>(tags_used_.max()); }
  uint32_t np_credits_in_use_max() const { return static_cast<uint32_t>(np_used_.max()); }

  double device_write_ns() const { return static_cast<double>(device_write_fs_) / 1e6; }
  // Checks the keys this link reads against each other (ConfigError, exit 2):
  // the calibrated host latencies must not be negative.

 private:
  void keep_deferred();   // the owner's copy of deferred_fs()
  // TLP classes a direction holds in its own queue: requests and posted
  // writes (in order with each other), and completions.
  enum TlpClass { kRequestOrPosted = 0, kCompletion = 1 };
  struct Tlp {
    uint64_t seq = 0;      // enqueue order
    uint32_t bytes = 0;    // on the lanes: payload + overhead
    InlineCallback arrived;  // at the far end, after_fs after the TLP's arrival
    uint64_t after_fs = 0;
  };
  // One direction of the link. The host -> device direction is sent in
  // arrival order (the root port forwards what it gets); the device -> host
  // direction alternates between its posted / request queue and its
  // completion queue (the device's DMA engine and completer share its
  // internal path round-robin).
  // Its lanes are free from free_at_fs on. The next TLP starts then only
  // if one waits (restart_scheduled): a callback at the end of every TLP's
  // serialization would cost a kernel event per TLP on an idle link. The
  // restart keeps the place in the event list (restart_seq) that a
  // callback scheduled when the TLP started would have had.
  struct Direction {
    bool round_robin = false;
    RingQueue<Tlp> q[2];
    bool restart_scheduled = false;
    int last = kCompletion;
    uint64_t free_at_fs = 0, restart_seq = 0;
    uint64_t busy_fs = 0, tlps = 0, bytes = 0;
  };
  struct ReadOp {
    uint32_t requests_left = 0;
    Callback done;
  };
  struct ReadRequest {   // one MRd: its tag's state
    uint32_t op = 0;      // its read operation's slot (read_ops_)
    uint64_t addr = 0;
    uint32_t bytes = 0, received = 0;
    bool wait_counted = false;   // waiting for a tag or credit: counted once
  };
  struct PostedTlp {
    uint32_t bytes = 0;
    Callback consumed;   // the host consumed it (null: not the write's last)
    Callback sent;       // it is queued on the link (null: none)
  };
  // A scheduled callback: the heap holds (time, order, slot), the callbacks
  // stay in their slots (callbacks_, reused through free_slots_), so the
  // heap moves three words per step, not a std::function.
  struct Due {
    uint64_t at_fs, seq;
    uint32_t slot;
    bool operator>(const Due& o) const { return at_fs != o.at_fs ? at_fs > o.at_fs : seq > o.seq; }
  };

  uint64_t serialize_fs(uint32_t tlp_bytes) const;
  uint64_t ahead_fs_ = 0;
  StageComponent* owner_ = nullptr;
  // Queues a TLP of `payload` bytes on a direction; `then` runs at the far
  // end `after_fs` after the TLP arrived (the far end's own latency before it
  // acts: nothing happens at the arrival itself, so it is one step, not two).
  void send(Direction& d, TlpClass c, uint32_t payload, InlineCallback then, uint64_t after_fs = 0);
  void start_next(Direction& d);
  void start(Direction& d, int c, const Tlp& tlp, uint64_t t);
  void restart_at_free(Direction& d);
  // (the link's own steps: InlineCallback, a caller's callback held in a slot)
  void at(uint64_t t_fs, InlineCallback fn) { at(t_fs, seq_++, fn); }
  // At t_fs, in the order of `seq` among the callbacks of that time.
  void at(uint64_t t_fs, uint64_t seq, InlineCallback fn);
  [[gnu::flatten]] void run_due();   // (flattened: its callbacks' steps inlined)
  void issue_reads();
  void issue_posted();
  // Values the link's own (small) callbacks refer to by slot: a caller's
  // callback, a DMA read's operation, a host read's state.
  static constexpr uint32_t kNoneHeld = UINT32_MAX;
  SlotTable<Callback> held_;
  SlotTable<ReadOp> read_ops_;
  void complete(uint32_t tag);
  void on_completion(uint32_t tag, uint32_t offset, uint32_t bytes);

  const double bytes_per_s_;
  static constexpr uint32_t kSerMemo = 1024;   // TLP sizes below it: serialize_fs worked out once each
  mutable std::array<uint64_t, kSerMemo> ser_memo_{};   // (0: not yet)
  const uint32_t overhead_, max_payload_, max_read_, rcb_, doorbell_bytes_;
  const uint64_t prop_fs_;
  uint64_t host_read_fs_ = 0, host_write_fs_ = 0, device_write_fs_ = 0;
  Direction up_, down_;   // device -> host, host -> device
  std::vector<ReadRequest> tags_;
  std::vector<uint32_t> free_tags_;
  uint32_t np_credits_, p_credits_;
  uint32_t device_p_credits_, host_tags_;   // for the host's writes and reads into the device
  // Posted-credit updates on their way back to the sender (their arrival
  // times, in order). A credit counts from its time on; nothing has to act
  // at that time unless a write waits for it, so a return is a step of its
  // own only then (armed), and otherwise taken back the next time the
  // sender looks at its credits, at its own time.
  struct CreditsInFlight {
    RingQueue<uint64_t> at;
    bool armed = false;
    size_t due_by(uint64_t now) const {
      size_t n = 0;
      while (n < at.size() && at[n] <= now) ++n;
      return n;
    }
    // The returns due by now, each handed to back(its time), in order.
    template <class Back>
    void take_back(uint64_t now, Back&& back) {
      for (; !at.empty() && at.front() <= now; at.pop_front()) back(at.front());
    }
  };
  CreditsInFlight p_returning_, device_p_returning_;
  // A step at the first return (posted: the host's credits, else the
  // device's) when a write waits for a credit.
  void arm_return(bool posted);
  RingQueue<std::pair<uint32_t, Callback>> host_p_waiting_, host_np_waiting_;
  void issue_host_writes();
  void issue_host_reads();
  RingQueue<ReadRequest> np_waiting_;
  RingQueue<PostedTlp> p_waiting_;
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due_;
  SlotTable<InlineCallback> callbacks_;   // the event list's (due_ holds their slots)
  struct HostRead {   // a host read of device memory in flight
    uint32_t left = 0;
    Callback done;
  };
  SlotTable<HostRead> host_reads_in_flight_;
  uint64_t seq_ = 0;
  bool running_due_ = false;   // inside run_due()
  sc_core::sc_event wake_;
  bool wake_deferred_ = false;   // the earliest callback's notification left to the owner's settle
  OccupancyTracker tags_used_, np_used_, p_used_;
  OccupancyTracker waiting_;   // TLPs queued for the lanes and requests waiting for a tag or credit
  uint64_t tag_waits_ = 0, credit_waits_ = 0, p_credit_waits_ = 0, reads_ = 0, writes_ = 0, completions_ = 0;
  uint64_t host_writes_ = 0, host_reads_ = 0, seq_tlp_ = 0;
};

}  // namespace ubsim
