// Test-only reference (tests/test_lockstep.cpp): ram_1r1w as it was before its restructuring for
// simulation cost; the restructured block must give the same outputs in every cycle.
// ram_1r1w: a RAM macro with one read port and one write port, the form a
// context store takes when lookups and write-backs overlap (UB TP channels).
//
// Contract:
//  - A read presented in cycle c (rd_en, rd_addr) returns its word on
//    rd_data in cycle c + 1 + READ_LATENCY, flagged by rd_valid: the address
//    is registered at the end of cycle c, then READ_LATENCY cycles.
//  - One write per cycle on the write port; a write in cycle c is seen by
//    a read whose address registers after cycle c (a read registered in the
//    cycle of the write returns the old word).
//  - At most one access per port per cycle (the ports are single signals).
//  - No reset: a RAM has none (simulation starts it at zero).
// Written so that yosys infers a memory with one synchronous read port and
// one write port; the latency stages after it are registers.
module ram_1r1w_v1 #(
    parameter int WIDTH = 256,
    parameter int DEPTH = 1024,
    parameter int READ_LATENCY = 2,
    parameter int AW = $clog2(DEPTH)
) (
    input  logic             clk,
    input  logic             rst,
    input  logic             rd_en,
    input  logic [AW-1:0]    rd_addr,
    output logic [WIDTH-1:0] rd_data,
    output logic             rd_valid,
    input  logic             wr_en,
    input  logic [AW-1:0]    wr_addr,
    input  logic [WIDTH-1:0] wr_data
);
    logic [WIDTH-1:0] mem [DEPTH];
    logic [AW-1:0]    addr_q;
    logic             en_q;
    logic [WIDTH-1:0] data_q [READ_LATENCY];
    logic             valid_q [READ_LATENCY];

`ifndef SYNTHESIS
    initial for (int i = 0; i < DEPTH; i++) mem[i] = '0;
`endif

    // the read data stages load only with a read in them (clock enables)
    always_ff @(posedge clk) begin
        if (wr_en) mem[wr_addr] <= wr_data;
        addr_q <= rd_addr;
        if (en_q) data_q[0] <= mem[addr_q];   // the synchronous read of the registered address
        for (int i = 1; i < READ_LATENCY; i++) if (valid_q[i-1]) data_q[i] <= data_q[i-1];
    end
    always_ff @(posedge clk) begin
        if (rst) begin
            en_q <= 1'b0;
            for (int i = 0; i < READ_LATENCY; i++) valid_q[i] <= 1'b0;
        end else begin
            en_q <= rd_en;
            valid_q[0] <= en_q;
            for (int i = 1; i < READ_LATENCY; i++) valid_q[i] <= valid_q[i-1];
        end
    end
    assign rd_data  = data_q[READ_LATENCY-1];
    assign rd_valid = valid_q[READ_LATENCY-1];

`ifndef SYNTHESIS
    initial assert (READ_LATENCY >= 1) else $error("ram_1r1w: READ_LATENCY must be at least 1");
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (!rd_en || int'(rd_addr) < DEPTH) else $error("ram_1r1w: read of address %0d beyond %0d", rd_addr, DEPTH);
            assert (!wr_en || int'(wr_addr) < DEPTH) else $error("ram_1r1w: write of address %0d beyond %0d", wr_addr, DEPTH);
        end
    end
`endif
endmodule
