// Stages: the operations a path is composed of, and who owns each.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ubsim {

// Component kinds of a node (plus the wire between the nodes).
enum class ComponentKind { Cpu, Pcie, Bus, Dram, Nic, Ub, Wire, App };

enum class Op {
  SwSubmit, SwBuildDescriptor, SwCqPollPcie, SwCqPollBus, SwLibPoll, SwSeqAlloc,
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
  const char* param_key;   // configuration key of its latency (ns or cycles)
  const char* category;    // software, PCIe, bus, memory, NIC, wire, completion
  bool in_cycles;          // latency given in controller clock cycles
  const char* label;       // default label in the breakdown table
};

const std::vector<OpInfo>& op_catalog();
const OpInfo& op_info(Op op);
// nullptr when the name is unknown.
const OpInfo* find_op(const std::string& name);

enum class NodeId : uint8_t { A = 0, B = 1 };

// One hop of a path: an operation, the node whose component runs it, a label.
struct HopSpec {
  Op op;
  NodeId node;
  std::string label;
};

}  // namespace ubsim
