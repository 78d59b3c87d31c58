// The PCIe experiment (spec §12, textbook §7.3.4 and figure 7-28): a DMA
// engine on the NIC issues reads (or posted writes) of m bytes at random
// 64 B-aligned host addresses with K outstanding, over the PCIe link model
// (TLPs, tags, credits). Per K: ops/s and GB/s measured, beside the derived
// ceilings (link bandwidth, TLP overhead, tags / RTT, credits / RTT) and
// the one that holds named.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "experiment.h"
#include "simulation_run.h"
#include "pipeline_limits.h"
#include "pcie_drivers.h"
#include "pcie_link.h"
#include "transaction.h"

namespace ubsim {

namespace {

struct PcieRun {
  double ops_per_s = 0, rtt_ns = 0;
  double tag_waits = 0, credit_waits = 0, tags_max = 0, credits_max = 0;
};

PcieRun run_point(const Config& cfg, bool read, uint32_t bytes, uint64_t k, uint64_t ops) {
  const auto rows = rows_in_child([&] {
    SimulationRun run;
    auto& link = *new PcieLink("nic_pcie", cfg);
    auto& dma = *new DmaEngine("nic_dma", link, read, bytes, k, ops, cfg.count(key::seed));
    run.run();
    run.finish();
    const double window_s = static_cast<double>(dma.window_end_fs - dma.window_start_fs) / 1e15;
    using V = json::Value;
    return std::vector<V>{V::object()
                              .add("ops_per_s", V::number(window_s > 0 ? static_cast<double>(dma.window_ops) / window_s : 0))
                              .add("rtt_ns", V::number(dma.rtt_n ? static_cast<double>(dma.rtt_sum_fs / dma.rtt_n) / 1e6 : 0))
                              .add("tag_waits", V::number(static_cast<double>(link.tag_waits())))
                              .add("credit_waits", V::number(static_cast<double>(link.credit_waits())))
                              .add("tags_max", V::number(link.tags_in_use_max()))
                              .add("credits_max", V::number(link.np_credits_in_use_max()))};
  });
  const json::Value& v = rows.at(0);
  return {v.num("ops_per_s"), v.num("rtt_ns"), v.num("tag_waits"), v.num("credit_waits"), v.num("tags_max"),
          v.num("credits_max")};
}

ResultSet run(Config& cfg, const Options& o) {
  validate_config(cfg);
  const std::string verb = o.text("--verb");
  const uint64_t ops = o.count("--ops");
  Config sized = cfg;
  sized.apply(key::workload_size, o.text("--size"), "option --size");
  const auto m = static_cast<uint32_t>(sized.count(key::workload_size));
  const double rate = cfg.value(key::pcie_bandwidth);
  const double ovh = static_cast<double>(cfg.count(key::pcie_tlp_overhead));
  const uint64_t mps = cfg.count(key::pcie_max_payload), mrrs = cfg.count(key::pcie_max_read_request);
  // TLPs per operation at a 64 B-aligned address that is also aligned to
  // them (derived): read requests, completions, write TLPs
  const double requests = std::ceil(static_cast<double>(m) / static_cast<double>(mrrs));
  const double payload_tlps = std::ceil(static_cast<double>(m) / static_cast<double>(mps));
  const double inf = std::numeric_limits<double>::infinity();
  using V = json::Value;
  ResultSet rs;
  for (const std::string& v : verb == "both" ? std::vector<std::string>{"read", "write"}
                                             : std::vector<std::string>{verb}) {
    const bool read = v == "read";
    const PcieRun unloaded = run_point(cfg, read, m, 1, std::min<uint64_t>(ops, 2000));
    const double rtt0_s = unloaded.rtt_ns / 1e9;
    // ceilings, operations per second
    const double c_link = rate / m;
    const double c_overhead = read ? rate / std::max(m + payload_tlps * ovh, requests * ovh)
                                   : rate / (m + payload_tlps * ovh);
    const double c_tags = read ? static_cast<double>(cfg.count(key::pcie_tags)) / (requests * rtt0_s) : inf;
    // a non-posted credit is held for the read's round trip; a posted one
    // from its send until the host consumed it and the update came back
    const double p_loop_s = (cfg.value(key::pcie_dma_write) + cfg.value(key::pcie_propagation)) / 1e15;
    const double c_credits = read ? static_cast<double>(cfg.count(key::pcie_np_credits)) / (requests * rtt0_s)
                                  : static_cast<double>(cfg.count(key::pcie_p_credits)) / (payload_tlps * p_loop_s);
    for (uint64_t k : o.counts("--outstanding")) {
      const PcieRun x = run_point(cfg, read, m, k, ops);
      const std::vector<std::pair<std::string, double>> ceilings = {
          {"link", c_link}, {"overhead", c_overhead}, {"tags", c_tags}, {"credits", c_credits},
          {"outstanding", static_cast<double>(k) / (read ? rtt0_s : unloaded.rtt_ns / 1e9)}};
      const auto bound = std::min_element(ceilings.begin(), ceilings.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
      V cv = V::object();
      for (const auto& [name, ops_s] : ceilings) cv.add(name, std::isinf(ops_s) ? V::null() : V::number(ops_s));
      rs.rows.push_back(V::object()
                            .add("verb", V::string(v))
                            .add("size_bytes", V::number(m))
                            .add("outstanding", V::number(static_cast<double>(k)))
                            .add("ops_per_s", V::number(x.ops_per_s))
                            .add("gbytes_per_s", V::number(x.ops_per_s * m / 1e9))
                            .add("rtt_ns", V::number(x.rtt_ns))
                            .add("rtt0_ns", V::number(unloaded.rtt_ns))
                            .add("ceilings_ops_per_s", cv)
                            .add("bound", V::string(bound->first))
                            .add("of_bound", V::number(x.ops_per_s / bound->second))
                            .add("tag_waits", V::number(x.tag_waits))
                            .add("credit_waits", V::number(x.credit_waits))
                            .add("tags_in_use_max", V::number(x.tags_max))
                            .add("np_credits_in_use_max", V::number(x.credits_max)));
    }
  }
  rs.notes = fmt::format(
      "DMA engine with K operations outstanding at random 64 B-aligned host addresses; PCIe link {:.4g} GB/s per\n"
      "direction, {} B per TLP beyond its payload, MPS {} B, MRRS {} B, RCB {} B, {} tags, {} non-posted and {}\n"
      "posted credits. rtt = issue -> data back (read) or visible (write), mean; rtt0 at K = 1 (measured).\n"
      "ceilings (derived): link = rate / m; overhead = rate / (m + TLPs x overhead) on the busier direction;\n"
      "tags = tags / (requests x rtt0); credits = non-posted credits / (requests x rtt0), or posted credits /\n"
      "(TLPs x (pcie.dma_write + pcie.propagation)) for writes; outstanding = K / rtt0. bound = the smallest.\n",
      rate / 1e9, cfg.count(key::pcie_tlp_overhead), mps, mrrs, cfg.count(key::pcie_rcb), cfg.count(key::pcie_tags),
      cfg.count(key::pcie_np_credits), cfg.count(key::pcie_p_credits));
  return rs;
}

}  // namespace

const Experiment& pcie_experiment() {
  static const Experiment e{
      "pcie",
      "PCIe DMA as transactions: reads limited by tags and credits, writes by TLP overhead (spec 12)",
      "A DMA engine on the NIC issues random reads (non-posted: a tag and a credit each until the data is back)\n"
      "or writes (posted) of --size bytes to host memory with K outstanding, over the PCIe link model. Per K\n"
      "the measured ops/s and GB/s, the round trip, and the derived ceilings with the one that holds named.",
      {opt_choice("--verb", {"read", "write", "both"}, "both", "DMA reads, writes or both"),
       opt_text("--size", "B", "64B", "bytes per operation"),
       opt_counts("--outstanding", "LIST", 1, 65536, "1,2,4,8,16,32,48,64,96,128,256",
                  "operations in flight K, comma-separated"),
       opt_count("--ops", "N", 100, 100000000, "20000", "operations per point (the first and last 10 % not measured)")},
      {"verb", "size_bytes", "outstanding"},
      {{"ops_per_s", "1/s", "operations completed per second (measured window)"},
       {"gbytes_per_s", "GB/s", "payload per second"},
       {"rtt_ns", "ns", "issue -> data back (read) / visible (write), mean"},
       {"rtt0_ns", "ns", "the same at K = 1"},
       {"ceilings_ops_per_s", "1/s", "derived: link, overhead, tags, credits, outstanding (null: none)"},
       {"bound", "", "the smallest ceiling"},
       {"of_bound", "", "measured / bound"},
       {"tag_waits", "requests", "read requests that waited for a tag"},
       {"credit_waits", "requests", "read requests that had a tag and waited for a non-posted credit"},
       {"tags_in_use_max", "tags", "most tags held at once"},
       {"np_credits_in_use_max", "credits", "most non-posted credits held at once"}},
      "pcie",
      "plot_pcie.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
