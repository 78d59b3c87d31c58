// Resolved numeric parameters the models are built from (filled by the
// configuration layer in sim/; times in femtoseconds, the kernel resolution).
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace ubsim {

struct ModelParams {
  double clock_hz = 0;
  uint64_t clock_period_fs = 0;
  // Latency of every stage operation, by its configuration key ("sw.submit",
  // "pcie.dma_read", ...): fs for time keys, cycles for pipeline.* keys.
  std::map<std::string, double> stage_value;
  uint64_t bus_occupancy_fs = 0;
  uint64_t pcie_occupancy_fs = 0;
  uint64_t dram_occupancy_fs = 0;
  uint64_t wire_latency_fs = 0;
  double wire_bytes_per_s = 0;
  uint32_t header_bytes = 0;
  uint32_t payload_bytes = 64;
  uint32_t mtu_bytes = 4096;
  // Structural RTL parameters (runtime configuration inputs, loaded at reset).
  int ub_tpc_beats = 2;
  int roce_qpc_rd_latency = 2;
  int roce_qpc_turnaround = 1;
  // Context caches (ctx_cache RTL), one per node and stack.
  bool cache_enabled = true;
  int ub_cache_entries = 2048, ub_cache_ways = 0;
  int roce_cache_entries = 512, roce_cache_ways = 0;

  uint64_t time_fs(const std::string& key) const { return static_cast<uint64_t>(stage_value.at(key)); }
  int cycles(const std::string& key) const { return static_cast<int>(stage_value.at(key)); }
};

}  // namespace ubsim
