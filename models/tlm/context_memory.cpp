#include "context_memory.h"

#include "request.h"

namespace ubsim {

CtxKeys context_keys(Stack stack, NodeId node, const Request& r) {
  const bool at_initiator = node == NodeId::A;
  const uint32_t local = at_initiator ? r.local_ep : r.remote_ep;
  const uint32_t peer = at_initiator ? r.remote_ep : r.local_ep;
  CtxKeys k;
  if (stack == Stack::Roce) {
    k.n = 1;
    k.key[0] = ctx_key::qp(local, peer);
  } else if (r.current().op == Op::UbLoadTx || r.current().op == Op::UbLoadRx) {
    k.n = 1;
    k.key[0] = ctx_key::tp_channel(peer);
  } else {
    k.n = 2;
    k.key[0] = ctx_key::jetty(local);
    k.key[1] = ctx_key::tp_channel(peer);
    k.data = 1;
  }
  return k;
}

void RecordBits::set(enc::Field f, uint64_t v) {
  for (int i = 0; i < f.width; ++i) {
    const int b = f.lsb + i;
    uint32_t& w = w_[static_cast<size_t>(b / 32)];
    const uint32_t mask = 1u << (b % 32);
    w = ((v >> i) & 1u) ? (w | mask) : (w & ~mask);
  }
}

uint64_t RecordBits::get(enc::Field f) const {
  uint64_t v = 0;
  for (int i = 0; i < f.width && i < 64; ++i) {
    const int b = f.lsb + i;
    v |= static_cast<uint64_t>((w_[static_cast<size_t>(b / 32)] >> (b % 32)) & 1u) << i;
  }
  return v;
}

void RecordBits::set_wide(enc::Field f, uint64_t hi, uint64_t lo) {
  set({f.lsb, f.width < 64 ? f.width : 64}, lo);
  if (f.width > 64) set({f.lsb + 64, f.width - 64}, hi);
}

uint32_t tp_channel_id(NodeId node, uint32_t peer_ep) {
  return (static_cast<uint32_t>(node) + 1) << 16 | peer_ep;
}
uint64_t eid_high(NodeId node) { return 0xfd00'0000'0000'0000ull | (static_cast<uint64_t>(node) + 1); }
uint32_t qp_number(uint32_t owner, uint32_t peer) { return ctx_key::qp(owner, peer) & 0xffffffu; }

uint32_t expected_peer_id(Stack stack, NodeId node, const Request& r) {
  const bool at_initiator = node == NodeId::A;
  const uint32_t local = at_initiator ? r.local_ep : r.remote_ep;
  const uint32_t peer = at_initiator ? r.remote_ep : r.local_ep;
  const NodeId peer_node = at_initiator ? NodeId::B : NodeId::A;
  if (stack == Stack::Roce) return qp_number(peer, local);
  return tp_channel_id(peer_node, peer);
}

int ContextMemory::record_bits(uint32_t key) const {
  if (stack_ == Stack::Roce) return enc::qp_context::kBits;
  return ctx_key::is_jetty(key) ? enc::jetty_record::kBits : enc::tp_record::kBits;
}

// A record as the host set it up when it created the Jetty / channel / QP.
RecordBits ContextMemory::make(uint32_t key) const {
  const NodeId peer_node = node_ == NodeId::A ? NodeId::B : NodeId::A;
  const uint32_t ep = key & (ctx_key::kMaxEndpoints - 1);
  if (stack_ == Stack::Roce) {
    namespace f = enc::qp_context;
    const uint32_t owner = (key >> ctx_key::kEndpointBits) & (ctx_key::kMaxEndpoints - 1);
    RecordBits r(f::kBits);
    r.set(f::dest_qpn, qp_number(ep, owner));   // the peer's QP of this pair
    r.set(f::state, 3);                          // RTS
    r.set(f::mtu, mtu_);
    r.set_wide(f::remote_gid, eid_high(peer_node), ep);
    return r;
  }
  if (ctx_key::is_jetty(key)) {
    namespace f = enc::jetty_record;
    RecordBits r(f::kBits);
    r.set(f::jetty_id, ep);
    r.set(f::sq_depth, 256);
    return r;
  }
  namespace f = enc::tp_record;
  RecordBits r(f::kBits);
  // the peer's channel back to this node's endpoint of the same number
  r.set(f::peer_tp_id, tp_channel_id(peer_node, ep));
  r.set_wide(f::remote_eid, eid_high(peer_node), ep);
  r.set(f::window_size, window_);
  r.set(f::state, 1);   // ready to send
  r.set(f::mtu, mtu_);
  r.set(f::cwnd, 64 * 1024);
  r.set(f::ssthresh, 0xffffffffu);
  return r;
}

const RecordBits& ContextMemory::read(uint32_t key) {
  auto it = records_.find(key);
  if (it == records_.end()) it = records_.emplace(key, make(key)).first;
  return it->second;
}

void ContextMemory::write_back_psn(uint32_t key, uint32_t next_psn) {
  RecordBits r = read(key);
  r.set(psn_field(), next_psn);
  records_[key] = std::move(r);
}

}  // namespace ubsim
