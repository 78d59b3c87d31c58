// PipelineBridge: a stage component that wraps one verilated RTL pipeline
// (send or receive pipeline of a controller/NIC). Requests of the pipeline's
// hops enter over s_* in arrival order and leave at their first flit on m_*
// (matched by id); the clocking is RtlBridge's.
//
// With a context cache attached, every request is looked up in the node's
// cache the moment it reaches the controller (the bus interface decodes the
// record ids as it presents the request), and the cache's in-order grants
// are fed to the pipeline's ctx_gate with the entry of the record the
// pipeline reads; the request's records stay pinned in the cache until its
// packet leaves (or it is rejected), when the bridge releases them. The
// cycles a request waits at the gate are read from the RTL (ctx_wait /
// ctx_wait_id) and itemized per hop.
//
// Send pipelines cut messages into packets (the RTL's segmenter): the
// message leaves as packet 0, the bridge makes a child Request for every
// later packet as its first flit leaves; the grant's records stay pinned
// until the last. Packets whose payload did not come with the message are
// fetched by the send engine over the node's fetch route (bus + DRAM, or a
// PCIe DMA read), at most PAYLOAD_BUFFERS at once, for the message the
// segmenter names as waiting (data_wait), and handed to the RTL as payload
// credits. Receive pipelines report a tracked request's completion when
// the last packet of its response has passed.
//
// A send pipeline's context RAM is its cache's data array: refilled records
// arrive by fill() and are written through the RTL's s_fill port; the
// bridge mirrors each entry's next PSN from the RTL's write-backs (what an
// eviction writes back) and checks every packet's header against the
// request: the peer named by its record, and PSNs consecutive per record.
#pragma once
#include <deque>
#include <unordered_map>
#include <utility>
#include <vector>

#include "context_memory.h"
#include "packet.h"
#include "pool.h"
#include "request.h"
#include "rtl_bridge.h"
#include "timed_queue.h"

namespace ubsim {

class CtxCacheBridge;

class PipelineBridge : public RtlBridge {
 public:
  PipelineBridge(sc_core::sc_module_name name, const Config& c, std::unique_ptr<ClockedModel> block);
  void collect_stats(StatsTable& table) const override;
  // Consult `cache` for every request (call before the simulation starts).
  void attach_cache(CtxCacheBridge* cache);
  // The cache grants request g.id at time at_fs (a clock edge, >= now).
  void grant(const CtxGrant& g, uint64_t at_fs);
  // Send pipelines: a refilled record for context-RAM entry `entry` arrives
  // at at_fs (>= now); and what an eviction of `entry` writes back.
  void fill(uint32_t entry, const RecordBits& record, uint64_t at_fs);
  bool entry_dirty(uint32_t entry) const { return entry < dirty_.size() && dirty_[entry]; }
  uint32_t entry_psn(uint32_t entry) const { return entry < psn_.size() ? psn_[entry] : 0; }
  // Send pipelines with an order tracker: request r (issued by this
  // pipeline) completed, known to the controller at at_fs (>= now).
  void complete(const Request& r, uint64_t at_fs);
  // Receive pipelines: where the completion of a tracked request goes.
  void set_completion_sink(PipelineBridge* tx) { completion_sink_ = tx; }
  // Send pipelines: the route a packet's payload is fetched over (its sink
  // must be this bridge).
  void set_fetch_route(Route r) { fetch_route_ = std::move(r); }
  // What its output link allows at an edge (m_ready follows it; none: m_ready
  // held high, the link never refuses). Link-level pause over a fabric.
  void set_output_gate(const TransmitPort* gate) { gate_ = gate; }

 protected:
  void accept(Transaction& t) override;
  bool cache_attached() const { return cache_ != nullptr; }

  // ---- the pipeline's ports ----
  virtual void drive_input(const Request* head) = 0;  // s_valid / s_* (head may be null)
  virtual bool input_ready() const = 0;             // s_ready
  virtual bool output_valid() const = 0;            // m_valid
  virtual uint32_t output_id() const = 0;           // m_id
  virtual bool output_first() const = 0;            // m_first: the packet starts on the wire
  // Send pipelines: the packet's index in its message, and whether it is the last.
  virtual uint32_t output_packet() const { return 0; }
  virtual bool output_last_packet() const { return true; }
  virtual bool segments() const { return false; }    // cuts messages into packets
  virtual bool data_waiting(uint32_t& /*id*/) const { return false; }   // data_wait / data_wait_id
  virtual void drive_credit(bool /*valid*/, uint32_t /*id*/) {}          // s_credit_valid / _id
  virtual void set_output_ready(bool ready) = 0;    // m_ready
  virtual void drive_grant(bool valid, uint32_t id, uint32_t entry) = 0;  // s_grant_valid / _id / _entry
  virtual bool grant_ready() const = 0;             // s_grant_ready
  virtual bool ctx_waiting(uint32_t& id) const = 0;  // ctx_wait / ctx_wait_id
  virtual bool model_busy() const = 0;              // any stage holds an item
  virtual bool model_quiet() const = 0;             // busy only with a request waiting at ctx_gate
  // Order tracker ports (send pipelines; defaults: none).
  virtual void drive_completion(bool /*valid*/, int /*slot*/, int /*seq*/) {}
  struct OrderEvents {
    bool issue = false, error = false, report = false, in_hold = false, released = false;
    uint32_t issue_id = 0, error_id = 0, in_id = 0;
    int slot = 0, seq = 0, error_code = 0;
  };
  virtual OrderEvents order_events() const { return {}; }
  // Send pipelines' context RAM (defaults: none).
  virtual bool has_context_ram() const { return false; }
  virtual enc::Field psn_field() const { return {0, 24}; }
  virtual void drive_fill(bool /*valid*/, uint32_t /*entry*/, const RecordBits* /*record*/) {}
  virtual bool fill_ready() const { return true; }
  virtual bool context_writeback(uint32_t& /*entry*/, uint32_t& /*psn*/) const { return false; }
  // A request waits at the context RAM for refill words (ctx_fill_wait / _id).
  virtual bool ctx_fill_waiting(uint32_t& /*id*/) const { return false; }
  // The header of the packet on m_* (send pipelines): PSN and the peer id
  // the record names (the peer's TP channel, or the destination QP).
  struct Header {
    uint32_t psn = 0, peer = 0;
  };
  virtual Header output_header() const { return {}; }
  Request* in_flight(uint32_t id) const {
    auto it = in_flight_.find(id);
    return it == in_flight_.end() ? nullptr : it->second;
  }

 private:
  // A pipeline whose only work is a request waiting at its context gate
  // (its input refused meanwhile) changes nothing until a grant (or a
  // completion) arrives: it sleeps; on_skipped accounts the wait.
  bool has_work() const override {
    return (!model_quiet() && (!input_queue_.empty() || model_busy())) || !grants_.empty() || !completions_.empty() ||
           !fills_.empty() || credit_due();
  }
  void on_skipped(uint64_t first, uint64_t count) override;
  // A fetched payload of the waiting message can be handed to the RTL.
  bool credit_due() const {
    if (!waiting_) return false;
    auto it = payloads_.find(wait_id_);
    return it != payloads_.end() && it->second.ready > 0;
  }
  void drive(uint64_t e) override;
  void sample(uint64_t e) override;
  bool apply(uint64_t e) override;
  void drive_idle() override;
  void release_records(uint32_t id, uint64_t e);
  void check_header(const Request& r, const Header& h);
  void start_segment(Request& r) const;
  Request* make_packet(Request& m, uint32_t k);
  bool fetch_payloads(Request& m, uint64_t e);
  void fetched(Request& f);

  void issue_lookups();

  CtxCacheBridge* cache_ = nullptr;
  const uint64_t mtu_;
  // The bus interface's grant FIFO (cache.grant_fifo entries): a request's
  // lookup is issued only with a free entry in it (a credit), returned when
  // the gate takes the grant. So
  // the lookups a pipeline has in the cache, and the records it pins ahead
  // of its gate, are bounded: without it, requests queued in front of a busy
  // pipeline would pin a record up to the cache's pin maximum, and a lookup
  // waiting for that pin would hold the cache's input against the receive
  // pipeline's lookups whose completions would free it (a deadlock).
  const uint32_t grant_fifo_depth_;          // cache.grant_fifo
  uint32_t lookups_out_ = 0;                 // issued, grant not yet taken by the gate
  std::deque<Request*> lookup_backlog_;      // accepted, lookup waiting for a grant-FIFO credit
  uint64_t lookup_credit_waits_ = 0;         // lookups that waited for a credit
  std::deque<Request*> input_queue_;
  TimedQueue<CtxGrant> grants_;
  std::unordered_map<uint32_t, CtxGrant> pinned_;        // granted, records not yet released
  struct Fill { uint32_t entry; RecordBits record; };
  TimedQueue<Fill> fills_;
  std::vector<uint32_t> psn_;      // context RAM mirror: next PSN per entry
  std::vector<uint8_t> dirty_;     // advanced since the entry's fill
  std::unordered_map<uint32_t, uint32_t> expected_psn_;   // header check: per record (or entry)
  struct Completion { int slot, seq; };
  TimedQueue<Completion> completions_;
  PipelineBridge* completion_sink_ = nullptr;
  std::unordered_map<uint32_t, Request*> in_flight_;
  // segmentation: later packets and payload fetches come from this pool
  Pool<Request> packets_;
  Route fetch_route_;
  uint32_t buffers_in_use_ = 0;    // payload buffers fetching, full, or credited and not yet sent
  struct Payloads { uint32_t ready = 0, credited = 0; };
  std::unordered_map<uint32_t, Payloads> payloads_;   // by message id
  bool waiting_ = false;           // the segmenter named a message waiting for payload
  uint32_t wait_id_ = 0;
  uint64_t fetches_ = 0, credits_ = 0, later_packets_ = 0;

  // this edge: what is offered (drive) and what fires (sample)
  struct Edge {
    Request* head = nullptr;
    bool grant_offered = false, cpl_offered = false, fill_offered = false;
    bool in_fire = false, grant_fire = false, out_fire = false, fill_fire = false, wb = false;
    bool credit_offered = false, out_last = true, out_ready = true;
    uint32_t out_pkt = 0, credit_id = 0;
    uint32_t wb_entry = 0, wb_psn = 0;
    Header header;
    uint32_t out_id = 0;
    Request* errored = nullptr;
    OrderEvents ord;
  } edge_;

  OccupancyTracker queue_;
  uint64_t stall_cycles_ = 0, ctx_wait_cycles_ = 0, accepted_ = 0, delivered_ = 0;
  uint64_t errors_ = 0, reports_ = 0, completions_taken_ = 0;
  uint64_t fills_taken_ = 0, fill_stall_cycles_ = 0, ctx_fill_wait_cycles_ = 0;
  const TransmitPort* gate_ = nullptr;
  uint64_t output_blocked_cycles_ = 0;
};

}  // namespace ubsim
