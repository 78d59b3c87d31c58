// LinkStage: a node's PCIe link or on-chip bus as the stages of a path.
// PCIe: doorbells, descriptor fetches, payload DMA reads and writes,
// completion records, context refills and write-backs all go through one
// PcieLink. The on-chip bus is the same kind of link (LinkParams::bus): the
// controller's reads of memory (payload, context records) are non-posted
// and hold one of bus.outstanding IDs until their data is back, its writes
// to memory are posted, and the CPU's submit is a write into the controller.
// A stage ends when its transaction does: a read when its data is back, a
// write when it has been consumed, a doorbell / submit when it has been
// taken. The time beyond the unloaded 64 B transaction (the stage's
// configured latency) is the link's: more data for more bytes, queueing
// behind other transfers, waiting for a tag, ID or credit; a stage that
// goes on before that (nic.cqe_after = ordered) is itemized as time saved.
//
// Settled (StageComponent::settle_touched), the link runs the callbacks due
// before the kernel's next activity ahead (PcieLink::run_ahead): a stage
// that ends then goes on annotated with its time where its next component
// accepts ahead, else from this component's own process at that time.
#pragma once
#include "component.h"
#include "config.h"
#include "pcie_link.h"
#include "ring_queue.h"
#include "wake_event.h"

namespace ubsim {

class LinkStage : public StageComponent {
 public:
  LinkStage(sc_core::sc_module_name name, const Config& c, const LinkParams& p);
  void collect_stats(StatsTable& table) const override;
  PcieLink& link() { return link_; }
  void holdings(std::vector<Holding>& out) const override;

 protected:
  [[gnu::flatten]] void accept(Transaction& t) override;   // (flattened, with done: per hop)

 private:
  enum class Use { Read, Write, Into };   // a read of memory, a posted write to it, a write into the device
  Use use_of(const Transaction& t) const;
  uint32_t bytes_of(const Transaction& t) const;
  [[gnu::flatten]] void done(Transaction& t, uint64_t base_fs);
  void settle() override { link_.run_ahead(); }
  void arm_deferred() override { link_.arm_deferred(); }
  void deliver_late();   // (the process: stages that ended ahead, at their times)

  PcieLink link_;
  const uint64_t mtu_;
  const LinkParams params_;
  // nic.cqe_after = ordered: a posted write that the route follows with
  // another posted write here (the payload before the completion record)
  // goes on once it is queued on the link; posted ordering makes the next
  // one visible after it (PCIe only).
  const bool ordered_;
  uint64_t next_addr_ = 0;
  RingQueue<std::pair<uint64_t, Transaction*>> late_;   // (time order)
  WakeEvent late_event_;
};

}  // namespace ubsim
