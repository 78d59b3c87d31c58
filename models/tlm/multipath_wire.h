// MultiPathWire: one direction of k paths between two nodes, for one
// transfer spread over them (spec 16): each path its own link at wire.rate
// (FIFO serialization, the model's header on every packet) and its own
// propagation delay; a packet takes the path its sender chose
// (Packet::path, the send engine's m_path). Each path's transmit FIFO
// holds one packet behind the one in serialization, so a sender that hands
// packets at its clock edges keeps the link busy back to back. Lossless
// but for a scripted loss of a data PSN's first transmission.
#pragma once
#include <deque>
#include <functional>
#include <set>
#include <vector>

#include <tlm_utils/peq_with_get.h>

#include "config.h"
#include "pool.h"
#include "transport_wire.h"

namespace ubsim {

class MultiPathWire : public TransportWire {
 public:
  MultiPathWire(sc_core::sc_module_name name, const Config& c, std::vector<uint64_t> delays_fs,
                std::set<uint32_t> drop_once);
  void collect_stats(StatsTable& table) const override;
  // Whether path `path` has room at edge_fs: at most one packet handed to
  // it before edge_fs is still to finish (the one in serialization).
  bool free_at_edge(uint64_t edge_fs, uint32_t path) const override;
  size_t paths() const { return paths_.size(); }
  uint64_t propagation_fs(uint32_t path) const override { return paths_.at(path < paths_.size() ? path : 0).delay_fs; }
  void set_drop_once(std::set<uint32_t> psns) override { drop_once_ = std::move(psns); }
  uint64_t lost() const { return lost_; }

 protected:
  void accept(Transaction& t) override;

 private:
  struct Path {
    uint64_t delay_fs = 0, free_at_fs = 0;
    uint64_t packets = 0, bytes = 0;
    std::deque<std::pair<uint64_t, uint64_t>> pending;   // (handed over, last byte out) not yet out
  };
  void deliver();
  const double bytes_per_s_;
  std::vector<Path> paths_;
  std::set<uint32_t> drop_once_, dropped_once_;
  tlm_utils::peq_with_get<Transaction> arrivals_;
  uint64_t lost_ = 0;
};

}  // namespace ubsim
