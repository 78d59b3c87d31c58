#include "stage.h"

#include <stdexcept>

namespace ubsim {

const std::vector<OpInfo>& op_catalog() {
  static const std::vector<OpInfo> catalog = {
      {Op::SwSubmit, "sw.submit", ComponentKind::Cpu, "sw.submit", "software", false, "library submit"},
      {Op::SwBuildDescriptor, "sw.build_descriptor", ComponentKind::Cpu, "sw.build_descriptor", "software", false, "build descriptor"},
      {Op::SwCqPollPcie, "sw.cq_poll_pcie", ComponentKind::Cpu, "sw.cq_poll_pcie", "completion", false, "completion-queue poll"},
      {Op::SwCqPollBus, "sw.cq_poll_bus", ComponentKind::Cpu, "sw.cq_poll_bus", "completion", false, "completion-queue poll"},
      {Op::SwLibPoll, "sw.lib_poll", ComponentKind::Cpu, "sw.lib_poll", "completion", false, "library poll"},
      {Op::SwSeqAlloc, "sw.seq_alloc", ComponentKind::Cpu, "sw.seq_alloc", "completion", false, "in-order sequence allocation"},
      {Op::SwCqBatchWait, "sw.cq_batch_wait", ComponentKind::CompletionQueue, "", "completion", false,
       "completion waits for its batch"},
      {Op::SwDoorbellBatchWait, "sw.doorbell_batch_wait", ComponentKind::DoorbellBatcher, "", "software", false,
       "work request waits for its doorbell"},
      {Op::PcieDoorbell, "pcie.doorbell", ComponentKind::Pcie, "pcie.doorbell", "PCIe", false, "doorbell write"},
      {Op::PcieDmaRead, "pcie.dma_read", ComponentKind::Pcie, "pcie.dma_read", "PCIe", false, "PCIe DMA read"},
      {Op::PcieDmaWrite, "pcie.dma_write", ComponentKind::Pcie, "pcie.dma_write", "PCIe", false, "PCIe DMA write"},
      {Op::BusTraversal, "bus.traversal", ComponentKind::Bus, "bus.traversal", "bus", false, "on-chip bus transaction"},
      {Op::DramRowHit, "dram.row_hit", ComponentKind::Dram, "dram.row_hit", "memory", false, "DRAM row hit"},
      {Op::DramRowMiss, "dram.row_miss", ComponentKind::Dram, "dram.row_miss", "memory", false, "DRAM row miss"},
      {Op::NicTx, "nic.tx", ComponentKind::Nic, "pipeline.pcie_nic", "NIC", true, "NIC TX pipeline"},
      {Op::NicRx, "nic.rx", ComponentKind::Nic, "pipeline.pcie_nic", "NIC", true, "NIC RX pipeline"},
      {Op::UbTx, "ub.tx", ComponentKind::Ub, "pipeline.ub_async", "NIC", true, "controller TX pipeline"},
      {Op::UbRx, "ub.rx", ComponentKind::Ub, "pipeline.ub_async", "NIC", true, "controller RX pipeline"},
      {Op::UbLoadTx, "ub.load_tx", ComponentKind::Ub, "pipeline.ub_load", "NIC", true, "controller TX (Load/Store path)"},
      {Op::UbLoadRx, "ub.load_rx", ComponentKind::Ub, "pipeline.ub_load", "NIC", true, "controller RX (Load/Store path)"},
      {Op::WireRequest, "wire.request", ComponentKind::Wire, "wire.latency", "wire", false, "wire out"},
      {Op::WireResponse, "wire.response", ComponentKind::Wire, "wire.latency", "wire", false, "wire back"},
  };
  return catalog;
}

const OpInfo& op_info(Op op) {
  for (const auto& i : op_catalog())
    if (i.op == op) return i;
  throw std::logic_error("op_info: op missing from catalog");
}

const OpInfo* find_op(const std::string& name) {
  for (const auto& i : op_catalog())
    if (name == i.name) return &i;
  return nullptr;
}

}  // namespace ubsim
