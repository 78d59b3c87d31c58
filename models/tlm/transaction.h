// Transaction: what travels on the stage fabric: a route of hops and the
// timestamps every component records when the transaction crosses its
// boundary. Its kinds: a Request (a remote read or write of the
// application, or a context refill) and a Packet (transport layer).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <systemc>
#include <tlm>

#include "sim_time.h"
#include "stage.h"

namespace ubsim {

// Timestamps of one hop (fs since simulation start) and the cycle-level
// effects the owning component itemizes.
struct HopTimes {
  uint64_t arrive_fs = 0;     // handed to the component
  uint64_t start_fs = 0;      // service began (RTL: input handshake edge)
  uint64_t depart_fs = 0;     // handed on (RTL: first flit out)
  uint64_t align_fs = 0;      // RTL: wait for the first clock edge after arrival
  uint64_t serialize_fs = 0;  // wire: first byte out to last byte out
  uint64_t ctx_wait_fs = 0;   // RTL: waiting at ctx_gate for context records (refill)
  uint64_t transfer_fs = 0;   // bus / DRAM / PCIe: the bytes beyond the 64 B the latency is given for
  uint64_t reassembly_fs = 0; // end of a packet segment: waiting for the message's later packets
  uint64_t link_fs = 0;       // PCIe: beyond the unloaded 64 B transaction (TLPs, queueing, tags, credits)
  uint64_t early_fs = 0;      // PCIe: before it (a posted write that goes on once queued, nic.cqe_after)
  // Transport inside the paths (a wire hop): until a resend of a lost packet
  // reached the receiver; waiting in the receiver for a lower PSN; the
  // engines' own cycles and the wire's queue.
  uint64_t retransmit_fs = 0, reorder_fs = 0, transport_fs = 0;
  // Wire over a switched fabric: the propagation of its links beyond the
  // stage's configured latency (wire.latency): the switch hops.
  uint64_t fabric_fs = 0;
};

struct Route {
  std::vector<HopSpec> hops;
  std::vector<int> component;   // fabric id of the component that runs each hop
  int sink = -1;                // fabric id that receives the finished transaction
  // Packet segments: a send pipeline's hop, the wire, the receive pipeline
  // and the per-packet stages after it. segment_end[i]: the last hop of the
  // segment hop i is in (-1: not in one). fetch[i]: a memory stage that
  // reads the first packet's payload of the next send (a read's data at the
  // target), charged for those bytes.
  std::vector<int> segment_end;
  std::vector<uint8_t> fetch;
  // Doorbell batching (sw.wr_per_doorbell > 1): the hop of the descriptor
  // fetch that one doorbell's work requests share (-1: none). The batch's
  // last request carries the others through the doorbell and this fetch;
  // they go on together after it.
  int descriptor_hop = -1;
  // What a route's bus stages are when the route does not say by its shape
  // (a context refill or payload fetch reads, a write-back writes).
  enum class LinkUse : uint8_t { Auto, Read, Write };
  LinkUse link_use = LinkUse::Auto;

  void mark_segments(bool read) {
    segment_end.assign(hops.size(), -1);
    fetch.assign(hops.size(), 0);
    for (size_t i = 0; i < hops.size(); ++i) {
      if (!is_send_op(hops[i].op)) continue;
      size_t j = i + 1;
      while (j < hops.size() && (is_link_op(hops[j].op) || is_receive_op(hops[j].op) || hops[j].per_packet)) ++j;
      for (size_t k = i; k < j; ++k) segment_end[k] = static_cast<int>(j - 1);
      // a read's response: the memory stages on the target before its send
      if (read && hops[i].node == NodeId::B)
        for (size_t k = i; k-- > 0 && hops[k].node == NodeId::B && !is_receive_op(hops[k].op);)
          if (is_transfer_op(hops[k].op)) fetch[k] = 1;
      i = j - 1;
    }
  }
};

class Transaction {
 public:
  enum class Kind : uint8_t { Request, Packet };
  explicit Transaction(Kind k) : kind(k) {}
  virtual ~Transaction() = default;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  const Kind kind;
  uint64_t id = 0;
  const Route* route = nullptr;
  size_t hop = 0;
  uint64_t issued_fs = 0;
  uint64_t completed_fs = 0;
  std::vector<HopTimes> times;   // one per hop of the route
  tlm::tlm_generic_payload gp;   // carrier on the TLM fabric

  // Starts the route (hop 0, fresh timestamps).
  void start_route(const Route* r) {
    route = r;
    route_hops_ = r->hops.size();
    hop = 0;
    // (a reused transaction's vector has the route's size: zeroed in place)
    static_assert(std::is_trivially_copyable_v<HopTimes>, "HopTimes is zeroed as bytes");
    const size_t n = r->hops.size();
    if (times.size() == n) std::memset(static_cast<void*>(times.data()), 0, n * sizeof(HopTimes));
    else times.assign(n, HopTimes{});
  }
  bool on_route() const { return hop < route_hops_; }   // (no route: 0 hops)
  size_t route_hops() const { return route_hops_; }
  const HopSpec& current() const { return route->hops[hop]; }
  HopTimes& now_times() { return times[hop]; }

 private:
  // route->hops.size(), set with the route (on_route() is asked several
  // times per hop; the vector's size is a division by its element's size)
  size_t route_hops_ = 0;
};

// TLM extension that carries the Transaction through generic payloads.
struct TransactionExtension : tlm::tlm_extension<TransactionExtension> {
  Transaction* t = nullptr;
  tlm_extension_base* clone() const override {
    auto* e = new TransactionExtension;
    e->t = t;
    return e;
  }
  void copy_from(const tlm_extension_base& other) override { t = static_cast<const TransactionExtension&>(other).t; }
};

// Gives a transaction its carrier extension (owned by the payload).
inline void attach_carrier(Transaction& t) {
  auto* ext = new TransactionExtension;
  ext->t = &t;
  t.gp.set_extension(ext);
}

}  // namespace ubsim
