// SimulationRun: how an experiment runs one SystemC simulation (inside the
// child process each simulation gets), the same steps for every experiment:
//   1. constructed before anything is elaborated: the time resolution, 1 fs
//      (every model counts time in fs; docs/toolchain.md, time resolution);
//   2. the experiment elaborates its system and names the waveforms to write
//      (trace, before start);
//   3. start(): elaboration ends and every process is initialized (time 0);
//      the waveforms are opened;
//   4. run(): until nothing is left to happen, or to a time limit; the CPU
//      and wall time of this call are the run's; then every bridge steps
//      the inputs it deferred whose edges lie within the run
//      (RtlBridge::step_deferred), so its block and statistics are complete;
//   5. finish(): the waveforms closed and each checked written; a run the
//      no-progress watchdog stopped ends the child with exit status 4.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ubsim {

class RtlBridge;
class ProgressWatchdog;

class SimulationRun {
 public:
  SimulationRun();
  // Dump `bridge`'s block to the FST file `path` (before start()).
  void trace(RtlBridge& bridge, std::string path) { traces_.emplace_back(&bridge, std::move(path)); }
  // Every bridge's block to PREFIX.<bridge>.fst.
  void trace_all(const std::vector<RtlBridge*>& bridges, const std::string& prefix);
  void start();
  // Until no event is left (limit_fs 0) or to time limit_fs.
  void run(uint64_t limit_fs = 0);
  // `watchdog`: the system's, whose verdict ends the child (exit 4) if it fired.
  void finish(const ProgressWatchdog* watchdog = nullptr);
  double cpu_s() const { return cpu_s_; }
  double wall_s() const { return wall_s_; }

 private:
  std::vector<std::pair<RtlBridge*, std::string>> traces_;
  bool started_ = false;
  double cpu_s_ = 0, wall_s_ = 0;
};

}  // namespace ubsim
