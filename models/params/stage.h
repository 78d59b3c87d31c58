// Stages: the operations a path is composed of, and who owns each.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ubsim {

// Component kinds of a node (plus the wire between the nodes).
enum class ComponentKind { Cpu, Pcie, Bus, Dram, Nic, Ub, Wire, App, CompletionQueue, DoorbellBatcher };

enum class Op {
  SwSubmit, SwBuildDescriptor, SwCqPollPcie, SwCqPollBus, SwLibPoll, SwSeqAlloc, SwCqBatchWait, SwDoorbellBatchWait,
  PcieDoorbell, PcieDmaRead, PcieDmaWrite,
  BusTraversal,
  DramRowHit, DramRowMiss,
  NicTx, NicRx,
  UbTx, UbRx, UbLoadTx, UbLoadRx,
  WireRequest, WireResponse,
  Count_   // the number of operations (not an operation)
};
inline constexpr size_t kOpCount = static_cast<size_t>(Op::Count_);

struct OpInfo {
  Op op;
  const char* name;        // as written in a route: "pcie.dma_read"
  ComponentKind owner;
  const char* param_key;   // configuration key of its latency (ns or cycles); "" = none (a wait)
  const char* category;    // software, PCIe, bus, memory, NIC, wire, completion
  bool in_cycles;          // latency given in controller clock cycles
  const char* label;       // default label in the breakdown table
};

const std::vector<OpInfo>& op_catalog();
// Whether the stage has a configured latency (a wait such as the completion
// batch has none: its derived time is 0).
inline bool has_latency_key(const OpInfo& info) { return *info.param_key != 0; }
const OpInfo& op_info(Op op);
// nullptr when the name is unknown.
const OpInfo* find_op(const std::string& name);

enum class NodeId : uint8_t { A = 0, B = 1 };

// One hop of a path: an operation, the node whose component runs it, a label.
// per_packet ("B:dram.row_hit*" in a route): a stage after a receive
// pipeline that every packet of a message takes on its own (placing its
// payload), not the message once.
struct HopSpec {
  Op op;
  NodeId node;
  std::string label;
  bool per_packet = false;
};

// Send pipelines (where a message is cut into packets), the wire, receive
// pipelines.
inline bool is_send_op(Op op) { return op == Op::NicTx || op == Op::UbTx || op == Op::UbLoadTx; }
inline bool is_link_op(Op op) { return op == Op::WireRequest || op == Op::WireResponse; }
inline bool is_receive_op(Op op) { return op == Op::NicRx || op == Op::UbRx || op == Op::UbLoadRx; }
// Memory-side stages whose time grows with the bytes they move.
inline bool is_transfer_op(Op op) {
  return op == Op::BusTraversal || op == Op::DramRowHit || op == Op::DramRowMiss || op == Op::PcieDmaRead ||
         op == Op::PcieDmaWrite;
}

}  // namespace ubsim
