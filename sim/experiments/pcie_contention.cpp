// PCIe contention (spec §12, textbook figure 7-29): two flows share one
// direction of the NIC's PCIe link. Into the NIC (host -> device): posted
// writes from a host-side agent into the NIC's memory (a CPU core or a peer
// device's copy engine behind the root port), offered open loop, and the
// completions of the NIC's own DMA reads of host memory (K reads in flight).
// Out of the NIC (device -> host): the NIC's posted writes to host memory,
// offered open loop, and the completions it returns for the host's reads
// of its memory (K host reads in flight). The host -> device direction
// forwards TLPs in arrival order; the device -> host one alternates between
// the NIC's posted and completion queues (its DMA engine and completer
// share its internal path). Per offered write load: each flow's delivered
// bandwidth and the reads' loaded round trip, beside K x m / RTT_loaded.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "experiment.h"
#include "simulation_run.h"
#include "pipeline_limits.h"
#include "pcie_drivers.h"
#include "pcie_link.h"
#include "transaction.h"

namespace ubsim {

namespace {

ResultSet run(Config& cfg, const Options& o) {
  validate_config(cfg);
  Config sized = cfg;
  sized.apply(key::workload_size, o.text("--size"), "option --size");
  const auto m = static_cast<uint32_t>(sized.count(key::workload_size));
  const uint64_t k = o.count("--outstanding");
  const double rate = cfg.value(key::pcie_bandwidth);
  const double ovh = static_cast<double>(cfg.count(key::pcie_tlp_overhead));
  const double mps = static_cast<double>(cfg.count(key::pcie_max_payload));
  // the direction's payload capacity for m-byte writes (derived)
  const double link_payload = rate * m / (m + std::ceil(m / mps) * ovh);
  const uint64_t span_fs = static_cast<uint64_t>(o.count("--duration-us")) * 1000000000ull;
  using V = json::Value;
  ResultSet rs;
  for (const std::string dir : {"into-nic", "out-of-nic"})
    for (double f : o.reals("--offered")) {
      const double write_rate = f * link_payload / m;   // writes per second
      const auto rows = rows_in_child([&] {
        SimulationRun run;
        auto& link = *new PcieLink("nic_pcie", cfg);
        auto& drv = *new ContentionDriver("agents", link, dir == "into-nic", m, write_rate, k, span_fs / 4, span_fs);
        run.run(span_fs);
        run.finish();
        const double window_s = static_cast<double>(span_fs - span_fs / 4) / 1e15;
        return std::vector<V>{V::object()
                                  .add("w", V::number(drv.write_bytes / window_s / 1e9))
                                  .add("r", V::number(drv.read_bytes / window_s / 1e9))
                                  .add("rtt", V::number(drv.rtt_n ? static_cast<double>(drv.rtt_sum_fs / drv.rtt_n) / 1e6 : 0))};
      });
      const V& x = rows.at(0);
      const double rtt = x.num("rtt");
      rs.rows.push_back(V::object()
                            .add("direction", V::string(dir))
                            .add("offered_fraction", V::number(f))
                            .add("size_bytes", V::number(m))
                            .add("outstanding_reads", V::number(static_cast<double>(k)))
                            .add("offered_gbytes_per_s", V::number(f * link_payload / 1e9))
                            .add("writes_gbytes_per_s", V::number(x.num("w")))
                            .add("reads_gbytes_per_s", V::number(x.num("r")))
                            .add("read_rtt_ns", V::number(rtt))
                            .add("derived_reads_gbytes_per_s", V::number(rtt > 0 ? k * m / rtt : 0))
                            .add("link_payload_gbytes_per_s", V::number(link_payload / 1e9)));
    }
  rs.notes = fmt::format(
      "into-nic: a host agent's posted writes into the NIC (open loop, offered as a fraction of the direction's\n"
      "payload capacity {:.4g} GB/s for {} B writes) and the completions of the NIC's {} DMA reads in flight;\n"
      "out-of-nic: the NIC's posted writes to the host and the completions of {} host reads of NIC memory. Host ->\n"
      "device TLPs go in arrival order; the NIC alternates its posted and completion queues. Measured over the\n"
      "last 3/4 of {} us; derived_reads = K x m / read_rtt (the loaded round trip).\n",
      link_payload / 1e9, m, k, k, o.count("--duration-us"));
  return rs;
}

}  // namespace

const Experiment& pcie_contention_experiment() {
  static const Experiment e{
      "pcie-contention",
      "two flows on one direction of the NIC's PCIe link: posted writes vs read completions (spec 12, figure 7-29)",
      "Into the NIC: a host agent's posted writes into the NIC's memory at an offered rate, and the completions\n"
      "of the NIC's own DMA reads of host memory (K in flight). Out of the NIC: its posted writes to host memory\n"
      "and the completions it returns for the host's reads of its memory (K in flight). Per offered write load,\n"
      "each flow's delivered bandwidth and the reads' loaded round trip.",
      {opt_text("--size", "B", "256B", "bytes per write and per read"),
       opt_reals("--offered", "LIST", "a fraction in [0, 4]", [](double f) { return f >= 0 && f <= 4; },
                 "0,0.2,0.4,0.6,0.8,0.9,1.0,1.2", "offered write load, fractions of the direction's payload capacity"),
       opt_count("--outstanding", "K", 1, 4096, "32", "reads in flight (the NIC's DMA reads, or the host's)"),
       opt_count("--duration-us", "US", 10, 100000, "200", "simulated time per point (the first quarter warms up)")},
      {"direction", "offered_fraction"},
      {{"offered_gbytes_per_s", "GB/s", "offered posted-write payload"},
       {"size_bytes", "B", "m: the payload bytes of each TLP (writes) and each read"},
       {"outstanding_reads", "ops", "K: reads in flight at once"},
       {"writes_gbytes_per_s", "GB/s", "posted-write payload delivered"},
       {"reads_gbytes_per_s", "GB/s", "read payload delivered"},
       {"read_rtt_ns", "ns", "the reads' loaded round trip, mean"},
       {"derived_reads_gbytes_per_s", "GB/s", "K x m / read_rtt"},
       {"link_payload_gbytes_per_s", "GB/s", "the direction's payload capacity for m-byte TLPs (derived)"}},
      "pcie-contention",
      "plot_pcie_contention.py",
      true,
      run};
  return e;
}

}  // namespace ubsim
