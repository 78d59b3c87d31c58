// The TLM components of a node whose stages are served by a queued resource:
// host CPU core, on-chip bus and DRAM (StageServer), and one direction of
// the wire (WireDirection). The PCIe link is a transaction model of its own
// (PcieStage).
#pragma once
#include <algorithm>
#include <array>
#include <limits>

#include "config.h"
#include "queued_server.h"
#include "packet.h"
#include "request.h"

namespace ubsim {

// A stage's latency is its configured value (for 64 B); the resource is held
// for min(latency, occupancy). Moving more than 64 B (a packet's payload
// placed at the receiver, a read's data fetched at the target, a payload
// fetched by a send engine) adds (bytes - 64) / the resource's bandwidth to
// both: the stages' size-dependent part, itemized as transfer time.
//  - CPU core: held for the whole software stage (occupancy = unlimited), so
//    concurrent requests serialize on the core;
//  - DRAM: held for dram.occupancy per burst (row hit or row miss).
class StageServer : public QueuedServer {
 public:
  static constexpr uint64_t kWholeStage = std::numeric_limits<uint64_t>::max();

  // occupancy_key: the key of the resource's occupancy (empty: the whole stage).
  // cores: identical resources with a queue each (a CPU's cores); a
  // request uses the one its `core` names.
  StageServer(sc_core::sc_module_name name, const char* resource, const Config& c, const char* occupancy_key,
              size_t cores = 1)
      : QueuedServer(name, resource, cores),
        cores_(cores),
        occupancy_fs_(*occupancy_key ? c.fs(occupancy_key) : kWholeStage),
        mtu_(c.count(key::transport_mtu)) {
    // latency of every operation, by its key, read once
    for (const OpInfo& op : op_catalog()) {
      const auto i = static_cast<size_t>(op.op);
      dram_op_[i] = op.owner == ComponentKind::Dram;
      if (!op.in_cycles && has_latency_key(op)) latency_fs_[i] = c.fs(op.param_key);
      if (!is_transfer_op(op.op)) continue;
      const char* bw = op.owner == ComponentKind::Dram ? "dram.bandwidth" : nullptr;
      if (bw) fs_per_byte_[i] = 1e15 / c.value(bw);
    }
  }

 protected:
  size_t resource_of(const Transaction& t) const override {
    return t.kind == Transaction::Kind::Request ? static_cast<const Request&>(t).core % cores_ : 0;
  }
  // The DRAM serves waiting reads before posted writes (a context
  // write-back, a write's payload placed at the target), as a memory
  // controller drains its write queue behind the reads.
  uint8_t class_of(const Transaction& t) const override {
    if (t.kind != Transaction::Kind::Request || !dram_op_[static_cast<size_t>(t.current().op)]) return 0;
    const Request& r = static_cast<const Request&>(t);
    const bool placing = t.current().per_packet && t.current().node == NodeId::B && r.message().verb == Verb::Write;
    return r.route->link_use == Route::LinkUse::Write || placing ? 1 : 0;
  }
  ServiceTime service_time(const Transaction& t) const override {
    const auto op = static_cast<size_t>(t.current().op);
    const uint64_t lat = latency_fs_[op];
    uint64_t extra = 0;
    if (fs_per_byte_[op] > 0 && t.kind == Transaction::Kind::Request) {
      const uint64_t bytes = transfer_bytes(static_cast<const Request&>(t));
      if (bytes > kBaseBytes)
        extra = static_cast<uint64_t>(static_cast<double>(bytes - kBaseBytes) * fs_per_byte_[op] + 0.5);
    }
    return {lat + extra, std::min(lat, occupancy_fs_) + extra, 0, extra};
  }

 private:
  static constexpr uint64_t kBaseBytes = 64;   // the access the latency keys are given for
  static constexpr uint64_t kDescriptorBytes = 64;   // one work-request descriptor (a doorbell's fetch: k of them)
  // Bytes this stage moves for r: a read's first packet at the target (the
  // stages before its response), a packet's payload (per-packet stages, the
  // send engine's fetches), else the fixed-size access.
  uint64_t transfer_bytes(const Request& r) const {
    const Route& rt = *r.route;
    if (!rt.fetch.empty() && rt.fetch[r.hop]) return packet_payload(r.size, mtu_, 0);
    if (static_cast<int>(r.hop) == rt.descriptor_hop) return r.descriptors * kDescriptorBytes;
    if (rt.hops[r.hop].per_packet) return r.payload_bytes;
    return 0;
  }
  size_t cores_;
  uint64_t occupancy_fs_;
  uint64_t mtu_;
  std::array<uint64_t, kOpCount> latency_fs_{};
  std::array<double, kOpCount> fs_per_byte_{};
  std::array<bool, kOpCount> dram_op_{};   // the operation is the DRAM's (class_of)
};

// One direction of the link between the nodes: serializes each packet at the
// link rate (the direction is busy for that time), then propagates it. The
// receiver takes the packet after its last byte (store and forward).
class WireDirection : public QueuedServer {
 public:
  WireDirection(sc_core::sc_module_name name, const Config& c)
      : QueuedServer(name, "this wire direction (serialization)"),
        latency_fs_(c.fs(key::wire_latency)),
        bytes_per_s_(c.value(key::wire_rate)),
        header_bytes_(static_cast<uint32_t>(c.count(key::transport_header_bytes))) {}

 protected:
  ServiceTime service_time(const Transaction& t) const override {
    const Request& r = static_cast<const Request&>(t);
    const double ser_s = static_cast<double>(packet_bytes(r, header_bytes_)) / bytes_per_s_;
    const auto ser_fs = static_cast<uint64_t>(ser_s * 1e15 + 0.5);
    return {ser_fs + latency_fs_, ser_fs, ser_fs, 0};
  }

 private:
  uint64_t latency_fs_;
  double bytes_per_s_;
  uint32_t header_bytes_;
};

}  // namespace ubsim
