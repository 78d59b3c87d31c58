#include "pipeline_bridges.h"

#include <algorithm>

#include "block_config.h"

namespace ubsim {

namespace {
// The message a send pipeline cuts into packets: the payload bytes this
// direction carries (none for a read request), and how many of its packets
// have their payload with it (the bridge fetches the rest).
template <class Model>
void drive_message(Model& m, const Request& r) {
  m.s_len = carries_payload(r) ? static_cast<uint32_t>(r.size) : 0;
  m.s_data_pkts = r.data_pkts;
}
}  // namespace

UbTxBridge::UbTxBridge(sc_core::sc_module_name name, const Config& c)
    : OrderedTxBridge(name, c) {
}
void UbTxBridge::configure() { ubsim::configure(*m_, cfg_, cache_attached()); }
void UbTxBridge::drive_input(const Request* head) {
  m_->s_valid = head != nullptr;
  if (!head) return;
  m_->s_id = static_cast<uint32_t>(head->id);
  m_->s_ctx = head->ctx;
  m_->s_load = head->current().op == Op::UbLoadTx;
  drive_message(*m_, *head);
  // A new URMA request from the initiator is ordered in its Jetty; responses
  // and Load/Store accesses are not.
  m_->s_ord_track = head->current().op == Op::UbTx && head->current().node == NodeId::A;
  m_->s_ord_jetty = static_cast<uint16_t>(head->local_ep & 0xfff);
  m_->s_ord_mode = head->ord_mode;
  m_->s_ord_tag = head->ord_tag;
  m_->s_ord_fence = head->fence;
  m_->s_ord_comp_order = head->comp_order;
  m_->s_ord_rdat = head->verb == Verb::Read;
  m_->s_ord_payload = static_cast<uint32_t>(head->size);
}

RoceTxBridge::RoceTxBridge(sc_core::sc_module_name name, const Config& c)
    : OrderedTxBridge(name, c) {
}
void RoceTxBridge::configure() { ubsim::configure(*m_, cfg_, cache_attached()); }
void RoceTxBridge::drive_input(const Request* head) {
  m_->s_valid = head != nullptr;
  if (!head) return;
  m_->s_id = static_cast<uint32_t>(head->id);
  m_->s_ctx = head->ctx;
  drive_message(*m_, *head);
  // RC: a new request from the initiator is ordered in its QP
  m_->s_ord_track = head->current().op == Op::NicTx && head->current().node == NodeId::A;
  m_->s_ord_tag = head->ord_tag;
  m_->s_ord_fence = head->fence;
  m_->s_ord_comp_order = head->comp_order;
  m_->s_ord_rdat = head->verb == Verb::Read;
}

RxBridge::RxBridge(sc_core::sc_module_name name, const Config& c, const char* full_key, const char* short_key)
    : VerilatedPipeline(name, c), full_key_(full_key), short_key_(short_key) {
}
void RxBridge::configure() { ubsim::configure(*m_, cfg_, full_key_, short_key_, cache_attached()); }
void RxBridge::drive_input(const Request* head) {
  m_->s_valid = head != nullptr;
  if (!head) return;
  m_->s_id = static_cast<uint32_t>(head->id);
  m_->s_short = head->current().op == Op::UbLoadRx;
}

}  // namespace ubsim
