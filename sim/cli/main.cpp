// ubsim: the command-line front end. It dispatches to the commands
// (commands.h) and turns what they throw into one line and an exit status:
// 2 bad input, 3 I/O or runtime failure, 4 no progress. Every simulation
// runs in its own child process (one SystemC elaboration per process).
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>
#include <systemc>

#include "args.h"
#include "commands.h"
#include "config.h"
#include "data_dir.h"
#include "experiment.h"
#include "safe_file.h"
#include "ubsim_build_info.h"
#include "watchdog.h"

namespace ubsim {
namespace {
// An error line of reasonable length: a huge bad value is cut in the middle.
std::string short_line(const std::string& raw) {
  const std::string msg = one_line_text(raw);
  constexpr size_t kMax = 400;
  if (msg.size() <= kMax) return msg;
  return msg.substr(0, 250) + fmt::format("... ({} bytes cut) ...", msg.size() - 350) + msg.substr(msg.size() - 100);
}
}  // namespace
}  // namespace ubsim

extern "C" int sc_main(int argc, char** argv) {
  using namespace ubsim;
  safe_file::install_signal_cleanup();   // a kill removes what is half-written
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cout << cli::usage();
    return 2;
  }
  const std::string cmd = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    if (cmd == "help" || cmd == "--help" || cmd == "-h") return cli::cmd_help(rest);
    if (cmd == "--version" || cmd == "version") {
      std::cout << fmt::format("ubsim {} (git {}, RTL variant {}; data {})\n", build_info::kVersion,
                               build_info::kGitHash, build_info::kVariant, data_dir());
      return 0;
    }
    if (cmd == "loss") return cli::cmd_loss(rest);
    if (const Experiment* e = find_experiment(cmd)) return cli::cmd_experiment(*e, rest);
    if (cmd == "params") return cli::cmd_params(rest);
    if (cmd == "report") return cli::cmd_report(rest);
    if (cmd == "sweep") return cli::cmd_sweep(rest);
    if (cmd == "compare") return cli::cmd_compare(rest);
    std::string known;
    for (const Experiment* e : experiments()) known += e->name + ", ";
    throw CliError("unknown command '" + cmd + "' (commands: " + known + "sweep, compare, params, report, help)");
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "ubsim: error: %s\n", short_line(e.what()).c_str());
    return 2;
  } catch (const CliError& e) {
    std::fprintf(stderr, "ubsim: error: %s\n", short_line(e.what()).c_str());
    return 2;
  } catch (const NoProgressError& e) {
    std::fprintf(stderr, "ubsim: error: %s\n", short_line(e.what()).c_str());
    return 4;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ubsim: error: %s\n", short_line(e.what()).c_str());
    return 3;
  }
}

// Own entry point so the SystemC banner is off before the library prints it.
int main(int argc, char** argv) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
