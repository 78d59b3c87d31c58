// ub_tx_multi: the UB send pipeline seen from N_INIT initiators (threads),
// one Jetty each (the port index is the Jetty id), all reaching one remote
// over one shared TP channel (context 0). For experiments and waveforms that
// follow each initiator:
//   - a round-robin Jetty-scheduling front end (combinational, 0 cycles)
//     picks one offered request per cycle into ub_tx_pipeline;
//   - per initiator: its request handshake (s_valid/s_ready), whether the
//     order tracker holds one of its requests (held), how many of its
//     requests are inside the pipeline (in_pipe), and the first flits of its
//     packets on the wire (wire_first).
// The initiator travels in the request id's top INIT_W bits, so the wire
// side can name it. Latency and throughput are ub_tx_pipeline's.
module ub_tx_multi #(
    parameter int N_INIT = 5,
    parameter int ID_W = 32,
    parameter int INIT_W = 3,
    parameter int MAX_CHAIN = 64,
    parameter int CACHE_ENTRIES = 4096,
    parameter int CTX_PORT_BYTES = 32,
    parameter int CTX_RAM_LATENCY = 2,
    parameter int FLIT_BYTES = 256,
    parameter int ORDER_SLOTS = 8,
    parameter int ORDER_WIN = 16,
    parameter int OSLOT_W = $clog2(ORDER_SLOTS)
) (
    input  logic                        clk,
    input  logic                        rst,
    input  logic [15:0]                 cfg_now,    // the clock grid's cycle index (low bits)
    input  logic [7:0]                  cfg_depth_async,
    input  logic [16:0]                 cfg_mtu,

    input  logic [N_INIT-1:0]           s_valid,
    output logic [N_INIT-1:0]           s_ready,
    input  logic [N_INIT-1:0][ID_W-1:0] s_id,       // top INIT_W bits are replaced by the port
    input  logic [N_INIT-1:0][1:0]      s_tag,      // ubsim_pkg::TAG_*
    input  logic [N_INIT-1:0]           s_fence,
    input  logic [N_INIT-1:0]           s_rdat,     // a Read (or Atomic)

    input  logic                        s_cpl_valid,
    input  logic [OSLOT_W-1:0]          s_cpl_slot,
    input  logic [7:0]                  s_cpl_seq,

    output logic                        m_valid,    // the wire side (m_ready held high)
    output logic [ID_W-1:0]             m_id,
    output logic                        m_first,
    output logic [N_INIT-1:0]           wire_first, // per initiator: a packet starts on the wire
    output logic [N_INIT-1:0]           held,       // per initiator: the tracker holds a request
    output logic [N_INIT-1:0][7:0]      in_pipe,    // per initiator: requests inside the pipeline

    output logic                        ord_issue,
    output logic [ID_W-1:0]             ord_issue_id,
    output logic [OSLOT_W-1:0]          ord_issue_slot,
    output logic [7:0]                  ord_issue_seq,
    output logic                        ord_issue_released,
    output logic                        ord_in_hold,
    output logic [ID_W-1:0]             ord_in_id,
    output logic                        busy
);
    // ---- Jetty scheduling: round robin over the offered ports ----
    logic [INIT_W-1:0] pick;
    logic              any, p_ready;
    rr_select #(.N(N_INIT), .IDX_W(INIT_W)) u_sched (
        .clk, .rst, .s_valid, .s_ready, .m_valid(any), .m_ready(p_ready), .m_pick(pick));

    logic [ID_W-1:0] p_id;
    assign p_id = {pick, s_id[pick][ID_W-INIT_W-1:0]};

    /* verilator lint_off UNUSEDSIGNAL */
    logic        p_quiet;
    logic [1:0]  p_chain_held;
    logic [15:0] p_tap_at0, p_tap_at1;   // the taps' cycles: this wrapper's bridge steps every cycle
    logic [PSN_W_C-1:0] m_psn;
    logic m_last, m_err_valid, m_rep_valid, ctx_wait, s_grant_ready;
    logic [ID_W-1:0] m_err_id, m_rep_id, ctx_wait_id;
    logic [1:0] m_err_code;
    logic [7:0] fixed_async, fixed_load;
    logic [23:0] m_peer_tp;
    logic [127:0] m_remote_eid;
    logic s_fill_ready, wb_valid;
    logic [$clog2(CACHE_ENTRIES)-1:0] wb_entry;
    logic [23:0] wb_psn;
    logic ctx_fill_wait;
    logic [ID_W-1:0] ctx_fill_wait_id, data_wait_id;
    logic data_wait, m_pkt_last;
    logic [23:0] m_pkt;
    logic [31:0] ctx_reads, ctx_writebacks, ctx_fill_words, ctx_forwards, ctx_hazard_cycles;
    /* verilator lint_on UNUSEDSIGNAL */
    localparam int PSN_W_C = 24;
    logic [ORDER_SLOTS-1:0]    ord_held, ord_slot_valid;
    logic [ORDER_SLOTS*12-1:0] ord_slot_queue;
    logic                      p_busy;

    ub_tx_pipeline #(.ID_W(ID_W), .MAX_CHAIN(MAX_CHAIN), .CACHE_ENTRIES(CACHE_ENTRIES),
                     .CTX_PORT_BYTES(CTX_PORT_BYTES), .CTX_RAM_LATENCY(CTX_RAM_LATENCY), .FLIT_BYTES(FLIT_BYTES),
                     .ORDER_SLOTS(ORDER_SLOTS), .ORDER_WIN(ORDER_WIN)) u_pipe (
        .clk, .rst, .cfg_now, .cfg_depth_async, .cfg_depth_load(8'd8),
        .cfg_ctx_gate(1'b0), .s_grant_valid(1'b0), .s_grant_ready, .s_grant_id('0), .s_grant_entry('0),
        .ctx_wait, .ctx_wait_id, .ctx_fill_wait, .ctx_fill_wait_id,
        .s_valid(any), .s_ready(p_ready), .s_id(p_id), .s_ctx('0), .s_load(1'b0),
        .s_len(32'd64), .s_data_pkts(25'd1), .s_credit_valid(1'b0), .s_credit_id('0), .data_wait, .data_wait_id,
        .cfg_header_bytes(16'd32),
        .s_ord_track(1'b1), .s_ord_jetty(12'(pick)), .s_ord_mode(2'(ubsim_pkg::MODE_ROI)), .s_ord_tag(s_tag[pick]),
        .s_ord_fence(s_fence[pick]), .s_ord_comp_order(1'b0), .s_ord_rdat(s_rdat[pick]),
        .s_ord_payload(32'd64), .cfg_mtu,
        .s_cpl_valid, .s_cpl_slot, .s_cpl_seq,
        .ord_issue, .ord_issue_id, .ord_issue_slot, .ord_issue_seq, .ord_in_hold, .ord_held,
        .ord_slot_valid, .ord_slot_queue, .ord_in_id, .ord_issue_released,
        .m_err_valid, .m_err_id, .m_err_code, .m_rep_valid, .m_rep_id,
        .m_valid, .m_ready(1'b1), .m_id, .m_pkt, .m_pkt_last, .m_psn, .m_peer_tp, .m_remote_eid, .m_first, .m_last,
        .s_fill_valid(1'b0), .s_fill_ready, .s_fill_entry('0), .s_fill_data('0),
        .wb_valid, .wb_entry, .wb_psn, .ctx_reads, .ctx_writebacks, .ctx_fill_words, .ctx_forwards,
        .ctx_hazard_cycles,
        .busy(p_busy), .quiet(p_quiet), .chain_held(p_chain_held), .chain_tap_at0(p_tap_at0), .chain_tap_at1(p_tap_at1), .fixed_async, .fixed_load);

    // ---- per-initiator views ----
    logic [INIT_W-1:0] out_init;
    assign out_init = m_id[ID_W-1 -: INIT_W];
    always_comb begin
        for (int i = 0; i < N_INIT; i++) begin
            wire_first[i] = m_valid && m_first && out_init == INIT_W'(i);
            held[i] = 1'b0;
            for (int s = 0; s < ORDER_SLOTS; s++)
                if (ord_held[s] && ord_slot_valid[s] && ord_slot_queue[s*12 +: 12] == 12'(i)) held[i] = 1'b1;
        end
    end
    always_ff @(posedge clk) begin
        for (int i = 0; i < N_INIT; i++) begin
            if (rst) in_pipe[i] <= '0;
            else in_pipe[i] <= in_pipe[i] + 8'(s_valid[i] && s_ready[i]) - 8'(wire_first[i]);
        end
    end
    assign busy = p_busy || p_chain_held != '0;   // anything in flight (the chains' items too)
    // One scope per initiator, so a waveform viewer can group its signals.
    /* verilator lint_off UNUSEDSIGNAL */  // observation only (waveforms)
    for (genvar i = 0; i < N_INIT; i++) begin : initiator
        logic       req_valid, req_ready, on_wire;
        logic [7:0] requests_in_pipe;
        assign req_valid = s_valid[i];
        assign req_ready = s_ready[i];
        assign on_wire   = wire_first[i];
        assign requests_in_pipe = in_pipe[i];
        logic       held_by_tracker;
        assign held_by_tracker = held[i];
    end
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
