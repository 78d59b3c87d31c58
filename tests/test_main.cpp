#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include <systemc>

// libsystemc.so references sc_main; the tests use Catch2's runner instead.
extern "C" int sc_main(int, char**) { return 0; }

int main(int argc, char** argv) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 1);
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  return Catch::Session().run(argc, argv);
}
