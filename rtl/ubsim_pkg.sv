// ubsim_pkg: encodings and context-record layouts shared by the RTL blocks
// and the C++ models.
//
// CMake generates the C++ side from this file (rtl_variant.h, namespace
// ubsim::enc): every `localparam int NAME = value;` line below becomes
// `inline constexpr int NAME = value;`, and every `typedef struct packed`
// becomes a namespace of Field{lsb, width} constants (one per member, the
// last member at bit 0) plus kBits, so the two sides cannot drift.
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
  // transport error completion (sack_sender m_fail: retries exhausted)
  localparam int ERR_TRANSPORT = 3;          // a packet of the request ran out of retries

  // UB TP-channel record: 56 B (448 bits), the transport state of one
  // channel to a remote endpoint, shared by every Jetty that reaches it.
  // Stored in the send pipeline's context RAM (the context cache's data
  // array) as ceil(448 / port bits) words, word 0 = bits [port-1:0]. The
  // send pipeline reads the whole record per packet (the header fields
  // come from it) and writes back word 0, which holds next_psn; remote_eid
  // straddles the first 256-bit word boundary, so a 32 B port needs both
  // words for one header. The SACK bitmap (128..2048 bits) lives in the
  // SACK engine, not here.
  localparam int TP_RECORD_BITS = 448;     // $bits(tp_record_t), checked by the RTL
  typedef struct packed {
    logic [15:0]  mtu;           // path MTU, bytes
    logic [31:0]  tx_credits;    // link-level credits the peer granted
    logic [7:0]   state;         // channel state (reset / ready to send / error)
    logic [7:0]   retry;         // retransmissions of the oldest unacknowledged PSN
    logic [31:0]  rttvar;        // RTT variance, cycles
    logic [127:0] remote_eid;    // remote endpoint EID: packet header DEID
    logic [31:0]  srtt;          // smoothed RTT, cycles
    logic [31:0]  ssthresh;      // congestion control: slow-start threshold, bytes
    logic [31:0]  cwnd;          // congestion control: window, bytes
    logic [15:0]  flags;         // mode and feature flags
    logic [15:0]  window_size;   // SACK window, PSNs
    logic [23:0]  peer_tp_id;    // the peer's TP channel id: packet header DTPN
    logic [23:0]  window_base;   // oldest PSN of the SACK window
    logic [23:0]  ack_psn;       // cumulative acknowledged PSN
    logic [23:0]  next_psn;      // next PSN to assign (bits 23:0, word 0)
  } tp_record_t;

  // UB Jetty record: 20 B (160 bits), one per local endpoint (send queue).
  // Cached beside the TP-channel records; the send pipeline's Jetty
  // scheduling stage is where it is used (its fields are not read by the
  // modelled datapath).
  localparam int JETTY_RECORD_BITS = 160;  // $bits(jetty_record_t)
  typedef struct packed {
    logic [15:0] token;          // access token of the Jetty
    logic [15:0] flags;          // service mode, order flags
    logic [23:0] tp_id;          // default TP channel
    logic [23:0] cq_id;          // completion queue
    logic [15:0] sq_depth;       // send queue entries
    logic [15:0] sq_ci;          // send queue consumer index
    logic [15:0] sq_pi;          // send queue producer index
    logic [7:0]  mode;           // service mode (MODE_*)
    logic [23:0] jetty_id;       // Jetty number
  } jetty_record_t;

  // RoCE QP context: 512 B (4096 bits), one per (local, remote) QP pair on
  // the NIC. Stored in the NIC send pipeline's single-ported QP-context RAM
  // as 4096 / port bits words; the PSN read-modify-write reads and writes
  // word 0 only (next_psn and dest_qpn live there). The rest holds the
  // queue pointers, read/atomic resources and timers a QP keeps, not
  // modelled field by field.
  localparam int QP_CONTEXT_BITS = 4096;   // $bits(qp_context_t), checked by the RTL
  typedef struct packed {
    logic [3791:0] other;        // SQ/RQ state, RDMA read/atomic resources, timers
    logic [127:0]  remote_gid;   // remote GID: packet header DGID
    logic [31:0]   qkey;         // queue key
    logic [15:0]   pkey;         // partition key
    logic [15:0]   mtu;          // path MTU, bytes
    logic [7:0]    retry;        // retransmissions of the oldest unacknowledged PSN
    logic [7:0]    state;        // QP state (RESET / INIT / RTR / RTS / ERR)
    logic [23:0]   expected_psn; // responder: next PSN expected
    logic [23:0]   ack_psn;      // requester: last acknowledged PSN
    logic [23:0]   dest_qpn;     // the peer's QP number: packet header DestQP
    logic [23:0]   next_psn;     // next PSN to assign (bits 23:0, word 0)
  } qp_context_t;
  /* verilator lint_on UNUSEDPARAM */
endpackage
