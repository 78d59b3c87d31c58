// The PCIe link as transactions (spec §12): the KV-Direct figures from the
// platform's parameters (ceilings computed here from the spec's numbers),
// tag and credit back-pressure that loses nothing, split completions that
// reassemble, and bad keys.
#include <catch2/catch.hpp>

#include <string>

#include "config.h"
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
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);   // this process's first simulation time
  ubsim::Config cfg;
  cfg.apply_set("pcie.tags=3");
  cfg.apply_set("pcie.np_credits=2");
  cfg.apply_set("pcie.p_credits=1");
  cfg.apply_set("pcie.max_read_request=512B");
  cfg.apply_set("pcie.max_payload=128B");
  auto& link = *new ubsim::PcieLink("pcie_under_test", cfg);
  int reads_done = 0, writes_done = 0;
  // 40 reads of 1000 B at an address 32 B past an RCB boundary: requests
  // at MRRS multiples, completions at RCB multiples of at most 128 B each;
  // the link checks every completion arrives at its request's next offset
  for (int i = 0; i < 40; ++i) link.dma_read(4096ull * i + 32, 1000, [&] { ++reads_done; });
  for (int i = 0; i < 30; ++i) link.dma_write(8192ull * i, 300, [&] { ++writes_done; });
  sc_core::sc_start();
  CHECK(reads_done == 40);
  CHECK(writes_done == 30);
  CHECK(link.np_credits_in_use_max() == 2);
  CHECK(link.tags_in_use_max() == 2);   // a tag without a credit is not taken
  CHECK(link.credit_waits() > 0);
  ubsim::StatsTable t;
  link.collect_stats(t);
  double completions = 0, p_max = 0;
  for (const auto& row : t.rows) {
    if (row.name == "completions") completions = row.value;
    if (row.name == "p_credits_in_use_max") p_max = row.value;
  }
  // each 1000 B read at offset 32: requests [32,512) [512,1024) [1024,1032)
  // -> completions 96+128+128+128 | 128x4 | 8 = 4 + 4 + 1
  CHECK(completions == 40 * 9);
  CHECK(p_max == 1);
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
