// stage_chain: a run-time-length chain of pipeline registers (global stall).
//
// Stands for the datapath stages of a pipeline whose count the published
// design gives only as a total (header build, framing, CRC). The chain is
// MAX_LEN real registers; cfg_len (loaded at reset, 0..MAX_LEN) chooses where
// the input enters, so the traversal costs exactly cfg_len cycles.
// Contract: latency cfg_len cycles (0 = combinational pass-through),
// throughput one item per cycle; when the tail is full and m_ready is low the
// whole chain stalls (no item is dropped or overwritten).
module stage_chain #(
    parameter int W = 32,
    parameter int MAX_LEN = 64,
    parameter int LEN_W = $clog2(MAX_LEN + 1)
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
    logic [MAX_LEN-1:0] v;
    logic [W-1:0]       d [MAX_LEN];
    logic               advance;
    int                 first;

    assign first   = MAX_LEN - int'(cfg_len);
    assign advance = !v[MAX_LEN-1] || m_ready;
    assign s_ready = (cfg_len == 0) ? m_ready : advance;
    assign m_valid = (cfg_len == 0) ? s_valid : v[MAX_LEN-1];
    assign m_data  = (cfg_len == 0) ? s_data  : d[MAX_LEN-1];
    assign busy    = |v;

    always_ff @(posedge clk) begin
        if (rst) begin
            v <= '0;
        end else if (advance) begin
            for (int i = 0; i < MAX_LEN; i++) begin
                if (i == first) begin
                    v[i] <= s_valid;
                    d[i] <= s_data;
                end else if (i > first) begin
                    v[i] <= v[i-1];
                    d[i] <= d[i-1];
                end else begin
                    v[i] <= 1'b0;
                end
            end
        end
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (int'(cfg_len) <= MAX_LEN)
                else $error("stage_chain: cfg_len %0d above MAX_LEN %0d", cfg_len, MAX_LEN);
        end
    end
`endif
endmodule
