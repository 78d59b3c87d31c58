// TransportWire: one direction of the link a transport connection's engines
// use (data packets and acks): what the sending engine, the transport that
// itemizes its packets' time and a scripted loss need of it, whether the
// direction is one link (LossyWire) or several paths (MultiPathWire).
#pragma once
#include <cstdint>
#include <functional>
#include <set>

#include "component.h"
#include "packet.h"

namespace ubsim {

class TransportWire : public StageComponent, public TransmitPort {
 public:
  using StageComponent::StageComponent;
  // A data packet's first byte left at start_fs and its last at end_fs
  // (the sender's retransmit timer runs from end_fs).
  std::function<void(const Packet& p, uint64_t start_fs, uint64_t end_fs)> on_sent;
  // Data PSNs lost on their first transmission (scripted; before the run).
  virtual void set_drop_once(std::set<uint32_t> psns) = 0;
  // One-way propagation of path `path` (a one-link direction has path 0 only).
  virtual uint64_t propagation_fs(uint32_t path) const = 0;
};

}  // namespace ubsim
