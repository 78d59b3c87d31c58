#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "config.h"
#include "pipeline_limits.h"
#include "run_command.h"
#include "units.h"

using namespace ubsim;

TEST_CASE("units parse with their scale and reject wrong units", "[config]") {
  CHECK(parse_value(Unit::Time, "30ns").value == Approx(30e6));
  CHECK(parse_value(Unit::Time, "20us").value == Approx(20e9));
  CHECK(parse_value(Unit::Frequency, "322MHz").value == Approx(322e6));
  CHECK(parse_value(Unit::Rate, "400Gbit/s").value == Approx(50e9));
  CHECK(parse_value(Unit::Rate, "50GB/s").value == Approx(50e9));
  CHECK(parse_value(Unit::Bytes, "4KiB").value == Approx(4096));
  CHECK(parse_value(Unit::Cycles, "25").value == Approx(25));
  CHECK_THAT(parse_value(Unit::Time, "30").error, Catch::Contains("has no unit"));
  CHECK_THAT(parse_value(Unit::Time, "30MHz").error, Catch::Contains("unknown unit 'MHz'"));
  CHECK_THAT(parse_value(Unit::Cycles, "2.5").error, Catch::Contains("whole number"));
  CHECK_THAT(parse_value(Unit::Bool, "yes").error, Catch::Contains("not a bool"));
}

TEST_CASE("defaults match the spec table", "[config]") {
  Config c;
  CHECK(c.value(key::clock) == Approx(322e6));
  CHECK(c.value(key::bus_traversal) == Approx(30e6));
  CHECK(c.value(key::pcie_dma_read) == Approx(500e6));
  CHECK(c.value(key::wire_rate) == Approx(50e9));
  CHECK(c.value(key::pipeline_ub_async) == 25);
  CHECK(c.value(key::cache_ub_entries) == 2048);
  CHECK(c.value(key::sack_rto) == Approx(20e9));
  CHECK_NOTHROW(validate_config(c));
}

TEST_CASE("config errors name the key and the source", "[config]") {
  Config c;
  auto expect_error = [&](auto fn, const std::string& source, const std::string& key, const std::string& what) {
    try {
      fn();
      FAIL("no error for " << key);
    } catch (const ConfigError& e) {
      CHECK(e.source.find(source) != std::string::npos);
      CHECK(e.key == key);
      CHECK_THAT(std::string(e.what()), Catch::Contains(what));
    }
  };
  expect_error([&] { c.apply_set("wire.latency=-5ns"); }, "--set", "wire.latency", "negative latency");
  expect_error([&] { c.apply_set("clock=0MHz"); }, "--set", "clock", "must be above 0");
  expect_error([&] { c.apply_set("no.such.key=1"); }, "--set", "no.such.key", "unknown key");
  expect_error([&] { c.apply_set("wire.rate=50GHz"); }, "--set", "wire.rate", "unknown unit 'GHz'");
  expect_error([&] { c.apply_set("path.ub-async.read=A:sw.submit,C:bus.traversal"); }, "--set",
               "path.ub-async.read", "node 'C'");
  expect_error([&] { c.load_file(UBSIM_TEST_DATA "/bad_unit.toml"); }, "bad_unit.toml", "wire.latency",
               "unknown unit 'nss'");
  expect_error([&] { c.load_file(UBSIM_TEST_DATA "/unknown_key.toml"); }, "unknown_key.toml", "wire.latencyy",
               "unknown key");
  {
    Config d;
    d.apply_set("pipeline.ub_async=250");
    expect_error([&] { validate_config(d); }, "--set", "pipeline.ub_async", "above the build maximum");
  }
  {
    Config d;
    d.apply_set("pipeline.ub_load=3");
    expect_error([&] { validate_config(d); }, "--set", "pipeline.ub_load", "structural minimum");
  }
}

TEST_CASE("a zero latency is allowed and a TOML file overrides defaults", "[config]") {
  Config c;
  CHECK_NOTHROW(c.apply_set("sw.submit=0ns"));
  CHECK(c.value(key::sw_submit) == 0);
  c.load_file(UBSIM_TEST_DATA "/good.toml");
  CHECK(c.value(key::wire_latency) == Approx(150e6));
  CHECK(c.value(key::bus_traversal) == Approx(20e6));
  CHECK(c.source(key::wire_latency).find("good.toml") != std::string::npos);
  CHECK(c.resolved().at("wire.latency") == "150ns");
}

TEST_CASE("a parameter is read through its typed handle: a misspelt key, a literal or a wrong unit does not compile",
          "[config]") {
  namespace fs = std::filesystem;
  const fs::path src = fs::temp_directory_path() / "ubsim_key_check.cpp";
  auto compiles = [&](const std::string& body) {
    std::ofstream(src) << "#include \"config.h\"\nusing namespace ubsim;\nuint64_t f(const Config& cfg) { return " << body
                       << "; }\n";
    const std::string cmd = std::string(UBSIM_CXX) + " -std=c++17 -fsyntax-only -I" UBSIM_SOURCE_DIR "/models/params -I" +
                            std::string(UBSIM_BUILD_DIR) + "/generated " + src.string() + " 2>&1";
    return ubsim::test::run_command(cmd).status == 0;
  };
  CHECK(compiles("cfg.count(key::transport_mtu)"));   // the control: the same file compiles with the right handle
  CHECK(compiles("cfg.fs(key::wire_latency)"));
  CHECK(compiles("cfg.count(std::string(\"transport.mtu\"))"));   // a key computed at run time: checked then
  CHECK_FALSE(compiles("cfg.count(key::transport_mtv)"));   // not in the parameter table
  CHECK_FALSE(compiles("cfg.count(\"transport.mtu\")"));    // a literal, not a handle
  CHECK_FALSE(compiles("cfg.count(key::wire_latency)"));    // a time read as a count
  CHECK_FALSE(compiles("cfg.flag(key::transport_mtu)"));    // a byte count read as a bool
  fs::remove(src);
}
