#include <catch2/catch.hpp>

#include "config.h"
#include "pipeline_limits.h"
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
  CHECK(c.value("clock") == Approx(322e6));
  CHECK(c.value("bus.traversal") == Approx(30e6));
  CHECK(c.value("pcie.dma_read") == Approx(500e6));
  CHECK(c.value("wire.rate") == Approx(50e9));
  CHECK(c.value("pipeline.ub_async") == 25);
  CHECK(c.value("cache.ub_entries") == 2048);
  CHECK(c.value("sack.rto") == Approx(20e9));
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
  CHECK(c.value("sw.submit") == 0);
  c.load_file(UBSIM_TEST_DATA "/good.toml");
  CHECK(c.value("wire.latency") == Approx(150e6));
  CHECK(c.value("bus.traversal") == Approx(20e6));
  CHECK(c.source("wire.latency").find("good.toml") != std::string::npos);
  CHECK(c.resolved().at("wire.latency") == "150ns");
}
