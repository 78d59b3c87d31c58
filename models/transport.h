// The transport between two nodes for loss experiments (spec 8): the
// verilated SACK engine's sender on node A and receiver on node B, joined by
// two lossy wire directions (data A->B, acks B->A). Packets are Requests on
// the stage fabric; the wire serializes them at the link rate, propagates
// them, and loses, duplicates or delays (reorders) them at random, seeded,
// or drops scripted PSNs.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include <tlm_utils/peq_with_get.h>

#include "clocked_component.h"
#include "fabric.h"
#include "request_pool.h"
#include "verilated_compat.h"

#include "Vsack_receiver.h"
#include "Vsack_sender.h"

namespace ubsim {

// Transport packets are Requests from a pool shared by the link's parts.
using PacketPool = RequestPool;

struct TransportParams {
  bool gbn = false;
  bool fast_retransmit = true;
  int window = 1024;
  uint64_t rto_fs = 20'000'000'000ULL;
  int backoff_shift = 1;          // log2 of sack.rto_backoff
  int max_retries = 7;
  uint32_t first_psn = 0;
  uint32_t header_bytes = 32;
  double link_bytes_per_s = 50e9;
  uint64_t propagation_fs = 1'000'000'000ULL;
  double p_loss_data = 0, p_loss_ack = 0, p_dup = 0, p_reorder = 0;
  uint64_t reorder_max_fs = 500'000'000ULL;
  std::set<uint32_t> drop_once;   // data PSNs lost on their first transmission
  uint64_t seed = 1;
};

// One direction of the link: FIFO serialization at the link rate, then
// propagation; fate decided per packet (lost, duplicated, delayed).
class LossyWire : public StageComponent {
 public:
  LossyWire(sc_core::sc_module_name name, const TransportParams& p, PacketPool& pool, bool data, uint64_t seed);
  void collect_stats(StatsTable& table) const override;
  // A packet's last byte left at time fs (data direction: the sender's timer).
  std::function<void(uint32_t psn, uint64_t at_fs)> on_sent;
  uint64_t lost() const { return lost_; }
  // The link is busy serializing until this time: a sender hands it the
  // next packet no earlier (its transmit queue holds one packet).
  uint64_t free_at_fs() const { return free_at_fs_; }

 protected:
  void accept(Request& r) override;

 private:
  void deliver();
  const TransportParams& p_;
  PacketPool& pool_;
  bool data_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> u_{0.0, 1.0};
  uint64_t free_at_fs_ = 0;
  std::set<uint32_t> dropped_once_;
  tlm_utils::peq_with_get<Request> arrivals_;
  uint64_t packets_ = 0, bytes_ = 0, lost_ = 0, duplicated_ = 0, delayed_ = 0;
};

class SackSenderBridge : public ClockedComponent {
 public:
  SackSenderBridge(sc_core::sc_module_name name, const ModelParams& mp, const TransportParams& p, PacketPool& pool);
  void set_data_route(const Route* r, const LossyWire* wire) {
    data_route_ = r;
    wire_ = wire;
  }
  // A message (one packet of `bytes` payload) is ready to send at at_fs.
  void submit(uint32_t msg, uint32_t bytes, uint64_t at_fs);
  void sent(uint32_t psn, uint64_t at_fs);   // tx-done from the wire
  std::function<void(uint32_t msg, uint64_t at_fs)> on_accepted;   // the engine took the message
  std::function<void(uint32_t msg)> on_fail;
  void collect_stats(StatsTable& table) const override;
  uint64_t retransmitted_bytes() const { return rtx_bytes_; }
  uint64_t timeouts() const { return m_->cnt_timeouts; }
  uint64_t retransmits() const { return m_->cnt_retransmits; }
  bool failed() const { return failed_; }
  uint32_t outstanding() const { return m_->outstanding; }

 protected:
  void accept(Request& r) override;   // an ack arrived
  bool has_work() const override;
  bool step_edge(uint64_t k) override;
  void trace_model(VerilatedFstC* tfp) override { m_->trace(tfp, 99); }
  void settle_idle() override;

 private:
  void launch_packets();
  const TransportParams& p_;
  PacketPool& pool_;
  std::unique_ptr<Vsack_sender> m_;
  const Route* data_route_ = nullptr;
  const LossyWire* wire_ = nullptr;
  struct Msg { uint64_t at; uint32_t id, bytes; };
  struct TxDone { uint64_t at; uint32_t psn; };
  std::deque<Msg> msgs_;
  std::deque<Request*> acks_;
  std::deque<TxDone> txdone_;
  tlm_utils::peq_with_get<Request> out_;
  uint64_t rtx_bytes_ = 0;
  bool failed_ = false;
};

class SackReceiverBridge : public ClockedComponent {
 public:
  SackReceiverBridge(sc_core::sc_module_name name, const ModelParams& mp, const TransportParams& p,
                     PacketPool& pool);
  void set_ack_route(const Route* r) { ack_route_ = r; }
  std::function<void(uint32_t msg, uint32_t psn, uint64_t at_fs)> on_deliver;
  std::function<void(uint32_t psn, uint64_t at_fs)> on_arrive;   // the engine kept a data packet
  void collect_stats(StatsTable& table) const override;
  uint64_t duplicates() const { return m_->cnt_duplicates; }

 protected:
  void accept(Request& r) override;   // a data packet arrived
  bool has_work() const override { return !in_.empty() || m_->busy; }
  bool step_edge(uint64_t k) override;
  void trace_model(VerilatedFstC* tfp) override { m_->trace(tfp, 99); }
  void settle_idle() override;

 private:
  void launch_acks();
  const TransportParams& p_;
  PacketPool& pool_;
  std::unique_ptr<Vsack_receiver> m_;
  const Route* ack_route_ = nullptr;
  std::deque<Request*> in_;
  tlm_utils::peq_with_get<Request> out_;
  uint64_t acks_ = 0;
};

// Sender on A, receiver on B, the two wire directions, and the fabric.
class TransportSystem : public sc_core::sc_module {
 public:
  TransportSystem(sc_core::sc_module_name name, const ModelParams& mp, const TransportParams& p);
  SackSenderBridge& sender() { return *sender_; }
  SackReceiverBridge& receiver() { return *receiver_; }
  LossyWire& data_wire() { return *data_; }
  LossyWire& ack_wire() { return *ack_; }
  StatsTable stats() const;

 private:
  int attach(StageComponent* c);
  StageFabric fabric_;
  PacketPool pool_;
  std::unique_ptr<SackSenderBridge> sender_;
  std::unique_ptr<SackReceiverBridge> receiver_;
  std::unique_ptr<LossyWire> data_, ack_;
  Route data_route_, ack_route_;
  std::vector<StageComponent*> components_;
};

}  // namespace ubsim
