// The PCIe link as transactions (spec §12): the KV-Direct figures from the
// platform's parameters (ceilings computed here from the spec's numbers),
// tag and credit back-pressure that loses nothing, split completions that
// reassemble, and bad keys.
#include <catch2/catch.hpp>

#include <string>

#include "config.h"
#include "experiment.h"
#include "json_value.h"
#include "pcie_link.h"
#include "run_command.h"
#include "transaction.h"

namespace json = ubsim::json;

namespace {

json::Value run_json(const std::string& args) {
  const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) + " pcie " + args + " --format json");
  INFO(args << "\n" << r.out);
  REQUIRE(r.status == 0);
  return json::parse(r.out);
}

const json::Value& point(const json::Value& doc, const std::string& verb, double k) {
  for (const auto& row : doc.get("results")->items)
    if (row.str("verb") == verb && row.num("outstanding") == k) return row;
  FAIL("no point " << verb << " " << k);
  throw;
}

const std::string kKv = std::string(" --config ") + UBSIM_CONFIGS + "/kv-direct.toml";

}  // namespace

TEST_CASE("pcie: KV-Direct: 64 B reads held to 64 tags / 1050 ns, writes to the TLP overhead", "[pcie]") {
  const json::Value doc = run_json("--outstanding 1,32,64,128,256" + kKv);
  const double link = 62.98e9 / 8;   // bytes/s per direction
  for (double k : {64.0, 128.0, 256.0}) {
    const auto& r = point(doc, "read", k);
    INFO("K = " << k);
    CHECK(r.num("ops_per_s") == Approx(64 / 1050e-9).epsilon(0.03));   // 61 M/s
    CHECK(r.str("bound") == "tags");
    CHECK(r.num("tags_in_use_max") == 64);
    const auto& w = point(doc, "write", k);
    CHECK(w.num("ops_per_s") == Approx(link / (64 + 26)).epsilon(0.03));   // 87 M/s
    CHECK(w.str("bound") == "overhead");
  }
  CHECK(point(doc, "read", 64).num("ceilings_ops_per_s.link") == Approx(link / 64).epsilon(1e-3));   // 123 M/s
  CHECK(point(doc, "read", 1).num("rtt0_ns") == Approx(1050).epsilon(1e-6));
  CHECK(point(doc, "read", 32).str("bound") == "outstanding");
  CHECK(point(doc, "read", 32).num("ops_per_s") == Approx(32 / 1050e-9).epsilon(0.01));
  // beyond 64 outstanding the reads wait for a tag, never for a credit
  CHECK(point(doc, "read", 128).num("tag_waits") > 0);
  CHECK(point(doc, "read", 128).num("credit_waits") == 0);
}

TEST_CASE("pcie: with 128 tags the host's 84 non-posted credits bind", "[pcie]") {
  const json::Value doc = run_json("--verb read --outstanding 128,256" + kKv + " --set pcie.tags=128");
  for (double k : {128.0, 256.0}) {
    const auto& r = point(doc, "read", k);
    CHECK(r.num("ops_per_s") == Approx(84 / 1050e-9).epsilon(0.03));   // 80 M/s
    CHECK(r.str("bound") == "credits");
    CHECK(r.num("np_credits_in_use_max") == 84);
    CHECK(r.num("credit_waits") > 0);
  }
}

TEST_CASE("pcie: tags and credits back-pressure, nothing is lost, split completions reassemble", "[pcie]") {
  // in a child process: one SystemC simulation per process
  const auto rows = ubsim::rows_in_child([] {
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
    ubsim::Config cfg;
    cfg.apply_set("pcie.tags=3");
    cfg.apply_set("pcie.np_credits=2");
    cfg.apply_set("pcie.p_credits=1");
    cfg.apply_set("pcie.max_read_request=512B");
    cfg.apply_set("pcie.max_payload=128B");
    auto& link = *new ubsim::PcieLink("pcie_under_test", cfg);
    auto* reads_done = new int(0);
    auto* writes_done = new int(0);
    // 40 reads of 1000 B at an address 32 B past an RCB boundary: requests
    // at MRRS multiples, completions at RCB multiples of at most 128 B each;
    // the link checks every completion arrives at its request's next offset
    for (int i = 0; i < 40; ++i) link.dma_read(4096ull * i + 32, 1000, [=] { ++*reads_done; });
    for (int i = 0; i < 30; ++i) link.dma_write(8192ull * i, 300, [=] { ++*writes_done; });
    sc_core::sc_start();
    ubsim::StatsTable t;
    link.collect_stats(t);
    json::Value v = json::Value::object()
                        .add("reads_done", json::Value::number(*reads_done))
                        .add("writes_done", json::Value::number(*writes_done));
    for (const auto& row : t.rows) v.add(row.name, json::Value::number(row.value));
    return std::vector<json::Value>{v};
  });
  const json::Value& r = rows.at(0);
  CHECK(r.num("reads_done") == 40);
  CHECK(r.num("writes_done") == 30);
  CHECK(r.num("np_credits_in_use_max") == 2);
  CHECK(r.num("tags_in_use_max") == 2);   // a tag without a credit is not taken
  CHECK(r.num("credit_waits") > 0);
  // each 1000 B read at offset 32: requests [32,512) [512,1024) [1024,1032)
  // -> completions 96+128+128+128 | 128x4 | 8 = 4 + 4 + 1
  CHECK(r.num("completions") == 40 * 9);
  CHECK(r.num("p_credits_in_use_max") == 1);
}

TEST_CASE("pcie: bad PCIe keys fail in one line naming the key, exit 2", "[pcie]") {
  for (const char* set : {"pcie.tags=0", "pcie.max_payload=100B", "pcie.rcb=256B", "pcie.dma_read=100ns",
                          "pcie.tlp_overhead=-1B"}) {
    const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) + " pcie --set " + set);
    INFO(set << "\n" << r.out);
    CHECK(r.status == 2);
    const std::string key = std::string(set).substr(0, std::string(set).find('='));
    CHECK(r.out.find(key) != std::string::npos);
  }
}

TEST_CASE("pcie: nic.cqe_after = ordered writes the completion record right behind the payload", "[pcie]") {
  auto p50 = [](const std::string& sets) {
    const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) + " latency --path pcie-nic --ops 200 --format json" + sets);
    REQUIRE(r.status == 0);
    const json::Value doc = json::parse(r.out);
    return doc.get("results")->items.at(0).num("measured_total_ns.p50");
  };
  const double visible = p50(""), ordered = p50(" --set nic.cqe_after=ordered");
  // the completion record no longer waits for the payload write to become
  // visible (pcie.dma_write = 250 ns), only behind its TLP on the link
  // (64 + 24 B at 31.5 GB/s); up to a controller cycle of edge alignment
  CHECK(visible - ordered == Approx(250 - 88 / 31.5).margin(1e3 / 322.0));
  CHECK(visible == Approx(2229.81).margin(0.01));   // the default keeps the §4 read
}

TEST_CASE("pcie: posted writes are consumed in the order they were posted", "[pcie]") {
  const auto rows = ubsim::rows_in_child([] {
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
    ubsim::Config cfg;
    cfg.apply_set("pcie.p_credits=2");
    auto& link = *new ubsim::PcieLink("pcie_posted", cfg);
    auto* order = new std::vector<int>;
    // a long write, then short ones posted as soon as the previous is queued
    link.dma_write(0, 4096, [=] { order->push_back(0); }, [=, &link] {
      link.dma_write(8192, 64, [=] { order->push_back(1); });
      link.dma_write(16384, 8, [=] { order->push_back(2); });
    });
    sc_core::sc_start();
    json::Value v = json::Value::array();
    for (int i : *order) v.items.push_back(json::Value::number(i));
    return std::vector<json::Value>{json::Value::object().add("order", v)};
  });
  const json::Value* order = rows.at(0).get("order");
  REQUIRE(order->items.size() == 3);
  for (int i = 0; i < 3; ++i) CHECK(std::stod(order->items[i].text) == i);
}

TEST_CASE("pcie: contention: into the NIC the writes keep flowing, out of it both flows share", "[pcie]") {
  const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) +
                                          " pcie-contention --offered 0,1.2 --duration-us 100 --format json");
  REQUIRE(r.status == 0);
  const json::Value doc = json::parse(r.out);
  auto row = [&](const std::string& dir, double f) -> const json::Value& {
    for (const auto& x : doc.get("results")->items)
      if (x.str("direction") == dir && x.num("offered_fraction") == f) return x;
    FAIL("no row " << dir << " " << f);
    throw;
  };
  // 256 B TLPs at 31.5 GB/s with 24 B each: 28.8 GB/s of payload
  const double cap = 31.5 * 256 / 280;
  for (const char* dir : {"into-nic", "out-of-nic"}) {
    INFO(dir);
    const auto& alone = row(dir, 0);
    // 32 reads of 256 B alone: K x m / RTT (500 ns + 192 B more of completion at 31.5 GB/s)
    CHECK(alone.num("reads_gbytes_per_s") == Approx(32 * 256 / (500 + 192 / 31.5)).epsilon(0.01));
    const auto& loaded = row(dir, 1.2);
    // the saturated direction is shared by the two flows, and the reads'
    // round trip grows with the queue their completions wait in
    CHECK(loaded.num("writes_gbytes_per_s") + loaded.num("reads_gbytes_per_s") == Approx(cap).epsilon(0.03));
    CHECK(loaded.num("read_rtt_ns") > alone.num("read_rtt_ns"));
  }
  // into the NIC (arrival order): the writes hold the direction, the reads
  // fall far below half the link
  CHECK(row("into-nic", 1.2).num("reads_gbytes_per_s") < 0.25 * cap / 2);
  CHECK(row("into-nic", 1.2).num("writes_gbytes_per_s") > 0.85 * cap);
  CHECK(row("into-nic", 1.2).num("read_rtt_ns") > 4 * row("into-nic", 0).num("read_rtt_ns"));
  // out of the NIC (its queues alternate): the two flows split it evenly
  CHECK(row("out-of-nic", 1.2).num("reads_gbytes_per_s") == Approx(cap / 2).epsilon(0.05));
  CHECK(row("out-of-nic", 1.2).num("writes_gbytes_per_s") == Approx(cap / 2).epsilon(0.05));
}

TEST_CASE("bus: the on-chip bus holds at most bus.outstanding reads, and bad bus keys exit 2", "[pcie]") {
  const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) +
                                          " latency --path ub-async --ops 300 --outstanding 8 --size 4KiB"
                                          " --set host.cores=4 --set bus.outstanding=1 --stats --format json");
  REQUIRE(r.status == 0);   // every byte delivered exactly once (the application checks)
  const json::Value doc = json::parse(r.out);
  const auto& row = doc.get("results")->items.at(0);
  auto stat = [&](const std::string& c, const std::string& n) {
    for (const auto& s : row.get("stats")->items)
      if (s.str("component") == c && s.str("name") == n) return s.num("value");
    FAIL("no stat " << c << " " << n);
    return 0.0;
  };
  CHECK(stat("sys.B_bus.link", "tags_in_use_max") == 1);   // node B's payload reads, one at a time
  CHECK(stat("sys.B_bus.link", "tag_waits") > 0);
  CHECK(stat("sys.B_bus.link", "reads") >= 300);
  for (const char* set : {"bus.outstanding=0", "bus.traversal=500ps", "bus.occupancy=2ns"}) {
    const auto bad = ubsim::test::run_command(std::string(UBSIM_BIN) + " latency --set " + set);
    INFO(set << "\n" << bad.out);
    CHECK(bad.status == 2);
    CHECK(bad.out.find(std::string(set).substr(0, std::string(set).find('='))) != std::string::npos);
  }
}
