// stage_chain: a run-time-length chain of pipeline registers (global stall).
//
// Stands for the datapath stages of a pipeline whose count the published
// design gives only as a total (header build, framing, CRC). Built as an
// addressable shift register (SRL style): MAX_LEN registers written in
// rotation on every advance, the output tapped from the register written
// cfg_len advances ago. It behaves exactly as a cfg_len-register shift chain
// (cfg_len loaded at reset, 0..MAX_LEN) and costs one write and one read per
// cycle to simulate instead of a MAX_LEN-wide shift.
// Contract: latency cfg_len cycles (0 = combinational pass-through),
// throughput one item per cycle; when the tapped register holds an item and
// m_ready is low the whole chain stalls (no item is dropped or overwritten).
module stage_chain #(
    parameter int W = 32,
    parameter int MAX_LEN = 64,
    parameter int LEN_W = $clog2(MAX_LEN + 1),
    parameter int PTR_W = $clog2(MAX_LEN)
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [LEN_W-1:0] cfg_len,

    input  logic             s_valid,
    output logic             s_ready,
    input  logic [W-1:0]     s_data,

    output logic             m_valid,
    input  logic             m_ready,
    output logic [W-1:0]     m_data,

    output logic             busy
);
    logic [W-1:0]       d [MAX_LEN];
    logic [MAX_LEN-1:0] v;          // register holds a live item
    logic [PTR_W-1:0]   wp;         // register written on the next advance
    logic [PTR_W-1:0]   rp;         // the tap: written cfg_len advances ago
    logic               advance;

    assign rp      = wp - PTR_W'(cfg_len);
    assign advance = !v[rp] || m_ready;
    assign s_ready = (cfg_len == 0) ? m_ready : advance;
    assign m_valid = (cfg_len == 0) ? s_valid : v[rp];
    assign m_data  = (cfg_len == 0) ? s_data  : d[rp];
    assign busy    = |v;

    always_ff @(posedge clk) begin
        if (rst) begin
            v  <= '0;
            wp <= '0;
        end else if (advance && cfg_len != 0) begin
            v[rp] <= 1'b0;        // the tapped item has left (or was a bubble)
            v[wp] <= s_valid;
            d[wp] <= s_data;
            wp    <= wp + 1'b1;
        end
    end

`ifndef SYNTHESIS
    initial assert ((1 << PTR_W) == MAX_LEN) else $error("stage_chain: MAX_LEN must be a power of two");
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (int'(cfg_len) <= MAX_LEN)
                else $error("stage_chain: cfg_len %0d above MAX_LEN %0d", cfg_len, MAX_LEN);
        end
    end
`endif
endmodule
