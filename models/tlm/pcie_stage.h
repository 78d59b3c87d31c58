// PcieStage: a node's PCIe link as the stages of a path (doorbells,
// descriptor fetches, payload DMA reads and writes, completion records,
// context refills and write-backs all go through one PcieLink). A stage
// ends when its transaction does: a read when its data is back at the
// device, a write when the host has consumed it, a doorbell when the
// device has taken it. The time beyond the unloaded 64 B transaction (the
// stage's configured latency) is the link's: more TLPs for more bytes,
// queueing behind other TLPs, waiting for a tag or credit; a stage that
// goes on before that (nic.cqe_after = ordered) is itemized as time saved.
#pragma once
#include "component.h"
#include "config.h"
#include "pcie_link.h"

namespace ubsim {

class PcieStage : public StageComponent {
 public:
  PcieStage(sc_core::sc_module_name name, const Config& c);
  void collect_stats(StatsTable& table) const override;
  PcieLink& link() { return link_; }

 protected:
  void accept(Transaction& t) override;

 private:
  uint32_t bytes_of(const Transaction& t) const;
  void done(Transaction& t);

  PcieLink link_;
  const uint64_t mtu_;
  uint64_t read_fs_, write_fs_, doorbell_fs_;
  // nic.cqe_after = ordered: a posted write that the route follows with
  // another posted write here (the payload before the completion record)
  // goes on once it is queued on the link; posted ordering makes the next
  // one visible after it.
  const bool ordered_;
  uint64_t next_addr_ = 0;
};

}  // namespace ubsim
