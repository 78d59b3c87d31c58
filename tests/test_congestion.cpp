// Congestion, open loop (spec §17): the fluid figures dQ/dt = lambda - B
// measured at a switch's finite or unbounded output queue, packet by packet
// (4 KiB + 32 B at 50 GB/s: 82.56 ns per packet).
#include <catch2/catch.hpp>

#include "json_value.h"
#include "run_command.h"

using ubsim::json::Value;

namespace {

constexpr double kPacketUs = 0.08256;

const Value& point(const Value& rows, const std::string& label) {
  for (const auto& r : rows.items)
    if (r.str("point") == label) return r;
  FAIL("no point " << label);
  return rows.items.front();
}

}  // namespace

TEST_CASE("congestion: backlog, full time, drops and drain against the fluid model of spec 17", "[congestion]") {
  const auto run = ubsim::test::run_command(std::string(UBSIM_BIN) + " congestion --format json");
  INFO(run.out);
  REQUIRE(run.status == 0);
  const Value rows = *ubsim::json::parse(run.out).get("results");
  // two jobs of 20 ms at 50 GB/s into 50 GB/s: 1000 MB when they coincide,
  // 250 MB with 5 ms overlap, nothing 20 ms apart; the full overlap drains
  // 20 ms after the senders stop
  CHECK(point(rows, "overlap 20 ms").num("peak_backlog_bytes") == Approx(1000e6).epsilon(0.001));
  CHECK(point(rows, "overlap 5 ms").num("peak_backlog_bytes") == Approx(250e6).epsilon(0.001));
  CHECK(point(rows, "overlap 0 ms").num("peak_backlog_bytes") <= 2 * 4128);
  CHECK(point(rows, "overlap 20 ms").num("drain_after_stop_us") == Approx(20000).epsilon(0.001));
  // 100 GB/s into 50 GB/s, 256 of 512 KiB free: full at 5.24 us; stepped to
  // 40 GB/s at 20 us: 737,856 B dropped, empty at 72.4 us; at 50 GB/s it stays full
  const Value& step40 = point(rows, "100 then 40 GB/s at 20 us");
  // (a packet that does not fit is dropped: at most one packet time before
  // the fluid instant, plus the 16 B the 256 KiB pre-fill carries over in headers)
  CHECK(std::abs(step40.num("full_at_us") - 5.24288) <= kPacketUs + 0.001);
  CHECK(step40.num("dropped_bytes") == Approx(737856).epsilon(0.015));
  CHECK(step40.num("empty_at_us") == Approx(72.4288).epsilon(0.015));
  const Value& step50 = point(rows, "100 then 50 GB/s at 20 us");
  CHECK(step50.get("empty_at_us")->kind == Value::Null);
  CHECK(step50.num("dropped_bytes") == step40.num("dropped_bytes"));
  // incast of N - 1 senders at 50 GB/s into 50 GB/s: full after free / ((N - 2) x 50 GB/s)
  struct Incast {
    const char* label;
    double full_us;
  };
  for (const Incast& c : {Incast{"N=8 with 1 MiB free", 3.50}, Incast{"N=16 with 1 MiB free", 1.50},
                          Incast{"N=64 with 1 MiB free", 0.34}, Incast{"N=8 with 4 MiB free", 13.98},
                          Incast{"N=16 with 4 MiB free", 5.99}, Incast{"N=64 with 4 MiB free", 1.35}}) {
    INFO(c.label);
    const Value& r = point(rows, c.label);
    CHECK(r.num("full_at_us_derived") == Approx(c.full_us).margin(0.006));
    // every sender's packet lands with the others': within one packet time
    CHECK(std::abs(r.num("full_at_us") - r.num("full_at_us_derived")) <= kPacketUs);
    CHECK(r.num("dropped_packets") > 0);
    // never more in the queue than it holds
    CHECK(r.num("peak_backlog_bytes") <= r.num("buffer_bytes"));
  }
}

TEST_CASE("pause: incast over 30 m cables needs the headroom the one-hop feedback takes and loses nothing with it", "[congestion]") {
  const auto run = ubsim::test::run_command(std::string(UBSIM_BIN) + " congestion --scenarios pause --format json");
  INFO(run.out);
  REQUIRE(run.status == 0);
  const Value rows = *ubsim::json::parse(run.out).get("results");
  // one hop's feedback: 150 ns of cable each way, the sender's 4128 B packet
  // in serialization (82.56 ns), the 64 B pause frame (1.28 ns) = 0.38 us (spec 17)
  constexpr double kFeedbackUs = 0.3 + kPacketUs + 0.00128;
  for (int n : {8, 16, 64}) {
    INFO("N = " << n);
    const Value& free = point(rows, "N=" + std::to_string(n));
    CHECK(free.num("feedback_us_derived") == Approx(kFeedbackUs).margin(1e-6));
    CHECK(free.num("headroom_bytes_derived") == Approx((n - 2) * 50e3 * kFeedbackUs).epsilon(1e-5));   // (6 digits in the document)
    CHECK(free.num("pauses_sent") > 0);
    CHECK(free.num("pauses_sent") == free.num("resumes_sent"));
    CHECK(free.num("dropped_packets") == 0);
    // each port takes in at most its derived headroom and the packet that crossed XOFF
    CHECK(free.num("port_headroom_bytes") <= free.num("port_headroom_bytes_derived") + 4128);
    CHECK(free.num("port_headroom_bytes") >= free.num("port_headroom_bytes_derived") - 4128);
    // the switch as a whole: the ports cross XOFF up to a packet time apart
    CHECK(free.num("headroom_bytes") >= free.num("headroom_bytes_derived") - (n - 1) * 4128);
    CHECK(free.num("headroom_bytes") <= free.num("headroom_bytes_derived") + (n - 1) * 4128);
    CHECK(free.num("feedback_us") <= kFeedbackUs + kPacketUs + 1e-6);
    // the buffer sized to XOFF alone drops; with the headroom nothing is lost
    CHECK(point(rows, "N=" + std::to_string(n) + " no headroom").num("dropped_packets") > 0);
    const Value& sized = point(rows, "N=" + std::to_string(n) + " with headroom");
    CHECK(sized.num("dropped_packets") == 0);
    CHECK(sized.num("delivered_packets") == free.num("delivered_packets"));
  }
}
