// Bridges from the TLM fabric to the three verilated pipeline tops. The tops
// share their stream port names, so one template maps the common ports and
// each bridge adds only its configuration and input fields.
#pragma once
#include <memory>

#include "verilated_compat.h"

#include "Vroce_tx_pipeline.h"
#include "Vrx_pipeline.h"
#include "Vub_tx_pipeline.h"
#include "pipeline_bridge.h"

namespace ubsim {

template <class Model>
class VerilatedPipeline : public PipelineBridge {
 public:
  VerilatedPipeline(sc_core::sc_module_name name, const Config& c)
      : PipelineBridge(name, c, std::make_unique<VerilatedBlock<Model>>()),
        m_(&static_cast<VerilatedBlock<Model>&>(block()).model()) {}

 protected:
  bool input_ready() const override { return m_->s_ready; }
  bool output_valid() const override { return m_->m_valid; }
  uint32_t output_id() const override { return m_->m_id; }
  bool output_first() const override { return m_->m_first; }
  void set_output_ready(bool ready) override { m_->m_ready = ready; }
  void drive_grant(bool valid, uint32_t id, uint32_t /*entry*/) override {
    m_->s_grant_valid = valid;
    m_->s_grant_id = id;
  }
  bool grant_ready() const override { return m_->s_grant_ready; }
  bool ctx_waiting(uint32_t& id) const override {
    id = m_->ctx_wait_id;
    return m_->ctx_wait;
  }
  bool model_busy() const override { return m_->busy; }
  bool model_quiet() const override { return m_->quiet; }
  uint64_t wake_in() const override { return m_->wake_in; }

  Model* const m_;
};

// The send pipelines' order-tracker ports: completions in; issue, hold,
// error (kErrors: the model rejects requests) and report events out. And
// their context RAM: the grant's entry, refilled records in, PSN
// write-backs out.
template <class Model, bool kErrors>
class OrderedTxBridge : public VerilatedPipeline<Model> {
 public:
  using VerilatedPipeline<Model>::VerilatedPipeline;

 protected:
  using typename PipelineBridge::OrderEvents;
  void drive_grant(bool valid, uint32_t id, uint32_t entry) override {
    auto& m = *this->m_;
    m.s_grant_valid = valid;
    m.s_grant_id = id;
    m.s_grant_entry = entry;
  }
  bool has_context_ram() const override { return true; }
  bool segments() const override { return true; }
  uint32_t output_packet() const override { return this->m_->m_pkt; }
  bool output_last_packet() const override { return this->m_->m_pkt_last; }
  bool data_waiting(uint32_t& id) const override {
    id = this->m_->data_wait_id;
    return this->m_->data_wait;
  }
  void drive_credit(bool valid, uint32_t id) override {
    this->m_->s_credit_valid = valid;
    this->m_->s_credit_id = id;
  }
  void drive_fill(bool valid, uint32_t entry, const RecordBits* record) override {
    auto& m = *this->m_;
    m.s_fill_valid = valid;
    m.s_fill_entry = entry;
    if (!record) return;
    constexpr size_t kWords = sizeof(m.s_fill_data) / sizeof(uint32_t);
    const auto& w = record->words();
    for (size_t i = 0; i < kWords; ++i) m.s_fill_data[i] = i < w.size() ? w[i] : 0u;
  }
  bool fill_ready() const override { return this->m_->s_fill_ready; }
  bool ctx_fill_waiting(uint32_t& id) const override {
    id = this->m_->ctx_fill_wait_id;
    return this->m_->ctx_fill_wait;
  }
  bool context_writeback(uint32_t& entry, uint32_t& psn) const override {
    const auto& m = *this->m_;
    entry = m.wb_entry;
    psn = m.wb_psn;
    return m.wb_valid;
  }
  void drive_completion(bool valid, int slot, int seq) override {
    auto& m = *this->m_;
    m.s_cpl_valid = valid;
    m.s_cpl_slot = static_cast<uint8_t>(slot);
    m.s_cpl_seq = static_cast<uint8_t>(seq);
  }
  OrderEvents order_events() const override {
    const auto& m = *this->m_;
    OrderEvents o;
    o.issue = m.ord_issue;
    o.issue_id = m.ord_issue_id;
    o.slot = m.ord_issue_slot;
    o.seq = m.ord_issue_seq;
    o.released = m.ord_issue_released;
    o.in_hold = m.ord_in_hold;
    o.in_id = m.ord_in_id;
    o.report = m.m_rep_valid;
    if constexpr (kErrors) {
      o.error = m.m_err_valid;
      o.error_id = m.m_err_id;
      o.error_code = m.m_err_code;
    }
    return o;
  }
};

// UB controller send pipeline: URMA async (ub.tx) and Load/Store (ub.load_tx).
class UbTxBridge : public OrderedTxBridge<Vub_tx_pipeline, true> {
 public:
  UbTxBridge(sc_core::sc_module_name name, const Config& c);
 protected:
  void configure() override;
  void drive_input(const Request* head) override;
  enc::Field psn_field() const override { return enc::tp_record::next_psn; }
  Header output_header() const override { return {m_->m_psn, m_->m_peer_tp}; }
};

// PCIe NIC send pipeline (nic.tx): in-order PSN read-modify-write.
class RoceTxBridge : public OrderedTxBridge<Vroce_tx_pipeline, false> {
 public:
  RoceTxBridge(sc_core::sc_module_name name, const Config& c);
 protected:
  void configure() override;
  void drive_input(const Request* head) override;
  enc::Field psn_field() const override { return enc::qp_context::next_psn; }
  Header output_header() const override { return {m_->m_psn, m_->m_dest_qpn}; }
};

// Receive pipeline of either stack. full_key/short_key name the depths of
// its two routes (the short one serves ub.load_rx).
class RxBridge : public VerilatedPipeline<Vrx_pipeline> {
 public:
  RxBridge(sc_core::sc_module_name name, const Config& c, const char* full_key, const char* short_key);
 protected:
  void configure() override;
  void drive_input(const Request* head) override;
 private:
  const char* full_key_;
  const char* short_key_;
};

}  // namespace ubsim
