// InitiatorApp: the application on node A that issues remote reads or writes
// along a path, and the sink where finished requests come back.
//
// All-to-all endpoints (workload.endpoints = N > 0): N local endpoints on A
// each reaching N remote ones on B. Request k goes from local i = k mod N to
// remote (i - k div N) mod N: every pair once per N*N requests, every
// endpoint once per N requests, and each endpoint's records are reused only
// after (almost) all other records were touched: the order that keeps every
// context live, so a cache one entry short misses every time.
//
// Request slots: a request takes one of node A's slots (slots.count,
// shared by its cores) when it is submitted and frees it when software has
// handled its completion (the route's end); on the Load/Store path a core's
// outstanding-miss buffers (core.outstanding_loads) are its slots. A request
// finding none waits, first come first served ("slot wait"), and node A
// submits at most one request per slots.submit_interval.
//
// Closed loop (rate 0): keeps `outstanding` requests in flight, issuing the
// next one when one completes. Open loop (rate > 0): requests arrive at the
// offered rate (Poisson or evenly spaced, seeded); at most `outstanding` are
// in flight (the send-queue depth), later arrivals wait in a backlog, and
// their latency counts from arrival. Records every request's hop timestamps
// into per-hop sums and a latency histogram.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "component.h"
#include "config.h"
#include "histogram.h"
#include "request.h"
#include "stats.h"

namespace ubsim {

// What the application does beyond the workload.* keys it reads from the
// configuration (ops, outstanding, rate, poisson, warmup, size,
// endpoints, seed).
struct Workload {
  Verb verb = Verb::Read;
  // Execution tag of request k (enc::TAG_*): tags[k], the last entry for
  // later requests; empty = all NO. All requests are Jetty-ordered ROI.
  std::vector<uint8_t> tags;
};

// Sums over measured requests, per hop of the route (fs).
struct HopSums {
  long double measured = 0, align = 0, serialize = 0, queue = 0, service = 0, ctx_wait = 0;
  long double transfer = 0, reassembly = 0, link = 0, early = 0;
  long double retransmit = 0, reorder = 0, transport = 0, fabric = 0;
};

struct LatencyRecord {
  std::vector<HopSums> hops;
  LatencyHistogram total;
  uint64_t measured_ops = 0;
  long double backlog_fs = 0;    // open loop: waiting for a free send-queue slot
  long double slot_wait_fs = 0;  // waiting for a request slot (miss buffer on ub-load)
  long double pacing_fs = 0;     // holding a free slot, waiting for slots.submit_interval
  LatencyHistogram slot_time;    // slot occupancy T: submit -> completion handled
  // Throughput window: from the last warm-up completion to the completion
  // `warmup` before the end, so neither the ramp-up nor the drain (when only
  // completion-side stages are left) counts.
  uint64_t window_start_fs = 0;
  uint64_t window_end_fs = 0;
  uint64_t window_ops = 0;
};

class InitiatorApp : public StageComponent {
 public:
  // `session` > 0: one of several initiator applications in one system
  // (several initiators or targets over a fabric): its request ids, its
  // endpoints and its random stream are its own.
  InitiatorApp(sc_core::sc_module_name name, const Config& c, const Route& route, Workload w, uint32_t session = 0);
  // Endpoints each session numbers from its own base (session x this).
  static uint32_t endpoint_span(const Config& c);
  // Request ids each session numbers from its own base (session x this;
  // packets and fetches are numbered from 2^31).
  static constexpr uint64_t kIdSpan = uint64_t{1} << 27;
  void collect_stats(StatsTable& table) const override;
  const LatencyRecord& record() const {
    fold_hop_sums();
    return *record_;
  }
  uint64_t completed() const { return completed_; }
  uint64_t failed() const { return failed_; }   // completions with an error status
  // Called with every finished request before it is reused (e.g. a timeline),
  // as of its completion, which may lie ahead of the kernel's time (nothing
  // else happens before it): it reads the request's times, not the kernel's.
  std::function<void(const Request&)> on_complete;
  // Called with every request as it is submitted (takes its slot).
  std::function<void(const Request&)> on_submit;

 protected:
  [[gnu::flatten]] void accept(Transaction& t) override;   // a finished request (flattened: once per read)
  // A completion ahead of the kernel's time is handled as of it, and the
  // next request goes to its first hop annotated with it: in a closed loop
  // without pacing (an open loop's arrivals and the pacing are processes at
  // the kernel's time) or a submit callback (a doorbell batch), not for the
  // run's last completion (it stops the kernel), and where the first hop's
  // component accepts ahead.
  bool accepts_ahead_of(const Transaction& t) const override;

 private:
  void start();
  void on_arrival();
  void issue(Request& r, uint64_t arrived_fs, int core = -1) { issue_at(r, arrived_fs, now_fs(), core); }
  void issue_at(Request& r, uint64_t arrived_fs, uint64_t now, int core);   // core -1: in turn
  // Submits waiting requests while their pool has a free slot and the
  // submit interval allows (as of now >= the kernel's time: see accept).
  void submit_waiting() { submit_waiting_at(now_fs()); }
  void submit_waiting_at(uint64_t now);
  void finished();
  // The integer per-hop sums of the last requests added into the record's.
  void fold_hop_sums() const;
  // Applications of this elaboration that have not finished (one
  // elaboration per process).
  static inline int running_ = 0;
  size_t pool_of(const Request& r) const { return per_core_slots_ ? r.core : 0; }
  uint64_t next_gap_fs();

  const Route& route_;
  const Workload w_;
  // the workload.* keys
  const uint64_t ops_, warmup_;
  const int outstanding_;
  const uint64_t size_;
  const uint32_t cores_;
  const uint32_t endpoints_;
  const uint64_t id_base_;
  const uint32_t ep_base_;
  const double rate_per_s_;
  const bool poisson_;
  // Per-hop sums of the requests measured since the last fold: each field of
  // their HopTimes added up in integers (one add per field and request, no
  // conversion, no long double add). The time stamps' sums are kept modulo
  // 2^64: only their differences are read (measured = depart - arrive,
  // summed), and those are exact while below 2^64 fs, which folding every
  // kFoldOps requests keeps them far from (each term is at most the
  // simulated time). Folded also whenever the record is read.
  static constexpr uint64_t kFoldOps = 1024;
  mutable std::vector<HopTimes> pending_hops_;
  mutable uint64_t pending_ops_ = 0;
  std::vector<std::unique_ptr<Request>> slots_;
  std::vector<Request*> free_;
  std::deque<uint64_t> backlog_;     // arrival times of requests waiting for a slot
  const bool roce_;   // the route uses the PCIe NIC (its QP is the context)
  // Request slots: one pool (node A's) or one per core (miss buffers).
  const bool per_core_slots_;
  const uint64_t submit_interval_fs_;
  std::vector<uint64_t> free_slots_;
  std::vector<std::deque<Request*>> slot_waiting_;
  uint64_t next_submit_fs_ = 0;
  bool submit_pending_ = false;
  sc_core::sc_event submit_event_;
  uint64_t slot_waits_ = 0;
  OccupancyTracker slots_in_use_;
  sc_core::sc_event arrival_event_;
  std::mt19937_64 rng_;
  uint64_t arrived_ = 0;
  uint64_t issued_ = 0;
  uint64_t completed_ = 0, failed_ = 0;
  size_t backlog_max_ = 0;
  std::unique_ptr<LatencyRecord> record_;
};

}  // namespace ubsim
