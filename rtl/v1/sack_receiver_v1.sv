// sack_receiver_v1: the block as it was before its restructuring for simulation cost, kept as the lockstep test's reference (tests/test_sack_engines.cpp). Not used by the simulator.
// sack_receiver: the receive half of the transport's SACK engine (spec 8).
//
// Keeps an out-of-order window of cfg_window PSNs above the next expected
// PSN (a bitmap by slot, PSN mod MAX_WIN), delivers packets in PSN order
// (one per cycle), and acknowledges: cumulative ack = the first PSN not yet
// received, plus (SACK mode) a bitmap of the PSNs received above it.
//  - SACK mode: an out-of-order packet inside the window is kept.
//  - GoBackN mode (cfg_gbn): only the PSN after the last one kept is kept
//    (delivered or not yet: packets may arrive a cycle apart); any other is
//    dropped and the ack that follows is marked duplicate (m_ack_dup), the
//    sender's cue to go back.
//  - A packet already received (a duplicate) or outside the window is
//    dropped and counted; the ack that follows tells the sender where it is.
// Contract: one packet in per cycle (s_ready low while the ack register is
// full); an ack covers every packet taken since the previous ack (acks are
// coalesced while the wire is busy); 24-bit PSNs wrap.
module sack_receiver_v1 #(
    parameter int MAX_WIN = 2048,
    parameter int ID_W = 32,
    parameter int BYTES_W = 16,
    parameter int PSN_W = 24,
    parameter int WIDX_W = $clog2(MAX_WIN)
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [WIDX_W:0]    cfg_window,
    input  logic               cfg_gbn,
    input  logic [PSN_W-1:0]   cfg_first_psn,

    input  logic               s_valid,         // a data packet arrived
    output logic               s_ready,
    input  logic [PSN_W-1:0]   s_psn,
    input  logic [ID_W-1:0]    s_id,
    input  logic [BYTES_W-1:0] s_bytes,
    output logic               s_kept,          // the packet on s_* is taken and kept (not dropped)

    output logic               m_dlv_valid,     // in-order delivery to the host
    input  logic               m_dlv_ready,
    output logic [ID_W-1:0]    m_dlv_id,
    output logic [PSN_W-1:0]   m_dlv_psn,
    output logic [BYTES_W-1:0] m_dlv_bytes,

    output logic               m_ack_valid,
    input  logic               m_ack_ready,
    output logic [PSN_W-1:0]   m_ack_cum,
    output logic [MAX_WIN-1:0] m_ack_sack,
    output logic               m_ack_dup,

    output logic               busy,
    output logic [31:0]        cnt_duplicates,
    output logic [31:0]        cnt_out_of_window,
    output logic [31:0]        cnt_gbn_drops,
    output logic [31:0]        cnt_delivered
);
    logic [PSN_W-1:0]   expected;             // next PSN to deliver
    logic [PSN_W-1:0]   gbn_next;             // GoBackN: next PSN to keep (delivery may lag a cycle)
    logic [MAX_WIN-1:0] rcvd;                 // by slot: received, not yet delivered
    logic [ID_W-1:0]    id_of    [MAX_WIN];
    logic [BYTES_W-1:0] bytes_of [MAX_WIN];
    logic               ack_pending, dup_pending;

    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic [WIDX_W-1:0] slot(input logic [PSN_W-1:0] psn);
        slot = psn[WIDX_W-1:0];
    endfunction
    function automatic logic [MAX_WIN-1:0] rotr(input logic [MAX_WIN-1:0] v, input logic [WIDX_W-1:0] k);
        logic [2*MAX_WIN-1:0] d;
        d = {v, v} >> k;
        rotr = d[MAX_WIN-1:0];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    function automatic logic [MAX_WIN-1:0] first_n(input logic [WIDX_W:0] n);
        logic [MAX_WIN:0] one;
        one = (MAX_WIN+1)'(1) << n;
        one = one - 1'b1;
        first_n = one[MAX_WIN-1:0];
    endfunction

    // ---- in-order delivery ----
    assign m_dlv_valid = rcvd[slot(expected)];
    assign m_dlv_id    = id_of[slot(expected)];
    assign m_dlv_bytes = bytes_of[slot(expected)];
    assign m_dlv_psn   = expected;
    logic deliver;
    assign deliver = m_dlv_valid && m_dlv_ready;

    // ---- an arriving packet ----
    logic [PSN_W-1:0] off;
    logic             in_window, behind, have, keep;
    assign off       = PSN_W'(s_psn - expected);
    assign in_window = off < PSN_W'(cfg_window);
    assign behind    = off[PSN_W-1];          // "negative": already delivered
    assign have      = in_window && rcvd[slot(s_psn)];
    // GoBackN keeps only the next PSN in order: the one after the last kept,
    // which may not be delivered yet (packets one cycle apart)
    assign keep      = in_window && !have && (!cfg_gbn || s_psn == gbn_next);
    assign s_ready   = !m_ack_valid || m_ack_ready;
    logic take;
    assign take = s_valid && s_ready;
    assign s_kept = take && keep;

    // ---- the ack: cumulative = first PSN not received, bitmap above it ----
    logic [MAX_WIN-1:0] rel;      // bit i = PSN expected + i received
    logic [PSN_W-1:0]   run;      // received in a row from expected
    always_comb begin
        rel = '0;
        run = '0;
        if (ack_pending) begin    // evaluated only when an ack is due: wide
            rel = rotr(rcvd, slot(expected)) & first_n(cfg_window);
            for (int i = 0; i < MAX_WIN; i++)
                if (rel[i] && run == PSN_W'(i)) run = run + 1'b1;
        end
    end
    logic ack_out;
    assign ack_out = ack_pending && (!m_ack_valid || m_ack_ready);

    always_ff @(posedge clk) begin
        if (rst) begin
            expected <= cfg_first_psn;
            gbn_next <= cfg_first_psn;
            rcvd <= '0;
            ack_pending <= 1'b0;
            dup_pending <= 1'b0;
            m_ack_valid <= 1'b0;
            cnt_duplicates <= '0; cnt_out_of_window <= '0; cnt_gbn_drops <= '0; cnt_delivered <= '0;
        end else begin
            if (m_ack_ready) m_ack_valid <= 1'b0;
            // the ack register takes the state as of this cycle's start
            if (ack_out) begin
                m_ack_valid <= 1'b1;
                m_ack_cum <= expected + run;
                m_ack_sack <= cfg_gbn ? '0 : (rel >> (run + 1'b1));
                m_ack_dup <= dup_pending;
            end
            begin
                logic [MAX_WIN-1:0] r;
                logic ap, dp;
                r = rcvd;
                ap = ack_pending && !ack_out;
                dp = dup_pending && !ack_out;
                if (deliver) begin
                    r[slot(expected)] = 1'b0;
                    expected <= expected + 1'b1;
                    cnt_delivered <= cnt_delivered + 1'b1;
                end
                if (take) begin
                    ap = 1'b1;     // every packet is acknowledged
                    if (keep) begin
                        r[slot(s_psn)] = 1'b1;
                        gbn_next <= s_psn + 1'b1;
                        id_of[slot(s_psn)] <= s_id;
                        bytes_of[slot(s_psn)] <= s_bytes;
                    end else if (have || behind) begin
                        cnt_duplicates <= cnt_duplicates + 1'b1;
                    end else if (!in_window) begin
                        cnt_out_of_window <= cnt_out_of_window + 1'b1;
                    end else begin
                        cnt_gbn_drops <= cnt_gbn_drops + 1'b1;   // GoBackN: out of order
                        dp = 1'b1;
                    end
                end
                rcvd <= r;
                ack_pending <= ap;
                dup_pending <= dp;
            end
        end
    end

    assign busy = ack_pending || m_ack_valid || m_dlv_valid;

`ifdef UBSIM_COVER
    // ---------------- cover points (coverage builds only: scripts/coverage lists any never hit;
    // elsewhere their helper signals would be evaluated and traced every cycle) ----------------
    // An arriving packet: in order, above a hole (kept: SACK), a duplicate,
    // outside the window, dropped out of order (GoBackN); a hole filled that
    // releases a run; a duplicate-marked ack; an ack waiting for the wire.
    // (a helper wire, not a function call in the property: Verilator 5.006
    // evaluates a cover property's inlined function after the property reads
    // its result; scripts/coverage_order_check.py finds such points)
    logic cv_next_rcvd;
    assign cv_next_rcvd = rcvd[slot(s_psn + 1'b1)];
    cp_in_order: cover property (@(posedge clk) disable iff (rst) take && keep && s_psn == expected);
    cp_sack_above_hole: cover property (@(posedge clk) disable iff (rst) take && keep && s_psn != expected && !cfg_gbn);
    cp_sack_hole_filled_run: cover property (@(posedge clk) disable iff (rst) take && keep && s_psn == expected && !cfg_gbn && cv_next_rcvd);
    cp_duplicate: cover property (@(posedge clk) disable iff (rst) take && !keep && (have || behind));
    cp_out_of_window: cover property (@(posedge clk) disable iff (rst) take && !keep && !have && !behind && !in_window);
    cp_gbn_drop: cover property (@(posedge clk) disable iff (rst) take && !keep && !have && !behind && in_window);
    cp_ack_dup: cover property (@(posedge clk) disable iff (rst) ack_out && dup_pending);
    cp_ack_wait: cover property (@(posedge clk) disable iff (rst) ack_pending && m_ack_valid && !m_ack_ready);
    cp_delivery_backpressure: cover property (@(posedge clk) disable iff (rst) m_dlv_valid && !m_dlv_ready);
`endif
`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (int'(cfg_window) >= 1 && int'(cfg_window) <= MAX_WIN)
                else $error("sack_receiver: cfg_window %0d outside 1..%0d", cfg_window, MAX_WIN);
        end
    end
`endif
endmodule
