// Context records in memory: the home of every record a context cache
// holds (UB Jetty and TP-channel records in the node's DRAM, RoCE QP
// contexts in host memory), laid out as the RTL's packed structs
// (rtl/ubsim_pkg.sv, generated into ubsim::enc). A refill reads a record
// from here and writes its words into the send pipeline's context RAM; an
// eviction of a changed (dirty) record writes its next PSN back.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "rtl_variant.h"
#include "stage.h"

namespace ubsim {

struct Request;

enum class Stack { Ub, Roce };

// Record keys (26 bits): a UB Jetty or TP-channel record by endpoint, or a
// RoCE QP context by (owner endpoint, peer endpoint), 12 bits each.
namespace ctx_key {
inline constexpr int kEndpointBits = 12;
inline constexpr uint32_t kMaxEndpoints = 1u << kEndpointBits;
inline constexpr uint32_t jetty(uint32_t ep) { return (1u << 24) | ep; }
inline constexpr uint32_t tp_channel(uint32_t peer) { return (2u << 24) | peer; }
inline constexpr uint32_t qp(uint32_t owner, uint32_t peer) { return (owner << kEndpointBits) | peer; }
inline constexpr bool is_jetty(uint32_t key) { return (key >> 24) == 1; }
}  // namespace ctx_key

// The records a request needs at one node: on the URMA async path the local
// endpoint's Jetty and the TP channel to the peer; on the Load/Store path
// the TP channel only; on RoCE the QP context of the (local, peer) pair.
// `data` is the key whose record the send pipeline reads (TP channel, QP).
struct CtxKeys {
  int n = 0;
  uint32_t key[2] = {0, 0};
  int data = 0;
};
CtxKeys context_keys(Stack stack, NodeId node, const Request& r);

// A context cache's answer to a request's lookup: the entries of its
// records (pinned until the pipeline releases them) and the entry of the
// record its send pipeline reads.
struct CtxGrant {
  uint32_t id = 0;
  int n = 0;
  uint32_t entry[2] = {0, 0};
  uint32_t data_entry = 0;
  uint32_t data_key = 0;
};

// A record's bits, 32 per word, bit 0 first (the RTL's packed-struct order).
class RecordBits {
 public:
  explicit RecordBits(int bits = 0) : w_(static_cast<size_t>((bits + 31) / 32), 0u) {}
  void set(enc::Field f, uint64_t v);            // fields of up to 64 bits
  uint64_t get(enc::Field f) const;
  void set_wide(enc::Field f, uint64_t hi, uint64_t lo);   // fields of up to 128 bits
  const std::vector<uint32_t>& words() const { return w_; }

 private:
  std::vector<uint32_t> w_;
};

// Identities the records carry into packet headers.
uint32_t tp_channel_id(NodeId node, uint32_t peer_ep);   // a node's TP channel to a peer endpoint
uint64_t eid_high(NodeId node);                          // an endpoint's EID: {high, endpoint}
uint32_t qp_number(uint32_t owner, uint32_t peer);       // a RoCE QP's number (its key)
// What the header of r's packet leaving `node` must name as its peer: the
// peer's TP channel id (UB) or the destination QP number (RoCE).
uint32_t expected_peer_id(Stack stack, NodeId node, const Request& r);

// One node's records of one stack, created on first use from their key.
class ContextMemory {
 public:
  ContextMemory(Stack stack, NodeId node, uint32_t mtu_bytes, uint32_t sack_window)
      : stack_(stack), node_(node), mtu_(mtu_bytes), window_(sack_window) {}
  const RecordBits& read(uint32_t key);
  // The record's send-side state changed on chip: its next PSN is written back.
  void write_back_psn(uint32_t key, uint32_t next_psn);
  // Whether the send pipeline reads this record (TP channel, QP context).
  bool holds_psn(uint32_t key) const { return stack_ == Stack::Roce || !ctx_key::is_jetty(key); }
  enc::Field psn_field() const { return stack_ == Stack::Roce ? enc::qp_context::next_psn : enc::tp_record::next_psn; }
  int record_bits(uint32_t key) const;

 private:
  RecordBits make(uint32_t key) const;
  Stack stack_;
  NodeId node_;
  uint32_t mtu_, window_;
  std::unordered_map<uint32_t, RecordBits> records_;
};

}  // namespace ubsim
