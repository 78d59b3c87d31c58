// LossyWire: one direction of a link for transport packets (data packets
// and acks share it): FIFO serialization at the link rate, then
// propagation; each packet's fate decided at random, seeded (lost with the
// probability of its kind, duplicated, delayed: reordering), or a scripted
// loss of a data PSN's first transmission.
#pragma once
#include <functional>
#include <random>
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
  Pool<Packet>& pool_;
  const double bytes_per_s_, p_data_, p_ack_, p_dup_, p_reorder_;
  const uint64_t propagation_fs_, reorder_max_fs_;
  std::set<uint32_t> drop_once_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> u_{0.0, 1.0};
  uint64_t free_at_fs_ = 0;
  uint64_t last_accept_fs_ = 0;        // time of the latest hand-over
  uint64_t free_before_last_fs_ = 0;   // free_at_fs_ before the hand-overs at that time
  std::set<uint32_t> dropped_once_;
  tlm_utils::peq_with_get<Transaction> arrivals_;
  uint64_t packets_ = 0, bytes_ = 0, lost_ = 0, duplicated_ = 0, delayed_ = 0;
};

}  // namespace ubsim
