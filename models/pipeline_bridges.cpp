#include "pipeline_bridges.h"

#include <algorithm>

#include "rtl_variant.h"

namespace ubsim {

UbTxBridge::UbTxBridge(sc_core::sc_module_name name, const ModelParams& p)
    : OrderedTxBridge(name, p) {
  reset_model();
}
void UbTxBridge::configure() {
  m_->cfg_depth_async = static_cast<uint8_t>(params_.cycles("pipeline.ub_async"));
  m_->cfg_depth_load = static_cast<uint8_t>(params_.cycles("pipeline.ub_load"));
  m_->cfg_tpc_beats = static_cast<uint8_t>(params_.ub_tpc_beats);
  m_->cfg_ctx_gate = cache_attached();
  m_->cfg_mtu = static_cast<uint16_t>(std::min<uint32_t>(params_.mtu_bytes, 0xffff));
}
void UbTxBridge::drive_input(const Request* head) {
  m_->s_valid = head != nullptr;
  if (!head) return;
  m_->s_id = static_cast<uint32_t>(head->id);
  m_->s_ctx = head->ctx;
  m_->s_load = head->current().op == Op::UbLoadTx;
  m_->s_bytes = static_cast<uint16_t>(packet_bytes(*head, params_.header_bytes));
  // A new URMA request from the initiator is ordered in its Jetty; responses
  // and Load/Store accesses are not.
  m_->s_ord_track = head->current().op == Op::UbTx && head->current().node == NodeId::A;
  m_->s_ord_jetty = static_cast<uint16_t>(head->local_ep & 0xfff);
  m_->s_ord_mode = head->ord_mode;
  m_->s_ord_tag = head->ord_tag;
  m_->s_ord_fence = head->fence;
  m_->s_ord_comp_order = head->comp_order;
  m_->s_ord_rdat = head->verb == Verb::Read;
  m_->s_ord_payload = static_cast<uint16_t>(std::min<uint32_t>(head->payload_bytes, 0xffff));
}

RoceTxBridge::RoceTxBridge(sc_core::sc_module_name name, const ModelParams& p)
    : OrderedTxBridge(name, p) {
  reset_model();
}
void RoceTxBridge::configure() {
  m_->cfg_depth = static_cast<uint8_t>(params_.cycles("pipeline.pcie_nic"));
  m_->cfg_qpc_rd_latency = static_cast<uint8_t>(params_.roce_qpc_rd_latency);
  m_->cfg_qpc_turnaround = static_cast<uint8_t>(params_.roce_qpc_turnaround);
  m_->cfg_ctx_gate = cache_attached();
}
void RoceTxBridge::drive_input(const Request* head) {
  m_->s_valid = head != nullptr;
  if (!head) return;
  m_->s_id = static_cast<uint32_t>(head->id);
  m_->s_ctx = head->ctx;
  m_->s_bytes = static_cast<uint16_t>(packet_bytes(*head, params_.header_bytes));
  // RC: a new request from the initiator is ordered in its QP
  m_->s_ord_track = head->current().op == Op::NicTx && head->current().node == NodeId::A;
  m_->s_ord_tag = head->ord_tag;
  m_->s_ord_fence = head->fence;
  m_->s_ord_comp_order = head->comp_order;
  m_->s_ord_rdat = head->verb == Verb::Read;
}

RxBridge::RxBridge(sc_core::sc_module_name name, const ModelParams& p, const char* full_key,
                   const char* short_key)
    : VerilatedPipelineBridge(name, p), full_key_(full_key), short_key_(short_key) {
  reset_model();
}
void RxBridge::configure() {
  m_->cfg_depth_full = static_cast<uint8_t>(params_.cycles(full_key_));
  m_->cfg_depth_short = static_cast<uint8_t>(params_.cycles(short_key_));
  m_->cfg_ctx_gate = cache_attached();
}
void RxBridge::drive_input(const Request* head) {
  m_->s_valid = head != nullptr;
  if (!head) return;
  m_->s_id = static_cast<uint32_t>(head->id);
  m_->s_short = head->current().op == Op::UbLoadRx;
}

PipelineLimits query_pipeline_limits(const ModelParams& p) {
  VerilatedContext ctx;
  PipelineLimits l{};
  Vub_tx_pipeline ub(&ctx, "probe_ub");
  ub.cfg_tpc_beats = static_cast<uint8_t>(p.ub_tpc_beats);
  ub.eval();
  l.ub_tx_min_async = ub.fixed_async;
  l.ub_tx_min_load = ub.fixed_load;
  Vroce_tx_pipeline roce(&ctx, "probe_roce");
  roce.cfg_qpc_rd_latency = static_cast<uint8_t>(p.roce_qpc_rd_latency);
  roce.cfg_qpc_turnaround = static_cast<uint8_t>(p.roce_qpc_turnaround);
  roce.eval();
  l.roce_tx_min = roce.fixed_depth;
  Vrx_pipeline rx(&ctx, "probe_rx");
  rx.eval();
  l.rx_min = rx.fixed_depth;
  l.max_chain = rtl_variant::kMaxChain;
  return l;
}

}  // namespace ubsim
