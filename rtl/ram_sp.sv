// ram_sp: a single-ported RAM macro: one access per cycle, a read or a
// write, through one address. After a write the port needs TURNAROUND
// cycles before it can read again (the macro's write-to-read turnaround);
// writes may follow writes back to back.
//
// Contract:
//  - A read presented in cycle c (en, !we) returns its word on rd_data in
//    cycle c + 1 + READ_LATENCY, flagged by rd_valid (registered address,
//    then READ_LATENCY cycles).
//  - A write (en, we) in cycle c is seen by a read presented after cycle c.
//  - rd_ok: a read may be presented this cycle (TURNAROUND cycles have
//    passed since the last write). A read without rd_ok is an error
//    (asserted): the controller owns the port and must respect it.
//  - No reset of the contents: a RAM has none (simulation starts at zero).
// Written so that yosys infers a memory with one synchronous read port and
// one write port on the same address.
module ram_sp #(
    parameter int WIDTH = 256,
    parameter int DEPTH = 1024,
    parameter int READ_LATENCY = 2,
    parameter int TURNAROUND = 1,
    parameter int AW = $clog2(DEPTH)
) (
    input  logic             clk,
    input  logic             rst,
    input  logic             en,
    input  logic             we,
    input  logic [AW-1:0]    addr,
    input  logic [WIDTH-1:0] wdata,
    output logic [WIDTH-1:0] rd_data,
    output logic             rd_valid,
    output logic             rd_ok
);
    logic [WIDTH-1:0] mem [DEPTH];
    logic [AW-1:0]    addr_q;
    logic             rd_q;
    logic             valid_q [READ_LATENCY];

`ifndef SYNTHESIS
    initial for (int i = 0; i < DEPTH; i++) mem[i] = '0;
`endif

    always_ff @(posedge clk) begin
        if (en && we) mem[addr] <= wdata;
        addr_q <= addr;
    end
    // the read data stages load only with a read in them (clock enables);
    // a register each, not an array (in simulation no delayed-write
    // temporary per stage is formed on every edge)
    for (genvar i = 0; i < READ_LATENCY; i++) begin : g_stage
        logic [WIDTH-1:0] q;
        if (i == 0) begin : g_first
            always_ff @(posedge clk) if (rd_q) q <= mem[addr_q];
        end else begin : g_next
            always_ff @(posedge clk) if (valid_q[i-1]) q <= g_stage[i-1].q;
        end
    end
    always_ff @(posedge clk) begin
        if (rst) begin
            rd_q <= 1'b0;
            for (int i = 0; i < READ_LATENCY; i++) valid_q[i] <= 1'b0;
        end else begin
            rd_q <= en && !we;
            valid_q[0] <= rd_q;
            for (int i = 1; i < READ_LATENCY; i++) valid_q[i] <= valid_q[i-1];
        end
    end
    assign rd_data  = g_stage[READ_LATENCY-1].q;
    assign rd_valid = valid_q[READ_LATENCY-1];

    // Write-to-read turnaround: the cycles since the last write (saturating).
    if (TURNAROUND == 0) begin : g_no_turnaround
        assign rd_ok = 1'b1;
    end else begin : g_turnaround
        localparam int TA_W = $clog2(TURNAROUND + 1);
        logic [TA_W-1:0] since_write_q;
        always_ff @(posedge clk) begin
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
        if (!rst && en && !we)   // (checked where a read is issued)
            assert (rd_ok) else $error("ram_sp: read within the write-to-read turnaround of %0d cycles", TURNAROUND);
    end
    // (an address can be past the end only where DEPTH is not a power of
    // two: elsewhere the check cannot fail and is not compiled)
    if (DEPTH < (1 << AW)) begin : g_addr_check
        always_ff @(posedge clk)
            if (!rst) assert (!en || int'(addr) < DEPTH) else $error("ram_sp: access of address %0d beyond %0d", addr, DEPTH);
    end
`endif
endmodule
