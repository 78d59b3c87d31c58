// deadlock: two nodes reading and writing each other's memory through a shared pool of
// receive data slots over a lossless link (textbook 7.5.4, figures 7-49 /
// 7-50). When the run stops with reads outstanding, the wait-for graph of
// every packet (what it holds, what it waits for) is built and its cycle
// named; a stall without a cycle is reported as a stall. The same run with
// reserved response slots, or with a separate response channel, completes.
// Exit status 4 when a scenario deadlocked or stalled (its rows are written
// first).
#include <fmt/format.h>

#include "deadlock_system.h"
#include "experiment.h"
#include "simulation_run.h"

namespace ubsim {

namespace {

using V = json::Value;

struct Scenario {
  std::string name, what;
  uint64_t reserved;
  bool separate;
};

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = {
      {"shared", "requests and responses share the receive slots", 0, false},
      {"reserved", "one receive slot reserved for responses", 1, false},
      {"separate", "responses on a channel of their own, with their own buffers", 0, true},
  };
  return all;
}

std::vector<std::string> scenario_names() {
  std::vector<std::string> out;
  for (const Scenario& s : scenarios()) out.push_back(s.name);
  return out;
}

ResultSet run(Config& cfg, const Options& o) {
  ResultSet rs;
  std::string text;
  for (const std::string& name : o.list("--scenarios")) {
    const Scenario* sc = nullptr;
    for (const Scenario& s : scenarios())
      if (s.name == name) sc = &s;
    Config c = cfg;
    const std::string why = "deadlock scenario " + name;
    c.apply(key::deadlock_reserved_response_slots, std::to_string(sc->reserved), why);
    c.apply(key::deadlock_response_channel, sc->separate ? "true" : "false", why);
    if (c.count(key::deadlock_reserved_response_slots) >= c.count(key::deadlock_slots))
      throw ConfigError(c.source(key::deadlock_slots), key::deadlock_slots.name,
                        fmt::format("{} slots leave none for requests with {} reserved for responses",
                                    c.count(key::deadlock_slots), c.count(key::deadlock_reserved_response_slots)));
    V row = rows_in_child([&] {
              SimulationRun run;
              auto& sys = *new DeadlockSystem("sys", c);   // lives until the child exits
              run.run();   // until nothing is left to happen
              run.finish();
              const bool stuck = sys.completed() < sys.requested();
              V cycle = V::array();
              bool deadlock = false;
              std::string outstanding;
              if (stuck) {
                const WaitForGraph g = sys.wait_for();
                const auto members = g.find_cycle();
                deadlock = !members.empty();
                for (size_t i : members) {
                  const auto& v = g.vertex(i);
                  cycle.items.push_back(V::object()
                                            .add("packet", V::string(v.name))
                                            .add("holds", V::string(v.holds.empty() ? "nothing" : v.holds))
                                            .add("waits_for", V::string(v.waits)));
                }
                if (!deadlock)
                  for (size_t i = 0; i < g.size(); ++i)
                    outstanding += (outstanding.empty() ? "" : "; ") + g.vertex(i).name + " waits for " + g.vertex(i).waits;
              }
              return std::vector<V>{
                  V::object()
                      .add("completed", V::number(static_cast<double>(sys.completed())))
                      .add("requested", V::number(static_cast<double>(sys.requested())))
                      .add("done_us", V::number(static_cast<double>(sys.last_completion_fs()) / 1e9))
                      .add("stopped_us", V::number(static_cast<double>(sc_core::sc_time_stamp().value()) / 1e9))
                      .add("slots_peak_A", V::number(static_cast<double>(sys.slots_peak(0))))
                      .add("slots_peak_B", V::number(static_cast<double>(sys.slots_peak(1))))
                      .add("credit_waits", V::number(static_cast<double>(sys.credit_waits())))
                      .add("deadlock", V::boolean(deadlock))
                      .add("stall", V::boolean(stuck && !deadlock))
                      .add("cycle", cycle)
                      .add("outstanding", V::string(outstanding))};
            }).front();
    const bool deadlock = row.flag("deadlock"), stall = row.flag("stall");
    V out = V::object()
                .add("scenario", V::string(name))
                .add("what", V::string(sc->what))
                .add("slots", V::number(static_cast<double>(c.count(key::deadlock_slots))))
                .add("reserved_response_slots", V::number(static_cast<double>(sc->reserved)))
                .add("response_channel", V::boolean(sc->separate));
    for (const auto& [k, v] : row.fields) out.add(k, v);
    rs.rows.push_back(out);
    if (deadlock) {
      rs.exit_status = 4;
      const auto& members = row.get("cycle")->items;
      text += fmt::format("{}: DEADLOCK at {:.3f} us, {} of {} requests done: a cycle of {} waits (each waits for the next, "
                          "the last for the first):\n",
                          name, row.num("stopped_us"), row.num("completed"), row.num("requested"), members.size());
      for (size_t i = 0; i < members.size(); ++i)
        text += fmt::format("  {}. {}: holds {}; waits for {}\n", i + 1, members[i].str("packet"),
                            members[i].str("holds"), members[i].str("waits_for"));
    } else if (stall) {
      rs.exit_status = 4;
      text += fmt::format("{}: STALL without a cycle at {:.3f} us: {}\n", name, row.num("stopped_us"), row.str("outstanding"));
    } else {
      text += fmt::format("{}: completed, {} requests by {:.3f} us\n", name, row.num("completed"), row.num("done_us"));
    }
  }
  rs.table_omit = {"cycle", "outstanding", "what"};
  rs.notes = text +
             "Two nodes read and write each other's memory (deadlock.reads and deadlock.writes each, interleaved,\n"
             "deadlock.outstanding in flight) through\n"
             "deadlock.slots receive slots per node over a lossless link (a packet starts only once its receiver\n"
             "has a slot for it). Exit status 4 when a scenario deadlocked (the cycle above and in the JSON) or\n"
             "stalled.\n";
  return rs;
}

}  // namespace

const Experiment& deadlock_experiment() {
  static const Experiment e{
      "deadlock",
      "a deadlock found and named: shared receive slots under lossless back-pressure, the cycle of waits (7.5.4)",
      "Two nodes read and write each other's memory (reads of deadlock.read_bytes, writes of\n"
      "deadlock.write_bytes, interleaved) through a pool of receive data slots per node (deadlock.slots, the\n"
      "textbook's eight) that incoming requests and outgoing responses (read data, write acks) both take, over\n"
      "a lossless link (credit-based: a packet starts only once its receiver has a slot). When the run stops\n"
      "with requests outstanding, the\n"
      "simulator builds the wait-for graph (each packet: what it holds, what it waits for), finds the cycle and\n"
      "names it, and exits 4. shared deadlocks; reserved (one slot for responses) and separate (a response\n"
      "channel) complete. docs/fabric.md.",
      {opt_names("--scenarios", "LIST", scenario_names(), "shared,reserved,separate", "the scenarios to run")},
      {"scenario"},
      {{"scenario", "", "shared, reserved or separate"},
       {"what", "", "the scenario in words"},
       {"slots", "slots", "receive data slots per node"},
       {"reserved_response_slots", "slots", "of them, reserved for responses"},
       {"response_channel", "", "responses on a channel and buffers of their own"},
       {"completed", "requests", "reads and writes completed"},
       {"requested", "requests", "reads and writes made"},
       {"done_us", "us", "the last request completed"},
       {"stopped_us", "us", "when nothing was left to happen"},
       {"slots_peak_A", "slots", "most of node A's slots held at once"},
       {"slots_peak_B", "slots", "most of node B's slots held at once"},
       {"credit_waits", "events", "times a channel's head found no slot at its receiver"},
       {"deadlock", "", "the run stopped on a cycle of waits"},
       {"stall", "", "the run stopped with requests outstanding and no cycle"},
       {"cycle", "", "the cycle: [{packet, holds, waits_for}] in order, each waiting for the next"},
       {"outstanding", "", "a stall: what is outstanding and what it waits for"}},
      "deadlock",
      "",
      true,
      run};
  return e;
}

}  // namespace ubsim
