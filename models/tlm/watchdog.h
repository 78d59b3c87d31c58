// ProgressWatchdog: ends a run that has stopped making progress, instead
// of letting it spin forever.
//
// Progress is a request completing or a block handing something on (which
// frees the buffer, slot, credit, tag or cache entry it held): every
// RtlBridge edge whose apply() reports an output, and every completion at an
// initiator, calls note(). A run hangs when blocks keep being stepped without
// either: every RtlBridge checks, every kCheckEdges edges it passes (stepped,
// or skipped while it slept on a timer), how
// long ago the last progress was (in simulated time, so a bridge that runs
// ahead of the kernel checks on its own clock and cannot starve the check).
// Past one span, the watchdog records one line naming what is outstanding
// and the blocks that hold work, each with what it holds and what it waits
// for (wait_for_report: a cycle among them named first), and stops the
// simulation; the run then ends
// with exit status 4. A block waiting for a timer (a retransmit back-off) is
// not stuck: the span is 10 x the longest latency or timer the configuration
// can arm (watchdog.span overrides it). Blocks that sleep (nothing to step:
// a packet on a long wire) are waiting for an event, not stuck.
//
// Why not a kernel event of its own: a periodic event changes which
// processes run first at a shared time stamp, and the lossy wire draws its
// losses in arrival order, so the figures of lossy runs would move with the
// watchdog's period. Checked inside the stepping loops, it changes nothing
// a run computes.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace ubsim {

class Config;

// The run stopped making progress (exit status 4).
class NoProgressError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ProgressWatchdog {
 public:
  static constexpr uint64_t kCheckEdges = 1024;
  // holders(): the blocks that hold work now, with what each holds and waits
  // for ("" = none: not stuck); outstanding(): a
  // short text of what is still outstanding ("3 of 10 requests completed").
  ProgressWatchdog(uint64_t span_fs, std::function<std::string()> holders, std::function<std::string()> outstanding);
  ~ProgressWatchdog();
  ProgressWatchdog(const ProgressWatchdog&) = delete;
  ProgressWatchdog& operator=(const ProgressWatchdog&) = delete;

  // Something made progress at time at_fs.
  static void note(uint64_t at_fs) {
    if (at_fs > last_progress_fs_) last_progress_fs_ = at_fs;
  }
  // A bridge evaluated an edge at edge_fs: true if the run must stop now.
  static bool overdue(uint64_t edge_fs) {
    return current_ && edge_fs > last_progress_fs_ && edge_fs - last_progress_fs_ > current_->span_fs_ &&
           current_->fire(edge_fs);
  }
  bool fired() const { return !report_.empty(); }
  const std::string& report() const { return report_; }
  uint64_t span_fs() const { return span_fs_; }
  // If the watchdog stopped the run: ends it with exit status 4 through
  // exit_hook (a simulation child process: see subprocess.h), else throws
  // NoProgressError with the report.
  void check() const {
    if (!fired()) return;
    if (exit_hook) exit_hook(4, report_);
    throw NoProgressError(report_);
  }
  // Set in a simulation child: ends the process with (code, message) without
  // unwinding (a throw after SystemC's coroutines ran trips the sanitizer).
  static inline void (*exit_hook)(int code, const std::string& message) = nullptr;
  // The span a configuration gets: watchdog.span, or 10 x the longest timer
  // or latency it can arm (at least 10 us).
  static uint64_t span_for(const Config& c);

 private:
  bool fire(uint64_t edge_fs);
  static inline uint64_t last_progress_fs_ = 0;
  static inline ProgressWatchdog* current_ = nullptr;
  uint64_t span_fs_;
  std::function<std::string()> holders_, outstanding_;
  std::string report_;
};

}  // namespace ubsim
