// roce_tx_pipeline: send pipeline of the PCIe peripheral NIC (RoCE-RC-like).
//
//   bus_if -> ctx_gate -> qp_order (order_tracker, strict) -> psn_alloc_rmw (single-ported QP-context RAM) -> header chain -> flit_out
//
// Every request does an in-order PSN read-modify-write on the one QP-context
// RAM port shared by all QPs; that occupancy (3 + rd_latency + turnaround
// cycles, 6 by default) is the issue interval. Before it, the order tracker
// in strict mode keeps each QP in order (RC): a Fence or SO request waits for
// the QP's earlier Reads/Atomics, and every later request of that QP waits
// behind it (head-of-line blocking); other QPs pass.
// Contract: input handshake to first flit out = cfg_depth cycles when nothing
// waits (fixed_depth is the structural minimum); back-pressure from m_ready
// stalls back to s_ready; nothing is dropped. With cfg_ctx_gate set, a request
// leaves the bus interface only with its context-cache grant (QP context on
// chip): 0 cycles on a hit, the refill time on a miss.
module roce_tx_pipeline #(
    parameter int ID_W = 32,
    parameter int CTX_W = 12,
    parameter int PSN_W = 24,
    parameter int MAX_CHAIN = 64,
    parameter int DEPTH_W = 8,
    parameter int BYTES_W = 16,
    parameter int FLIT_BYTES = 256,
    parameter int ORDER_SLOTS = 8,
    parameter int ORDER_WIN = 16,
    parameter int OSLOT_W = $clog2(ORDER_SLOTS)
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [DEPTH_W-1:0] cfg_depth,
    input  logic [3:0]         cfg_qpc_rd_latency,
    input  logic [2:0]         cfg_qpc_turnaround,

    input  logic               cfg_ctx_gate,   // a context cache grants each request
    input  logic               s_grant_valid,  // in-order grants from the context cache
    output logic               s_grant_ready,
    input  logic [ID_W-1:0]    s_grant_id,
    output logic               ctx_wait,       // a request waits at the gate for its records
    output logic [ID_W-1:0]    ctx_wait_id,

    input  logic               s_valid,
    output logic               s_ready,
    input  logic [ID_W-1:0]    s_id,
    input  logic [CTX_W-1:0]   s_ctx,
    input  logic [BYTES_W-1:0] s_bytes,     // packet length (header + payload)
    input  logic               s_ord_track,   // a new request (0: a response)
    input  logic [1:0]         s_ord_tag,     // ubsim_pkg::TAG_*
    input  logic               s_ord_fence,
    input  logic               s_ord_comp_order,
    input  logic               s_ord_rdat,    // Read or Atomic

    input  logic               s_cpl_valid,   // completion of (slot, seq) reached the NIC
    input  logic [OSLOT_W-1:0] s_cpl_slot,
    input  logic [7:0]         s_cpl_seq,
    output logic               ord_issue,
    output logic [ID_W-1:0]    ord_issue_id,
    output logic [OSLOT_W-1:0] ord_issue_slot,
    output logic [7:0]         ord_issue_seq,
    output logic               ord_in_hold,
    output logic [ORDER_SLOTS-1:0] ord_held,
    output logic [ORDER_SLOTS-1:0] ord_slot_valid,
    output logic [ORDER_SLOTS*CTX_W-1:0] ord_slot_queue, // queue (Jetty / QP) of each slot
    output logic [ID_W-1:0]    ord_in_id,     // the request at the tracker's input
    output logic               ord_issue_released,  // the issued request had been held
    output logic               m_rep_valid,
    output logic [ID_W-1:0]    m_rep_id,

    output logic               m_valid,
    input  logic               m_ready,
    output logic [ID_W-1:0]    m_id,
    output logic [PSN_W-1:0]   m_psn,
    output logic               m_first,     // first flit of a packet: it starts on the wire
    output logic               m_last,

    output logic               busy,
    output logic               quiet,       // busy only with a request waiting at ctx_gate: no change until a grant
    output logic [DEPTH_W-1:0] fixed_depth
);
    localparam int LEN_W = $clog2(MAX_CHAIN + 1);
    // The PSN allocator carries {bytes, id} as its tag.
    localparam int TAG_W = BYTES_W + ID_W;
    localparam int W = TAG_W + PSN_W;

    // Fixed stages: bus_if 1, QP order tracker 1, PSN RMW (2 + rd_latency) +
    // output register 1, flit serializer 1 (to the first flit).
    assign fixed_depth = DEPTH_W'(6) + DEPTH_W'(cfg_qpc_rd_latency);
    localparam int ORD_W = 6;
    localparam int DW = CTX_W + TAG_W;

    logic [LEN_W-1:0] len;
    assign len = LEN_W'(cfg_depth - fixed_depth);

    logic                bif_valid, bif_ready;
    logic [ORD_W+DW-1:0] bif_data;
    pipe_reg #(.W(ORD_W + DW)) u_bus_if (
        .clk, .rst, .s_valid, .s_ready,
        .s_data({s_ord_track, s_ord_tag, s_ord_fence, s_ord_comp_order, s_ord_rdat, s_ctx, s_bytes, s_id}),
        .m_valid(bif_valid), .m_ready(bif_ready), .m_data(bif_data));

    logic                bg_valid, bg_ready;
    logic [ORD_W+DW-1:0] bg_data;
    ctx_gate #(.W(ORD_W + DW), .ID_W(ID_W)) u_ctx_gate (
        .clk, .rst, .cfg_enable(cfg_ctx_gate),
        .s_valid(bif_valid), .s_ready(bif_ready), .s_data(bif_data), .s_id(bif_data[ID_W-1:0]),
        .s_grant_valid, .s_grant_ready, .s_grant_id,
        .m_valid(bg_valid), .m_ready(bg_ready), .m_data(bg_data),
        .waiting(ctx_wait), .waiting_id(ctx_wait_id));

    // RC ordering per QP (the QP is the context index)
    logic           o_track, o_fence, o_corder, o_rdat;
    logic [1:0]     o_tag;
    assign {o_track, o_tag, o_fence, o_corder, o_rdat} = bg_data[ORD_W+DW-1:DW];
    logic           qo_valid, qo_ready, qo_busy;
    logic [DW-1:0]  qo_data;
    logic [OSLOT_W-1:0] qo_slot;
    logic [7:0]     qo_seq;
    logic           qo_tracked, qo_released;
    /* verilator lint_off UNUSEDSIGNAL */
    logic           qo_err_valid, qo_rel_take;
    logic [ID_W-1:0] qo_err_id, qo_rel_id;
    logic [1:0]     qo_err_code;
    logic [31:0]    qo_stall_slots, qo_stall_window;
    /* verilator lint_on UNUSEDSIGNAL */
    order_tracker #(.W(DW), .ID_W(ID_W), .QID_W(CTX_W), .SLOTS(ORDER_SLOTS), .WIN(ORDER_WIN), .SEQ_W(8),
                    .PAY_W(16)) u_qp_order (
        .clk, .rst, .cfg_strict(1'b1), .cfg_mtu(16'hffff),
        .s_valid(bg_valid), .s_ready(bg_ready), .s_data(bg_data[DW-1:0]), .s_id(bg_data[ID_W-1:0]),
        .s_track(o_track), .s_queue(bg_data[TAG_W +: CTX_W]), .s_mode(2'(ubsim_pkg::MODE_ROI)), .s_tag(o_tag),
        .s_fence(o_fence), .s_comp_order(o_corder), .s_rdat(o_rdat), .s_payload(16'd0),
        .m_valid(qo_valid), .m_ready(qo_ready), .m_data(qo_data), .m_id(ord_issue_id), .m_slot(qo_slot),
        .m_seq(qo_seq), .m_released(qo_released), .m_tracked(qo_tracked),
        .m_err_valid(qo_err_valid), .m_err_ready(1'b1), .m_err_id(qo_err_id), .m_err_code(qo_err_code),
        .s_cpl_valid, .s_cpl_slot, .s_cpl_seq,
        .m_rep_valid, .m_rep_ready(1'b1), .m_rep_id,
        .held_any(ord_held), .slot_valid(ord_slot_valid), .slot_queues(ord_slot_queue), .in_hold(ord_in_hold),
        .rel_take(qo_rel_take), .rel_id(qo_rel_id), .busy(qo_busy),
        .stall_slots(qo_stall_slots), .stall_window(qo_stall_window));
    assign ord_issue      = qo_valid && qo_ready && qo_tracked;
    assign ord_issue_slot = qo_slot;
    assign ord_issue_seq  = qo_seq;
    assign ord_issue_released = qo_released;
    assign ord_in_id      = bg_data[ID_W-1:0];

    logic             psn_valid, psn_ready, psn_busy;
    logic [TAG_W-1:0] psn_id;
    logic [PSN_W-1:0] psn_psn;
    psn_alloc_rmw #(.ID_W(TAG_W), .CTX_W(CTX_W), .PSN_W(PSN_W)) u_psn_alloc (
        .clk, .rst, .cfg_rd_latency(cfg_qpc_rd_latency), .cfg_turnaround(cfg_qpc_turnaround),
        .s_valid(qo_valid), .s_ready(qo_ready),
        .s_id(qo_data[TAG_W-1:0]), .s_ctx(qo_data[TAG_W +: CTX_W]),
        .m_valid(psn_valid), .m_ready(psn_ready), .m_id(psn_id), .m_psn(psn_psn), .busy(psn_busy));

    logic         hc_valid, hc_ready, chain_busy;
    logic [W-1:0] hc_data;
    stage_chain #(.W(W), .MAX_LEN(MAX_CHAIN)) u_header_chain (
        .clk, .rst, .cfg_len(len),
        .s_valid(psn_valid), .s_ready(psn_ready), .s_data({psn_psn, psn_id}),
        .m_valid(hc_valid), .m_ready(hc_ready), .m_data(hc_data), .busy(chain_busy));

    logic [ID_W+PSN_W-1:0] flit_data;
    flit_serializer #(.W(ID_W + PSN_W), .BYTES_W(BYTES_W), .FLIT_BYTES(FLIT_BYTES)) u_flit_out (
        .clk, .rst, .s_valid(hc_valid), .s_ready(hc_ready),
        .s_data({hc_data[TAG_W +: PSN_W], hc_data[ID_W-1:0]}), .s_bytes(hc_data[ID_W +: BYTES_W]),
        .m_valid, .m_ready, .m_data(flit_data), .m_first, .m_last);
    assign m_id  = flit_data[ID_W-1:0];
    assign m_psn = flit_data[ID_W +: PSN_W];

    assign busy = bif_valid || qo_busy || psn_busy || chain_busy || m_valid;
    assign quiet = ctx_wait && !(qo_busy || psn_busy || chain_busy || m_valid);

`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (cfg_depth >= fixed_depth && int'(len) <= MAX_CHAIN)
                else $error("roce_tx_pipeline: cfg_depth %0d outside %0d..%0d",
                            cfg_depth, fixed_depth, int'(fixed_depth) + MAX_CHAIN);
        end
    end
`endif
endmodule
