// Test-only reference (tests/test_lockstep.cpp): pipe_reg as it was before its restructuring for
// simulation cost; the restructured block must give the same outputs in every cycle.
// pipe_reg: one elastic pipeline register (valid/ready slice).
// Contract: latency 1 cycle, throughput 1 item per cycle; holds its item
// while m_ready is low (s_ready = !full || m_ready).
module pipe_reg_v1 #(
    parameter int W = 32
) (
    input  logic         clk,
    input  logic         rst,
    input  logic         s_valid,
    output logic         s_ready,
    input  logic [W-1:0] s_data,
    output logic         m_valid,
    input  logic         m_ready,
    output logic [W-1:0] m_data
);
    assign s_ready = !m_valid || m_ready;

    always_ff @(posedge clk) begin
        if (rst) begin
            m_valid <= 1'b0;
        end else if (s_ready) begin
            m_valid <= s_valid;
            if (s_valid) m_data <= s_data;
        end
    end

`ifndef SYNTHESIS
    // Stream stability: an offered item stays until it is taken.
    logic held_q;
    logic [W-1:0] held_data_q;
    always_ff @(posedge clk) begin
        held_q <= !rst && m_valid && !m_ready;
        held_data_q <= m_data;
        if (held_q) begin
            assert (m_valid && m_data == held_data_q)
                else $error("pipe_reg: item changed while stalled");
        end
    end
`endif
endmodule
