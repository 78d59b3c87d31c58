// roce_tx_pipeline: send pipeline of the PCIe peripheral NIC (RoCE-RC-like).
//
//   bus_if -> ctx_gate -> qp_order (order_tracker, strict) -> segmenter -> psn_alloc_rmw (single-ported QP-context RAM) -> header chain -> flit_out
//
// The tracker sees messages; the segmenter (tx_segmenter) cuts each into
// ceil(s_len / MTU) packets, every one of which takes its own PSN.
//
// Every request does an in-order PSN read-modify-write on the one QP-context
// RAM port shared by all QPs (psn_alloc_rmw on a single-ported ram_sp);
// that occupancy (issue, read latency, increment, write-back, turnaround:
// 6 cycles with the default macro) is the issue interval. The QP-context
// RAM is the QP-context cache's data array: a request reads word 0 of the
// context at the entry the cache's grant names (s_grant_entry); refills
// land through s_fill_* and take the port while they are written. Before it, the order tracker
// in strict mode keeps each QP in order (RC): a Fence or SO request waits for
// the QP's earlier Reads/Atomics, and every later request of that QP waits
// behind it (head-of-line blocking); other QPs pass.
// Contract: input handshake to first flit out = cfg_depth cycles when nothing
// waits (fixed_depth is the structural minimum); back-pressure from m_ready
// stalls back to s_ready; nothing is dropped. With cfg_ctx_gate set, a request
// leaves the bus interface only with its context-cache grant (QP context on
// chip): 0 cycles on a hit, the refill time on a miss. The cfg_* inputs but
// cfg_now are loaded at reset (held from before it, as on the UB pipeline).
module roce_tx_pipeline #(
    parameter int ID_W = 32,
    parameter int CTX_W = 12,           // QP number (the entry when no cache is attached)
    parameter int PSN_W = 24,
    parameter int MAX_CHAIN = 64,
    parameter int CACHE_ENTRIES = 4096, // QP-context RAM: contexts (the context cache's entries)
    parameter int CTX_PORT_BYTES = 32,  // QP-context RAM port width
    parameter int CTX_RAM_LATENCY = 2,  // read latency (cycles after the registered address)
    parameter int CTX_RAM_TURNAROUND = 1, // write-to-read turnaround of the single port
    parameter int FILL_DEPTH = 8,       // refilled contexts buffered for writing (the cache's MSHRs)
    parameter int PAYLOAD_BUFFERS = 8,  // packets' payloads the send engine holds at once (credits)
    parameter int DEPTH_W = 8,
    parameter int LEN_W = 32,           // message payload bytes
    parameter int PKT_W = 24,           // packet index within a message
    parameter int BYTES_W = 18,         // packet bytes (header + payload)
    parameter int FLIT_BYTES = 256,
    parameter int ORDER_SLOTS = 8,
    parameter int ORDER_WIN = 16,
    parameter int OSLOT_W = $clog2(ORDER_SLOTS),
    // derived (not set from outside)
    parameter int ENT_W = $clog2(CACHE_ENTRIES),
    parameter int QPC_WORDS = (ubsim_pkg::QP_CONTEXT_BITS + CTX_PORT_BYTES * 8 - 1) / (CTX_PORT_BYTES * 8),
    parameter int QPC_REC_W = QPC_WORDS * CTX_PORT_BYTES * 8
) (
    input  logic               clk,
    input  logic               rst,
    /* verilator lint_off UNUSEDSIGNAL */  // the chains count time modulo 2 x MAX_CHAIN
    input  logic [15:0]        cfg_now,        // the clock grid's cycle index (low bits): the chains' time
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [DEPTH_W-1:0] cfg_depth,

    input  logic               cfg_ctx_gate,   // a context cache grants each request
    input  logic               s_grant_valid,  // in-order grants from the context cache
    output logic               s_grant_ready,
    input  logic [ID_W-1:0]    s_grant_id,
    input  logic [ENT_W-1:0]   s_grant_entry,  // the entry of the QP context
    output logic               ctx_wait,       // a request waits at the gate for its records
    output logic [ID_W-1:0]    ctx_wait_id,
    output logic               ctx_fill_wait,  // a request waits while refill words hold the QP-context port
    output logic [ID_W-1:0]    ctx_fill_wait_id,

    input  logic               s_valid,
    output logic               s_ready,
    input  logic [ID_W-1:0]    s_id,
    input  logic [CTX_W-1:0]   s_ctx,
    input  logic [LEN_W-1:0]   s_len,       // message payload bytes carried in this direction (0: none)
    input  logic [PKT_W:0]     s_data_pkts, // leading packets whose payload came with the request
    input  logic               s_credit_valid,  // one more packet's payload fetched (in send order)
    input  logic [ID_W-1:0]    s_credit_id,
    output logic               data_wait,   // a message's next packet waits for its payload
    output logic [ID_W-1:0]    data_wait_id,
    input  logic [16:0]        cfg_mtu,
    input  logic [15:0]        cfg_header_bytes,
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
    output logic [ID_W-1:0]    m_id,        // the message
    output logic [PKT_W-1:0]   m_pkt,       // the packet's index in it
    output logic               m_pkt_last,  // its last packet
    output logic [PSN_W-1:0]   m_psn,
    output logic [23:0]        m_dest_qpn,  // header field from the QP context
    output logic               m_first,     // first flit of a packet: it starts on the wire
    output logic               m_last,

    // refills into the QP-context RAM (the context the cache fetched, for its entry)
    input  logic               s_fill_valid,
    output logic               s_fill_ready,
    input  logic [ENT_W-1:0]   s_fill_entry,
    input  logic [QPC_REC_W-1:0] s_fill_data,
    output logic               wb_valid,    // PSN write-back (previous cycle): entry, new next_psn
    output logic [ENT_W-1:0]   wb_entry,
    output logic [PSN_W-1:0]   wb_psn,
    output logic               ctx_port_busy, // the QP-context RAM port is held this cycle
    output logic [31:0]        ctx_reads,   // QP-context RAM counters
    output logic [31:0]        ctx_writebacks,
    output logic [31:0]        ctx_fill_words,
    output logic [31:0]        ctx_port_busy_cycles,

    // activity after an edge (registers only): a bridge reads these after the edge
    output logic               busy,        // it changes state without a new input (the chain aside: chain_*)
    output logic               quiet,       // busy only with a request waiting at ctx_gate: no change until a grant
    output logic [1:0]         chain_held,  // [0]: the header chain holds an item ... ([1]: no second chain)
    output logic [15:0]        chain_tap_at0,   // ... which reaches its tap in this cycle (cfg_now's low
    output logic [15:0]        chain_tap_at1,   //     $clog2(MAX_CHAIN) + 1 bits); 0: no second chain
    output logic               ram_held,    // the QP-context RAM holds a read whose word comes back ...
    output logic [15:0]        ram_due_at,  // ... in the cycle whose cfg_now this is (changing nothing before)
    output logic [DEPTH_W-1:0] fixed_depth
);
    localparam int CL_W = $clog2(MAX_CHAIN + 1);
    // A message carries {data_pkts, len, id}; a packet {bytes, last, pkt, id},
    // the PSN allocator's tag.
    localparam int TAG_W = PKT_W + 1 + LEN_W + ID_W;
    localparam int PTAG_W = BYTES_W + 1 + PKT_W + ID_W;
    localparam int W = PTAG_W + PSN_W + 24;

    // Fixed stages: bus_if 1, QP order tracker 1, the PSN read-modify-write
    // (issue, read latency, increment: its latency), flit serializer 1 (to
    // the first flit).
    logic [7:0] psn_latency;
    assign fixed_depth = DEPTH_W'(3) + DEPTH_W'(psn_latency);
    localparam int ORD_W = 6;
    localparam int DW_IN = CTX_W + TAG_W;

    logic [CL_W-1:0] len;
    assign len = CL_W'(cfg_depth - fixed_depth);

    // The front's clock (clock_gate.sv), shared by the bus interface
    // register, the context gate's check and the configuration register:
    // each changes state only at an edge where a request enters or leaves
    // the register (or at reset). A request held in it while the tracker
    // refuses (the PSN read-modify-write's interval, back-pressure) changes
    // nothing, so those cycles are not clocked.
    logic                   gclk;
    logic                   bif_valid, bif_ready;
    clock_gate u_clock_gate (.clk, .en(rst || (s_valid && s_ready) || (bif_valid && bif_ready)), .gclk);

    // The configuration, loaded at reset (every cfg_* input but cfg_now is
    // held from before the reset on): registered, so that no logic depends
    // on a cfg_* input combinationally. A simulator evaluates the logic of
    // the inputs in every cycle; the registers' logic only where they or
    // its other sources change.
    logic             ctx_gate_q;
    logic [16:0]      mtu_q;
    logic [15:0]      header_bytes_q;
    logic [CL_W-1:0]  len_q;
    always_ff @(posedge gclk) begin
        if (rst) begin
            ctx_gate_q     <= cfg_ctx_gate;
            mtu_q          <= cfg_mtu;
            header_bytes_q <= cfg_header_bytes;
            len_q          <= len;
        end
    end

    logic [ORD_W+DW_IN-1:0] bif_data;
    pipe_reg #(.W(ORD_W + DW_IN)) u_bus_if (
        .clk(gclk), .rst, .s_valid, .s_ready,
        .s_data({s_ord_track, s_ord_tag, s_ord_fence, s_ord_comp_order, s_ord_rdat, s_ctx, s_data_pkts, s_len, s_id}),
        .m_valid(bif_valid), .m_ready(bif_ready), .m_data(bif_data));

    logic                   bg_valid, bg_ready;
    logic [ORD_W+DW_IN-1:0] gate_data;
    /* verilator lint_off UNUSEDSIGNAL */  // (the tracker takes the grant's entry itself: s_late)
    logic [ENT_W-1:0]       gate_entry;
    /* verilator lint_on UNUSEDSIGNAL */
    ctx_gate #(.W(ORD_W + DW_IN), .ID_W(ID_W), .ENT_W(ENT_W)) u_ctx_gate (
        .clk(gclk), .rst, .cfg_enable(ctx_gate_q),
        .s_valid(bif_valid), .s_ready(bif_ready), .s_data(bif_data), .s_id(bif_data[ID_W-1:0]),
        .s_entry(ENT_W'(bif_data[TAG_W +: CTX_W])),
        .s_grant_valid, .s_grant_ready, .s_grant_id, .s_grant_entry,
        .m_valid(bg_valid), .m_ready(bg_ready), .m_data(gate_data), .m_entry(gate_entry),
        .waiting(ctx_wait), .waiting_id(ctx_wait_id));
    // Past the gate the request carries its QP (the tracker's queue) and the
    // entry of its context: the QP itself without a cache, else the entry
    // the grant names. The tracker takes the granted entry as a field of
    // its own (s_late): muxed into the request's data here, the grant, an
    // input, would make the data input logic, formed on every settle.

    // RC ordering per QP (the QP is the context index)
    logic           o_track, o_fence, o_corder, o_rdat;
    logic [1:0]     o_tag;
    assign {o_track, o_tag, o_fence, o_corder, o_rdat} = gate_data[ORD_W+DW_IN-1 -: ORD_W];
    logic           qo_valid, qo_ready, qo_busy;
    localparam int QW = ENT_W + TAG_W;   // what the tracker hands on: entry, tag
    logic [QW-1:0]  qo_data;
    logic [OSLOT_W-1:0] qo_slot;
    logic [7:0]     qo_seq;
    logic           qo_tracked, qo_released;
    /* verilator lint_off UNUSEDSIGNAL */
    logic           qo_err_valid, qo_rel_take;
    logic [ID_W-1:0] qo_err_id, qo_rel_id;
    logic [1:0]     qo_err_code;
    logic [31:0]    qo_stall_slots, qo_stall_window;
    /* verilator lint_on UNUSEDSIGNAL */
    order_tracker #(.W(QW), .ID_W(ID_W), .QID_W(CTX_W), .SLOTS(ORDER_SLOTS), .WIN(ORDER_WIN), .SEQ_W(8),
                    .PAY_W(16), .LATE(1), .LATE_W(ENT_W), .LATE_LSB(TAG_W)) u_qp_order (
        .clk, .rst, .cfg_strict(1'b1), .cfg_mtu(16'hffff),
        .s_valid(bg_valid), .s_present(bif_valid), .s_ready(bg_ready),
        .s_data({ENT_W'(gate_data[TAG_W +: CTX_W]), gate_data[TAG_W-1:0]}), .s_late_sel(ctx_gate_q), .s_late(s_grant_entry),
        .s_id(gate_data[ID_W-1:0]),
        .s_track(o_track), .s_queue(gate_data[TAG_W +: CTX_W]), .s_mode(2'(ubsim_pkg::MODE_ROI)), .s_tag(o_tag),
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
    assign ord_in_id      = gate_data[ID_W-1:0];

    // segmentation: packets from here on
    logic              sg_valid, sg_ready, sg_busy, sg_last;
    logic [ID_W-1:0]   sg_id;
    logic [PKT_W-1:0]  sg_pkt;
    logic [BYTES_W-1:0] sg_bytes;
    logic [ENT_W-1:0]  sg_entry;
    tx_segmenter #(.ID_W(ID_W), .LEN_W(LEN_W), .PKT_W(PKT_W), .MTU_W(17), .BYTES_W(BYTES_W), .XW(ENT_W),
                   .CREDITS(PAYLOAD_BUFFERS)) u_segmenter (
        .clk, .rst, .cfg_mtu(mtu_q), .cfg_header_bytes(header_bytes_q),
        .s_valid(qo_valid), .s_ready(qo_ready), .s_id(qo_data[ID_W-1:0]), .s_len(qo_data[ID_W +: LEN_W]),
        .s_data_pkts(qo_data[ID_W + LEN_W +: PKT_W + 1]), .s_extra(qo_data[TAG_W +: ENT_W]),
        .s_credit_valid, .s_credit_id,
        .m_valid(sg_valid), .m_ready(sg_ready), .m_id(sg_id), .m_pkt(sg_pkt), .m_last(sg_last), .m_bytes(sg_bytes),
        .m_extra(sg_entry), .data_wait, .data_wait_id, .busy(sg_busy));

    logic              psn_valid, psn_ready, psn_busy;
    logic [PTAG_W+48-1:0] psn_fields;   // {dest_qpn, psn, tag}: the RMW's output register
    psn_alloc_rmw #(.TAG_W(PTAG_W), .ENTRIES(CACHE_ENTRIES), .PORT_BYTES(CTX_PORT_BYTES),
                    .RAM_LATENCY(CTX_RAM_LATENCY), .TURNAROUND(CTX_RAM_TURNAROUND), .FILL_DEPTH(FILL_DEPTH))
        u_psn_alloc (
        .clk, .rst, .cfg_now,
        .s_valid(sg_valid), .s_ready(sg_ready),
        .s_tag({sg_bytes, sg_last, sg_pkt, sg_id}), .s_entry(sg_entry),
        .m_valid(psn_valid), .m_ready(psn_ready),
        /* verilator lint_off PINCONNECTEMPTY */  // the three fields travel as one vector
        .m_tag(), .m_psn(), .m_dest_qpn(),
        /* verilator lint_on PINCONNECTEMPTY */
        .m_fields(psn_fields),
        .s_fill_valid, .s_fill_ready, .s_fill_entry, .s_fill_data,
        .wb_valid, .wb_entry, .wb_psn, .latency(psn_latency), .busy(psn_busy), .port_busy(ctx_port_busy),
        .rd_held(ram_held), .rd_due_at(ram_due_at),
        .fill_wait(ctx_fill_wait),
        .cnt_reads(ctx_reads), .cnt_writebacks(ctx_writebacks), .cnt_fill_words(ctx_fill_words),
        .cnt_port_busy_cycles(ctx_port_busy_cycles));

    assign ctx_fill_wait_id = sg_id;

    localparam int CT_W = $clog2(MAX_CHAIN) + 1;   // chain time bits
    logic            hc_valid, hc_ready;
    /* verilator lint_off UNUSEDSIGNAL */  // at the tap: the handshakes say it (activity is in chain_*)
    logic            chain_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [W-1:0]    hc_data;
    logic [CT_W-1:0] tap_c;
    stage_chain #(.W(W), .MAX_LEN(MAX_CHAIN)) u_header_chain (
        .clk, .rst, .cfg_len(len_q), .cfg_now(cfg_now[CT_W-1:0]),
        .s_valid(psn_valid), .s_ready(psn_ready), .s_data(psn_fields),
        .m_valid(hc_valid), .m_ready(hc_ready), .m_data(hc_data), .busy(chain_busy), .holding(chain_held[0]), .tap_at(tap_c));

    // the packet header: ids and the fields of the QP context, in the
    // output ports' registers, loaded as the serializer takes a packet (its
    // m_load, on its clock): they change only there
    logic flit_load, flit_gclk;
    flit_serializer #(.BYTES_W(BYTES_W), .FLIT_BYTES(FLIT_BYTES)) u_flit_out (
        .clk, .rst, .s_valid(hc_valid), .s_ready(hc_ready), .s_bytes(hc_data[PTAG_W-1 -: BYTES_W]),
        .m_valid, .m_ready, .m_first, .m_last, .m_load(flit_load), .m_gclk(flit_gclk));
    always_ff @(posedge flit_gclk) begin
        if (!rst && flit_load) begin
            {m_dest_qpn, m_psn} <= hc_data[PTAG_W +: PSN_W + 24];
            {m_pkt_last, m_pkt} <= hc_data[ID_W +: PKT_W + 1];
            m_id                <= hc_data[ID_W-1:0];
        end
    end
`ifndef SYNTHESIS
    stream_hold_check #(.W(ID_W + PKT_W + 1 + PSN_W + 24)) u_header_hold (
        .clk(flit_gclk), .rst, .valid(m_valid), .ready(m_ready && m_last),   // (a packet: until its last flit leaves)
        .data({m_id, m_pkt, m_pkt_last, m_psn, m_dest_qpn}));
`endif

    // Activity, read by the bridge after an edge: registers only (no input,
    // no cfg_now), so the edge can leave the logic of the inputs to the next
    // clock-low settle (clock_edge.h). The chain's items are in chain_*: an
    // item is never at its tap in the cycle of the edge that moved it.
    logic units_busy;
    assign units_busy = qo_busy || sg_busy || psn_busy || m_valid;
    assign busy  = bif_valid || units_busy;
    assign quiet = ctx_gate_q && bif_valid && !units_busy && !ram_held;   // waiting at ctx_gate for a grant
    // items in flight in the chain change nothing until they reach its tap,
    // nor does a read in the QP-context RAM until its word (ram_*): the
    // bridge counts the cycles to them from its edge
    assign chain_held[1] = 1'b0;
    assign chain_tap_at0 = 16'(tap_c);
    assign chain_tap_at1 = '0;

`ifndef SYNTHESIS
    // the configuration is loaded at reset: checked once, when the reset is released
    always @(negedge rst) begin
        assert (cfg_depth >= fixed_depth && int'(len) <= MAX_CHAIN)
            else $error("roce_tx_pipeline: cfg_depth %0d outside %0d..%0d",
                        cfg_depth, fixed_depth, int'(fixed_depth) + MAX_CHAIN);
    end
`endif
endmodule
