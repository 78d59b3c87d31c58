// ub_tx_pipeline: send pipeline of the bus-attached UB controller.
//
//   bus_if -> ctx_gate -> jetty_sched -> order_tracker -> header chain --+
//                    \                                                 +-> arb -> segmenter -> tp_ctx_lookup -> flit_out
//                     `-> (Load/Store short path) ----- load chain ----+
//
// URMA async requests take the full route; CPU Load/Store accesses (s_load)
// skip Jetty scheduling and the order tracker. The order tracker
// (order_tracker.sv) enforces each Jetty's ordering (s_ord_*): a request
// that must wait is held out of the stream while later ones pass; it
// reports every request it issues (ord_issue_*) so completions can come
// back on s_cpl_* by (slot, seq): the tracker sees messages. The two
// routes merge round-robin in front of the segmenter (tx_segmenter), which
// cuts a message of s_len payload bytes into ceil(s_len / MTU) packets
// (those beyond the first s_data_pkts wait for payload credits on
// s_credit_*); from there on everything is per packet:
// in front of the TP-channel lookup (tp_ctx_lookup), which reads the
// channel's 56 B record from the context RAM one port word per cycle:
// ceil(56 / CTX_PORT_BYTES) cycles of the read port per request, the
// pipeline's issue interval. The header fields (PSN, peer TP id, remote
// EID) come from that record. The context RAM is the context cache's data
// array: the request reads the record at the entry the cache's grant names
// (s_grant_entry), and refills land through s_fill_*.
// Contract: input handshake to first flit out = cfg_depth_async cycles (full
// route) or cfg_depth_load cycles (short route) when nothing waits; the header
// chains absorb what the fixed stages do not use (fixed_async/fixed_load are
// the structural minima, which the context RAM's word count and read
// latency set). Back-pressure from m_ready stalls the pipeline back
// to s_ready; nothing is dropped. With cfg_ctx_gate set, a request leaves the
// bus interface only with its context-cache grant (ctx_gate): 0 cycles on a
// hit, the refill time on a miss.
module ub_tx_pipeline #(
    parameter int ID_W = 32,
    parameter int CTX_W = 12,           // TP channel number (the entry when no cache is attached)
    parameter int PSN_W = 24,
    parameter int MAX_CHAIN = 64,
    parameter int CACHE_ENTRIES = 4096, // context RAM: records (the context cache's entries)
    parameter int CTX_PORT_BYTES = 32,  // context RAM port width
    parameter int CTX_RAM_LATENCY = 2,  // context RAM read latency (cycles after the registered address)
    parameter int FILL_DEPTH = 8,       // refilled records buffered for writing (the cache's MSHRs)
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
    parameter int TPC_WORDS = (ubsim_pkg::TP_RECORD_BITS + CTX_PORT_BYTES * 8 - 1) / (CTX_PORT_BYTES * 8),
    parameter int TPC_REC_W = TPC_WORDS * CTX_PORT_BYTES * 8
) (
    input  logic               clk,
    input  logic               rst,
    /* verilator lint_off UNUSEDSIGNAL */  // the chains count time modulo 2 x MAX_CHAIN
    input  logic [15:0]        cfg_now,        // the clock grid's cycle index (low bits): the chains' time
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [DEPTH_W-1:0] cfg_depth_async,
    input  logic [DEPTH_W-1:0] cfg_depth_load,

    input  logic               cfg_ctx_gate,   // a context cache grants each request
    input  logic               s_grant_valid,  // in-order grants from the context cache
    output logic               s_grant_ready,
    input  logic [ID_W-1:0]    s_grant_id,
    input  logic [ENT_W-1:0]   s_grant_entry,  // the entry of the record this pipeline reads
    output logic               ctx_wait,       // a request waits at the gate for its records
    output logic [ID_W-1:0]    ctx_wait_id,
    output logic               ctx_fill_wait,  // a request waits at the context RAM for its record's refill words
    output logic [ID_W-1:0]    ctx_fill_wait_id,

    input  logic               s_valid,
    output logic               s_ready,
    input  logic [ID_W-1:0]    s_id,
    input  logic [CTX_W-1:0]   s_ctx,
    input  logic               s_load,
    input  logic [LEN_W-1:0]   s_len,       // message payload bytes carried in this direction (0: none)
    input  logic [PKT_W:0]     s_data_pkts, // leading packets whose payload came with the request
    input  logic               s_credit_valid,  // one more packet's payload fetched (in send order)
    input  logic [ID_W-1:0]    s_credit_id,
    output logic               data_wait,   // a message's next packet waits for its payload
    output logic [ID_W-1:0]    data_wait_id,
    input  logic [15:0]        cfg_header_bytes,
    // ordering of the request in its Jetty (full route only)
    input  logic               s_ord_track,   // a new request (0: a response)
    input  logic [11:0]        s_ord_jetty,
    input  logic [1:0]         s_ord_mode,    // ubsim_pkg::MODE_*
    input  logic [1:0]         s_ord_tag,     // ubsim_pkg::TAG_*
    input  logic               s_ord_fence,
    input  logic               s_ord_comp_order,
    input  logic               s_ord_rdat,    // Read or Atomic
    input  logic [LEN_W-1:0]   s_ord_payload, // the message's size (one MTU at most under UNO)
    input  logic [16:0]        cfg_mtu,

    input  logic               s_cpl_valid,   // completion of (slot, seq) reached the controller
    input  logic [OSLOT_W-1:0] s_cpl_slot,
    input  logic [7:0]         s_cpl_seq,
    output logic               ord_issue,     // the tracker hands a request on (slot, seq)
    output logic [ID_W-1:0]    ord_issue_id,
    output logic [OSLOT_W-1:0] ord_issue_slot,
    output logic [7:0]         ord_issue_seq,
    output logic               ord_in_hold,   // the request entering the tracker is held
    output logic [ORDER_SLOTS-1:0] ord_held,
    output logic [ORDER_SLOTS-1:0] ord_slot_valid,
    output logic [ORDER_SLOTS*12-1:0] ord_slot_queue, // queue (Jetty / QP) of each slot
    output logic [ID_W-1:0]    ord_in_id,     // the request at the tracker's input
    output logic               ord_issue_released,  // the issued request had been held  // per tracker slot: a request is held
    output logic               m_err_valid,   // rejected (illegal under UNO): error completion
    output logic [ID_W-1:0]    m_err_id,
    output logic [1:0]         m_err_code,
    output logic               m_rep_valid,   // completion reported (completion order kept)
    output logic [ID_W-1:0]    m_rep_id,

    output logic               m_valid,
    input  logic               m_ready,
    output logic [ID_W-1:0]    m_id,        // the message
    output logic [PKT_W-1:0]   m_pkt,       // the packet's index in it
    output logic               m_pkt_last,  // its last packet
    output logic [PSN_W-1:0]   m_psn,
    output logic [23:0]        m_peer_tp,   // header fields from the TP-channel record
    output logic [127:0]       m_remote_eid,
    output logic               m_first,     // first flit of a packet: it starts on the wire
    output logic               m_last,

    // refills into the context RAM (the record the cache fetched, for its entry)
    input  logic               s_fill_valid,
    output logic               s_fill_ready,
    input  logic [ENT_W-1:0]   s_fill_entry,
    input  logic [TPC_REC_W-1:0] s_fill_data,
    output logic               wb_valid,    // PSN write-back (previous cycle): entry, new next_psn
    output logic [ENT_W-1:0]   wb_entry,
    output logic [PSN_W-1:0]   wb_psn,
    output logic [31:0]        ctx_reads,   // context RAM counters
    output logic [31:0]        ctx_writebacks,
    output logic [31:0]        ctx_fill_words,
    output logic [31:0]        ctx_forwards,
    output logic [31:0]        ctx_hazard_cycles,

    // activity after an edge (registers only): a bridge reads these after the edge
    output logic               busy,        // it changes state without a new input (the chains aside: chain_*)
    output logic               quiet,       // busy only with a request waiting at ctx_gate: no change until a grant
    output logic [1:0]         chain_held,  // chain c (0 async, 1 load) holds an item ...
    output logic [15:0]        chain_tap_at0,   // ... which reaches its tap in this cycle (cfg_now's low
    output logic [15:0]        chain_tap_at1,   //     $clog2(MAX_CHAIN) + 1 bits)
    output logic [DEPTH_W-1:0] fixed_async,
    output logic [DEPTH_W-1:0] fixed_load
);
    // Message descriptor: {ord, load, entry, data_pkts, len, id} (ctx in
    // place of the entry until the gate); the ordering fields are spent in
    // the order tracker, the rest in the segmenter. A packet carries
    // {bytes, last, pkt, id} as the TP lookup's tag.
    localparam int TAG_W = PKT_W + 1 + LEN_W + ID_W;    // message: data_pkts, len, id
    localparam int PTAG_W = BYTES_W + 1 + PKT_W + ID_W;  // packet: bytes, last, pkt, id
    localparam int ORD_W = 1 + 12 + 2 + 2 + 1 + 1 + 1 + LEN_W;
    localparam int DW = 1 + ENT_W + TAG_W;      // what travels past the gate
    localparam int W = ORD_W + DW;
    localparam int W_IN = ORD_W + 1 + CTX_W + TAG_W;
    localparam int CL_W = $clog2(MAX_CHAIN + 1);

    // Fixed stages: bus_if 1, jetty_sched 1, order_check 1, the TP-context
    // lookup (its latency: words + RAM read latency + output FIFO), flit
    // serializer 1 (to the first flit).
    logic [7:0] tp_latency;
    assign fixed_async = DEPTH_W'(4) + DEPTH_W'(tp_latency);
    assign fixed_load  = DEPTH_W'(2) + DEPTH_W'(tp_latency);

    logic [CL_W-1:0] len_async, len_load;
    assign len_async = CL_W'(cfg_depth_async - fixed_async);
    assign len_load  = CL_W'(cfg_depth_load - fixed_load);

    // The front's clock (clock_gate.sv), shared by the units before the
    // chains and the arbiter behind them: the configuration registers, the
    // bus interface register, the context gate's check, the Jetty
    // scheduler register and the arbiter's round-robin state. Each of them
    // changes state only at an edge where an item enters or leaves it (or
    // at reset), so one enable covers them all: a handshake at the input,
    // at either register's output or at the arbiter's. An item held while
    // the next unit refuses it (the TP lookup's issue interval,
    // back-pressure) changes nothing, so those cycles are not clocked.
    logic gclk;
    logic bif_valid, js_valid, ha_valid, hl_valid;
    logic bif_ready, oc_ready, arb_valid, arb_ready;
    clock_gate u_clock_gate (.clk, .en(rst || (s_valid && s_ready) || (bif_valid && bif_ready) || (js_valid && oc_ready)
                                       || (arb_valid && arb_ready)), .gclk);

    // The configuration, loaded at reset (every cfg_* input but cfg_now is
    // held from before the reset on): registered, so that no logic depends
    // on a cfg_* input combinationally. A simulator evaluates the logic of
    // the inputs in every cycle; the registers' logic only where they or
    // its other sources change.
    logic             ctx_gate_q;
    logic [16:0]      mtu_q;
    logic [15:0]      header_bytes_q;
    logic [CL_W-1:0]  len_async_q, len_load_q;
    always_ff @(posedge gclk) begin
        if (rst) begin
            ctx_gate_q     <= cfg_ctx_gate;
            mtu_q          <= cfg_mtu;
            header_bytes_q <= cfg_header_bytes;
            len_async_q    <= len_async;
            len_load_q     <= len_load;
        end
    end

    // bus interface register
    logic [W_IN-1:0] bif_data;
    pipe_reg #(.W(W_IN)) u_bus_if (
        .clk(gclk), .rst, .s_valid, .s_ready, .s_data({s_ord_track, s_ord_jetty, s_ord_mode, s_ord_tag, s_ord_fence, s_ord_comp_order,
                                       s_ord_rdat, s_ord_payload, s_load, s_ctx, s_data_pkts, s_len, s_id}),
        .m_valid(bif_valid), .m_ready(bif_ready), .m_data(bif_data));

    // context-cache gate: the Jetty and TP-channel records must be on chip
    logic            bg_valid, bg_ready;
    logic [W_IN-1:0] gate_data;
    logic [ENT_W-1:0] gate_entry;
    logic [W-1:0]    bg_data;
    ctx_gate #(.W(W_IN), .ID_W(ID_W), .ENT_W(ENT_W)) u_ctx_gate (
        .clk(gclk), .rst, .cfg_enable(ctx_gate_q),
        .s_valid(bif_valid), .s_ready(bif_ready), .s_data(bif_data), .s_id(bif_data[ID_W-1:0]),
        .s_entry(ENT_W'(bif_data[TAG_W +: CTX_W])),
        .s_grant_valid, .s_grant_ready, .s_grant_id, .s_grant_entry,
        .m_valid(bg_valid), .m_ready(bg_ready), .m_data(gate_data), .m_entry(gate_entry),
        .waiting(ctx_wait), .waiting_id(ctx_wait_id));
    // past the gate the request carries the entry of its TP-channel record
    /* verilator lint_off UNUSEDSIGNAL */  // the channel number is spent at the gate
    logic [CTX_W-1:0] gate_ctx;
    /* verilator lint_on UNUSEDSIGNAL */
    assign gate_ctx = gate_data[TAG_W +: CTX_W];
    assign bg_data = {gate_data[W_IN-1 -: ORD_W + 1], gate_entry, gate_data[TAG_W-1:0]};

    logic bif_is_load;
    assign bif_is_load = bg_data[DW-1];

    // full route
    logic          js_ready, oc_valid, ca_ready;
    logic          ha_ready;
    logic [W-1:0]  js_data;
    logic [DW-1:0] oc_data, ha_data;
    pipe_reg #(.W(W)) u_jetty_sched (
        .clk(gclk), .rst, .s_valid(bg_valid && !bif_is_load), .s_ready(js_ready), .s_data(bg_data),
        .m_valid(js_valid), .m_ready(oc_ready), .m_data(js_data));

    // ordering fields of the descriptor
    logic        o_track, o_fence, o_corder, o_rdat;
    logic [11:0] o_jetty;
    logic [1:0]  o_mode, o_tag;
    logic [LEN_W-1:0] o_payload;
    assign {o_track, o_jetty, o_mode, o_tag, o_fence, o_corder, o_rdat, o_payload} = js_data[W-1:DW];

    logic [OSLOT_W-1:0] oc_slot;
    logic [7:0]         oc_seq;
    logic               oc_tracked;
    /* verilator lint_off UNUSEDSIGNAL */
    logic               oc_released;
    logic               ot_rel_take;
    logic [ID_W-1:0]    ot_rel_id;
    logic [31:0]        ot_stall_slots, ot_stall_window;
    /* verilator lint_on UNUSEDSIGNAL */
    logic               ot_busy;
    order_tracker #(.W(DW), .ID_W(ID_W), .QID_W(12), .SLOTS(ORDER_SLOTS), .WIN(ORDER_WIN), .SEQ_W(8),
                    .PAY_W(LEN_W)) u_order_tracker (
        .clk, .rst, .cfg_strict(1'b0), .cfg_mtu(LEN_W'(mtu_q)),
        .s_valid(js_valid), .s_present(js_valid), .s_ready(oc_ready), .s_data(js_data[DW-1:0]),
        .s_late_sel(1'b0), .s_late(1'b0), .s_id(js_data[ID_W-1:0]),
        .s_track(o_track), .s_queue(o_jetty), .s_mode(o_mode), .s_tag(o_tag), .s_fence(o_fence),
        .s_comp_order(o_corder), .s_rdat(o_rdat), .s_payload(o_payload),
        .m_valid(oc_valid), .m_ready(ca_ready), .m_data(oc_data), .m_id(ord_issue_id), .m_slot(oc_slot),
        .m_seq(oc_seq), .m_released(oc_released), .m_tracked(oc_tracked),
        .m_err_valid, .m_err_ready(1'b1), .m_err_id, .m_err_code,
        .s_cpl_valid, .s_cpl_slot, .s_cpl_seq,
        .m_rep_valid, .m_rep_ready(1'b1), .m_rep_id,
        .held_any(ord_held), .slot_valid(ord_slot_valid), .slot_queues(ord_slot_queue), .in_hold(ord_in_hold),
        .rel_take(ot_rel_take), .rel_id(ot_rel_id), .busy(ot_busy),
        .stall_slots(ot_stall_slots), .stall_window(ot_stall_window));
    assign ord_issue      = oc_valid && ca_ready && oc_tracked;
    assign ord_issue_slot = oc_slot;
    assign ord_issue_seq  = oc_seq;
    assign ord_issue_released = oc_released;
    assign ord_in_id      = js_data[ID_W-1:0];

    localparam int CT_W = $clog2(MAX_CHAIN) + 1;   // chain time bits
    /* verilator lint_off UNUSEDSIGNAL */  // at the tap: the handshakes say it (activity is in chain_*)
    logic            chain_a_busy, chain_l_busy;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [CT_W-1:0] tap_a, tap_l;
    stage_chain #(.W(DW), .MAX_LEN(MAX_CHAIN)) u_header_chain (
        .clk, .rst, .cfg_len(len_async_q), .cfg_now(cfg_now[CT_W-1:0]),
        .s_valid(oc_valid), .s_ready(ca_ready), .s_data(oc_data),
        .m_valid(ha_valid), .m_ready(ha_ready), .m_data(ha_data), .busy(chain_a_busy), .holding(chain_held[0]), .tap_at(tap_a));

    // short (Load/Store) route
    // (without the route bit: every item of this chain is a load)
    logic          hl_ready, cl_ready;
    logic [DW-2:0] hl_data;
    stage_chain #(.W(DW - 1), .MAX_LEN(MAX_CHAIN)) u_load_chain (
        .clk, .rst, .cfg_len(len_load_q), .cfg_now(cfg_now[CT_W-1:0]),
        .s_valid(bg_valid && bif_is_load), .s_ready(cl_ready), .s_data(bg_data[DW-2:0]),
        .m_valid(hl_valid), .m_ready(hl_ready), .m_data(hl_data), .busy(chain_l_busy), .holding(chain_held[1]), .tap_at(tap_l));

    assign bg_ready = bif_is_load ? cl_ready : js_ready;

    // merge, TP-channel lookup, flit output
    /* verilator lint_off UNUSEDSIGNAL */  // route bit is spent once the routes merge
    logic [DW-1:0] arb_data;
    /* verilator lint_on UNUSEDSIGNAL */
    stream_arb2 #(.W(DW)) u_arb (
        .clk(gclk), .rst,
        .s0_valid(ha_valid), .s0_ready(ha_ready), .s0_data(ha_data),
        .s1_valid(hl_valid), .s1_ready(hl_ready), .s1_data({1'b1, hl_data}),
        .m_valid(arb_valid), .m_ready(arb_ready), .m_data(arb_data));

    // segmentation: packets from here on
    logic              sg_valid, sg_ready, sg_busy, sg_last;
    logic [ID_W-1:0]   sg_id;
    logic [PKT_W-1:0]  sg_pkt;
    logic [BYTES_W-1:0] sg_bytes;
    logic [ENT_W-1:0]  sg_entry;
    tx_segmenter #(.ID_W(ID_W), .LEN_W(LEN_W), .PKT_W(PKT_W), .MTU_W(17), .BYTES_W(BYTES_W), .XW(ENT_W),
                   .CREDITS(PAYLOAD_BUFFERS)) u_segmenter (
        .clk, .rst, .cfg_mtu(mtu_q), .cfg_header_bytes(header_bytes_q),
        .s_valid(arb_valid), .s_ready(arb_ready), .s_id(arb_data[ID_W-1:0]), .s_len(arb_data[ID_W +: LEN_W]),
        .s_data_pkts(arb_data[ID_W + LEN_W +: PKT_W + 1]), .s_extra(arb_data[TAG_W +: ENT_W]),
        .s_credit_valid, .s_credit_id,
        .m_valid(sg_valid), .m_ready(sg_ready), .m_id(sg_id), .m_pkt(sg_pkt), .m_last(sg_last), .m_bytes(sg_bytes),
        .m_extra(sg_entry), .data_wait, .data_wait_id, .busy(sg_busy));

    logic              tp_valid, tp_ready, tp_busy;
    logic [PTAG_W-1:0] tp_tag;
    logic [PSN_W-1:0]  tp_psn;
    logic [23:0]       tp_peer;
    logic [127:0]      tp_eid;
    tp_ctx_lookup #(.TAG_W(PTAG_W), .ENTRIES(CACHE_ENTRIES), .PORT_BYTES(CTX_PORT_BYTES),
                    .RAM_LATENCY(CTX_RAM_LATENCY), .FILL_DEPTH(FILL_DEPTH)) u_tp_lookup (
        .clk, .rst,
        .s_valid(sg_valid), .s_ready(sg_ready),
        .s_tag({sg_bytes, sg_last, sg_pkt, sg_id}), .s_entry(sg_entry),
        .m_valid(tp_valid), .m_ready(tp_ready), .m_tag(tp_tag), .m_psn(tp_psn), .m_peer_tp(tp_peer),
        .m_remote_eid(tp_eid),
        .s_fill_valid, .s_fill_ready, .s_fill_entry, .s_fill_data,
        .wb_valid, .wb_entry, .wb_psn, .latency(tp_latency), .busy(tp_busy), .fill_wait(ctx_fill_wait),
        .cnt_reads(ctx_reads), .cnt_writebacks(ctx_writebacks), .cnt_fill_words(ctx_fill_words),
        .cnt_forwards(ctx_forwards), .cnt_hazard_cycles(ctx_hazard_cycles));

    assign ctx_fill_wait_id = sg_id;

    // the packet header: ids and the fields of the TP-channel record, in
    // the output ports' registers, loaded as the serializer takes a packet
    // (its m_load, on its clock): they change only there
    logic flit_load, flit_gclk;
    flit_serializer #(.BYTES_W(BYTES_W), .FLIT_BYTES(FLIT_BYTES)) u_flit_out (
        .clk, .rst, .s_valid(tp_valid), .s_ready(tp_ready), .s_bytes(tp_tag[PTAG_W-1 -: BYTES_W]),
        .m_valid, .m_ready, .m_first, .m_last, .m_load(flit_load), .m_gclk(flit_gclk));
    always_ff @(posedge flit_gclk) begin
        if (!rst && flit_load) begin
            {m_pkt_last, m_pkt} <= tp_tag[ID_W +: PKT_W + 1];
            m_id                <= tp_tag[ID_W-1:0];
            m_psn               <= tp_psn;
            m_peer_tp           <= tp_peer;
            m_remote_eid        <= tp_eid;
        end
    end
`ifndef SYNTHESIS
    stream_hold_check #(.W(ID_W + PKT_W + 1 + PSN_W + 24 + 128)) u_header_hold (
        .clk(flit_gclk), .rst, .valid(m_valid), .ready(m_ready && m_last),   // (a packet: until its last flit leaves)
        .data({m_id, m_pkt, m_pkt_last, m_psn, m_peer_tp, m_remote_eid}));
`endif

    // Activity, read by the bridge after an edge: registers only (no input,
    // no cfg_now), so the edge can leave the logic of the inputs to the next
    // clock-low settle (clock_edge.h). The chains' items are in chain_*: an
    // item is never at its tap in the cycle of the edge that moved it.
    logic units_busy;
    assign units_busy = js_valid || ot_busy || sg_busy || tp_busy || m_valid;
    assign busy  = bif_valid || units_busy;
    assign quiet = ctx_gate_q && bif_valid && !units_busy;   // waiting at ctx_gate for a grant
    // items in flight in the chains change nothing until they reach their
    // taps: the bridge counts the cycles to the first tap from its edge
    assign chain_tap_at0 = 16'(tap_a);
    assign chain_tap_at1 = 16'(tap_l);

`ifndef SYNTHESIS
    // the configuration is loaded at reset: checked once, when the reset is released
    always @(negedge rst) begin
        assert (cfg_depth_async >= fixed_async && int'(len_async) <= MAX_CHAIN)
            else $error("ub_tx_pipeline: cfg_depth_async %0d outside %0d..%0d",
                        cfg_depth_async, fixed_async, int'(fixed_async) + MAX_CHAIN);
        assert (cfg_depth_load >= fixed_load && int'(len_load) <= MAX_CHAIN)
            else $error("ub_tx_pipeline: cfg_depth_load %0d outside %0d..%0d",
                        cfg_depth_load, fixed_load, int'(fixed_load) + MAX_CHAIN);
    end
`endif
endmodule
