#include "simulation_run.h"

#include <chrono>
#include <filesystem>
#include <stdexcept>

#include <systemc>

#include "raw_speed.h"
#include "rtl_bridge.h"
#include "watchdog.h"

namespace ubsim {

SimulationRun::SimulationRun() { sc_core::sc_set_time_resolution(1, sc_core::SC_FS); }

void SimulationRun::trace_all(const std::vector<RtlBridge*>& bridges, const std::string& prefix) {
  if (prefix.empty()) return;
  for (RtlBridge* b : bridges) trace(*b, prefix + "." + b->basename() + ".fst");
}

void SimulationRun::start() {
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (auto& [bridge, path] : traces_) bridge->open_trace(path);
  started_ = true;
}

namespace {
// Every bridge in the design hierarchy steps its deferred inputs.
void step_deferred(const std::vector<sc_core::sc_object*>& objects) {
  for (sc_core::sc_object* o : objects) {
    if (auto* b = dynamic_cast<RtlBridge*>(o)) b->step_deferred();
    step_deferred(o->get_child_objects());
  }
}
}  // namespace

void SimulationRun::run(uint64_t limit_fs) {
  if (!started_) start();
  const double cpu0 = cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  if (limit_fs) sc_core::sc_start(sc_core::sc_time::from_value(limit_fs) - sc_core::sc_time_stamp());
  else sc_core::sc_start();
  step_deferred(sc_core::sc_get_top_level_objects());
  wall_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  cpu_s_ += cpu_seconds() - cpu0;
}

void SimulationRun::finish(const ProgressWatchdog* watchdog) {
  for (auto& [bridge, path] : traces_) bridge->close_trace();
  if (watchdog) watchdog->check();   // stopped for want of progress: exit status 4
  for (auto& [bridge, path] : traces_) {
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) == 0 || ec)
      throw std::runtime_error("option --trace: the waveform " + path + " was not written");
  }
}

}  // namespace ubsim
