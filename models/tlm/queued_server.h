// QueuedServer: a component whose resource serves one transaction at a time
// for an occupancy (or K identical resources, each with its own queue: the
// cores of a CPU; resource_of() says which one a transaction uses), with a per-operation latency (>= occupancy for
// pipelined resources such as a PCIe link or the bus; = latency for a CPU
// core). Transactions that find the resource busy wait in the component's
// queue, first come first served.
//
// Ties are broken by a rule, not by the kernel's process order: the
// arrivals and the release of one instant are all collected before the
// resource picks (serving runs one delta later), and among arrivals of the
// same instant the lower (kind, id) goes first. So a figure does not move
// when an unrelated process wakes in another order (e.g. a faster RTL
// bridge).
//
// Two processes: serve (one delta after an arrival or a release with
// requests waiting) and tick (at the next departure, or the next release
// that has requests waiting; departures kept in a heap). An arrival that
// finds its resource idle with nothing waiting starts at once instead of a
// delta later (nothing is handed on before its departure, which is later):
// a provisional start, taken back if another arrival for the resource comes
// in the same instant, which then goes to serve with it under the rule
// above. So a request served with nothing behind it costs one process run
// (tick). Not with on_busy set (its intervals are reported as they start).
//
// Settled (StageComponent::settle_touched) with nothing waiting, its
// departures that come before any other activity in the kernel go on
// ahead, annotated with their times, to a next component that accepts
// ahead: the run of tick they would have had at that time, with nothing
// else in between. A request served with nothing around it then costs no
// process run of its own.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "component.h"
#include "wake_event.h"

namespace ubsim {

struct ServiceTime {
  uint64_t latency_fs;    // arrival at service start -> departure
  uint64_t occupancy_fs;  // how long the resource stays busy
  uint64_t serialize_fs;  // part of latency that is serialization (itemized)
  uint64_t transfer_fs;   // part of latency that moves bytes beyond the base access (itemized)
};

class QueuedServer : public StageComponent {
 public:
  QueuedServer(sc_core::sc_module_name name, std::string resource_description, size_t resources = 1);
  void collect_stats(StatsTable& table) const override;
  // Called with every interval the resource is occupied (e.g. a timeline of
  // a link's busy time); null: nothing is recorded.
  std::function<void(uint64_t start_fs, uint64_t end_fs)> on_busy;

 protected:
  virtual ServiceTime service_time(const Transaction& t) const = 0;
  virtual size_t resource_of(const Transaction& /*t*/) const { return 0; }   // < resources
  // Among transactions waiting for the resource, a lower class goes first
  // (e.g. a DRAM serves reads before posted writes); 0 = all alike.
  virtual uint8_t class_of(const Transaction& /*t*/) const { return 0; }
  // (accept, serve and tick flattened: hot per hop, docs/performance.md)
  [[gnu::flatten]] void accept(Transaction& t) override;

 private:
  struct Waiting {
    uint64_t arrive_fs;
    Transaction* t;
    uint8_t cls;
    bool operator>(const Waiting& o) const;   // later in service order
  };
  [[gnu::flatten]] void serve();
  [[gnu::flatten]] void tick();
  uint64_t next_tick_fs() const;   // (UINT64_MAX: none)
  void arm_tick();
  [[gnu::flatten]] void settle() override;   // (flattened, as accept)
  void arm_deferred() override;

  std::string resource_description_;
  struct Resource {
    std::vector<Waiting> waiting;   // a min-heap in service order
    uint64_t free_at_fs = 0;        // busy until then
    uint64_t busy_fs = 0;
    // A start at an arrival (see above), until its instant is over: what
    // taking it back restores.
    struct Provisional {
      Waiting w{};
      uint64_t free_at_before = 0, busy_before = 0, seq = 0;
    };
    bool provisional = false;
    Provisional prov;
  };
  std::vector<Resource> resources_;
  const size_t resource_count_;   // resources_.size(), kept (a division by the element's size)
  size_t waiting_ = 0;   // transactions waiting, over every resource (0: no resource need be looked at)
  // The resource starts serving w now, for st.
  void start(Resource& res, const Waiting& w, uint64_t now, const ServiceTime& st);
  // Takes back res's provisional start (an arrival for it in the same instant).
  void take_back(Resource& res);
  struct Departure {
    uint64_t at_fs, seq;
    Transaction* t;
    bool operator>(const Departure& o) const { return at_fs != o.at_fs ? at_fs > o.at_fs : seq > o.seq; }
  };
  std::vector<Departure> departures_;   // a min-heap by (time, start order)
  uint64_t departure_seq_ = 0;
  sc_core::sc_event serve_event_;
  WakeEvent tick_event_;
  // (deferred_fs_: the tick a start in a settling process left to the
  // settle, what arm_tick() would have armed then; StageComponent)
  OccupancyTracker queue_;
  uint64_t served_ = 0;
  uint64_t waited_ = 0;
};

}  // namespace ubsim
