#include "routes.h"

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace ubsim {

const std::vector<std::string> kPathIds = {"pcie-nic", "ub-async", "ub-load"};

std::vector<std::string> default_route(const std::string& path, const std::string& verb) {
  const bool read = verb == "read";
  if (path == "pcie-nic") {
    std::vector<std::string> r = {
        "A:sw.submit", "A:sw.build_descriptor", "A:pcie.doorbell|doorbell write",
        "A:pcie.dma_read|NIC DMA-reads descriptor", "A:nic.tx|NIC TX pipeline",
        "A:wire.request|wire out", "B:nic.rx|target NIC RX pipeline"};
    if (read) {
      r.insert(r.end(), {"B:pcie.dma_read|target NIC DMA-reads host memory",
                         "B:dram.row_hit|target DRAM row hit"});
    } else {
      // Up to 64 B the payload travels inline with the descriptor (beyond,
      // the NIC fetches it per packet); the target NIC places each packet
      // with a posted write ('*': per packet) before acknowledging.
      r.insert(r.end(), {"B:pcie.dma_write*|target NIC DMA-writes host memory",
                         "B:dram.row_hit*|target DRAM row hit"});
    }
    r.insert(r.end(), {"B:nic.tx|target NIC TX response", "B:wire.response|wire back",
                       "A:nic.rx|NIC RX response"});
    if (read) r.push_back("A:pcie.dma_write*|response payload DMA write");
    r.insert(r.end(), {"A:pcie.dma_write|completion record DMA write",
                       "A:sw.cq_poll_pcie|completion-queue poll", "A:sw.lib_poll|library poll",
                       "A:sw.seq_alloc|in-order sequence allocation"});
    return r;
  }
  if (path == "ub-async") {
    return {"A:sw.submit", "A:sw.build_descriptor", "A:bus.traversal|on-chip bus submit",
            "A:ub.tx|NIC TX pipeline", "A:wire.request|wire out", "B:ub.rx|target NIC RX pipeline",
            "B:bus.traversal*|target on-chip bus access", "B:dram.row_hit*|target DRAM row hit",
            "B:ub.tx|target NIC TX response", "B:wire.response|wire back",
            "A:ub.rx|NIC RX response", "A:bus.traversal*|on-chip bus completion",
            "A:sw.cq_poll_bus|completion-queue poll", "A:sw.lib_poll|library poll"};
  }
  if (path == "ub-load") {
    return {"A:bus.traversal|on-chip bus submit", "A:ub.load_tx|NIC TX pipeline",
            "A:wire.request|wire out", "B:ub.load_rx|target NIC RX pipeline",
            "B:bus.traversal*|target on-chip bus access", "B:dram.row_hit*|target DRAM row hit",
            "B:ub.load_tx|target NIC TX response", "B:wire.response|wire back",
            "A:ub.load_rx|NIC RX response", "A:bus.traversal*|on-chip bus completion"};
  }
  throw std::invalid_argument("unknown path " + path);
}

bool add_completion_batch_wait(std::vector<HopSpec>& hops) {
  size_t after_wire = 0;
  for (size_t i = 0; i < hops.size(); ++i)
    if (is_link_op(hops[i].op)) after_wire = i + 1;
  for (size_t i = after_wire; i < hops.size(); ++i) {
    const OpInfo& info = op_info(hops[i].op);
    if (hops[i].node == NodeId::A && info.owner == ComponentKind::Cpu && std::string(info.category) == "completion") {
      hops.insert(hops.begin() + static_cast<std::ptrdiff_t>(i),
                  HopSpec{Op::SwCqBatchWait, NodeId::A, "completion waits for the batch handler"});
      return true;
    }
  }
  return false;
}

int add_doorbell_batch_wait(std::vector<HopSpec>& hops) {
  for (size_t i = 0; i + 1 < hops.size(); ++i)
    if (hops[i].node == NodeId::A && hops[i].op == Op::PcieDoorbell && hops[i + 1].node == NodeId::A &&
        hops[i + 1].op == Op::PcieDmaRead) {
      hops.insert(hops.begin() + static_cast<std::ptrdiff_t>(i),
                  HopSpec{Op::SwDoorbellBatchWait, NodeId::A, "work request waits for its doorbell"});
      return static_cast<int>(i + 2);
    }
  return -1;
}

bool parse_hop(const std::string& text, HopSpec& hop, std::string& error) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    error = fmt::format("stage '{}' is not NODE:op (e.g. \"A:sw.submit\")", text);
    return false;
  }
  const std::string node = text.substr(0, colon);
  if (node == "A") hop.node = NodeId::A;
  else if (node == "B") hop.node = NodeId::B;
  else {
    error = fmt::format("stage '{}': node '{}' is not A or B", text, node);
    return false;
  }
  std::string rest = text.substr(colon + 1);
  std::string label;
  if (const auto bar = rest.find('|'); bar != std::string::npos) {
    label = rest.substr(bar + 1);
    rest = rest.substr(0, bar);
  }
  hop.per_packet = !rest.empty() && rest.back() == '*';
  if (hop.per_packet) rest.pop_back();
  const OpInfo* info = find_op(rest);
  if (info && info->op == Op::SwCqBatchWait) {
    error = fmt::format("stage '{}': the completion batch wait is not written in a route (sw.cq_batch > 0 adds it)", text);
    return false;
  }
  if (info && info->op == Op::SwDoorbellBatchWait) {
    error = fmt::format("stage '{}': the doorbell batch wait is not written in a route (sw.wr_per_doorbell > 1 adds it)",
                        text);
    return false;
  }
  if (!info) {
    std::string names;
    for (const auto& o : op_catalog())
      if (o.op != Op::SwCqBatchWait && o.op != Op::SwDoorbellBatchWait) names += std::string(names.empty() ? "" : ", ") + o.name;
    error = fmt::format("stage '{}': unknown operation '{}' (known: {})", text, rest, names);
    return false;
  }
  hop.op = info->op;
  hop.label = label.empty() ? (hop.node == NodeId::B ? std::string("target ") : std::string()) + info->label
                            : label;
  return true;
}

std::map<std::string, double> load_reference_csv(const std::string& csv_path) {
  std::map<std::string, double> out;
  std::ifstream in(csv_path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto c1 = line.find(',');
    if (c1 == std::string::npos) continue;
    const auto c2 = line.find(',', c1 + 1);
    try {
      out[line.substr(0, c1)] = std::stod(line.substr(c1 + 1, c2 - c1 - 1));
    } catch (const std::exception&) {
      continue;   // header or malformed row: the references are informational only
    }
  }
  return out;
}

}  // namespace ubsim
