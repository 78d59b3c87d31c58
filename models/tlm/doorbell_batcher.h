// DoorbellBatcher: node A's software posting work requests to the PCIe NIC
// with one doorbell per batch (sw.wr_per_doorbell = k > 1). A request that
// has run its submit stages (per request, on its core) waits here; the
// core rings the doorbell when it has posted k, or when it has nothing more
// in submission. The batch's last request (the leader) then takes the
// doorbell write and one descriptor fetch of all the batch's descriptors
// for everyone, carrying the others, which go on after the fetch.
#pragma once
#include <vector>

#include "component.h"
#include "config.h"

namespace ubsim {

class DoorbellBatcher : public StageComponent {
 public:
  DoorbellBatcher(sc_core::sc_module_name name, const Config& c);
  void collect_stats(StatsTable& table) const override;
  // The application submitted a request of `core` (it is in its submit stages).
  void note_submitted(uint32_t core) { ++in_submission_.at(core % in_submission_.size()); }

 protected:
  void accept(Transaction& t) override;

 private:
  void ring(size_t core);

  const uint64_t per_doorbell_;
  std::vector<uint32_t> in_submission_;
  std::vector<std::vector<Transaction*>> posted_;   // per core, in posting order
  uint64_t doorbells_ = 0, requests_ = 0;
};

}  // namespace ubsim
