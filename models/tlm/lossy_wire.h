// LossyWire: one direction of a link for transport packets (data packets
// and acks share it): FIFO serialization at the link rate, then
// propagation; each packet's fate decided at random, seeded (lost with the
// probability of its kind, duplicated, delayed: reordering), or a scripted
// loss of a data PSN's first transmission.
//
// A fate is drawn from the packet's identity, not from one random stream
// in the order packets arrive: a data packet is (its connection, its PSN,
// which transmission of that PSN), an ack (its connection, the PSN it
// acknowledges up to, which ack of that PSN). Packets handed over in the
// same instant (a sender's data and a receiver's ack, say) are serialized
// in a fixed order, data before acks, then by connection and PSN, one
// delta later when all of them are in. So what happens to a packet does not
// depend on which process handed its neighbours over first.
#pragma once
#include <functional>
#include <unordered_map>
#include <vector>
#include <set>

#include <tlm_utils/peq_with_get.h>

#include "config.h"
#include "pool.h"
#include "transport_wire.h"

namespace ubsim {

class LossyWire : public TransportWire {
 public:
  // p_data / p_ack: loss probabilities of data packets and of acks;
  // propagation_fs: one-way propagation; drop_once: data PSNs lost on their
  // first transmission. Rate, duplication and reordering come from the config.
  LossyWire(sc_core::sc_module_name name, const Config& c, Pool<Packet>& pool, double p_data, double p_ack,
            uint64_t propagation_fs, std::set<uint32_t> drop_once, uint64_t seed);
  void collect_stats(StatsTable& table) const override;
  uint64_t propagation_fs() const { return propagation_fs_; }
  uint64_t propagation_fs(uint32_t /*path: one*/) const override { return propagation_fs_; }
  void set_drop_once(std::set<uint32_t> psns) override { drop_once_ = std::move(psns); }
  uint64_t lost() const { return lost_; }
  // Whether the link has finished serializing at edge_fs, counting only the
  // packets handed to it before edge_fs: a sender hands it the next packet
  // no earlier (its transmit queue holds one packet). A packet handed over
  // at edge_fs itself (another sender's, in the same time step) is not seen,
  // as every input is sampled at the first edge strictly after it arrives:
  // otherwise the answer would depend on which process ran first.
  bool free_at_edge(uint64_t edge_fs) const {
    return (last_accept_fs_ >= edge_fs ? free_before_last_fs_ : free_at_fs_) <= edge_fs;
  }
  bool free_at_edge(uint64_t edge_fs, uint32_t /*path: one*/) const override { return free_at_edge(edge_fs); }

 protected:
  void accept(Transaction& t) override;

 private:
  void deliver();
  void serialize();   // this instant's hand-overs, in their order
  void place(Packet& r, uint64_t start);
  Pool<Packet>& pool_;
  const double bytes_per_s_, p_data_, p_ack_, p_dup_, p_reorder_;
  const uint64_t propagation_fs_, reorder_max_fs_;
  std::set<uint32_t> drop_once_;
  const uint64_t seed_;
  // How many times an identity was sent before: per connection and kind, a
  // ring by PSN of twice the largest window (a PSN's transmissions all fall
  // within the window, so a slot is never shared by two PSNs in use).
  struct Sent {
    uint32_t psn = ~0u, count = 0;
  };
  std::unordered_map<uint64_t, std::vector<Sent>> sent_;   // by (kind, connection)
  uint32_t transmissions_before(bool data, uint32_t channel, uint32_t psn);
  uint64_t free_at_fs_ = 0;
  uint64_t last_accept_fs_ = 0;        // time of the latest hand-over
  uint64_t free_before_last_fs_ = 0;   // free_at_fs_ before the hand-overs at that time
  std::set<uint32_t> dropped_once_;
  std::vector<Packet*> handed_;   // this instant's hand-overs, not yet serialized
  uint64_t placed_until_fs_ = 0;  // the last serialized packet's last byte
  sc_core::sc_event serialize_event_;
  tlm_utils::peq_with_get<Transaction> arrivals_;
  uint64_t packets_ = 0, bytes_ = 0, lost_ = 0, duplicated_ = 0, delayed_ = 0;
};

}  // namespace ubsim
