// Test-only reference (tests/test_lockstep.cpp): flit_serializer as it was before its restructuring for
// simulation cost; the restructured block must give the same outputs in every cycle.
// flit_serializer: output stage that sends a packet descriptor as flits of
// the datapath width.
//
// A packet of s_bytes (header + payload) leaves as ceil(s_bytes / FLIT_BYTES)
// flits, one per cycle (0 bytes counts as one flit); m_first marks the first
// flit, which is when the packet starts on the wire, m_last the final one.
// Contract: the first flit is offered 1 cycle after acceptance (a register
// stage); a new packet is accepted as its predecessor's last flit leaves, so
// a pipeline's issue interval is at least the flit count of its packets.
module flit_serializer_v1 #(
    parameter int W = 32,           // descriptor bits carried to the output
    parameter int BYTES_W = 16,
    parameter int FLIT_BYTES = 256
) (
    input  logic               clk,
    input  logic               rst,

    input  logic               s_valid,
    output logic               s_ready,
    input  logic [W-1:0]       s_data,
    input  logic [BYTES_W-1:0] s_bytes,

    output logic               m_valid,
    input  logic               m_ready,
    output logic [W-1:0]       m_data,
    output logic               m_first,
    output logic               m_last
);
    localparam int FLIT_SHIFT = $clog2(FLIT_BYTES);

    logic [BYTES_W-1:0] flits_left_q;   // flits still to send after the current one
    logic [BYTES_W-1:0] s_flits;

    // ceil(bytes / FLIT_BYTES), at least 1
    assign s_flits = (s_bytes == 0) ? BYTES_W'(1)
                   : BYTES_W'((32'(s_bytes) + FLIT_BYTES - 1) >> FLIT_SHIFT);
    assign m_last  = m_valid && flits_left_q == 0;
    assign s_ready = !m_valid || (m_ready && flits_left_q == 0);

    always_ff @(posedge clk) begin
        if (rst) begin
            m_valid <= 1'b0;
        end else if (s_ready) begin
            m_valid <= s_valid;
            if (s_valid) begin
                m_data       <= s_data;
                m_first      <= 1'b1;
                flits_left_q <= s_flits - 1'b1;
            end
        end else if (m_ready) begin   // a middle flit left
            m_first      <= 1'b0;
            flits_left_q <= flits_left_q - 1'b1;
        end
    end

`ifndef SYNTHESIS
    initial assert ((1 << FLIT_SHIFT) == FLIT_BYTES) else $error("flit_serializer: FLIT_BYTES must be a power of two");
    logic held_q;
    logic [W-1:0] held_data_q;
    always_ff @(posedge clk) begin
        held_q <= !rst && m_valid && !m_ready;
        held_data_q <= m_data;
        if (held_q) assert (m_valid && m_data == held_data_q) else $error("flit_serializer: flit changed while stalled");
    end
`endif
endmodule
