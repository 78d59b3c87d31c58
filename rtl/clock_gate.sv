// clock_gate: an integrated clock-gating cell (ICG), as a low-power design
// puts in front of each unit that idles most cycles: the enable is sampled
// by a latch that is open while the clock is low, so the gated clock is
// the clock ANDed with a value that cannot change while the clock is high
// (no glitch, no shortened pulse).
//
// A unit clocked by gclk changes state only at edges where en was high; a
// unit gates itself with en = "I can change state at this edge" (an input
// offered, work in flight, reset). Verilator evaluates the logic of a
// clock domain only at that domain's edges, so an idle unit costs the
// simulator its enable and nothing else.
// A unit small enough that its enable and the extra clock domain would cost
// the simulator more than its logic does instantiates it with ENABLE = 0:
// then gclk is clk (no latch, no gate).
// Contract: gclk = clk && (en as it was while clk was last low); with
// ENABLE = 0, gclk = clk.
module clock_gate #(
    parameter bit ENABLE = 1
) (
    input  logic clk,
    /* verilator lint_off UNUSEDSIGNAL */  // (ENABLE = 0)
    input  logic en,
    /* verilator lint_on UNUSEDSIGNAL */
    output logic gclk
);
    if (ENABLE) begin : g_gate
        logic en_l;
        always_latch if (!clk) en_l = en;
        assign gclk = clk && en_l;
    end else begin : g_clk
        assign gclk = clk;
    end
endmodule
