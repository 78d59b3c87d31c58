// Bridges to the verilated SACK engine (spec 8): the sender (sack_sender)
// and the receiver (sack_receiver) of one transport connection. Packets are
// Packet transactions on the stage fabric; the link (LossyWire) paces the
// sender, which hands it one packet at a time.
#pragma once
#include <deque>
#include <functional>
#include <memory>


#include "lossy_wire.h"
#include "packet.h"
#include "pool.h"
#include "rtl_bridge.h"
#include "timed_queue.h"

#include "Vsack_receiver.h"
#include "Vsack_sender.h"

namespace ubsim {

// What configures one connection's engines beyond the config keys: its mode
// and the PSN of its first packet.
struct SackMode {
  bool gbn = false;            // GoBackN (else SACK)
  uint32_t first_psn = 0;
  // The sender's paths (its path_select): how many, and per path the
  // packets it carries in a row (4 bits each, path 0 lowest).
  uint32_t paths = 1;
  uint32_t path_weights = 0x11111111;
};

class SackSenderBridge : public VerilatedBridge<Vsack_sender> {
 public:
  SackSenderBridge(sc_core::sc_module_name name, const Config& c, SackMode mode, Pool<Packet>& pool);
  void set_data_route(const Route* r, const TransmitPort* wire) {
    data_route_ = r;
    wire_ = wire;
  }
  // The connection its packets belong to (Packet::channel).
  void set_channel(uint32_t c) { channel_ = c; }
  // A message (one packet of `bytes` payload) is ready to send at at_fs.
  void submit(uint32_t msg, uint32_t bytes, uint64_t at_fs);
  void sent(uint32_t psn, uint64_t at_fs);   // tx-done from the wire
  std::function<void(uint32_t msg, uint64_t at_fs)> on_accepted;   // the engine took the message
  std::function<void(uint32_t msg, uint64_t at_fs)> on_fail;   // the engine ran out of retries (it stops)
  void collect_stats(StatsTable& table) const override;
  uint64_t retransmitted_bytes() const { return rtx_bytes_; }
  uint64_t timeouts() const { return m_->cnt_timeouts; }
  uint64_t retransmits() const { return m_->cnt_retransmits; }
  bool failed() const { return failed_; }
  uint32_t outstanding() const { return m_->outstanding; }

 protected:
  void accept(Transaction& t) override;   // an ack arrived
  bool has_work() const override;
  uint64_t wake_in() const override;
  void holdings(std::vector<Holding>& out) const override;
  void configure() override;
  void drive(uint64_t e) override;
  void sample(uint64_t e) override;
  bool apply(uint64_t e) override;
  void drive_idle() override;

 private:
  const SackMode mode_;
  const uint32_t header_bytes_;
  Pool<Packet>& pool_;
  const Route* data_route_ = nullptr;
  const TransmitPort* wire_ = nullptr;
  uint32_t channel_ = 0;
  struct Msg { uint32_t id, bytes; };
  TimedQueue<Msg> msgs_;
  TimedQueue<Packet*> acks_;
  TimedQueue<uint32_t> txdone_;   // PSNs the wire finished sending
  struct Edge {
    const Msg* msg = nullptr;
    Packet* ack = nullptr;
    const uint32_t* td = nullptr;   // the PSN a tx-done names
    bool took = false, fail = false;
    uint32_t fail_id = 0;
    Packet* pkt = nullptr;
  } edge_;
  uint64_t rtx_bytes_ = 0;
  bool failed_ = false;
};

class SackReceiverBridge : public VerilatedBridge<Vsack_receiver> {
 public:
  SackReceiverBridge(sc_core::sc_module_name name, const Config& c, SackMode mode, Pool<Packet>& pool);
  void set_ack_route(const Route* r) { ack_route_ = r; }
  // Acks take the path of the newest data packet they cover (else path 0).
  void set_ack_on_data_path(bool on) { ack_on_data_path_ = on; }
  void set_channel(uint32_t c) { channel_ = c; }
  std::function<void(uint32_t msg, uint32_t psn, uint64_t at_fs)> on_deliver;
  // The engine kept a data packet (the copy on the wire: its PSN, whether
  // it was a retransmission, when the wire delivered it).
  std::function<void(const Packet& p, uint64_t at_fs)> on_arrive;
  void collect_stats(StatsTable& table) const override;
  uint64_t duplicates() const { return m_->cnt_duplicates; }
  uint64_t reorder_peak() const { return m_->reorder_peak; }    // bytes held at most (kept, not delivered)
  uint64_t reorder_drops() const { return m_->cnt_reorder_drops; }   // dropped at the reorder limit

 protected:
  void accept(Transaction& t) override;   // a data packet arrived
  bool has_work() const override { return !in_.empty() || m_->busy; }
  void configure() override;
  void drive(uint64_t e) override;
  void sample(uint64_t e) override;
  bool apply(uint64_t e) override;
  void drive_idle() override;

 private:
  const SackMode mode_;
  const uint32_t header_bytes_, ack_bytes_;
  Pool<Packet>& pool_;
  const Route* ack_route_ = nullptr;
  uint32_t channel_ = 0;
  TimedQueue<Packet*> in_;
  struct Edge {
    Packet* pkt = nullptr;
    bool took = false, kept = false, dlv = false;
    uint32_t dlv_id = 0, dlv_psn = 0;
    Packet* ack = nullptr;
  } edge_;
  uint64_t acks_ = 0;
  bool ack_on_data_path_ = false;
  uint32_t last_taken_path_ = 0;   // the path of the newest data packet taken
};

}  // namespace ubsim
