// roce_tx_multi: the PCIe NIC send pipeline seen from N_INIT initiators
// (threads) that share one RC QP (context 0) to the same remote, the RoCE
// contrast of ub_tx_multi. A round-robin front end (0 cycles) picks one
// offered request per cycle. The QP is strictly in order: a request the QP
// order tracker holds holds every later request of the QP, whoever posted
// it. Per initiator: s_valid/s_ready, in_pipe (its requests inside the
// pipeline) and wire_first; qp_held shows the QP's hold state. The
// initiator travels in the request id's top INIT_W bits.
module roce_tx_multi #(
    parameter int N_INIT = 5,
    parameter int ID_W = 32,
    parameter int INIT_W = 3,
    parameter int MAX_CHAIN = 64,
    parameter int CACHE_ENTRIES = 4096,
    parameter int CTX_PORT_BYTES = 32,
    parameter int CTX_RAM_LATENCY = 2,
    parameter int CTX_RAM_TURNAROUND = 1,
    parameter int FLIT_BYTES = 256,
    parameter int ORDER_SLOTS = 8,
    parameter int ORDER_WIN = 16,
    parameter int OSLOT_W = $clog2(ORDER_SLOTS)
) (
    input  logic                        clk,
    input  logic                        rst,
    input  logic [15:0]                 cfg_now,    // the clock grid's cycle index (low bits)
    input  logic [7:0]                  cfg_depth,

    input  logic [N_INIT-1:0]           s_valid,
    output logic [N_INIT-1:0]           s_ready,
    input  logic [N_INIT-1:0][ID_W-1:0] s_id,
    input  logic [N_INIT-1:0][1:0]      s_tag,
    input  logic [N_INIT-1:0]           s_fence,
    input  logic [N_INIT-1:0]           s_rdat,

    input  logic                        s_cpl_valid,
    input  logic [OSLOT_W-1:0]          s_cpl_slot,
    input  logic [7:0]                  s_cpl_seq,

    output logic                        m_valid,
    output logic [ID_W-1:0]             m_id,
    output logic                        m_first,
    output logic [N_INIT-1:0]           wire_first,
    output logic [N_INIT-1:0][7:0]      in_pipe,
    output logic                        qp_held,    // the QP's order tracker holds a request

    output logic                        ord_issue,
    output logic [ID_W-1:0]             ord_issue_id,
    output logic [OSLOT_W-1:0]          ord_issue_slot,
    output logic [7:0]                  ord_issue_seq,
    output logic                        ord_issue_released,
    output logic                        ord_in_hold,
    output logic [ID_W-1:0]             ord_in_id,
    output logic                        busy
);
    logic [INIT_W-1:0] pick;
    logic              any, p_ready;
    rr_select #(.N(N_INIT), .IDX_W(INIT_W)) u_sched (
        .clk, .rst, .s_valid, .s_ready, .m_valid(any), .m_ready(p_ready), .m_pick(pick));

    /* verilator lint_off UNUSEDSIGNAL */
    logic        p_quiet;
    logic [1:0]  p_chain_held;
    logic [15:0] p_tap_at0, p_tap_at1;   // the taps' cycles: this wrapper's bridge steps every cycle
    logic [23:0] m_psn;
    logic m_last, m_rep_valid, ctx_wait, s_grant_ready;
    logic [ID_W-1:0] m_rep_id, ctx_wait_id;
    logic [7:0] fixed_depth;
    logic [ORDER_SLOTS-1:0] ord_slot_valid;
    logic [ORDER_SLOTS*12-1:0] ord_slot_queue;
    logic [23:0] m_dest_qpn;
    logic s_fill_ready, wb_valid, ctx_port_busy;
    logic [$clog2(CACHE_ENTRIES)-1:0] wb_entry;
    logic [23:0] wb_psn;
    logic ctx_fill_wait;
    logic [ID_W-1:0] ctx_fill_wait_id, data_wait_id;
    logic data_wait, m_pkt_last;
    logic [23:0] m_pkt;
    logic [31:0] ctx_reads, ctx_writebacks, ctx_fill_words, ctx_port_busy_cycles;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [ORDER_SLOTS-1:0] ord_held;
    logic                   p_busy, p_ram_held;
    /* verilator lint_off UNUSEDSIGNAL */  // (the read's due cycle: a bridge's, not the composite's)
    logic [15:0]            p_ram_due_at;
    /* verilator lint_on UNUSEDSIGNAL */
    roce_tx_pipeline #(.ID_W(ID_W), .CTX_W(12), .MAX_CHAIN(MAX_CHAIN), .CACHE_ENTRIES(CACHE_ENTRIES),
                       .CTX_PORT_BYTES(CTX_PORT_BYTES), .CTX_RAM_LATENCY(CTX_RAM_LATENCY),
                       .CTX_RAM_TURNAROUND(CTX_RAM_TURNAROUND), .FLIT_BYTES(FLIT_BYTES),
                       .ORDER_SLOTS(ORDER_SLOTS), .ORDER_WIN(ORDER_WIN)) u_pipe (
        .clk, .rst, .cfg_now, .cfg_depth,
        .cfg_ctx_gate(1'b0), .s_grant_valid(1'b0), .s_grant_ready, .s_grant_id('0), .s_grant_entry('0),
        .ctx_wait, .ctx_wait_id, .ctx_fill_wait, .ctx_fill_wait_id,
        .s_valid(any), .s_ready(p_ready), .s_id({pick, s_id[pick][ID_W-INIT_W-1:0]}), .s_ctx('0),
        .s_len(32'd64), .s_data_pkts(25'd1), .s_credit_valid(1'b0), .s_credit_id('0), .data_wait, .data_wait_id,
        .cfg_mtu(17'd4096), .cfg_header_bytes(16'd32),
        .s_ord_track(1'b1), .s_ord_tag(s_tag[pick]), .s_ord_fence(s_fence[pick]), .s_ord_comp_order(1'b0),
        .s_ord_rdat(s_rdat[pick]),
        .s_cpl_valid, .s_cpl_slot, .s_cpl_seq,
        .ord_issue, .ord_issue_id, .ord_issue_slot, .ord_issue_seq, .ord_in_hold, .ord_held,
        .ord_slot_valid, .ord_slot_queue, .ord_in_id, .ord_issue_released,
        .m_rep_valid, .m_rep_id,
        .m_valid, .m_ready(1'b1), .m_id, .m_pkt, .m_pkt_last, .m_psn, .m_dest_qpn, .m_first, .m_last,
        .s_fill_valid(1'b0), .s_fill_ready, .s_fill_entry('0), .s_fill_data('0),
        .wb_valid, .wb_entry, .wb_psn, .ctx_port_busy, .ctx_reads, .ctx_writebacks, .ctx_fill_words,
        .ctx_port_busy_cycles,
        .busy(p_busy), .quiet(p_quiet), .chain_held(p_chain_held), .chain_tap_at0(p_tap_at0), .chain_tap_at1(p_tap_at1),
        .ram_held(p_ram_held), .ram_due_at(p_ram_due_at), .fixed_depth);

    logic [INIT_W-1:0] out_init;
    assign out_init = m_id[ID_W-1 -: INIT_W];
    always_comb begin
        for (int i = 0; i < N_INIT; i++) wire_first[i] = m_valid && m_first && out_init == INIT_W'(i);
    end
    always_ff @(posedge clk) begin
        for (int i = 0; i < N_INIT; i++) begin
            if (rst) in_pipe[i] <= '0;
            else in_pipe[i] <= in_pipe[i] + 8'(s_valid[i] && s_ready[i]) - 8'(wire_first[i]);
        end
    end
    assign qp_held = |ord_held;
    assign busy = p_busy || p_chain_held != '0 || p_ram_held;   // anything in flight (the chains' items and a RAM read too)
    // One scope per initiator, so a waveform viewer can group its signals.
    /* verilator lint_off UNUSEDSIGNAL */  // observation only (waveforms)
    for (genvar i = 0; i < N_INIT; i++) begin : initiator
        logic       req_valid, req_ready, on_wire;
        logic [7:0] requests_in_pipe;
        assign req_valid = s_valid[i];
        assign req_ready = s_ready[i];
        assign on_wire   = wire_first[i];
        assign requests_in_pipe = in_pipe[i];
    end
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
