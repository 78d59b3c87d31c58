// Test-only reference (tests/test_lockstep.cpp): ctx_gate as it was before its restructuring for
// simulation cost; the restructured block must give the same outputs in every cycle.
// ctx_gate: joins a pipeline's request stream with the context cache's
// in-order grant stream ("every record this request needs is on chip").
//
// Placed right after the pipeline's input register, in front of the first
// stage that reads a context record. The cache answers a hit in the cycle
// its lookup is sampled, which is the cycle the request enters the input
// register, so on a hit the grant is already waiting and the gate adds no
// cycle. On a miss the request waits here for the refill, and everything
// behind it waits too (the pipeline is in order).
// The grant names the cache entry of the record the pipeline reads
// (s_grant_entry, the context RAM's index); it leaves with the request on
// m_entry. With cfg_enable = 0 there is no cache: every record is on chip
// at the entry the request names itself (s_entry).
// Contract: 0 cycles (combinational join); grants arrive in request order
// (asserted); cfg_enable = 0 passes requests through without grants.
module ctx_gate_v1 #(
    parameter int W = 32,
    parameter int ID_W = 32,
    parameter int ENT_W = 12
) (
    input  logic            clk,
    input  logic            rst,
    input  logic            cfg_enable,

    input  logic            s_valid,
    output logic            s_ready,
    input  logic [W-1:0]    s_data,
    input  logic [ID_W-1:0] s_id,
    input  logic [ENT_W-1:0] s_entry,

    input  logic            s_grant_valid,
    output logic            s_grant_ready,
    input  logic [ID_W-1:0] s_grant_id,
    input  logic [ENT_W-1:0] s_grant_entry,

    output logic            m_valid,
    input  logic            m_ready,
    output logic [W-1:0]    m_data,
    output logic [ENT_W-1:0] m_entry,

    output logic            waiting,        // a request waits for its grant this cycle
    output logic [ID_W-1:0] waiting_id
);
    logic open;
    assign open          = !cfg_enable || s_grant_valid;
    assign m_valid       = s_valid && open;
    assign m_data        = s_data;
    assign m_entry       = cfg_enable ? s_grant_entry : s_entry;
    assign s_ready       = m_ready && open;
    assign s_grant_ready = cfg_enable && s_valid && m_ready;
    assign waiting       = cfg_enable && s_valid && !s_grant_valid;
    assign waiting_id    = s_id;

`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst && cfg_enable && s_valid && s_grant_valid) begin
            assert (s_grant_id == s_id)
                else $error("ctx_gate: grant for id %0d offered to request %0d (grants out of order)",
                            s_grant_id, s_id);
        end
    end
`endif
endmodule
