// Running a sweep's points: -j at a time, each its own process (it dies
// with the sweep), killed after the timeout; intact points are reused.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <thread>

#include "file_util.h"
#include "subprocess.h"
#include "sweep.h"

namespace ubsim {

namespace fs = std::filesystem;

SweepRun run_points(const SweepPlan& plan, int jobs, double timeout_s) {
  const fs::path pts = fs::path(plan.dir) / "points";
  fs::create_directories(pts);
  // what an interrupted run left half-written (written under private names)
  std::error_code ec;
  // (its private temporaries, ".<id>.json.XXXXXX"; the sweep holds DIR's
  // lock, so no other run is writing here)
  for (const auto& entry : fs::directory_iterator(pts)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".partial-") != std::string::npos || (name.size() > 1 && name[0] == '.')) fs::remove(entry.path(), ec);
  }
  SweepRun run;
  run.total = plan.points.size() + plan.area_jobs.size();
  std::vector<const SweepPoint*> todo;
  // area jobs first: one synthesis can outlast many points
  for (const auto* list : {&plan.area_jobs, &plan.points})
    for (const auto& p : *list) {
      std::string why;
      if (point_intact(plan.dir, p.id, why)) {
        ++run.reused;
        continue;
      }
      if (why != "missing") {
        std::fprintf(stderr, "sweep: point %s: %s; running it again\n", p.label.c_str(), why.c_str());
        ++run.damaged;
      }
      todo.push_back(&p);
    }
  const auto t0 = std::chrono::steady_clock::now();
  auto progress = [&] {
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const size_t done = run.ran + run.failed;
    const double left = done ? el / static_cast<double>(done) * static_cast<double>(todo.size() - done) : 0;
    std::fprintf(stderr, "\rsweep: %zu/%zu points done (%zu reused, %zu failed), %.0f s elapsed, ~%.0f s left   ",
                 run.reused + done, run.total, run.reused, run.failed, el, left);
    std::fflush(stderr);
  };
  progress();
  struct Running {
    const SweepPoint* point;
    std::chrono::steady_clock::time_point started;
  };
  std::map<pid_t, Running> running;
  size_t next = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && static_cast<int>(running.size()) < jobs) {
      const SweepPoint& p = *todo[next++];
      std::vector<std::string> argv = p.argv;
      argv.insert(argv.end(), {"--point", (pts / (p.id + ".json")).string()});
      const pid_t pid = spawn_program(argv, "/dev/null", (pts / (p.id + ".err")).string());
      if (pid < 0) throw std::runtime_error("sweep: cannot start a point process");
      running[pid] = {&p, std::chrono::steady_clock::now()};
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid <= 0) {
      // none finished: enforce the timeout, then wait a little
      const auto now = std::chrono::steady_clock::now();
      for (auto& [rp, r] : running)
        if (timeout_s > 0 && std::chrono::duration<double>(now - r.started).count() > timeout_s) {
          ::kill(rp, SIGKILL);   // its own simulations die with it
          if (FILE* err = std::fopen((pts / (r.point->id + ".err")).c_str(), "a")) {
            std::fprintf(err, "ubsim: error: the point ran longer than the sweep's --timeout of %g s and was stopped\n",
                         timeout_s);
            std::fclose(err);
          }
        }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const SweepPoint& p = *it->second.point;
    running.erase(it);
    std::string why;
    if (exit_status(status) == 0 && point_intact(plan.dir, p.id, why)) {
      fs::remove(pts / (p.id + ".err"), ec);
      ++run.ran;
    } else {
      fs::remove(pts / (p.id + ".json"), ec);
      fs::remove(pts / (p.id + ".json.sum"), ec);
      ++run.failed;
    }
    progress();
  }
  std::fprintf(stderr, "\n");
  return run;
}

}  // namespace ubsim
