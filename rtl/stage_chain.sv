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
// exit: a simulator may skip those cycles and the chain is where it would
// have been. Storage: MAX_LEN entries of W data bits and PTR_W + 1
// exit-time bits (the shift chain's MAX_LEN valid bits become exit times),
// plus the FIFO pointers, the stall count and the oldest item's exit.
//
// The oldest item's exit on the clock grid is kept in a register (its exit
// time plus the stalls so far), so the tap is one compare with cfg_now.
// The block gates its own clock (clock_gate.sv): it changes state only in a
// cycle with an item offered or at the tap (taken, or stalled there); the
// cycles between an item's entry and its exit change nothing.
// Contract: latency cfg_len cycles (0 = combinational pass-through),
// throughput one item per cycle; when the item at the tap is not taken
// (m_ready low) the chain stalls: no item is dropped or overwritten.
// tap_at / holding: the cycle (cfg_now's bits) at which the oldest item
// reaches the tap, while the chain holds one; registers, so a bridge reads
// them after an edge without the inputs' logic settled, and counts the
// cycles to the tap from its own edge index (mod 2 x MAX_LEN). busy: an item
// is at the tap in this cycle.
module stage_chain #(
    parameter bit CLOCK_GATE = 1,   // gate this block's clock by its activity (clock_gate.sv)
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
    output logic             holding,   // the chain holds an item
    output logic [T_W-1:0]   tap_at     // while holding: the cycle the oldest item reaches the tap
);
    logic [W-1:0]     d      [MAX_LEN];
    logic [T_W-1:0]   t_exit [MAX_LEN];   // exit times in chain time
    logic [PTR_W-1:0] head, tail;
    logic [PTR_W:0]   count;
    logic [T_W-1:0]   stalls;      // cycles the chain did not advance (mod 2 x MAX_LEN)
    logic [T_W-1:0]   head_exit;   // the oldest item's exit on the clock grid (t_exit + stalls)
    logic             at_tap;      // the oldest item is at the tap in this cycle
    logic             advance;

    // (the compare only with an item in the chain: cfg_now is an input, so
    // this is in the simulator's input logic, evaluated in every cycle)
    always_comb begin
        at_tap = 1'b0;
        if (count != '0) at_tap = head_exit == cfg_now;
    end
    assign advance   = !at_tap || m_ready;
    assign s_ready   = (cfg_len == 0) ? m_ready : advance;
    assign m_valid   = (cfg_len == 0) ? s_valid : at_tap;
    assign m_data    = (cfg_len == 0) ? s_data  : d[head];
    assign busy      = at_tap;
    assign holding   = count != '0;
    assign tap_at    = head_exit;

    // this block's clock, gated by its own activity (clock_gate.sv): an item
    // offered, or one at the tap (a stall is one at the tap not taken)
    logic gclk;
    clock_gate #(.ENABLE(CLOCK_GATE)) u_clock_gate (.clk, .en(rst || s_valid || at_tap), .gclk);

    always_ff @(posedge gclk) begin
        if (rst) begin
            head   <= '0;
            tail   <= '0;
            count  <= '0;
            stalls <= '0;
        end else if (cfg_len != 0) begin
            if (!advance) begin
                // stalled: every exit moves one cycle later, the tapped item stays
                stalls    <= stalls + 1'b1;
                head_exit <= head_exit + 1'b1;
            end else if (at_tap || s_valid) begin
                logic [PTR_W-1:0] head_n;
                logic [PTR_W:0]   count_n;
                logic [T_W-1:0]   exit_n, pushed_exit;
                head_n      = at_tap ? head + 1'b1 : head;   // the tapped item has left
                count_n     = count + (PTR_W+1)'(s_valid) - (PTR_W+1)'(at_tap);
                pushed_exit = cfg_now - stalls + T_W'(cfg_len);
                if (s_valid) begin
                    d[tail]      <= s_data;
                    t_exit[tail] <= pushed_exit;
                    tail         <= tail + 1'b1;
                end
                // the oldest item after this edge: the one pushed now if it is alone
                exit_n    = (s_valid && count_n == 1) ? pushed_exit + stalls : t_exit[head_n] + stalls;
                head      <= head_n;
                count     <= count_n;
                head_exit <= exit_n;
            end
        end
    end

`ifndef SYNTHESIS
    initial assert ((1 << PTR_W) == MAX_LEN) else $error("stage_chain: MAX_LEN must be a power of two");
    // the length is held from before the reset on: checked once, when the reset is released
    always @(negedge rst)
        assert (int'(cfg_len) <= MAX_LEN)
            else $error("stage_chain: cfg_len %0d above MAX_LEN %0d", cfg_len, MAX_LEN);
    always_ff @(posedge gclk) begin
        if (!rst) begin
            if (count != '0) begin
                // the oldest item's exit is never behind this cycle, nor
                // further ahead than the chain's length: either means cycles
                // were skipped past the one before its exit (checked at the
                // chain's edges: its next push or tap)
                assert (T_W'(head_exit - cfg_now) <= T_W'(cfg_len))
                    else $error("stage_chain: the oldest item's exit was skipped (exit %0d, now %0d)", head_exit, cfg_now);
                assert (int'(count) <= int'(cfg_len))
                    else $error("stage_chain: %0d items in a chain of %0d", count, cfg_len);
            end
        end
    end
`endif
endmodule
