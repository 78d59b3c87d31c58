// ram_sp: a single-ported RAM macro: one access per cycle, a read or a
// write, through one address. After a write the port needs TURNAROUND
// cycles before it can read again (the macro's write-to-read turnaround);
// writes may follow writes back to back.
//
// Contract:
//  - A read presented in cycle c (en, !we) returns its word on rd_data in
//    cycle c + 1 + READ_LATENCY, flagged by rd_valid (registered address,
//    then READ_LATENCY cycles). One read in flight at a time (asserted):
//    its owner presents the next read after the last word came back.
//    rd_data keeps the word until the next read is presented (the read
//    register of the macro's output), so an owner may write a word back
//    from it.
//  - A write (en, we) in cycle c is seen by a read presented after cycle c.
//  - rd_ok: a read may be presented this cycle (TURNAROUND cycles have
//    passed since the last write). A read without rd_ok is an error
//    (asserted): the controller owns the port and must respect it.
//  - No reset of the contents: a RAM has none (simulation starts at zero).
//  - rd_held / rd_due_at: a read is in flight, its word due in the cycle
//    whose cfg_now is rd_due_at (registers).
//  - ta_clk clocks the turnaround counter alone: the owner runs it in every
//    cycle of a write and of the turnaround after it (!rd_ok), and may run
//    clk (the array, the read) only in the cycles that present or return a
//    read or write.
// Written so that yosys infers a memory with one synchronous read port and
// one write port on the same address.
//
// Written for simulation cost too: the read's word is taken from the array
// at the edge of the cycle the read is presented in and held in one
// register, and rd_valid compares cfg_now (the clock grid's cycle index)
// with the cycle it is due in. The hardware's address register and read
// stages carry the same word (the port is single: no write can reach the
// array between the read and its stages, and a write in the cycles after
// it is not seen by it either); here the cycles between the read and its
// word change no register, so the unit that owns the RAM need not be
// clocked in them (psn_alloc_rmw), and a bridge may skip them (rd_due_at).
module ram_sp #(
    parameter int WIDTH = 256,
    parameter int DEPTH = 1024,
    parameter int READ_LATENCY = 2,
    parameter int TURNAROUND = 1,
    parameter int T_W = 16,
    parameter int AW = $clog2(DEPTH)
) (
    input  logic             clk,
    /* verilator lint_off UNUSEDSIGNAL */  // (TURNAROUND = 0: no counter)
    input  logic             ta_clk,        // the turnaround counter's clock: clk in every cycle it counts or a write starts it
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic             rst,
    input  logic [T_W-1:0]   cfg_now,       // the clock grid's cycle index of this cycle (low bits)
    input  logic             en,
    input  logic             we,
    input  logic [AW-1:0]    addr,
    input  logic [WIDTH-1:0] wdata,
    output logic [WIDTH-1:0] rd_data,
    output logic             rd_valid,
    output logic             rd_ok,
    output logic             rd_held,
    output logic [T_W-1:0]   rd_due_at
);
    logic [WIDTH-1:0] mem [DEPTH];
    logic [WIDTH-1:0] word_q;     // the read's word, as its last stage would hold it
    logic             held_q;     // a read in flight
    logic [T_W-1:0]   due_q;      // the cycle its word is on rd_data

`ifndef SYNTHESIS
    initial for (int i = 0; i < DEPTH; i++) mem[i] = '0;
`endif

    always_ff @(posedge clk) begin
        if (en && we) mem[addr] <= wdata;
        if (en && !we) word_q <= mem[addr];
    end
    always_ff @(posedge clk) begin
        if (rst) held_q <= 1'b0;
        else if (en && !we) begin
            held_q <= 1'b1;
            due_q  <= cfg_now + T_W'(1 + READ_LATENCY);
        end else if (rd_valid) held_q <= 1'b0;
    end
    assign rd_valid  = held_q && cfg_now == due_q;
    assign rd_data   = word_q;
    assign rd_held   = held_q;
    assign rd_due_at = due_q;

    // Write-to-read turnaround: the cycles since the last write (saturating).
    if (TURNAROUND == 0) begin : g_no_turnaround
        assign rd_ok = 1'b1;
    end else begin : g_turnaround
        localparam int TA_W = $clog2(TURNAROUND + 1);
        logic [TA_W-1:0] since_write_q;
        always_ff @(posedge ta_clk) begin
            if (rst) since_write_q <= TA_W'(TURNAROUND);
            else if (en && we) since_write_q <= '0;
            else if (since_write_q != TA_W'(TURNAROUND)) since_write_q <= since_write_q + 1'b1;
        end
        assign rd_ok = since_write_q == TA_W'(TURNAROUND);
    end

`ifndef SYNTHESIS
    initial assert (READ_LATENCY >= 1 && TURNAROUND >= 0)
        else $error("ram_sp: READ_LATENCY >= 1 and TURNAROUND >= 0");
    always_ff @(posedge clk) begin
        if (!rst && en && !we) begin   // (checked where a read is issued)
            assert (rd_ok) else $error("ram_sp: read within the write-to-read turnaround of %0d cycles", TURNAROUND);
            assert (!held_q || rd_valid) else $error("ram_sp: a read presented while another is in flight");
        end
        // the owner's clock runs in the cycle a word is due: a word held
        // past it would never be flagged (the distance wraps)
        if (!rst && held_q)
            assert (T_W'(due_q - cfg_now) <= T_W'(1 + READ_LATENCY))
                else $error("ram_sp: the read's word was due in cycle %0d, now %0d", due_q, cfg_now);
    end
    // (an address can be past the end only where DEPTH is not a power of
    // two: elsewhere the check cannot fail and is not compiled)
    if (DEPTH < (1 << AW)) begin : g_addr_check
        always_ff @(posedge clk)
            if (!rst) assert (!en || int'(addr) < DEPTH) else $error("ram_sp: access of address %0d beyond %0d", addr, DEPTH);
    end
`endif
endmodule
