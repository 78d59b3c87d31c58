// Includes verilated.h after SystemC: with SYSTEMC_VERSION defined, Verilator's
// headers call sc_time_stamp() unqualified (as if systemc.h, not <systemc>,
// had been included), so bring that one name into the global namespace.
#pragma once
#include <systemc>
using sc_core::sc_time_stamp;
#include <verilated.h>
#include <verilated_fst_c.h>
