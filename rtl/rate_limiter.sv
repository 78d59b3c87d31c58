// rate_limiter: the reaction point of end-to-end congestion control in the
// send path (spec 17, textbook 7.5.2): paces the packets it lets through to
// a current rate, cuts the rate on a congestion notification and recovers it.
//  - Pacing: a byte budget (tokens, Q16.16 bytes) grows by the current rate
//    per cycle up to cfg_burst; a packet on s_* passes when the budget is
//    not negative and takes its bytes from it (it may go below zero, so the
//    long-run rate is exactly the current rate and a packet larger than
//    the burst still passes).
//  - Decrease: s_cnp (a notification) multiplies the rate by
//    cfg_decrease / 256, at most once per cfg_interval cycles (later
//    notifications inside the interval are counted, not acted on); never
//    below cfg_rate_min.
//  - Recovery: every cfg_recover_cycles without a decrease the rate grows
//    by cfg_recover_step, up to cfg_rate_max (additive increase).
// Time comes from cfg_now (the clock grid's cycle index), so a simulator
// may skip idle cycles: the budget and the timers are computed from the
// cycles elapsed. Activity (for the simulator): `active` while a packet
// waits that may pass at the next edge; `wake_in`: cycles until the head
// packet's budget is there or the recovery timer fires (0: neither).
// Contract: one packet per cycle at most; m_* is s_* gated (no latency:
// m_valid = s_valid && budget >= 0, s_ready = m_ready && budget >= 0).
module rate_limiter #(
    parameter int BYTES_W = 16,
    parameter int T_W = 40,
    parameter int RATE_W = 32     // bytes per cycle, Q16.16
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [T_W-1:0]     cfg_now,
    input  logic [RATE_W-1:0]  cfg_rate_max,      // the line: the rate after reset and the recovery's ceiling
    input  logic [RATE_W-1:0]  cfg_rate_min,
    input  logic [31:0]        cfg_burst,         // budget ceiling, bytes
    input  logic [8:0]         cfg_decrease,      // the cut: rate x this / 256
    input  logic [T_W-1:0]     cfg_interval,      // cycles between two cuts at least
    input  logic [T_W-1:0]     cfg_recover_cycles,   // 0: no recovery
    input  logic [RATE_W-1:0]  cfg_recover_step,

    input  logic               s_valid,
    output logic               s_ready,
    input  logic [BYTES_W-1:0] s_bytes,
    output logic               m_valid,
    input  logic               m_ready,
    output logic [BYTES_W-1:0] m_bytes,

    input  logic               s_cnp,             // a congestion notification arrived

    output logic [RATE_W-1:0]  rate,              // current rate, bytes per cycle Q16.16
    output logic               active,
    output logic [T_W-1:0]     wake_in,
    output logic [31:0]        cnt_passed,
    output logic [31:0]        cnt_decreases,
    output logic [31:0]        cnt_cnp_ignored,   // inside the interval
    output logic [31:0]        cnt_recoveries
);
    localparam int TOK_W = 64;   // signed budget, Q16.16 bytes
    logic signed [TOK_W-1:0] tokens;
    logic [T_W-1:0]          last_now, last_cut, last_step;
    logic                    cut_ever;

    // the budget as of this edge: what accrued since the last update, capped
    // (an idle stretch longer than 2^24 cycles fills any budget: saturate it)
    logic [T_W-1:0]          elapsed;
    logic [23:0]             elapsed_sat;
    logic signed [TOK_W-1:0] accrued, cap, budget;
    assign elapsed     = cfg_now - last_now;
    assign elapsed_sat = elapsed > T_W'(24'hffffff) ? 24'hffffff : elapsed[23:0];
    assign accrued     = tokens + $signed(TOK_W'(elapsed_sat) * TOK_W'(rate));
    assign cap         = $signed({16'b0, cfg_burst, 16'b0});
    assign budget      = accrued > cap ? cap : accrued;

    logic ok;
    assign ok      = !budget[TOK_W-1];   // not negative
    assign m_valid = s_valid && ok;
    assign s_ready = m_ready && ok;
    assign m_bytes = s_bytes;
    logic pass;
    assign pass = s_valid && m_ready && ok;

    // the cut and the recovery as of this edge
    logic can_cut, recover_due;
    assign can_cut     = !cut_ever || (cfg_now - last_cut) >= cfg_interval;
    assign recover_due = cfg_recover_cycles != '0 && rate < cfg_rate_max && (cfg_now - last_step) >= cfg_recover_cycles;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [RATE_W+8:0] cut_full;   // (the top bit is 0: the cut never raises; the low 8 are the fraction)
    /* verilator lint_on UNUSEDSIGNAL */
    logic [RATE_W-1:0] cut_rate, up_rate;
    assign cut_full = rate * cfg_decrease;
    assign cut_rate = cut_full[RATE_W+7:8] < cfg_rate_min ? cfg_rate_min : cut_full[RATE_W+7:8];
    assign up_rate  = (cfg_rate_max - rate) < cfg_recover_step ? cfg_rate_max : rate + cfg_recover_step;

    always_ff @(posedge clk) begin
        if (rst) begin
            tokens <= '0;
            last_now <= cfg_now;
            last_cut <= '0;
            last_step <= cfg_now;
            cut_ever <= 1'b0;
            rate <= cfg_rate_max;
            cnt_passed <= '0; cnt_decreases <= '0; cnt_cnp_ignored <= '0; cnt_recoveries <= '0;
        end else begin
            // the budget as of this cycle, less what passed (the rate changes
            // from the next cycle: the cycles up to now accrued at the old one)
            tokens <= budget - (pass ? $signed({{(TOK_W - BYTES_W - 16){1'b0}}, s_bytes, 16'b0}) : TOK_W'(0));
            last_now <= cfg_now;
            if (pass) cnt_passed <= cnt_passed + 1'b1;
            if (s_cnp && can_cut) begin
                rate <= cut_rate;
                last_cut <= cfg_now;
                last_step <= cfg_now;
                cut_ever <= 1'b1;
                cnt_decreases <= cnt_decreases + 1'b1;
            end else begin
                if (s_cnp) cnt_cnp_ignored <= cnt_cnp_ignored + 1'b1;
                if (recover_due) begin
                    rate <= up_rate;
                    last_step <= cfg_now;
                    cnt_recoveries <= cnt_recoveries + 1'b1;
                end
            end
        end
    end

    // ---- activity, for a simulator that skips idle cycles ----
    // a waiting packet passes at the next edge, or after the cycles its
    // budget needs; the recovery timer fires after its cycles
    // (the division is the simulator's: synthesis ties wake_in to 0)
    logic [T_W-1:0] budget_wait, recover_wait;
    always_comb begin
        budget_wait = '0;
`ifndef SYNTHESIS
        if (s_valid && !ok && rate != '0)
            budget_wait = T_W'(((-budget) + TOK_W'(rate) - 1) / TOK_W'(rate));
`endif
        recover_wait = '0;
        if (cfg_recover_cycles != '0 && rate < cfg_rate_max)
            recover_wait = (cfg_now - last_step) >= cfg_recover_cycles ? T_W'(1) : cfg_recover_cycles - (cfg_now - last_step);
    end
    assign active  = s_valid && ok;
    assign wake_in = budget_wait == '0 ? recover_wait
                   : recover_wait == '0 || budget_wait < recover_wait ? budget_wait : recover_wait;

`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (cfg_rate_min <= cfg_rate_max)
                else $error("rate_limiter: cfg_rate_min above cfg_rate_max");
            assert (rate >= cfg_rate_min && rate <= cfg_rate_max)
                else $error("rate_limiter: rate %0d outside %0d..%0d", rate, cfg_rate_min, cfg_rate_max);
            assert (cfg_decrease <= 9'd256)
                else $error("rate_limiter: cfg_decrease %0d above 256 (it cuts, never raises)", cfg_decrease);
        end
    end
`endif
endmodule
