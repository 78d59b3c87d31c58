// Test-only reference (tests/test_lockstep.cpp): stage_chain as it was before its restructuring for
// simulation cost; the restructured block must give the same outputs in every cycle.
// stage_chain: a run-time-length chain of pipeline registers (global stall).
//
// Stands for the datapath stages of a pipeline whose count the published
// design gives only as a total (header build, framing, CRC). It behaves
// exactly as a shift chain of cfg_len registers (cfg_len loaded at reset,
// 0..MAX_LEN) that advances every cycle unless the item in its last register
// is refused (then the whole chain stalls), and is built as a delay FIFO:
// an item pushed when the chain has advanced T times carries its exit time
// T + cfg_len and leaves when the chain's time reaches it. The chain's time
// is the clock grid's cycle index (cfg_now, low bits) minus the cycles it
// stalled, so nothing in the chain changes between an item's entry and its
// exit: a simulator may skip those cycles (wake_in says how many) and the
// chain is where it would have been. Storage: MAX_LEN entries of W data
// bits and PTR_W + 1 exit-time bits (the shift chain's MAX_LEN valid bits
// become exit times), plus the FIFO pointers and the stall count.
// Contract: latency cfg_len cycles (0 = combinational pass-through),
// throughput one item per cycle; when the item at the tap is not taken
// (m_ready low) the chain stalls: no item is dropped or overwritten.
// wake_in: cycles until the oldest item reaches the tap (0: the chain is
// empty or an item is at the tap now); busy: an item is at the tap.
module stage_chain_v1 #(
    parameter int W = 32,
    parameter int MAX_LEN = 64,
    parameter int LEN_W = $clog2(MAX_LEN + 1),
    parameter int PTR_W = $clog2(MAX_LEN),
    parameter int T_W = PTR_W + 1      // chain time modulo 2 x MAX_LEN
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [LEN_W-1:0] cfg_len,
    input  logic [T_W-1:0]   cfg_now,   // the clock grid's cycle index (low bits)

    input  logic             s_valid,
    output logic             s_ready,
    input  logic [W-1:0]     s_data,

    output logic             m_valid,
    input  logic             m_ready,
    output logic [W-1:0]     m_data,

    output logic             busy,
    output logic [T_W-1:0]   wake_in
);
    logic [W-1:0]     d      [MAX_LEN];
    logic [T_W-1:0]   t_exit [MAX_LEN];
    logic [PTR_W-1:0] head, tail;
    logic [PTR_W:0]   count;
    logic [T_W-1:0]   stalls;      // cycles the chain did not advance (mod 2 x MAX_LEN)
    logic [T_W-1:0]   now_chain;   // times the chain advanced (mod 2 x MAX_LEN)
    logic [T_W-1:0]   to_exit;     // the oldest item's remaining advances
    logic             at_tap, advance;

    assign now_chain = cfg_now - stalls;
    assign to_exit   = t_exit[head] - now_chain;
    assign at_tap    = count != '0 && to_exit == '0;
    assign advance   = !at_tap || m_ready;
    assign s_ready   = (cfg_len == 0) ? m_ready : advance;
    assign m_valid   = (cfg_len == 0) ? s_valid : at_tap;
    assign m_data    = (cfg_len == 0) ? s_data  : d[head];
    assign busy      = at_tap;
    assign wake_in   = (count != '0 && !at_tap) ? to_exit : '0;

    always_ff @(posedge clk) begin
        if (rst) begin
            head   <= '0;
            tail   <= '0;
            count  <= '0;
            stalls <= '0;
        end else if (cfg_len != 0) begin
            if (!advance) begin
                stalls <= stalls + 1'b1;
            end else begin
                if (at_tap) head <= head + 1'b1;   // the tapped item has left
                if (s_valid) begin
                    d[tail]      <= s_data;
                    t_exit[tail] <= now_chain + T_W'(cfg_len);
                    tail         <= tail + 1'b1;
                end
                count <= count + (PTR_W+1)'(s_valid) - (PTR_W+1)'(at_tap);
            end
        end
    end

`ifndef SYNTHESIS
    initial assert ((1 << PTR_W) == MAX_LEN) else $error("stage_chain: MAX_LEN must be a power of two");
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (int'(cfg_len) <= MAX_LEN)
                else $error("stage_chain: cfg_len %0d above MAX_LEN %0d", cfg_len, MAX_LEN);
            // an item's remaining time never exceeds the chain's length: a
            // larger one means cycles were skipped past its exit
            assert (count == '0 || int'(to_exit) <= int'(cfg_len))
                else $error("stage_chain: the oldest item's exit was skipped (%0d cycles to go)", to_exit);
            assert (int'(count) <= int'(cfg_len))
                else $error("stage_chain: %0d items in a chain of %0d", count, cfg_len);
        end
    end
`endif
endmodule
