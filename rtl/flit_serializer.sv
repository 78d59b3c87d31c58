// flit_serializer: output stage that sends a packet descriptor as flits of
// the datapath width.
//
// A packet of s_bytes (header + payload) leaves as ceil(s_bytes / FLIT_BYTES)
// flits, one per cycle (0 bytes counts as one flit); m_first marks the first
// flit, which is when the packet starts on the wire, m_last the final one.
// Contract: the first flit is offered 1 cycle after acceptance (a register
// stage); a new packet is accepted as its predecessor's last flit leaves, so
// a pipeline's issue interval is at least the flit count of its packets.
//
// The descriptor's register is the parent's: it loads the packet's fields
// at the edges of m_gclk where m_load is high (the acceptance), into its own
// output ports. (Written for simulation cost, the same hardware as
// rtl/v1/flit_serializer_v1.sv with its m_data register: a parent's fields
// as separate ports were copied out of that register at every edge of this
// unit; written at the load, they change only there.)
module flit_serializer #(
    parameter int BYTES_W = 16,
    parameter int FLIT_BYTES = 256
) (
    input  logic               clk,
    input  logic               rst,

    input  logic               s_valid,
    output logic               s_ready,
    input  logic [BYTES_W-1:0] s_bytes,

    output logic               m_valid,
    input  logic               m_ready,
    output logic               m_first,
    output logic               m_last,
    output logic               m_load,    // a packet is taken at this edge: the parent's descriptor register loads
    output logic               m_gclk     // ... on this unit's clock
);
    localparam int FLIT_SHIFT = $clog2(FLIT_BYTES);

    logic [BYTES_W-1:0] flits_left_q;   // flits still to send after the current one
    logic [BYTES_W-1:0] s_flits;

    // ceil(bytes / FLIT_BYTES), at least 1
    assign s_flits = (s_bytes == 0) ? BYTES_W'(1)
                   : BYTES_W'((32'(s_bytes) + FLIT_BYTES - 1) >> FLIT_SHIFT);
    assign m_last  = m_valid && flits_left_q == 0;
    assign s_ready = !m_valid || (m_ready && flits_left_q == 0);
    assign m_load  = s_valid && s_ready;

    // this block's clock, gated by its own activity (clock_gate.sv): a packet offered or being sent
    clock_gate u_clock_gate (.clk, .en(rst || s_valid || m_valid), .gclk(m_gclk));

    always_ff @(posedge m_gclk) begin
        if (rst) begin
            m_valid <= 1'b0;
        end else if (s_ready) begin
            m_valid <= s_valid;
            if (s_valid) begin
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
    // (a flit held on m_* keeps its descriptor: the parent checks its
    // registers, stream_hold_check.sv, as the v1 block checked m_data)
`endif
endmodule
