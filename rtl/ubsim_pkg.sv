// ubsim_pkg: encodings shared by the RTL blocks and the C++ models.
//
// CMake generates the C++ side from this file (rtl_encodings.h, namespace
// ubsim::enc): every `localparam int NAME = value;` line below becomes
// `inline constexpr int NAME = value;`, so the two sides cannot drift.
package ubsim_pkg;
  /* verilator lint_off UNUSEDPARAM */  // a block uses the encodings it needs
  // Jetty service mode (s_ord_mode / s_mode)
  localparam int MODE_ROI = 0;   // initiator enforces order
  localparam int MODE_ROT = 1;   // target enforces order
  localparam int MODE_ROL = 2;   // lower layer: one in-order TP channel
  localparam int MODE_UNO = 3;   // unreliable, unordered, one MTU per message
  // execution-order tag of a request (wire field ODR[1:0])
  localparam int TAG_NO = 0;     // no order
  localparam int TAG_RO = 1;     // relaxed order
  localparam int TAG_SO = 2;     // strong order
  // order tracker error completions (m_err_code)
  localparam int ERR_ORDER_UNDER_UNO = 1;    // NO without Fence / completion order only
  localparam int ERR_UNO_OVER_MTU = 2;       // one MTU per message under UNO
  /* verilator lint_on UNUSEDPARAM */
endpackage
