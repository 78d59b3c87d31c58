// tx_segmenter: a send pipeline's segmentation stage. A message descriptor
// (s_len payload bytes in this direction) leaves as ceil(s_len / MTU)
// packets (one packet when s_len is 0: a read request or an ack), each with
// its index, its bytes (header + its share of the payload) and a last flag;
// the stages behind it (PSN assignment, flits) see packets.
//
// Payload: the first s_data_pkts packets of a message have their payload
// already (it came with the descriptor, or the path fetched it); every other
// packet waits for a payload credit: the send engine's payload buffers are
// filled by fetches the bridge issues, and each fetched packet's buffer
// arrives as a credit on s_credit_* (in the order the packets are sent; at
// most CREDITS buffered). data_wait names the message whose next packet
// waits for its payload.
//
// Contract: packet 0 passes combinationally (0 cycles: the input is taken
// with it); packets 1..N-1 follow one per cycle from the head register while
// m_ready and their payload allow; the next message is taken with its
// packet 0 after the last packet of the previous one.
module tx_segmenter #(
    parameter int ID_W = 32,
    parameter int LEN_W = 32,          // message payload bytes
    parameter int PKT_W = 24,          // packet index
    parameter int MTU_W = 17,
    parameter int BYTES_W = 18,        // packet bytes (header + payload)
    parameter int XW = 1,              // other descriptor bits carried with every packet
    parameter int CREDITS = 8,         // payload buffers: credits held at once
    parameter int CW = $clog2(CREDITS + 1)
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [MTU_W-1:0]   cfg_mtu,
    input  logic [15:0]        cfg_header_bytes,

    input  logic               s_valid,
    output logic               s_ready,
    input  logic [ID_W-1:0]    s_id,
    input  logic [LEN_W-1:0]   s_len,
    input  logic [PKT_W:0]     s_data_pkts,   // leading packets whose payload is present
    input  logic [XW-1:0]      s_extra,

    input  logic               s_credit_valid,  // one packet's payload arrived (taken every cycle)
    input  logic [ID_W-1:0]    s_credit_id,

    output logic               m_valid,
    input  logic               m_ready,
    output logic [ID_W-1:0]    m_id,
    output logic [PKT_W-1:0]   m_pkt,
    output logic               m_last,
    output logic [BYTES_W-1:0] m_bytes,
    output logic [XW-1:0]      m_extra,

    output logic               data_wait,     // the head message's next packet waits for its payload
    output logic [ID_W-1:0]    data_wait_id,
    output logic               busy           // a message is being cut (its later packets are due)
);
    // ---------------- payload credits (FIFO, consumed in order) ----------------
    localparam int CP_W = CREDITS > 1 ? $clog2(CREDITS) : 1;
    logic [ID_W-1:0] cr_id [CREDITS];
    logic [CP_W-1:0] cr_head, cr_tail;
    logic [CW-1:0]   cr_count;
    logic            cr_pop;
    function automatic logic [CP_W-1:0] cr_next(input logic [CP_W-1:0] p);
        cr_next = (p == CP_W'(CREDITS - 1)) ? '0 : p + 1'b1;
    endfunction

    // ---------------- the head message: the input, or the registered rest ----------------
    logic               busy_q;
    logic [ID_W-1:0]    id_q;
    logic [LEN_W-1:0]   left_q;      // payload bytes not yet sent
    logic [PKT_W-1:0]   pkt_q;
    logic [PKT_W:0]     data_q;      // packets still holding a payload from the descriptor
    logic [XW-1:0]      extra_q;

    logic               h_valid;
    logic [ID_W-1:0]    h_id;
    logic [LEN_W-1:0]   h_left;
    logic [PKT_W-1:0]   h_pkt;
    logic [PKT_W:0]     h_data;
    assign h_valid = busy_q || s_valid;
    assign h_id    = busy_q ? id_q : s_id;
    assign h_left  = busy_q ? left_q : s_len;
    assign h_pkt   = busy_q ? pkt_q : '0;
    assign h_data  = busy_q ? data_q : s_data_pkts;

    logic               h_last, need_credit, can_go, fire;
    logic [LEN_W-1:0]   mtu_l, h_payload;
    assign mtu_l       = LEN_W'(cfg_mtu);
    assign h_last      = h_left <= mtu_l;
    assign h_payload   = h_last ? h_left : mtu_l;
    assign need_credit = h_data == '0;
    assign can_go      = h_valid && (!need_credit || cr_count != '0);
    assign m_valid     = can_go;
    assign fire        = can_go && m_ready;
    assign cr_pop      = fire && need_credit;
    assign s_ready     = !busy_q && s_valid && fire;   // taken with its packet 0
    assign m_id        = h_id;
    assign m_pkt       = h_pkt;
    assign m_last      = h_last;
    assign m_bytes     = BYTES_W'(h_payload) + BYTES_W'(cfg_header_bytes);
    assign m_extra     = busy_q ? extra_q : s_extra;
    assign data_wait   = h_valid && need_credit && cr_count == '0;
    assign data_wait_id = h_id;
    assign busy        = busy_q;   // (buffered credits wait passively for their message)

    // this block's clock, gated by the cycles in which its state changes
    // (clock_gate.sv): a packet cut (fire) or a payload credit taken. A
    // message offered or being cut while m_ready is low (the next stage's
    // interval, back-pressure) changes nothing, so those cycles are not
    // clocked.
    logic gclk;
    clock_gate u_clock_gate (.clk, .en(rst || fire || s_credit_valid), .gclk);

    always_ff @(posedge gclk) begin
        if (rst) begin
            busy_q <= 1'b0;
            cr_head <= '0; cr_tail <= '0; cr_count <= '0;
        end else begin
            if (fire) begin
                if (h_last) begin
                    busy_q <= 1'b0;
                end else begin
                    busy_q  <= 1'b1;
                    id_q    <= h_id;
                    left_q  <= h_left - h_payload;
                    pkt_q   <= h_pkt + 1'b1;
                    data_q  <= need_credit ? '0 : h_data - 1'b1;
                    if (!busy_q) extra_q <= s_extra;
                end
            end
            if (s_credit_valid) begin
                cr_id[cr_tail] <= s_credit_id;
                cr_tail <= cr_next(cr_tail);
            end
            if (cr_pop) cr_head <= cr_next(cr_head);
            cr_count <= cr_count + CW'(s_credit_valid) - CW'(cr_pop);
        end
    end

`ifndef SYNTHESIS
    always_ff @(posedge gclk) begin
        if (!rst) begin
            // (each check under the event it checks: the simulator evaluates
            // the run-time check of assertions only where it can fail)
            if (s_credit_valid)
                assert (int'(cr_count) < CREDITS || cr_pop) else $error("tx_segmenter: a payload credit beyond the %0d buffers", CREDITS);
            if (cr_pop)
                assert (cr_id[cr_head] == h_id)
                    else $error("tx_segmenter: payload credit of message %0d used by message %0d", cr_id[cr_head], h_id);
            if (s_valid) assert (cfg_mtu != '0) else $error("tx_segmenter: a message offered with MTU 0");
        end
    end
`endif
endmodule
