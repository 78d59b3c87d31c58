// LossyWire: one direction of a link for transport packets: FIFO
// serialization at the link rate, then propagation; each packet's fate
// decided at random, seeded (lost, duplicated, delayed: reordering), or a
// scripted loss of a data PSN's first transmission.
#pragma once
#include <functional>
#include <random>
#include <set>

#include <tlm_utils/peq_with_get.h>

#include "component.h"
#include "config.h"
#include "packet.h"
#include "pool.h"

namespace ubsim {

class LossyWire : public StageComponent {
 public:
  // data: the data direction (else acks); p_loss: its loss probability;
  // drop_once: data PSNs lost on their first transmission. Rate, propagation
  // (loss.wire_latency), duplication and reordering come from the config.
  LossyWire(sc_core::sc_module_name name, const Config& c, Pool<Packet>& pool, bool data, double p_loss,
            std::set<uint32_t> drop_once, uint64_t seed);
  void collect_stats(StatsTable& table) const override;
  // A packet's last byte left at time fs (data direction: the sender's timer).
  std::function<void(uint32_t psn, uint64_t at_fs)> on_sent;
  uint64_t lost() const { return lost_; }
  // The link is busy serializing until this time: a sender hands it the
  // next packet no earlier (its transmit queue holds one packet).
  uint64_t free_at_fs() const { return free_at_fs_; }

 protected:
  void accept(Transaction& t) override;

 private:
  void deliver();
  Pool<Packet>& pool_;
  const bool data_;
  const double bytes_per_s_, p_loss_, p_dup_, p_reorder_;
  const uint64_t propagation_fs_, reorder_max_fs_;
  const std::set<uint32_t> drop_once_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> u_{0.0, 1.0};
  uint64_t free_at_fs_ = 0;
  std::set<uint32_t> dropped_once_;
  tlm_utils::peq_with_get<Transaction> arrivals_;
  uint64_t packets_ = 0, bytes_ = 0, lost_ = 0, duplicated_ = 0, delayed_ = 0;
};

}  // namespace ubsim
