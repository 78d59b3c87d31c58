// stream_hold_check: the valid/ready rule on a stream whose fields a block
// keeps in its own registers: while valid waits for ready, the fields
// hold (the send pipelines' packet header: ready is the last flit's
// handshake, so the header holds over every flit of its packet).
// Simulation only (no outputs, nothing under SYNTHESIS): a block
// instantiates it beside the registers it checks, on a clock that runs in
// every cycle valid is high.
// Contract: $error naming the instance (%m) when the fields change while
// valid waits.
module stream_hold_check #(
    parameter int W = 32
) (
    input  logic         clk,
    input  logic         rst,
    input  logic         valid,
    input  logic         ready,
    input  logic [W-1:0] data
);
`ifndef SYNTHESIS
    logic         held_q;
    logic [W-1:0] held_data_q;
    always_ff @(posedge clk) begin
        held_q <= !rst && valid && !ready;
        if (valid && !ready) held_data_q <= data;   // copied only while held
        if (held_q) assert (valid && data == held_data_q) else $error("%m: fields changed while valid waited for ready");
    end
`endif
endmodule
