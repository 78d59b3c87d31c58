// The TLM components of a node whose stages are served by a queued resource:
// host CPU core, PCIe link, on-chip bus and DRAM (StageServer), and one
// direction of the wire (WireDirection).
#pragma once
#include <algorithm>
#include <limits>

#include "model_params.h"
#include "queued_server.h"

namespace ubsim {

// A stage's latency is its configured value; the resource is held for
// min(latency, occupancy):
//  - CPU core: held for the whole software stage (occupancy = unlimited), so
//    concurrent requests serialize on the core;
//  - PCIe link: held for pcie.occupancy (the TLPs on the lanes), the rest of
//    a DMA round trip overlaps later transactions;
//  - on-chip bus: held for bus.occupancy per transaction;
//  - DRAM: held for dram.occupancy per burst (row hit or row miss).
class StageServer : public QueuedServer {
 public:
  static constexpr uint64_t kWholeStage = std::numeric_limits<uint64_t>::max();

  StageServer(sc_core::sc_module_name name, const char* resource, const ModelParams& p,
              uint64_t occupancy_fs)
      : QueuedServer(name, resource), p_(p), occupancy_fs_(occupancy_fs) {}

 protected:
  ServiceTime service_time(const Request& r) const override {
    const uint64_t t = p_.time_fs(op_info(r.current().op).param_key);
    return {t, std::min(t, occupancy_fs_), 0};
  }

 private:
  const ModelParams& p_;
  uint64_t occupancy_fs_;
};

// One direction of the link between the nodes: serializes each packet at the
// link rate (the direction is busy for that time), then propagates it. The
// receiver takes the packet after its last byte (store and forward).
class WireDirection : public QueuedServer {
 public:
  WireDirection(sc_core::sc_module_name name, const ModelParams& p)
      : QueuedServer(name, "this wire direction (serialization)"), p_(p) {}

 protected:
  ServiceTime service_time(const Request& r) const override {
    const double ser_s = static_cast<double>(packet_bytes(r, p_.header_bytes)) / p_.wire_bytes_per_s;
    const auto ser_fs = static_cast<uint64_t>(ser_s * 1e15 + 0.5);
    return {ser_fs + p_.wire_latency_fs, ser_fs, ser_fs};
  }

 private:
  const ModelParams& p_;
};

}  // namespace ubsim
