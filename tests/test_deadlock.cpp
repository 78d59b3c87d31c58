// A deadlock the simulator finds and names (textbook 7.5.4): two nodes
// reading each other through a shared pool of data slots over a lossless
// link; reserved response slots or a response channel of its own break it.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "component.h"
#include "json_value.h"
#include "run_command.h"
#include "wait_for.h"

using ubsim::json::Value;

namespace {

ubsim::test::Run deadlock(const std::string& args) {
  return ubsim::test::run_command(std::string(UBSIM_BIN) + " deadlock --format json " + args);
}

// A component that holds what it is told and waits for another.
struct Holder : ubsim::StageComponent {
  std::vector<ubsim::Holding> held;
  explicit Holder(sc_core::sc_module_name n) : StageComponent(n) {}
  void collect_stats(ubsim::StatsTable&) const override {}
  void accept(ubsim::Transaction&) override {}
  void holdings(std::vector<ubsim::Holding>& out) const override { out.insert(out.end(), held.begin(), held.end()); }
};

}  // namespace

TEST_CASE("deadlock: the wait-for report names each block's holdings and a cycle among the blocks", "[deadlock]") {
  Holder a("wf_a"), b("wf_b"), c("wf_c"), idle("wf_idle");
  a.held = {{"2 tags", "their completions", &b}};
  b.held = {{"", "its input: 3 requests queued", nullptr}, {"1 slot", "a credit", &c}};
  c.held = {{"4 credits", "the pause to end", nullptr}};
  const std::vector<const ubsim::StageComponent*> all{&a, &b, &c, &idle};
  // a chain of waits, no cycle: a stall, each block with what it holds and waits for
  std::string r = ubsim::wait_for_report(all);
  INFO(r);
  CHECK(r.find("cycle") == std::string::npos);
  CHECK(r.find("wf_a (holds 2 tags, waits for their completions)") != std::string::npos);
  CHECK(r.find("wf_b (waits for its input: 3 requests queued; holds 1 slot, waits for a credit)") != std::string::npos);
  CHECK(r.find("wf_idle") == std::string::npos);
  // c now waits for what a holds: a -> b -> c -> a
  c.held[0].on = &a;
  r = ubsim::wait_for_report(all);
  CHECK(r.rfind("cycle of waits: wf_a -> wf_b -> wf_c -> wf_a; ", 0) == 0);
  // nothing held anywhere: no report
  a.held.clear(), b.held.clear(), c.held.clear();
  CHECK(ubsim::wait_for_report(all).empty());
}

TEST_CASE("deadlock: shared slots deadlock and the cycle of waits is named in the JSON with exit status 4", "[deadlock]") {
  const auto r = deadlock("--scenarios shared");
  INFO(r.out);
  CHECK(r.status == 4);
  const Value doc = ubsim::json::parse(r.out.substr(0, r.out.rfind('}') + 1));
  const Value& row = doc.get("results")->items.at(0);
  CHECK(row.flag("deadlock"));
  CHECK_FALSE(row.flag("stall"));
  CHECK(row.num("completed") < row.num("requested"));
  // every member of the cycle is a request (a read or a write) holding a
  // data slot at its target and waiting for a slot there for its response
  // (read data, a write's ack): each waits for the next (which holds one),
  // the last for the first
  const auto& cycle = row.get("cycle")->items;
  REQUIRE(cycle.size() >= 2);
  for (const auto& m : cycle) {
    INFO(m.str("packet"));
    CHECK((m.str("packet").find("read request") == 0 || m.str("packet").find("write request") == 0));
    CHECK(m.str("holds").find("data slot") == 0);
    CHECK(m.str("waits_for").find("for its response") != std::string::npos);
  }
  // the pool is full: the node held all its slots
  CHECK(std::max(row.num("slots_peak_A"), row.num("slots_peak_B")) == row.num("slots"));
}

TEST_CASE("deadlock: one reserved response slot or a separate response channel completes every read", "[deadlock]") {
  for (const char* s : {"reserved", "separate"}) {
    const auto r = deadlock(std::string("--scenarios ") + s);
    INFO(s << "\n" << r.out);
    REQUIRE(r.status == 0);
    const Value doc = ubsim::json::parse(r.out);
    const Value& row = doc.get("results")->items.at(0);
    CHECK_FALSE(row.flag("deadlock"));
    CHECK_FALSE(row.flag("stall"));
    CHECK(row.num("completed") == row.num("requested"));
    CHECK(row.get("cycle")->items.empty());
  }
  // shared slots with too few requests in flight to fill the pool: no deadlock
  const auto few = deadlock("--scenarios shared --set deadlock.outstanding=3");
  CHECK(few.status == 0);
  // reads alone deadlock the same way; 4 KiB writes on the link pace the
  // requests below what fills the pool, and the run completes
  CHECK(deadlock("--scenarios shared --set deadlock.writes=0").status == 4);
  const auto paced = deadlock("--scenarios shared --set deadlock.write_bytes=4KiB");
  INFO(paced.out);
  CHECK(paced.status == 0);
  CHECK(ubsim::json::parse(paced.out).get("results")->items.at(0).num("slots_peak_A") < 8);
  // a pool with every slot reserved for responses is refused, naming the key
  const auto bad = deadlock("--scenarios reserved --set deadlock.slots=1");
  CHECK(bad.status == 2);
  CHECK(bad.out.find("deadlock.slots") != std::string::npos);
}

TEST_CASE("deadlock: a run that is merely slow (a loss resent after a long timeout) is not called a deadlock", "[deadlock]") {
  // a 2 ms retransmit timeout: the run waits, its timer pending, then completes
  const auto r = ubsim::test::run_command(std::string(UBSIM_BIN) +
                                          " latency --path ub-async --ops 3 --drop 0 --set sack.rto=2ms --format json");
  INFO(r.out);
  REQUIRE(r.status == 0);
  const Value doc = ubsim::json::parse(r.out);
  const Value& row = doc.get("results")->items.at(0);
  CHECK(row.num("ops") == 3);
  CHECK(row.num("timeouts") >= 1);
  CHECK(row.num("failed") == 0);
}

TEST_CASE("deadlock: pause around a ring of switches is found as a cycle of paused links and named", "[deadlock][fabric]") {
  const std::string base = std::string(UBSIM_BIN) + " fabric --no-series --format json --config " UBSIM_CONFIGS
                           "/fabric-ring-deadlock.toml";
  const auto r = ubsim::test::run_command(base);
  INFO(r.out);
  CHECK(r.status == 4);
  const Value doc = ubsim::json::parse(r.out.substr(0, r.out.rfind('}') + 1));
  const Value* dl = nullptr;
  for (const auto& row : doc.get("results")->items)
    if (row.str("row") == "deadlock") dl = &row;
  REQUIRE(dl);
  // the five switch-to-switch links, each paused by the next switch, each
  // waiting for that switch's queue holding what came in on it
  const auto& cycle = dl->get("cycle")->items;
  REQUIRE(cycle.size() == 5);
  std::set<std::string> links;
  for (const auto& m : cycle) {
    INFO(m.str("link"));
    CHECK(m.str("link").rfind("link_sw", 0) == 0);
    CHECK(m.str("waits_for").find("below XON") != std::string::npos);
    links.insert(m.str("link"));
  }
  CHECK(links.size() == 5);
  // without pause (unbounded queues) the same flows all complete
  const auto free = ubsim::test::run_command(base + " --set fabric.pause=false --set fabric.buffer=0B");
  CHECK(free.status == 0);
}
