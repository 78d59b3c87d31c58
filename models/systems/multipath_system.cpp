#include "multipath_system.h"

#include <algorithm>

namespace ubsim {

MultipathSystem::MultipathSystem(sc_core::sc_module_name name, const Config& c, SackMode mode,
                                 std::vector<uint64_t> delays_fs, std::set<uint32_t> drop_once)
    : sc_module(name), cfg_(c), fabric_("fabric") {
  sender_ = std::make_unique<SackSenderBridge>("A_sack_tx", cfg_, mode, pool_);
  receiver_ = std::make_unique<SackReceiverBridge>("B_sack_rx", cfg_, mode, pool_);
  // acks on the fastest path, or each on the path of the data it answers
  // (the reverse direction of every path, with its delay)
  const bool on_data = cfg_.choice(key::sack_ack_path) == "data";
  const std::vector<uint64_t> ack_delays =
      on_data ? delays_fs : std::vector<uint64_t>{*std::min_element(delays_fs.begin(), delays_fs.end())};
  receiver_->set_ack_on_data_path(on_data);
  data_ = std::make_unique<MultiPathWire>("paths_A_to_B", cfg_, std::move(delays_fs), std::move(drop_once));
  ack_ = std::make_unique<MultiPathWire>(on_data ? "ack_paths_B_to_A" : "ack_path_B_to_A", cfg_, ack_delays,
                                         std::set<uint32_t>{});
  connection_.connect(fabric_, *sender_, *receiver_, *data_, *ack_, *data_);
  data_->on_sent = [this](const Packet& p, uint64_t, uint64_t end) { sender_->sent(p.psn, end); };
}

}  // namespace ubsim
