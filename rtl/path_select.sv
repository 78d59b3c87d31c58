// path_select: the path each packet of a sender takes, over cfg_paths
// equal links (spec 16: spraying one transfer over several paths).
// Weighted round robin: path p carries cfg_weights[p] packets in a row
// (0 counts as 1), then the next path, wrapping after path cfg_paths - 1;
// all weights 1 is plain round robin, weights 5 and 3 over two paths the
// 5 : 3 split. One path (cfg_paths <= 1) always gives path 0.
// Contract: m_path is the path of the packet on the sender's m_* port now
// (a register: valid in every cycle); it moves on after each packet the
// wire takes (s_take, the m_valid && m_ready handshake), so a packet held
// by back-pressure keeps its path. No latency: the path is known before
// the handshake.
module path_select #(
    parameter int MAX_PATHS = 8,
    parameter int WEIGHT_W = 4,
    parameter int PATH_W = $clog2(MAX_PATHS)
) (
    input  logic                          clk,
    input  logic                          rst,
    input  logic [PATH_W:0]               cfg_paths,     // 1..MAX_PATHS
    input  logic [MAX_PATHS*WEIGHT_W-1:0] cfg_weights,   // path p: bits p*WEIGHT_W +: WEIGHT_W
    input  logic                          s_take,
    output logic [PATH_W-1:0]             m_path
);
    logic [PATH_W-1:0]   path;
    logic [WEIGHT_W-1:0] taken;    // packets the current path carried in this turn
    logic [WEIGHT_W-1:0] weight;
    assign weight = cfg_weights[path * WEIGHT_W +: WEIGHT_W];
    assign m_path = path;

    always_ff @(posedge clk) begin
        if (rst) begin
            path <= '0;
            taken <= '0;
        end else if (s_take) begin
            if (taken + 1'b1 >= weight) begin   // the turn is over (a weight of 0 counts as 1)
                taken <= '0;
                path <= ((PATH_W + 1)'(path) + 1'b1 >= cfg_paths) ? '0 : path + 1'b1;
            end else begin
                taken <= taken + 1'b1;
            end
        end
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (int'(cfg_paths) <= MAX_PATHS)
                else $error("path_select: cfg_paths %0d above MAX_PATHS %0d", cfg_paths, MAX_PATHS);
            assert (cfg_paths == 0 || (PATH_W + 1)'(path) < cfg_paths)
                else $error("path_select: path %0d of %0d", path, cfg_paths);
        end
    end
`endif
endmodule
