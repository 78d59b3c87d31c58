// sack_sender_v2: the block as it was before its window bitmaps became a clock-gated unit (2026-12-03), with every feature the simulator's sender has (paths, reorder threshold, probe), kept as the lockstep test's reference for that change at the production window (tests/test_lockstep.cpp). Not used by the simulator.
// sack_sender: the send half of the transport's SACK engine (spec 8).
//
// Gives each new packet the next 24-bit PSN (wrapping) and keeps it until a
// cumulative ack covers it: at most cfg_window packets outstanding (window
// slots are PSN mod MAX_WIN). Acks carry the cumulative ack (next PSN the
// receiver expects) and, in SACK mode, a bitmap of PSNs received above it
// (bit i = PSN cum + 1 + i).
//  - SACK mode: only holes are resent. With cfg_fast_rtx, a hole more than
//    cfg_reorder_thresh PSNs below the highest SACKed PSN is resent as soon
//    as an ack reports it (once per transmission; threshold 0: any hole
//    below it): over paths of different delays a packet up to that many
//    PSNs late is not taken for lost. The retransmit timer resends the
//    oldest outstanding PSN.
//  - GoBackN mode (cfg_gbn): the timer, or with cfg_fast_rtx the first
//    duplicate ack for a hole (the receiver dropped an out-of-order packet),
//    resends every outstanding PSN from the oldest.
//  - Retransmit timer: armed on the oldest outstanding PSN from the end of
//    its last transmission (s_txdone, reported by the wire), expiring after
//    cfg_rto_cycles << (retries * cfg_backoff_shift) (exponential backoff); after
//    cfg_max_retries retries of one PSN the packet fails (m_fail) and the
//    engine stops (the request failed).
//  - Tail-loss probe (SACK mode, cfg_probe_cycles > 0): when packets are
//    outstanding and neither an ack nor a transmission has happened for
//    cfg_probe_cycles, the newest outstanding PSN is resent once (until the
//    next progress: an ack that moves the base, or a new packet). With one
//    packet outstanding nothing else would reveal its loss before the
//    timer; the probe's ack (or its SACK of a hole) does, in a round trip.
//  - Paths (spec 16): every packet on m_* carries the path it takes
//    (m_path, path_select.sv: round robin or weighted over cfg_paths, the
//    path moving on with each packet the wire takes, resends included).
// Contract: one packet descriptor out per cycle at most (retransmissions
// first), held on m_* until the link takes it (m_ready: the link paces it); one ack and one tx-done in per cycle; the cycle count `now` comes
// from cfg_now (the clock grid's cycle index) so idle cycles may be skipped.
// Activity (for the simulator, no hardware meaning): `active` says the state
// may change at the next edge without an input (a packet on m_*, a resend or
// a go-back pending, a failure to report, the timer or the probe due);
// otherwise `wake_in` is the cycles from this edge to the edge at which the
// timer or the probe fires (0: neither is armed), so a simulator may skip the
// cycles between: nothing else changes while only the timer runs.
module sack_sender_v2 #(
    parameter int MAX_WIN = 2048,
    parameter int ID_W = 32,
    parameter int BYTES_W = 16,
    parameter int PSN_W = 24,
    parameter int T_W = 40,
    parameter int MAX_PATHS = 8,
    parameter int WIDX_W = $clog2(MAX_WIN),
    parameter int PATH_W = $clog2(MAX_PATHS)
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [WIDX_W:0]    cfg_window,      // outstanding packets (<= MAX_WIN)
    input  logic               cfg_gbn,
    input  logic               cfg_fast_rtx,
    input  logic [T_W-1:0]     cfg_rto_cycles,
    input  logic [1:0]         cfg_backoff_shift,   // log2 of the backoff factor (1: x2)
    input  logic [3:0]         cfg_max_retries,
    input  logic [PSN_W-1:0]   cfg_first_psn,
    input  logic [WIDX_W:0]    cfg_reorder_thresh,  // fast retransmit: PSNs a hole may lag the highest SACKed
    input  logic [T_W-1:0]     cfg_probe_cycles,    // tail-loss probe after this quiet time (0: off)
    input  logic [T_W-1:0]     cfg_now,         // cycle index of this clock edge
    input  logic [PATH_W:0]    cfg_paths,       // paths the packets are spread over (1..MAX_PATHS)
    input  logic [MAX_PATHS*4-1:0] cfg_path_weights,   // packets in a row per path (4 bits each)

    input  logic               s_valid,         // a new packet to send
    output logic               s_ready,
    input  logic [ID_W-1:0]    s_id,
    input  logic [BYTES_W-1:0] s_bytes,

    output logic               m_valid,         // a packet descriptor to the wire
    input  logic               m_ready,
    output logic [PSN_W-1:0]   m_psn,
    output logic [ID_W-1:0]    m_id,
    output logic [BYTES_W-1:0] m_bytes,
    output logic               m_retransmit,
    output logic [PATH_W-1:0]  m_path,          // the path the packet on m_* takes

    input  logic               s_ack_valid,
    input  logic [PSN_W-1:0]   s_ack_cum,       // next PSN the receiver expects
    input  logic [MAX_WIN-1:0] s_ack_sack,      // PSN cum+1+i received
    input  logic               s_ack_dup,       // the receiver dropped an out-of-order packet (GoBackN)

    input  logic               s_txdone_valid,  // the wire sent the last byte of a packet
    input  logic [PSN_W-1:0]   s_txdone_psn,

    output logic               m_fail,          // a PSN ran out of retries: the request failed
    output logic [ID_W-1:0]    m_fail_id,
    output logic               busy,            // packets outstanding (the timer runs)
    output logic               active,          // a change at the next edge without an input
    output logic [T_W-1:0]     wake_in,         // not active: cycles until the timer or probe fires (0: none)
    output logic [WIDX_W:0]    outstanding,
    output logic [31:0]        cnt_sent,
    output logic [31:0]        cnt_retransmits,
    output logic [31:0]        cnt_timeouts,
    output logic [31:0]        cnt_fast_rtx,
    output logic [31:0]        cnt_stale_acks,
    output logic [31:0]        cnt_probes
);
    logic [PSN_W-1:0]   base, next_psn;        // oldest outstanding, next new
    logic [MAX_WIN-1:0] sacked;                // by slot: reported received (SACK mode)
    logic [MAX_WIN-1:0] need_rtx;              // by slot: to resend
    logic [MAX_WIN-1:0] fast_done;             // by slot: already resent for a reported hole
    logic [PSN_W-1:0]   rtx_mark [MAX_WIN];    // next_psn when the slot was resent for a hole
    logic [ID_W-1:0]    id_of    [MAX_WIN];
    logic [BYTES_W-1:0] bytes_of [MAX_WIN];
    logic [T_W-1:0]     sent_at  [MAX_WIN];    // end of the last transmission
    logic               sent_known [MAX_WIN];
    logic [3:0]         retries  [MAX_WIN];
    logic               failed;
    logic [PSN_W-1:0]   gbn_ptr;               // GoBackN: next PSN to resend
    logic               gbn_active;
    logic [PSN_W-1:0]   gbn_hole;              // GoBackN: the hole the last go-back was for
    logic               gbn_hole_valid;

    /* verilator lint_off UNUSEDSIGNAL */  // a window slot is the PSN mod MAX_WIN
    function automatic logic [WIDX_W-1:0] slot(input logic [PSN_W-1:0] psn);
        slot = psn[WIDX_W-1:0];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    assign outstanding = (WIDX_W+1)'(PSN_W'(next_psn - base));
    assign busy = outstanding != '0 && !failed;

    // ---- the retransmit timer on the oldest outstanding PSN ----
    logic [T_W-1:0] deadline;
    logic           timer_armed, timeout;
    assign timer_armed = busy && sent_known[slot(base)];
    assign deadline    = sent_at[slot(base)] + (cfg_rto_cycles << (retries[slot(base)] * cfg_backoff_shift));
    assign timeout     = timer_armed && cfg_now >= deadline;

    // ---- the tail-loss probe: the newest outstanding PSN, once per quiet spell ----
    logic [T_W-1:0]   quiet_since;   // last tx-done or ack
    logic             probe_done, probe;
    logic [PSN_W-1:0] newest;
    assign newest = next_psn - 1'b1;
    logic             probe_armed;   // the probe would fire once its quiet time is over
    logic [T_W-1:0]   probe_at;
    assign probe_armed = !cfg_gbn && cfg_probe_cycles != '0 && busy && !probe_done
                         && sent_known[slot(newest)] && !need_rtx[slot(newest)];
    assign probe_at    = quiet_since + cfg_probe_cycles;
    assign probe       = probe_armed && !timeout && cfg_now >= probe_at;

    // ---- what leaves this cycle: a retransmission first, else a new packet ----
    // SACK: the first slot marked need_rtx, searched from the oldest PSN.
    logic             rtx_found;
    logic [PSN_W-1:0] rtx_psn, rp;
    always_comb begin
        rtx_found = 1'b0;
        rtx_psn = '0;
        rp = base;
        if (!cfg_gbn && need_rtx != '0) begin
            for (int i = 0; i < MAX_WIN; i++) begin
                if (!rtx_found && PSN_W'(rp - base) < PSN_W'(outstanding) && need_rtx[slot(rp)]) begin
                    rtx_found = 1'b1;
                    rtx_psn = rp;
                end
                rp = rp + 1'b1;
            end
        end else if (cfg_gbn && gbn_active && PSN_W'(gbn_ptr - base) < PSN_W'(outstanding)) begin
            rtx_found = 1'b1;
            rtx_psn = gbn_ptr;
        end
    end

    // ---- activity: the next edge at which the state changes on its own ----
    logic [T_W-1:0]   to_timeout, to_probe;
    assign to_timeout  = timer_armed ? ((deadline > cfg_now) ? deadline - cfg_now : T_W'(1)) : '0;
    assign to_probe    = probe_armed ? ((probe_at > cfg_now) ? probe_at - cfg_now : T_W'(1)) : '0;
    assign active  = m_valid || m_fail || rtx_found || gbn_active || timeout || probe;
    assign wake_in = (to_timeout != '0 && (to_probe == '0 || to_timeout < to_probe)) ? to_timeout : to_probe;

    logic out_free, send_rtx, send_new;
    assign out_free = !m_valid || m_ready;
    assign send_rtx = out_free && rtx_found && !failed;
    assign s_ready  = out_free && !rtx_found && !failed
                      && outstanding < cfg_window && !s_ack_valid;   // an ack updates the window first
    assign send_new = s_valid && s_ready;

    // ---- ack processing ----
    logic [PSN_W-1:0] ack_adv;          // how far the cumulative ack moves the base
    logic             ack_in_range;
    assign ack_adv      = PSN_W'(s_ack_cum - base);
    assign ack_in_range = ack_adv <= PSN_W'(outstanding);

    // SACK bitmap realigned to window slots: slot (cum + 1 + i) % MAX_WIN.
    // Rotations by a variable amount are two shifts of a doubled vector.
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic logic [MAX_WIN-1:0] rotl(input logic [MAX_WIN-1:0] v, input logic [WIDX_W-1:0] k);
        logic [2*MAX_WIN-1:0] d;
        d = {v, v} << k;
        rotl = d[2*MAX_WIN-1 -: MAX_WIN];
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    // the first n bits set (n <= MAX_WIN)
    function automatic logic [MAX_WIN-1:0] first_n(input logic [PSN_W-1:0] n);
        logic [MAX_WIN:0] one;
        one = (MAX_WIN+1)'(1) << ((n > PSN_W'(MAX_WIN)) ? (WIDX_W+1)'(MAX_WIN) : (WIDX_W+1)'(n));
        one = one - 1'b1;
        first_n = one[MAX_WIN-1:0];
    endfunction

    // The highest set bit of an ack's bitmap, plus 1 (0: none): the highest
    // non-zero 32-bit word, then the bit within it (a two-level priority
    // encoder; the simulator scans 64 words and 32 bits, not every bit).
    localparam int SACK_WORDS = (MAX_WIN + 31) / 32;
    function automatic logic [PSN_W-1:0] highest_set_plus1(input logic [MAX_WIN-1:0] v);
        logic [31:0] w;
        int          wi;
        logic        found;
        w = '0; wi = 0; found = 1'b0;
        for (int k = SACK_WORDS - 1; k >= 0; k--)
            if (!found && v[k*32 +: 32] != '0) begin found = 1'b1; wi = k; w = v[k*32 +: 32]; end
        highest_set_plus1 = '0;
        if (found)
            for (int b = 0; b < 32; b++)
                if (w[b]) highest_set_plus1 = PSN_W'(wi * 32 + b + 1);
    endfunction

`ifdef UBSIM_COVER
    logic cv_hole_resent_q = 1'b0, cv_resend_lost_q = 1'b0;
`endif
    localparam int DUP_THRESH = 3;   // SACKed packets sent after a resend before it counts as lost

    always_ff @(posedge clk) begin
        if (rst) begin
            base <= cfg_first_psn;
            next_psn <= cfg_first_psn;
            sacked <= '0;
            need_rtx <= '0;
            fast_done <= '0;
            m_valid <= 1'b0;
            failed <= 1'b0;
            m_fail <= 1'b0;
            gbn_active <= 1'b0;
            gbn_hole_valid <= 1'b0;
            cnt_sent <= '0; cnt_retransmits <= '0; cnt_timeouts <= '0; cnt_fast_rtx <= '0; cnt_stale_acks <= '0;
            cnt_probes <= '0;
            quiet_since <= '0;
            probe_done <= 1'b0;
        end else begin
            if (s_txdone_valid || s_ack_valid) quiet_since <= cfg_now;
            if (probe) begin
                probe_done <= 1'b1;
                cnt_probes <= cnt_probes + 1'b1;
            end else if (send_new || (s_ack_valid && ack_in_range && ack_adv != '0)) begin
                probe_done <= 1'b0;   // progress: the next quiet spell may probe again
            end
            m_fail <= 1'b0;
            if (m_ready) m_valid <= 1'b0;

            // a packet leaves
            if (send_rtx) begin
                m_valid <= 1'b1;
                m_psn <= rtx_psn;
                m_id <= id_of[slot(rtx_psn)];
                m_bytes <= bytes_of[slot(rtx_psn)];
                m_retransmit <= 1'b1;
                sent_known[slot(rtx_psn)] <= 1'b0;        // the timer restarts at its tx-done
                cnt_retransmits <= cnt_retransmits + 1'b1;
            end else if (send_new) begin
                m_valid <= 1'b1;
                m_psn <= next_psn;
                m_id <= s_id;
                m_bytes <= s_bytes;
                m_retransmit <= 1'b0;
                id_of[slot(next_psn)] <= s_id;
                bytes_of[slot(next_psn)] <= s_bytes;
                sent_known[slot(next_psn)] <= 1'b0;
                retries[slot(next_psn)] <= '0;
                next_psn <= next_psn + 1'b1;
                cnt_sent <= cnt_sent + 1'b1;
            end

            // the wire finished sending a packet: its timer starts now
            if (s_txdone_valid && PSN_W'(s_txdone_psn - base) < PSN_W'(outstanding)) begin
                sent_at[slot(s_txdone_psn)] <= cfg_now;
                sent_known[slot(s_txdone_psn)] <= 1'b1;
            end

            // need_rtx: set by timeouts and SACK holes, cleared when resent or
            // acked. A hole is resent once for the acks that report it
            // (fast_done); if that resend is lost too, the timer resends it.
            // In a cycle with an ack its window-wide values are computed
            // and used in one branch (combinational in hardware: written
            // before they are read, nothing stored); without one the
            // bitmaps are written only with a resend, a timeout or a probe.
`ifdef UBSIM_COVER
            cv_hole_resent_q <= 1'b0;
            cv_resend_lost_q <= 1'b0;
`endif
            if (s_ack_valid) begin
                logic [MAX_WIN-1:0] sack_by_slot, outstanding_mask, new_holes, resend_lost, nr, fd;
                logic [PSN_W-1:0]   highest_sacked_off;   // offset above cum of the highest SACKed PSN, plus 1
                logic [PSN_W-1:0]   highest_sacked;
                sack_by_slot = rotl(s_ack_sack, slot(s_ack_cum + 1'b1));
                // slots of PSNs cum .. next_psn-1 (still outstanding after this ack)
                outstanding_mask = rotl(first_n(PSN_W'(next_psn - s_ack_cum)), slot(s_ack_cum));
                highest_sacked_off = highest_set_plus1(s_ack_sack);
                // a hole resent before: lost again once packets sent after the
                // resend are SACKed (it would have arrived before them)
                highest_sacked = s_ack_cum + highest_sacked_off;
                resend_lost = '0;
                if (highest_sacked_off != '0 && fast_done != '0)
                    for (int i = 0; i < MAX_WIN; i++)
                        if (fast_done[i] && PSN_W'(highest_sacked - rtx_mark[i]) >= PSN_W'(DUP_THRESH)
                            && PSN_W'(highest_sacked - rtx_mark[i]) < PSN_W'(1 << (PSN_W - 1)))
                            resend_lost[i] = 1'b1;
                // holes: outstanding, not SACKed (now or before), more than
                // cfg_reorder_thresh below the highest SACKed PSN
                new_holes = '0;
                if (highest_sacked_off > PSN_W'(cfg_reorder_thresh))
                    new_holes = rotl(first_n(highest_sacked_off - PSN_W'(cfg_reorder_thresh)), slot(s_ack_cum))
                                & outstanding_mask & ~sack_by_slot & ~sacked & ~(fast_done & ~resend_lost);
`ifdef UBSIM_COVER
                cv_hole_resent_q <= ack_in_range && !cfg_gbn && cfg_fast_rtx && (new_holes & ~need_rtx) != '0;
                cv_resend_lost_q <= ack_in_range && !cfg_gbn && resend_lost != '0;
`endif
                nr = need_rtx;
                fd = fast_done;
                if (send_rtx && !cfg_gbn) begin
                    nr[slot(rtx_psn)] = 1'b0;
                    fd[slot(rtx_psn)] = 1'b1;
                    rtx_mark[slot(rtx_psn)] <= next_psn;
                end
                if (ack_in_range) begin
                    nr = nr & outstanding_mask;                 // acked slots drop out
                    fd = fd & outstanding_mask;
                    if (!cfg_gbn && cfg_fast_rtx) nr = nr | new_holes;
                end
                if (timeout && !cfg_gbn) nr[slot(base)] = 1'b1;
                if (probe) nr[slot(newest)] = 1'b1;
                need_rtx <= nr;
                fast_done <= fd;

                if (!ack_in_range) begin
                    cnt_stale_acks <= cnt_stale_acks + 1'b1;    // older than the base, or beyond what was sent
                end else begin
                    base <= s_ack_cum;
                    // a hole reported once is resent once: remember what is SACKed
                    sacked <= cfg_gbn ? '0 : ((sacked | sack_by_slot) & outstanding_mask);
                    if (!cfg_gbn && cfg_fast_rtx && (new_holes & ~need_rtx) != '0)
                        cnt_fast_rtx <= cnt_fast_rtx + 1'b1;
                    if (cfg_gbn && cfg_fast_rtx && s_ack_dup && !gbn_active
                        && PSN_W'(next_psn - s_ack_cum) != '0 && !(gbn_hole_valid && gbn_hole == s_ack_cum))
                        cnt_fast_rtx <= cnt_fast_rtx + 1'b1;
                end
            end else if ((send_rtx && !cfg_gbn) || (timeout && !cfg_gbn) || probe) begin
                logic [MAX_WIN-1:0] nr, fd;
                nr = need_rtx;
                fd = fast_done;
                if (send_rtx && !cfg_gbn) begin
                    nr[slot(rtx_psn)] = 1'b0;
                    fd[slot(rtx_psn)] = 1'b1;
                    rtx_mark[slot(rtx_psn)] <= next_psn;
                end
                if (timeout && !cfg_gbn) nr[slot(base)] = 1'b1;
                if (probe) nr[slot(newest)] = 1'b1;
                need_rtx <= nr;
                fast_done <= fd;
            end

            // GoBackN resend pointer: one next-state computation
            begin
                logic [PSN_W-1:0] gp, nb, nn;
                logic ga;
                gp = gbn_ptr; ga = gbn_active;
                nb = (s_ack_valid && ack_in_range) ? s_ack_cum : base;
                nn = next_psn + PSN_W'(send_new);
                if (send_rtx && cfg_gbn) gp = rtx_psn + 1'b1;
                if (ga && PSN_W'(gp - nb) > PSN_W'(nn - nb)) gp = nb;      // acked past the pointer
                if (ga && gp == nn) ga = 1'b0;                              // everything resent
                // go back once per hole: later duplicate acks for the same hole
                // come from packets sent before the go-back
                if (cfg_gbn && cfg_fast_rtx && s_ack_valid && ack_in_range && s_ack_dup && !gbn_active
                    && nn != nb && !(gbn_hole_valid && gbn_hole == nb)) begin
                    ga = 1'b1; gp = nb;                                      // go back to the first hole
                    gbn_hole <= nb;
                    gbn_hole_valid <= 1'b1;
                end
                if (cfg_gbn && timeout && retries[slot(base)] < cfg_max_retries) begin
                    ga = 1'b1; gp = nb;
                end
                gbn_ptr <= gp;
                gbn_active <= ga;
            end

            if (timeout) begin
                cnt_timeouts <= cnt_timeouts + 1'b1;
                if (retries[slot(base)] >= cfg_max_retries) begin
                    failed <= 1'b1;
                    m_fail <= 1'b1;
                    m_fail_id <= id_of[slot(base)];
                end else begin
                    retries[slot(base)] <= retries[slot(base)] + 1'b1;
                    sent_known[slot(base)] <= 1'b0;              // re-armed by the resend's tx-done
                end
            end
        end
    end

`ifdef UBSIM_COVER
    // ---------------- cover points (coverage builds only: scripts/coverage lists any never hit;
    // elsewhere their helper signals would be evaluated and traced every cycle) ----------------
    // By mode: a SACKed hole resent, a resend lost again, the timer (first
    // expiry, backed-off expiries, retries exhausted), GoBackN's go-back on a
    // duplicate ack; the probe, stale acks and the two limits on new packets.
    // (the ack's wide values live in the sequential block: registered there, covered a cycle later)
    // (a helper wire, not a function call in the property: Verilator 5.006
    // evaluates a cover property's inlined function after the property reads
    // its result; scripts/coverage_order_check.py finds such points)
    logic [3:0] cv_base_retries;   // the oldest outstanding PSN's retries
    assign cv_base_retries = retries[slot(base)];
    cp_sack_hole_resent: cover property (@(posedge clk) disable iff (rst) cv_hole_resent_q);
    cp_sack_resend_lost_again: cover property (@(posedge clk) disable iff (rst) cv_resend_lost_q);
    cp_sack_timeout: cover property (@(posedge clk) disable iff (rst) timeout && !cfg_gbn && cv_base_retries == '0);
    cp_sack_timeout_backoff: cover property (@(posedge clk) disable iff (rst) timeout && !cfg_gbn && cv_base_retries != '0 && cv_base_retries < cfg_max_retries);
    cp_sack_retries_exhausted: cover property (@(posedge clk) disable iff (rst) timeout && !cfg_gbn && cv_base_retries >= cfg_max_retries);
    cp_gbn_timeout: cover property (@(posedge clk) disable iff (rst) timeout && cfg_gbn && cv_base_retries == '0);
    cp_gbn_timeout_backoff: cover property (@(posedge clk) disable iff (rst) timeout && cfg_gbn && cv_base_retries != '0 && cv_base_retries < cfg_max_retries);
    cp_gbn_retries_exhausted: cover property (@(posedge clk) disable iff (rst) timeout && cfg_gbn && cv_base_retries >= cfg_max_retries);
    cp_gbn_go_back_dup_ack: cover property (@(posedge clk) disable iff (rst) s_ack_valid && ack_in_range && cfg_gbn && cfg_fast_rtx && s_ack_dup && !gbn_active && PSN_W'(next_psn - s_ack_cum) != '0);
    cp_gbn_resend: cover property (@(posedge clk) disable iff (rst) send_rtx && cfg_gbn);
    cp_probe: cover property (@(posedge clk) disable iff (rst) probe);
    cp_stale_ack: cover property (@(posedge clk) disable iff (rst) s_ack_valid && !ack_in_range);
    cp_window_full: cover property (@(posedge clk) disable iff (rst) s_valid && outstanding >= cfg_window);
    cp_link_backpressure: cover property (@(posedge clk) disable iff (rst) m_valid && !m_ready);
    cp_new_behind_resend: cover property (@(posedge clk) disable iff (rst) s_valid && rtx_found && out_free);
`endif
    path_select #(.MAX_PATHS(MAX_PATHS), .WEIGHT_W(4)) u_path_select (
        .clk(clk), .rst(rst), .cfg_paths(cfg_paths), .cfg_weights(cfg_path_weights),
        .s_take(m_valid && m_ready), .m_path(m_path));

`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (int'(cfg_window) >= 1 && int'(cfg_window) <= MAX_WIN)
                else $error("sack_sender: cfg_window %0d outside 1..%0d", cfg_window, MAX_WIN);
            assert (int'(outstanding) <= int'(cfg_window))
                else $error("sack_sender: %0d outstanding above the window", outstanding);
        end
    end
`endif
endmodule
