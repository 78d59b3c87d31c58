// tp_lookup: UB transport-channel (TP) context lookup and PSN assignment.
//
// The TP-channel record (56 B) is read over the context RAM's read port one
// port-width beat per cycle, so the port is busy cfg_beats cycles per request
// (56 B over a 32 B port = 2 beats): this occupancy is the send pipeline's
// slowest stage and sets its issue interval. The PSN word is incremented and
// written back through the separate write port (1R1W RAM) in the cycle the
// read completes, so write-back never holds the read port.
// Contract: latency cfg_beats cycles to the output register, then 1 cycle in
// it; a new request is accepted every cfg_beats cycles at best.
module tp_lookup #(
    parameter int ID_W = 32,
    parameter int CTX_W = 12,
    parameter int PSN_W = 24,
    parameter int MAX_BEATS = 4,
    parameter int BEATS_W = $clog2(MAX_BEATS + 1)
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [BEATS_W-1:0] cfg_beats,

    input  logic               s_valid,
    output logic               s_ready,
    input  logic [ID_W-1:0]    s_id,
    input  logic [CTX_W-1:0]   s_ctx,

    output logic               m_valid,
    input  logic               m_ready,
    output logic [ID_W-1:0]    m_id,
    output logic [PSN_W-1:0]   m_psn,

    output logic               busy
);
    logic [PSN_W-1:0]   psn_ram [2**CTX_W];
    logic               active_q;
    logic [BEATS_W-1:0] beat_q;
    logic [ID_W-1:0]    id_q;
    logic [CTX_W-1:0]   ctx_q;
    logic               out_free;
    logic               last_beat;
    logic               complete;

    assign out_free  = !m_valid || m_ready;
    assign last_beat = active_q && (beat_q == cfg_beats - 1'b1);
    assign complete  = last_beat && out_free;
    assign s_ready   = !active_q || complete;
    assign busy      = active_q || m_valid;

    // Context RAM contents are not reset (a RAM has no reset); PSNs start at 0.
    initial for (int i = 0; i < 2**CTX_W; i++) psn_ram[i] = '0;

    always_ff @(posedge clk) begin
        if (rst) begin
            active_q <= 1'b0;
            beat_q   <= '0;
            m_valid  <= 1'b0;
        end else begin
            if (m_valid && m_ready) m_valid <= 1'b0;
            if (complete) begin
                m_valid        <= 1'b1;
                m_id           <= id_q;
                m_psn          <= psn_ram[ctx_q];
                psn_ram[ctx_q] <= psn_ram[ctx_q] + 1'b1;   // 24-bit wrap
            end
            if (s_valid && s_ready) begin
                active_q <= 1'b1;
                beat_q   <= '0;
                id_q     <= s_id;
                ctx_q    <= s_ctx;
            end else if (complete) begin
                active_q <= 1'b0;
            end else if (active_q && !last_beat) begin
                beat_q <= beat_q + 1'b1;
            end
        end
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (cfg_beats >= 1 && int'(cfg_beats) <= MAX_BEATS)
                else $error("tp_lookup: cfg_beats %0d outside 1..%0d", cfg_beats, MAX_BEATS);
            assert (!(s_valid && s_ready && active_q && !complete))
                else $error("tp_lookup: accepted while the read port is busy");
        end
    end
`endif
endmodule
