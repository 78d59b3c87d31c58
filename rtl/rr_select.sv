// rr_select: round-robin choice among N valid/ready request ports, the Jetty
// scheduling front end of the multi-initiator tops.
// Contract: 0 cycles (combinational choice); when several ports offer, the
// one after the last served wins, so no port starves; s_ready[i] is high
// only for the chosen port, when m_ready is.
module rr_select #(
    parameter int N = 5,
    parameter int IDX_W = 3
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [N-1:0]     s_valid,
    output logic [N-1:0]     s_ready,
    output logic             m_valid,
    input  logic             m_ready,
    output logic [IDX_W-1:0] m_pick       // the chosen port
);
    logic [IDX_W-1:0] last_q;
    always_comb begin
        m_valid = 1'b0;
        m_pick = '0;
        for (int k = 1; k <= N; k++) begin
            logic [IDX_W-1:0] p;
            logic [31:0] t;
            t = 32'(last_q) + 32'(k);
            p = IDX_W'(t % N);
            if (!m_valid && s_valid[p]) begin m_valid = 1'b1; m_pick = p; end
        end
        for (int i = 0; i < N; i++) s_ready[i] = m_valid && m_pick == IDX_W'(i) && m_ready;
    end
    always_ff @(posedge clk) begin
        if (rst) last_q <= IDX_W'(N - 1);
        else if (m_valid && m_ready) last_q <= m_pick;
    end
endmodule
