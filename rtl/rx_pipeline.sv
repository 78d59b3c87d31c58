// rx_pipeline: receive pipeline of a controller/NIC (both stacks).
//
//   flit_in -> ctx_gate --+-> parse chain (full route) --+
//                         `-> short chain (Load/Store) --+-> arb -> deliver
//
// A received packet is taken whole from the wire (the wire model delivers
// after its last byte), parsed, checked and handed to the host side. UB
// Load/Store responses take the short route.
// Contract: input handshake to output handshake = cfg_depth_full /
// cfg_depth_short cycles when nothing waits (minimum 2: flit_in and deliver
// registers); one packet per cycle; back-pressure stalls back to s_ready.
// With cfg_ctx_gate set, a packet is parsed only with its context-cache grant
// (the TP channel / QP context that checks it is on chip): 0 cycles on a hit,
// the refill time on a miss.
module rx_pipeline #(
    parameter int ID_W = 32,
    parameter int MAX_CHAIN = 64,
    parameter int DEPTH_W = 8
) (
    input  logic               clk,
    input  logic               rst,
    /* verilator lint_off UNUSEDSIGNAL */  // the chains count time modulo 2 x MAX_CHAIN
    input  logic [15:0]        cfg_now,        // the clock grid's cycle index (low bits): the chains' time
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [DEPTH_W-1:0] cfg_depth_full,
    input  logic [DEPTH_W-1:0] cfg_depth_short,

    input  logic               cfg_ctx_gate,   // a context cache grants each request
    input  logic               s_grant_valid,  // in-order grants from the context cache
    output logic               s_grant_ready,
    input  logic [ID_W-1:0]    s_grant_id,
    output logic               ctx_wait,       // a request waits at the gate for its records
    output logic [ID_W-1:0]    ctx_wait_id,

    input  logic               s_valid,
    output logic               s_ready,
    input  logic [ID_W-1:0]    s_id,
    input  logic               s_short,

    output logic               m_valid,
    input  logic               m_ready,
    output logic [ID_W-1:0]    m_id,
    output logic               m_first,     // whole packets: every output is first and last
    output logic               m_last,

    output logic               busy,        // it changes state without a new input
    output logic               quiet,       // busy only with a packet waiting at ctx_gate: no change until a grant
    output logic [1:0]         chain_held,  // chain c (0 parse, 1 short) holds an item ...
    output logic [15:0]        chain_tap_at0,   // ... which reaches its tap in this cycle (cfg_now's low
    output logic [15:0]        chain_tap_at1,   //     $clog2(MAX_CHAIN) + 1 bits)
    output logic [DEPTH_W-1:0] fixed_depth
);
    localparam int LEN_W = $clog2(MAX_CHAIN + 1);
    localparam int W = 1 + ID_W;

    assign fixed_depth = DEPTH_W'(2);

    logic [LEN_W-1:0] len_full, len_short;
    assign len_full  = LEN_W'(cfg_depth_full - fixed_depth);
    assign len_short = LEN_W'(cfg_depth_short - fixed_depth);

    // Two gated clocks (clock_gate.sv): the front (the input register, the
    // context gate's check, the configuration registers) changes state only
    // with a packet offered or held in the register, the back (the arbiter
    // and the output register) only with an item at a chain's tap or held
    // in the output register (or at reset).
    logic         in_valid, in_ready;
    logic         f_valid, sh_valid;
    logic         gclk, gclk_back;
    clock_gate u_clock_gate (.clk, .en(rst || s_valid || in_valid), .gclk);
    clock_gate u_back_gate (.clk, .en(rst || f_valid || sh_valid || m_valid), .gclk(gclk_back));

    // The configuration, loaded at reset (every cfg_* input but cfg_now is
    // held from before the reset on): registered, so that no logic depends
    // on a cfg_* input combinationally (a simulator evaluates the logic of
    // the inputs in every cycle, the registers' only where they change).
    logic             ctx_gate_q;
    logic [LEN_W-1:0] len_full_q, len_short_q;
    always_ff @(posedge gclk) begin
        if (rst) begin
            ctx_gate_q  <= cfg_ctx_gate;
            len_full_q  <= len_full;
            len_short_q <= len_short;
        end
    end

    logic [W-1:0] in_data;
    pipe_reg #(.W(W)) u_flit_in (
        .clk(gclk), .rst, .s_valid, .s_ready, .s_data({s_short, s_id}),
        .m_valid(in_valid), .m_ready(in_ready), .m_data(in_data));

    logic         bg_valid, bg_ready;
    logic [W-1:0] bg_data;
    /* verilator lint_off UNUSEDSIGNAL */  // the receive side reads no context RAM here
    logic         gate_entry;
    /* verilator lint_on UNUSEDSIGNAL */
    ctx_gate #(.W(W), .ID_W(ID_W), .ENT_W(1)) u_ctx_gate (
        .clk(gclk), .rst, .cfg_enable(ctx_gate_q),
        .s_valid(in_valid), .s_ready(in_ready), .s_data(in_data), .s_id(in_data[ID_W-1:0]), .s_entry(1'b0),
        .s_grant_valid, .s_grant_ready, .s_grant_id, .s_grant_entry(1'b0),
        .m_valid(bg_valid), .m_ready(bg_ready), .m_data(bg_data), .m_entry(gate_entry),
        .waiting(ctx_wait), .waiting_id(ctx_wait_id));

    logic         is_short;
    assign is_short = bg_data[W-1];

    localparam int CT_W = $clog2(MAX_CHAIN) + 1;   // chain time bits
    logic            f_ready, f_out_ready;
    /* verilator lint_off UNUSEDSIGNAL */  // at the tap: the handshakes say it (activity is in chain_*)
    logic            f_busy, sh_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [W-1:0]    f_data;
    logic [CT_W-1:0] tap_f, tap_s;
    stage_chain #(.W(W), .MAX_LEN(MAX_CHAIN)) u_parse_chain (
        .clk, .rst, .cfg_len(len_full_q), .cfg_now(cfg_now[CT_W-1:0]),
        .s_valid(bg_valid && !is_short), .s_ready(f_ready), .s_data(bg_data),
        .m_valid(f_valid), .m_ready(f_out_ready), .m_data(f_data), .busy(f_busy), .holding(chain_held[0]), .tap_at(tap_f));

    logic         sh_ready, sh_out_ready;
    logic [W-1:0] sh_data;
    stage_chain #(.W(W), .MAX_LEN(MAX_CHAIN)) u_short_chain (
        .clk, .rst, .cfg_len(len_short_q), .cfg_now(cfg_now[CT_W-1:0]),
        .s_valid(bg_valid && is_short), .s_ready(sh_ready), .s_data(bg_data),
        .m_valid(sh_valid), .m_ready(sh_out_ready), .m_data(sh_data), .busy(sh_busy), .holding(chain_held[1]), .tap_at(tap_s));

    assign bg_ready = is_short ? sh_ready : f_ready;

    logic         arb_valid, arb_ready;
    logic [W-1:0] arb_data;
    stream_arb2 #(.W(W)) u_arb (
        .clk(gclk_back), .rst,
        .s0_valid(f_valid), .s0_ready(f_out_ready), .s0_data(f_data),
        .s1_valid(sh_valid), .s1_ready(sh_out_ready), .s1_data(sh_data),
        .m_valid(arb_valid), .m_ready(arb_ready), .m_data(arb_data));

    /* verilator lint_off UNUSEDSIGNAL */  // route bit is spent once the routes merge
    logic [W-1:0] out_data;
    /* verilator lint_on UNUSEDSIGNAL */
    pipe_reg #(.W(W)) u_deliver (
        .clk(gclk_back), .rst, .s_valid(arb_valid), .s_ready(arb_ready), .s_data(arb_data),
        .m_valid, .m_ready, .m_data(out_data));
    assign m_id    = out_data[ID_W-1:0];
    assign m_first = m_valid;
    assign m_last  = m_valid;

    // Activity, read by the bridge right after an edge: from registers only
    // (the chains' at-tap compares are never true right after an edge, and
    // their items in flight are reported by chain_*); a packet at the gate
    // with nothing else in the block waits for its grant.
    assign busy  = in_valid || m_valid;
    assign quiet = ctx_gate_q && in_valid && !m_valid;
    // items in flight in the chains change nothing until they reach their
    // taps: the bridge counts the cycles to the first tap from its edge
    assign chain_tap_at0 = 16'(tap_f);
    assign chain_tap_at1 = 16'(tap_s);

`ifndef SYNTHESIS
    // the configuration is loaded at reset: checked once, when the reset is released
    always @(negedge rst) begin
        assert (cfg_depth_full >= fixed_depth && int'(len_full) <= MAX_CHAIN)
            else $error("rx_pipeline: cfg_depth_full %0d out of range", cfg_depth_full);
        assert (cfg_depth_short >= fixed_depth && int'(len_short) <= MAX_CHAIN)
            else $error("rx_pipeline: cfg_depth_short %0d out of range", cfg_depth_short);
    end
`endif
endmodule
