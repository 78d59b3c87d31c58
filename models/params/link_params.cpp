#include "link_params.h"

#include <cmath>

#include <fmt/format.h>

#include "config.h"

namespace ubsim {

namespace {
uint64_t ser_fs(double bytes_per_s, uint32_t tlp_bytes) {
  return static_cast<uint64_t>(std::llround(static_cast<double>(tlp_bytes) / bytes_per_s * 1e15));
}
}  // namespace

LinkParams LinkParams::pcie(const Config& c) {
  LinkParams p;
  p.keys = "pcie";
  p.bytes_per_s = c.value(key::pcie_bandwidth);
  p.overhead = static_cast<uint32_t>(c.count(key::pcie_tlp_overhead));
  p.max_payload = static_cast<uint32_t>(c.count(key::pcie_max_payload));
  p.max_read = static_cast<uint32_t>(c.count(key::pcie_max_read_request));
  p.rcb = static_cast<uint32_t>(c.count(key::pcie_rcb));
  p.doorbell_bytes = kPcieDoorbellBytes;
  p.prop_fs = c.fs(key::pcie_propagation);
  p.read_fs = c.fs(key::pcie_dma_read);
  p.write_fs = c.fs(key::pcie_dma_write);
  p.doorbell_fs = c.fs(key::pcie_doorbell);
  p.tags = c.count(key::pcie_tags);
  p.np_credits = c.count(key::pcie_np_credits);
  p.p_credits = c.count(key::pcie_p_credits);
  return p;
}

// The on-chip bus: a transaction of 64 B takes bus.traversal unloaded
// (reads, posted writes and the CPU's writes into the controller alike);
// its data occupies its direction for bytes / bus.bandwidth; at most
// bus.outstanding reads (an ID each until the data is back) and as many
// posted writes (until the memory accepted them) are in flight.
LinkParams LinkParams::bus(const Config& c) {
  LinkParams p;
  p.keys = "bus";
  p.bytes_per_s = c.value(key::bus_bandwidth);
  p.max_payload = p.max_read = 4096;   // one burst
  p.rcb = 64;
  p.doorbell_bytes = 64;               // the CPU writes a 64 B descriptor into the controller
  p.read_fs = p.write_fs = p.doorbell_fs = c.fs(key::bus_traversal);
  p.tags = p.np_credits = p.p_credits = c.count(key::bus_outstanding);
  return p;
}

namespace {
void check_link(const Config& c, const LinkParams& p) {
  const uint64_t read_fixed = 2 * p.prop_fs + ser_fs(p.bytes_per_s, p.overhead) + ser_fs(p.bytes_per_s, 64 + p.overhead);
  const Key<Unit::Time> read_key = p.keys == "bus" ? key::bus_traversal : key::pcie_dma_read;
  if (c.fs(read_key) < read_fixed)
    throw ConfigError(c.source(read_key), read_key.name,
                      fmt::format("{} is shorter than the link alone takes for a 64 B read ({:.4g} ns: two "
                                  "propagations and the request and completion)",
                                  c.text_of(read_key), static_cast<double>(read_fixed) / 1e6));
  if (p.keys == "bus") return;
  const uint64_t write_fixed = p.prop_fs + ser_fs(p.bytes_per_s, 64 + p.overhead);
  if (c.fs(key::pcie_dma_write) < write_fixed)
    throw ConfigError(c.source(key::pcie_dma_write), key::pcie_dma_write.name,
                      fmt::format("{} is shorter than the link alone takes for a 64 B posted write ({:.4g} ns)",
                                  c.text_of(key::pcie_dma_write), static_cast<double>(write_fixed) / 1e6));
  const uint64_t doorbell_fixed = p.prop_fs + ser_fs(p.bytes_per_s, p.doorbell_bytes + p.overhead);
  if (c.fs(key::pcie_doorbell) < doorbell_fixed)
    throw ConfigError(c.source(key::pcie_doorbell), key::pcie_doorbell.name,
                      fmt::format("{} is shorter than the link alone takes for a doorbell write ({:.4g} ns)",
                                  c.text_of(key::pcie_doorbell), static_cast<double>(doorbell_fixed) / 1e6));
  if (c.count(key::pcie_max_payload) < c.count(key::pcie_rcb))
    throw ConfigError(c.source(key::pcie_max_payload), key::pcie_max_payload.name,
                      fmt::format("{} is below the read completion boundary pcie.rcb ({})",
                                  c.text_of(key::pcie_max_payload), c.text_of(key::pcie_rcb)));
}
}  // namespace

void validate_links(const Config& c) {
  check_link(c, LinkParams::pcie(c));
  check_link(c, LinkParams::bus(c));
}

}  // namespace ubsim
