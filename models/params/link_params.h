// What a link is made of, from the configuration: the PCIe link (pcie.*
// keys) or a node's on-chip bus (bus.* keys), and the checks that its
// latencies leave room for the link's own time. Parameter layer: no
// SystemC; the TLM link (tlm/pcie_link.h) is built from these values.
#pragma once
#include <cstdint>
#include <string>

namespace ubsim {

class Config;

inline constexpr uint32_t kPcieDoorbellBytes = 8;   // a 64-bit doorbell register

// What a link is made of: a PCIe link (pcie.* keys) or a node's on-chip bus
// modelled the same way (bus.* keys: no per-TLP overhead or propagation,
// bursts of up to 4 KiB, bus.outstanding transactions in flight).
struct LinkParams {
  std::string keys;           // "pcie" or "bus": where the values come from (errors name them)
  double bytes_per_s = 0;
  uint32_t overhead = 0, max_payload = 0, max_read = 0, rcb = 0, doorbell_bytes = 0;
  uint64_t prop_fs = 0, read_fs = 0, write_fs = 0, doorbell_fs = 0;
  uint64_t tags = 0, np_credits = 0, p_credits = 0;
  static LinkParams pcie(const Config& c);
  static LinkParams bus(const Config& c);
};

// The PCIe and bus latencies must leave room for the link's own time
// (propagation, serialization of the request and its completion): a
// ConfigError naming the key otherwise.
void validate_links(const Config& c);

}  // namespace ubsim
