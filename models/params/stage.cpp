#include "stage.h"

#include <stdexcept>

#include "param_keys.h"

namespace ubsim {

const std::vector<OpInfo>& op_catalog() {
  static const std::vector<OpInfo> catalog = {
      {Op::SwSubmit, "sw.submit", ComponentKind::Cpu, key::sw_submit.name, "software", false, "library submit"},
      {Op::SwBuildDescriptor, "sw.build_descriptor", ComponentKind::Cpu, key::sw_build_descriptor.name, "software", false, "build descriptor"},
      {Op::SwCqPollPcie, "sw.cq_poll_pcie", ComponentKind::Cpu, key::sw_cq_poll_pcie.name, "completion", false, "completion-queue poll"},
      {Op::SwCqPollBus, "sw.cq_poll_bus", ComponentKind::Cpu, key::sw_cq_poll_bus.name, "completion", false, "completion-queue poll"},
      {Op::SwLibPoll, "sw.lib_poll", ComponentKind::Cpu, key::sw_lib_poll.name, "completion", false, "library poll"},
      {Op::SwSeqAlloc, "sw.seq_alloc", ComponentKind::Cpu, key::sw_seq_alloc.name, "completion", false, "in-order sequence allocation"},
      {Op::SwCqBatchWait, "sw.cq_batch_wait", ComponentKind::CompletionQueue, "", "completion", false,
       "completion waits for its batch"},
      {Op::SwDoorbellBatchWait, "sw.doorbell_batch_wait", ComponentKind::DoorbellBatcher, "", "software", false,
       "work request waits for its doorbell"},
      {Op::PcieDoorbell, "pcie.doorbell", ComponentKind::Pcie, key::pcie_doorbell.name, "PCIe", false, "doorbell write"},
      {Op::PcieDmaRead, "pcie.dma_read", ComponentKind::Pcie, key::pcie_dma_read.name, "PCIe", false, "PCIe DMA read"},
      {Op::PcieDmaWrite, "pcie.dma_write", ComponentKind::Pcie, key::pcie_dma_write.name, "PCIe", false, "PCIe DMA write"},
      {Op::BusTraversal, "bus.traversal", ComponentKind::Bus, key::bus_traversal.name, "bus", false, "on-chip bus transaction"},
      {Op::DramRowHit, "dram.row_hit", ComponentKind::Dram, key::dram_row_hit.name, "memory", false, "DRAM row hit"},
      {Op::DramRowMiss, "dram.row_miss", ComponentKind::Dram, key::dram_row_miss.name, "memory", false, "DRAM row miss"},
      {Op::NicTx, "nic.tx", ComponentKind::Nic, key::pipeline_pcie_nic.name, "NIC", true, "NIC TX pipeline"},
      {Op::NicRx, "nic.rx", ComponentKind::Nic, key::pipeline_pcie_nic.name, "NIC", true, "NIC RX pipeline"},
      {Op::UbTx, "ub.tx", ComponentKind::Ub, key::pipeline_ub_async.name, "NIC", true, "controller TX pipeline"},
      {Op::UbRx, "ub.rx", ComponentKind::Ub, key::pipeline_ub_async.name, "NIC", true, "controller RX pipeline"},
      {Op::UbLoadTx, "ub.load_tx", ComponentKind::Ub, key::pipeline_ub_load.name, "NIC", true, "controller TX (Load/Store path)"},
      {Op::UbLoadRx, "ub.load_rx", ComponentKind::Ub, key::pipeline_ub_load.name, "NIC", true, "controller RX (Load/Store path)"},
      {Op::WireRequest, "wire.request", ComponentKind::Wire, key::wire_latency.name, "wire", false, "wire out"},
      {Op::WireResponse, "wire.response", ComponentKind::Wire, key::wire_latency.name, "wire", false, "wire back"},
  };
  return catalog;
}

// (the catalog lists the operations in their enum's order: found by index,
// checked; asked several times per hop)
const OpInfo& op_info(Op op) {
  const std::vector<OpInfo>& catalog = op_catalog();
  const auto i = static_cast<size_t>(op);
  if (i < catalog.size() && catalog[i].op == op) return catalog[i];
  throw std::logic_error("op_info: op missing from catalog, or out of its enum's order");
}

const OpInfo* find_op(const std::string& name) {
  for (const auto& i : op_catalog())
    if (name == i.name) return &i;
  return nullptr;
}

}  // namespace ubsim
