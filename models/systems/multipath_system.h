// MultipathSystem: one transfer over k paths (spec 16): the verilated SACK
// sender on node A spreading its packets over the paths (its path_select),
// the paths as a MultiPathWire (each its own link and delay), the
// verilated SACK receiver on node B (its reorder state), and the acks back
// on the fastest path. The sender is fed by a traffic source that offers
// every message at once, so nothing but the engine and the paths binds.
#pragma once
#include <memory>
#include <set>
#include <vector>

#include "config.h"
#include "fabric.h"
#include "multipath_wire.h"
#include "sack_bridges.h"
#include "transport_system.h"

namespace ubsim {

class MultipathSystem : public sc_core::sc_module {
 public:
  // delays_fs: each path's propagation; mode.paths / path_weights choose them.
  MultipathSystem(sc_core::sc_module_name name, const Config& c, SackMode mode, std::vector<uint64_t> delays_fs,
                  std::set<uint32_t> drop_once);
  SackSenderBridge& sender() { return *sender_; }
  SackReceiverBridge& receiver() { return *receiver_; }
  MultiPathWire& data_wire() { return *data_; }
  StatsTable stats() const { return fabric_.stats(); }

 private:
  const Config cfg_;
  StageFabric fabric_;
  Pool<Packet> pool_;
  std::unique_ptr<SackSenderBridge> sender_;
  std::unique_ptr<SackReceiverBridge> receiver_;
  std::unique_ptr<MultiPathWire> data_, ack_;
  SackConnection connection_;
};

}  // namespace ubsim
