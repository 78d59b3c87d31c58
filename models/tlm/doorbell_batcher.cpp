#include "doorbell_batcher.h"

#include "request.h"

namespace ubsim {

DoorbellBatcher::DoorbellBatcher(sc_core::sc_module_name name, const Config& c)
    : StageComponent(name),
      per_doorbell_(c.count(key::sw_wr_per_doorbell)),
      in_submission_(c.count(key::host_cores), 0),
      posted_(c.count(key::host_cores)) {}

void DoorbellBatcher::accept(Transaction& t) {
  Request& r = as_request(t);
  const size_t core = r.core % posted_.size();
  t.now_times().start_fs = t.now_times().arrive_fs;   // the wait is the stage's time
  if (in_submission_[core] > 0) --in_submission_[core];
  posted_[core].push_back(&t);
  if (posted_[core].size() >= per_doorbell_ || in_submission_[core] == 0) ring(core);
}

void DoorbellBatcher::ring(size_t core) {
  auto& batch = posted_[core];
  Request& leader = as_request(*batch.back());
  leader.descriptors = static_cast<uint32_t>(batch.size());
  Request* chain = nullptr;   // the others, first posted first
  for (size_t i = batch.size() - 1; i-- > 0;) {
    Request& r = as_request(*batch[i]);
    r.now_times().depart_fs = now_fs();
    r.next_rider = chain;
    chain = &r;
  }
  leader.next_rider = chain;
  ++doorbells_;
  requests_ += batch.size();
  batch.clear();
  forward(leader);
}

void DoorbellBatcher::collect_stats(StatsTable& table) const {
  table.add(name(), "doorbells", static_cast<double>(doorbells_), "writes", "doorbell writes rung");
  table.add(name(), "requests_per_doorbell", doorbells_ ? static_cast<double>(requests_) / static_cast<double>(doorbells_) : 0,
            "requests", "work requests posted per doorbell, mean");
}

}  // namespace ubsim
