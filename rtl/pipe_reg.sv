// pipe_reg: one elastic pipeline register (valid/ready slice).
// Contract: latency 1 cycle, throughput 1 item per cycle; holds its item
// while m_ready is low (s_ready = !full || m_ready).
module pipe_reg #(
    parameter bit CLOCK_GATE = 0,   // gate this block's clock by its activity (clock_gate.sv)
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

    // this block's clock, gated by its own activity (clock_gate.sv): an item offered or held
    logic gclk;
    clock_gate #(.ENABLE(CLOCK_GATE)) u_clock_gate (.clk, .en(rst || s_valid || m_valid), .gclk);

    always_ff @(posedge gclk) begin
        if (rst) begin
            m_valid <= 1'b0;
        end else if (s_ready) begin
            m_valid <= s_valid;
            if (s_valid) m_data <= s_data;
        end
    end

`ifndef SYNTHESIS
    // Stream stability: an offered item stays until it is taken (the item is
    // copied for the check only in a cycle it is held).
    logic held_q;
    logic [W-1:0] held_data_q;
    always_ff @(posedge gclk) begin
        held_q <= !rst && m_valid && !m_ready;
        if (m_valid && !m_ready) held_data_q <= m_data;
        if (held_q) begin
            assert (m_valid && m_data == held_data_q)
                else $error("pipe_reg: item changed while stalled");
        end
    end
`endif
endmodule
