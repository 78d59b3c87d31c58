// stream_arb2: round-robin merge of two valid/ready streams (combinational).
// Contract: 0 cycles; when both inputs are valid the one not served last
// wins, so neither route can starve the other.
module stream_arb2 #(
    parameter bit CLOCK_GATE = 0,   // gate this block's clock by its activity (clock_gate.sv)
    parameter int W = 32
) (
    input  logic         clk,
    input  logic         rst,
    input  logic         s0_valid,
    output logic         s0_ready,
    input  logic [W-1:0] s0_data,
    input  logic         s1_valid,
    output logic         s1_ready,
    input  logic [W-1:0] s1_data,
    output logic         m_valid,
    input  logic         m_ready,
    output logic [W-1:0] m_data
);
    logic last1_q;   // 1: input 1 was granted last
    logic grant1;

    assign grant1   = s1_valid && (!s0_valid || !last1_q);
    assign m_valid  = s0_valid || s1_valid;
    assign m_data   = grant1 ? s1_data : s0_data;
    assign s0_ready = m_ready && !grant1;
    assign s1_ready = m_ready && grant1;

    // this block's clock, gated by its own activity (clock_gate.sv): an item offered (the round-robin state moves only with one)
    logic gclk;
    clock_gate #(.ENABLE(CLOCK_GATE)) u_clock_gate (.clk, .en(rst || s0_valid || s1_valid), .gclk);

    always_ff @(posedge gclk) begin
        if (rst) last1_q <= 1'b0;
        else if (m_valid && m_ready) last1_q <= grant1;
    end

`ifndef SYNTHESIS
    always_ff @(posedge gclk) begin
        if (!rst && s0_ready) assert (!s1_ready) else $error("stream_arb2: double grant");   // (checked where one is granted)
    end
`endif
endmodule
