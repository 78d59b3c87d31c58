// The throughput experiment (spec §11): bandwidth vs slots, and the bound
// named. Expected bounds are computed here from the spec's defaults (322 MHz,
// 2-cycle UB interval, software stage times, DRAM 51.2 GB/s), not read from
// the experiment's own formulas.
#include <catch2/catch.hpp>

#include <string>

#include "json_value.h"
#include "run_command.h"

namespace json = ubsim::json;

namespace {

json::Value run_json(const std::string& args) {
  const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) + " throughput " + args + " --format json");
  INFO(args << "\n" << r.out);
  REQUIRE(r.status == 0);
  return json::parse(r.out);
}

const json::Value& point(const json::Value& doc, const std::string& path, double size, double slots) {
  for (const auto& row : doc.get("results")->items)
    if (row.str("path") == path && row.num("size_bytes") == size && row.num("slots") == slots) return row;
  FAIL("no point " << path << " " << size << " " << slots);
  throw;
}

}  // namespace

TEST_CASE("throughput: every point at its smallest bound, and the bound named is the one that holds",
          "[throughput]") {
  const json::Value doc = run_json("--path all --size 64B,4KiB --slots 1,8,32,256");
  // ub-load, 64 B: N x m / T0 until the send pipeline's 2-cycle interval,
  // 64 B / (2 / 322 MHz) = 10.304 GB/s
  const auto& l8 = point(doc, "ub-load", 64, 8);
  CHECK(l8.str("bound") == "slots");
  CHECK(l8.num("gbytes_per_s") == Approx(8 * 64 / l8.num("t0_ns")).epsilon(0.02));
  // with 256 Loads ready, the core's 16 outstanding-miss buffers are its
  // slots: 16 x 64 B / T0, every slot time still T0 (the waiting is before)
  const auto& l256 = point(doc, "ub-load", 64, 256);
  CHECK(l256.str("bound") == "miss_buffers");
  CHECK(l256.num("bound_gbytes_per_s") == Approx(16 * 64 / l256.num("t0_ns")).epsilon(0.001));
  CHECK(l256.num("gbytes_per_s") == Approx(16 * 64 / l256.num("t0_ns")).epsilon(0.02));
  CHECK(l256.num("slot_time_ns.mean") == Approx(l256.num("t0_ns")).epsilon(0.02));
  // ub-async: node A's one core runs 50 + 30 + 5 + 30 = 115 ns of software
  // per request: 64 B / 115 ns = 0.5565 GB/s
  const auto& a32 = point(doc, "ub-async", 64, 32);
  CHECK(a32.str("bound") == "software");
  CHECK(a32.num("bound_gbytes_per_s") == Approx(64 / 115.0).epsilon(0.001));
  CHECK(a32.num("gbytes_per_s") == Approx(64 / 115.0).epsilon(0.02));
  CHECK(a32.str("busiest") == "sys.A_cpu");
  // pcie-nic: 50 + 30 + 70 + 30 + 50 = 230 ns of software per request
  const auto& p32 = point(doc, "pcie-nic", 64, 32);
  CHECK(p32.str("bound") == "software");
  CHECK(p32.num("gbytes_per_s") == Approx(64 / 230.0).epsilon(0.02));
  // ub-load, 4 KiB: node B's DRAM is held 5 ns + 4032 B / 51.2 GB/s per read
  // (the first, only, packet's fetch): 4096 / 83.75 ns = 48.907 GB/s, below
  // the 49.6 GB/s payload rate of the wire
  const auto& l4k = point(doc, "ub-load", 4096, 256);   // 16 miss buffers x 4 KiB / T0 is far above
  CHECK(l4k.str("bound") == "memory");
  CHECK(l4k.str("memory_resource") == "B DRAM");
  CHECK(l4k.num("bound_gbytes_per_s") == Approx(4096 / (5 + 4032 / 51.2)).epsilon(0.001));
  CHECK(l4k.num("gbytes_per_s") == Approx(4096 / (5 + 4032 / 51.2)).epsilon(0.02));
  CHECK(l4k.num("bounds_gbytes_per_s.path") == Approx(50.0 * 4096 / 4128).epsilon(0.001));
  // at N = 1 the measured bandwidth is m / T0 exactly (the same run)
  for (const char* path : {"ub-load", "ub-async", "pcie-nic"}) {
    const auto& one = point(doc, path, 64, 1);
    CHECK(one.num("of_bound") == Approx(1.0).epsilon(1e-6));
  }
}

TEST_CASE("throughput: with enough miss buffers the Load/Store path reaches the send pipeline's interval",
          "[throughput]") {
  const json::Value doc = run_json("--path ub-load --size 64B --slots 256 --set core.outstanding_loads=256");
  // 64 B / (2 cycles at 322 MHz) = 10.304 GB/s
  const auto& l = point(doc, "ub-load", 64, 256);
  CHECK(l.str("bound") == "issue");
  CHECK(l.num("bound_gbytes_per_s") == Approx(64 / (2 * 1e3 / 322.0)).epsilon(0.001));
  CHECK(l.num("gbytes_per_s") == Approx(10.304).epsilon(0.02));
}

TEST_CASE("throughput: the NIC's PCIe tags bound its reads where they are few", "[throughput]") {
  const json::Value doc = run_json("--path pcie-nic --size 4KiB --slots 256 --set pcie.tags=4 --set host.cores=8");
  // node B reads each 4 KiB message in 8 requests of 512 B (MRRS); each
  // holds a tag for 500 ns plus its two 256 B completions' extra bytes
  // (2 x 280 - 88 B at 31.5 GB/s): 4 tags x 4096 B / (8 x 514.98 ns)
  const auto& r = point(doc, "pcie-nic", 4096, 256);
  const double hold = 8 * (500 + (2 * 280 - 88) / 31.5);
  CHECK(r.str("bound") == "pcie_tags");
  CHECK(r.num("bound_gbytes_per_s") == Approx(4 * 4096 / hold).epsilon(0.001));
  CHECK(r.num("gbytes_per_s") == Approx(4 * 4096 / hold).epsilon(0.02));
}

TEST_CASE("throughput: bad sizes and slot lists fail in one line, exit 2", "[throughput]") {
  const auto bad = ubsim::test::run_command(std::string(UBSIM_BIN) + " throughput --size 2GiB");
  CHECK(bad.status == 2);
  CHECK(bad.out.find("option --size") != std::string::npos);
  const auto slots = ubsim::test::run_command(std::string(UBSIM_BIN) + " throughput --slots 0");
  CHECK(slots.status == 2);
  CHECK(slots.out.find("--slots") != std::string::npos);
}

TEST_CASE("throughput: two submitting cores, each with its own Jetty / QP, double the software bound",
          "[throughput]") {
  // 32 slots: each core's QP holds at most 16 in the NIC's order tracker, so
  // no request waits behind another QP's full window at the NIC's input
  const json::Value doc = run_json("--path all --size 64B,4KiB --slots 32 --set host.cores=2");
  // software: 2 cores x 64 B / 115 ns (ub-async), / 230 ns (pcie-nic)
  const auto& a = point(doc, "ub-async", 64, 32);
  CHECK(a.str("bound") == "software");
  CHECK(a.num("bound_gbytes_per_s") == Approx(2 * 64 / 115.0).epsilon(0.001));
  CHECK(a.num("gbytes_per_s") == Approx(2 * 64 / 115.0).epsilon(0.02));
  const auto& p = point(doc, "pcie-nic", 64, 32);
  CHECK(p.num("gbytes_per_s") == Approx(2 * 64 / 230.0).epsilon(0.02));
  // 4 KiB: with the cores out of the way, node B's DRAM binds ub-async
  // (4096 / (5 + 4032 / 51.2) ns), and node A's PCIe link the NIC: per read
  // the device -> host direction carries the descriptor's read request
  // (24 B), the payload in 16 TLPs of 256 + 24 B and the completion record
  // (64 + 24 B) at 31.5 GB/s
  const auto& a4 = point(doc, "ub-async", 4096, 32);
  CHECK(a4.str("bound") == "memory");
  CHECK(a4.str("memory_resource") == "B DRAM");
  CHECK(a4.num("gbytes_per_s") == Approx(4096 / (5 + 4032 / 51.2)).epsilon(0.02));
  const auto& p4 = point(doc, "pcie-nic", 4096, 32);
  CHECK(p4.str("bound") == "memory");
  CHECK(p4.str("memory_resource") == "A PCIe");
  const double up_ns = (24 + 16 * (256 + 24) + 64 + 24) / 31.5;
  CHECK(p4.num("bound_gbytes_per_s") == Approx(4096 / up_ns).epsilon(0.001));
  CHECK(p4.num("gbytes_per_s") == Approx(4096 / up_ns).epsilon(0.02));
}
