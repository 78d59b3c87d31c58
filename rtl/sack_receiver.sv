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
//  - Reorder state: the payload bytes held after a hole (kept, with a PSN
//    above the next expected one) count against cfg_reorder_limit (up to
//    MAX_REORDER, the build maximum). A packet above the next expected PSN
//    that would take the count past the limit is dropped and counted
//    (cnt_reorder_drops; GoBackN marks the next ack duplicate); the next
//    expected PSN itself is always kept, so the receiver can never stall
//    itself. reorder_bytes is the count (never above the limit),
//    reorder_peak its largest value.
// Contract: one packet in per cycle (s_ready low while the ack register is
// full); an ack covers every packet taken since the previous ack (acks are
// coalesced while the wire is busy); 24-bit PSNs wrap.
// Written for simulation cost as well (output for output in every cycle as
// rtl/v1/sack_receiver_v2.sv): the received bitmap is held as 32-bit words,
// so a cycle that marks or clears one slot rewrites one word, not the whole
// window; and a count of the slots marked lets an ack with nothing received
// beyond the next expected PSN skip the window-wide rotation (the encoder's
// result is then known: a run of 0 or 1, no SACK bits).
module sack_receiver #(
    parameter int MAX_WIN = 2048,
    parameter int ID_W = 32,
    parameter int BYTES_W = 16,
    parameter int PSN_W = 24,
    parameter int MAX_REORDER = 8388608,          // bytes: the largest cfg_reorder_limit
    parameter int WIDX_W = $clog2(MAX_WIN),
    parameter int HELD_W = $clog2(MAX_REORDER + 1)
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [WIDX_W:0]    cfg_window,
    input  logic               cfg_gbn,
    input  logic [PSN_W-1:0]   cfg_first_psn,
    input  logic [HELD_W-1:0]  cfg_reorder_limit,   // bytes, <= MAX_REORDER

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
    output logic [HELD_W-1:0]  reorder_bytes,
    output logic [HELD_W-1:0]  reorder_peak,
    output logic [31:0]        cnt_reorder_drops,
    output logic [31:0]        cnt_duplicates,
    output logic [31:0]        cnt_out_of_window,
    output logic [31:0]        cnt_gbn_drops,
    output logic [31:0]        cnt_delivered
);
    logic [PSN_W-1:0]   expected;             // next PSN to deliver
    logic [PSN_W-1:0]   gbn_next;             // GoBackN: next PSN to keep (delivery may lag a cycle)
    localparam int WORDS = (MAX_WIN + 31) / 32;
    (* mem2reg *)   // flip-flops, as the bitmap was: the ack reads every word at once
    logic [31:0]        rcvd [WORDS];         // by slot, 32 a word: received, not yet delivered
    logic [WIDX_W:0]    rcvd_n;               // slots marked in rcvd
    logic [ID_W-1:0]    id_of    [MAX_WIN];
    logic [BYTES_W-1:0] bytes_of [MAX_WIN];
    logic               ack_pending, dup_pending;

    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic [WIDX_W-1:0] slot(input logic [PSN_W-1:0] psn);
        slot = psn[WIDX_W-1:0];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    localparam int WI_W = WIDX_W > 5 ? WIDX_W - 5 : 1;   // word index bits
    /* verilator lint_off UNUSEDSIGNAL */  // a word's index and a bit's: each takes its part of the slot
    function automatic logic [WI_W-1:0] word_of(input logic [WIDX_W-1:0] s);
        word_of = WI_W'(s >> 5);
    endfunction
    function automatic logic [4:0] bit_of(input logic [WIDX_W-1:0] s);
        bit_of = 5'(s);
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    function automatic logic rcvd_at(input logic [PSN_W-1:0] psn);
        rcvd_at = rcvd[word_of(slot(psn))][bit_of(slot(psn))];
    endfunction

    // ---- in-order delivery ----
    assign m_dlv_valid = rcvd_at(expected);
    assign m_dlv_id    = id_of[slot(expected)];
    assign m_dlv_bytes = bytes_of[slot(expected)];
    assign m_dlv_psn   = expected;
    logic deliver;
    assign deliver = m_dlv_valid && m_dlv_ready;

    // ---- an arriving packet ----
    logic [PSN_W-1:0] off;
    logic             in_window, behind, have, keep, fits;
    assign off       = PSN_W'(s_psn - expected);
    assign in_window = off < PSN_W'(cfg_window);
    assign behind    = off[PSN_W-1];          // "negative": already delivered
    assign have      = in_window && rcvd_at(s_psn);
    // GoBackN keeps only the next PSN in order: the one after the last kept,
    // which may not be delivered yet (packets one cycle apart)
    // the reorder limit: the next expected PSN always fits
    assign fits      = s_psn == expected || (HELD_W + 1)'(reorder_bytes) + (HELD_W + 1)'(s_bytes) <= (HELD_W + 1)'(cfg_reorder_limit);
    assign keep      = in_window && !have && (!cfg_gbn || s_psn == gbn_next) && fits;
    assign s_ready   = !m_ack_valid || m_ack_ready;
    logic take;
    assign take = s_valid && s_ready;
    assign s_kept = take && keep;

    // ---- the ack: cumulative = first PSN not received, bitmap above it ----
    // Computed in the sequential block, in the cycle the ack register takes
    // it (ack_out): the window-wide rotation and the run of received PSNs
    // are that register's input logic, which the simulator then evaluates
    // once per ack rather than in every cycle.
    logic ack_out;
    assign ack_out = ack_pending && (!m_ack_valid || m_ack_ready);

    always_ff @(posedge clk) begin
        if (rst) begin
            expected <= cfg_first_psn;
            gbn_next <= cfg_first_psn;
            for (int k = 0; k < WORDS; k++) rcvd[k] <= '0;
            rcvd_n <= '0;
            ack_pending <= 1'b0;
            dup_pending <= 1'b0;
            m_ack_valid <= 1'b0;
            cnt_duplicates <= '0; cnt_out_of_window <= '0; cnt_gbn_drops <= '0; cnt_delivered <= '0;
            reorder_bytes <= '0; reorder_peak <= '0; cnt_reorder_drops <= '0;
        end else begin
            if (m_ack_ready) m_ack_valid <= 1'b0;
            // the ack register takes the state as of this cycle's start
            if (ack_out && (rcvd_n == '0 || (rcvd_n == (WIDX_W+1)'(1) && rcvd_at(expected)))) begin
                // nothing received beyond the next expected PSN: the run is
                // that PSN alone (or nothing), no SACK bits (what the
                // rotation and the encoder below give for such a window)
                m_ack_valid <= 1'b1;
                m_ack_cum <= expected + PSN_W'(rcvd_n);
                m_ack_sack <= '0;
                m_ack_dup <= dup_pending;
            end else if (ack_out) begin
                logic [MAX_WIN-1:0] rel;      // bit i = PSN expected + i received
                logic [PSN_W-1:0]   run;      // received in a row from expected
                // (the rotation, the mask and the encoder written out here,
                // not as functions: a function's wide locals would be
                // cleared at every edge by the simulator, used or not)
                /* verilator lint_off UNUSEDSIGNAL */  // the rotation's result is one half, the mask its low bits
                logic [2*MAX_WIN-1:0] dbl;    // rcvd twice: a rotation by k is one shift
                logic [MAX_WIN:0]     ones;   // the first cfg_window bits set
                logic [WORDS*32-1:0]  all;    // rcvd as one vector
                /* verilator lint_on UNUSEDSIGNAL */
                logic [31:0]          w;
                int                   wi;
                logic                 found;
                for (int k = 0; k < WORDS; k++) all[k*32 +: 32] = rcvd[k];
                dbl  = {all[MAX_WIN-1:0], all[MAX_WIN-1:0]} >> slot(expected);
                ones = ((MAX_WIN+1)'(1) << cfg_window) - 1'b1;
                rel  = dbl[MAX_WIN-1:0] & ones[MAX_WIN-1:0];
                // received in a row from bit 0 (trailing ones): the first
                // word that is not all ones, then the first zero bit within
                // it (a two-level priority encoder)
                w = '0; wi = WORDS; found = 1'b0;
                for (int k = 0; k < WORDS; k++)
                    if (!found && rel[k*32 +: 32] != '1) begin found = 1'b1; wi = k; w = rel[k*32 +: 32]; end
                run = PSN_W'(MAX_WIN);
                if (found)   // the word has a zero: the lowest one ends the run
                    for (int b = 31; b >= 0; b--)
                        if (!w[b]) run = PSN_W'(wi * 32 + b);
                m_ack_valid <= 1'b1;
                m_ack_cum <= expected + run;
                m_ack_sack <= cfg_gbn ? '0 : (rel >> (run + 1'b1));
                m_ack_dup <= dup_pending;
            end
            begin
                logic ap, dp;
                logic [HELD_W-1:0] held;
                ap = ack_pending && !ack_out;
                dp = dup_pending && !ack_out;
                held = reorder_bytes;
                // (the delivered and the kept PSN never share a slot: a kept
                // PSN was not received, the delivered one was)
                if (deliver) begin
                    // the PSN after it, if held, is next expected now: no longer above a hole
                    if (rcvd_at(expected + 1'b1)) held = held - HELD_W'(bytes_of[slot(expected + 1'b1)]);
                    expected <= expected + 1'b1;
                    cnt_delivered <= cnt_delivered + 1'b1;
                end
                if (take) begin
                    ap = 1'b1;     // every packet is acknowledged
                    if (keep) begin
                        // above the next expected PSN (as of the next cycle): held after a hole
                        if (s_psn != expected && !(deliver && s_psn == expected + 1'b1)) held = held + HELD_W'(s_bytes);
                        gbn_next <= s_psn + 1'b1;
                        id_of[slot(s_psn)] <= s_id;
                        bytes_of[slot(s_psn)] <= s_bytes;
                    end else if (have || behind) begin
                        cnt_duplicates <= cnt_duplicates + 1'b1;
                    end else if (!in_window) begin
                        cnt_out_of_window <= cnt_out_of_window + 1'b1;
                    end else if (!fits && (!cfg_gbn || s_psn == gbn_next)) begin
                        cnt_reorder_drops <= cnt_reorder_drops + 1'b1;   // the reorder limit
                        if (cfg_gbn) dp = 1'b1;
                    end else begin
                        cnt_gbn_drops <= cnt_gbn_drops + 1'b1;   // GoBackN: out of order
                        dp = 1'b1;
                    end
                end
                // the bitmap: the delivered slot cleared, the kept one marked
                // (the words they sit in; one word when they share it)
                if (deliver || (take && keep)) begin
                    logic [WI_W-1:0] wd, wk;
                    logic [31:0] vd, vk;
                    wd = word_of(slot(expected));
                    wk = word_of(slot(s_psn));
                    vd = rcvd[wd];
                    if (deliver) vd[bit_of(slot(expected))] = 1'b0;
                    vk = (wk == wd) ? vd : rcvd[wk];
                    if (take && keep) vk[bit_of(slot(s_psn))] = 1'b1;
                    if (deliver) rcvd[wd] <= vd;
                    if (take && keep) rcvd[wk] <= vk;
                    rcvd_n <= rcvd_n + (WIDX_W+1)'(take && keep) - (WIDX_W+1)'(deliver);
                end
                ack_pending <= ap;
                dup_pending <= dp;
                if (take || deliver) begin
                    reorder_bytes <= held;
                    if (held > reorder_peak) reorder_peak <= held;
                end
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
    assign cv_next_rcvd = rcvd_at(s_psn + 1'b1);
    cp_in_order: cover property (@(posedge clk) disable iff (rst) take && keep && s_psn == expected);
    cp_sack_above_hole: cover property (@(posedge clk) disable iff (rst) take && keep && s_psn != expected && !cfg_gbn);
    cp_sack_hole_filled_run: cover property (@(posedge clk) disable iff (rst) take && keep && s_psn == expected && !cfg_gbn && cv_next_rcvd);
    cp_duplicate: cover property (@(posedge clk) disable iff (rst) take && !keep && (have || behind));
    cp_out_of_window: cover property (@(posedge clk) disable iff (rst) take && !keep && !have && !behind && !in_window);
    cp_gbn_drop: cover property (@(posedge clk) disable iff (rst) take && !keep && !have && !behind && in_window && fits);
    cp_reorder_drop: cover property (@(posedge clk) disable iff (rst) take && !keep && !have && !behind && in_window && !fits);
    cp_expected_at_limit: cover property (@(posedge clk) disable iff (rst) take && keep && s_psn == expected &&
                                          (HELD_W + 1)'(reorder_bytes) + (HELD_W + 1)'(s_bytes) > (HELD_W + 1)'(cfg_reorder_limit));
    cp_ack_dup: cover property (@(posedge clk) disable iff (rst) ack_out && dup_pending);
    cp_ack_wait: cover property (@(posedge clk) disable iff (rst) ack_pending && m_ack_valid && !m_ack_ready);
    cp_delivery_backpressure: cover property (@(posedge clk) disable iff (rst) m_dlv_valid && !m_dlv_ready);
`endif
`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (int'(cfg_window) >= 1 && int'(cfg_window) <= MAX_WIN)
                else $error("sack_receiver: cfg_window %0d outside 1..%0d", cfg_window, MAX_WIN);
            assert (int'(cfg_reorder_limit) <= MAX_REORDER)
                else $error("sack_receiver: cfg_reorder_limit %0d above MAX_REORDER %0d", cfg_reorder_limit, MAX_REORDER);
            assert (reorder_bytes <= cfg_reorder_limit)
                else $error("sack_receiver: %0d bytes held after a hole, limit %0d", reorder_bytes, cfg_reorder_limit);
        end
    end
`endif
endmodule
