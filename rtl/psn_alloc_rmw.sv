// psn_alloc_rmw: RoCE-RC in-order PSN allocation on the NIC's QP-context
// RAM: one single-ported RAM (ram_sp) shared by all QPs, the QP-context
// cache's data array.
//
// The RAM holds ENTRIES QP contexts (ubsim_pkg::qp_context_t, 512 B), each
// as WORDS = 4096 / port bits words; entry e's word k sits at address
// e * WORDS + k, and next_psn and dest_qpn are in word 0. A request's PSN
// read-modify-write owns the port from its read to its turnaround:
//   issue the read of word 0 (1 cycle), wait READ_LATENCY cycles for
//   rd_valid, take next_psn and increment it (the cycle the data is
//   valid), write word 0 back (1 cycle), then wait for the macro's rd_ok
//   (TURNAROUND cycles after the write) before the port reads again.
// The controller does not forward a PSN from a write-back to a younger read,
// so no second read may enter the port while a read-modify-write is open:
// the issue interval is the whole occupancy, 3 + READ_LATENCY + TURNAROUND
// cycles (6 with the macro's 2 and 1), whether the requests go to one QP
// or to many.
//
// Refills arrive whole on s_fill (the QP context the cache fetched over
// PCIe, for the entry it chose) into a FILL_DEPTH-context buffer; the port
// writes them word by word (back to back, writes need no turnaround)
// between read-modify-writes, before the next one starts: a refill takes
// the port WORDS cycles plus the turnaround.
//
// Contract: a request accepted in cycle c (its read issued in c) is on m_*
// (m_fields: {m_dest_qpn, m_psn, m_tag} as one vector) from cycle
// c + READ_LATENCY + 2; accepted only while the port is free
// (no read-modify-write open, no refill words waiting, rd_ok) and no
// result waits for the output register; wb_*: the PSN write-back of the
// previous cycle.
//
// Written for simulation cost as well (the same outputs as
// rtl/v1/psn_alloc_rmw_v1.sv in every cycle): the RAM's read holds its word
// until the cycle it is due (ram_sp), and the block's clocks run only in a
// cycle in which one of their registers changes, so the READ_LATENCY cycles
// of a read change nothing and may be skipped (rd_held, rd_due_at: a
// bridge sleeps until the word), and a turnaround cycle clocks only the
// write-back report, the busy-cycle count and the turnaround counter. What
// the hardware's registers would do in the skipped cycles the outputs say
// from cfg_now: the port's busy-cycle count adds the cycles since the
// report's last edge, and wb_entry / wb_psn (one cycle behind the
// read-modify-write's entry and word) are those values themselves once a
// cycle has passed without an edge.
module psn_alloc_rmw #(
    parameter int TAG_W = 48,
    parameter int ENTRIES = 4096,
    parameter int PORT_BYTES = 32,
    parameter int RAM_LATENCY = 2,
    parameter int TURNAROUND = 1,
    parameter int FILL_DEPTH = 8,
    parameter int CNT_W = 32,
    parameter int T_W = 16,
    // derived (not set from outside)
    parameter int ENT_AW = $clog2(ENTRIES),
    parameter int PORT_W = PORT_BYTES * 8,
    parameter int REC_BITS = ubsim_pkg::QP_CONTEXT_BITS,
    parameter int WORDS = (REC_BITS + PORT_W - 1) / PORT_W,
    parameter int REC_W = WORDS * PORT_W
) (
    input  logic              clk,
    input  logic              rst,
    input  logic [T_W-1:0]    cfg_now,            // the clock grid's cycle index of this cycle (low bits)

    input  logic              s_valid,
    output logic              s_ready,
    input  logic [TAG_W-1:0]  s_tag,
    input  logic [ENT_AW-1:0] s_entry,

    output logic              m_valid,
    input  logic              m_ready,
    output logic [TAG_W-1:0]  m_tag,
    output logic [23:0]       m_psn,
    output logic [23:0]       m_dest_qpn,
    output logic [TAG_W+48-1:0] m_fields,         // {m_dest_qpn, m_psn, m_tag}: the output register whole

    input  logic              s_fill_valid,
    output logic              s_fill_ready,
    input  logic [ENT_AW-1:0] s_fill_entry,
    input  logic [REC_W-1:0]  s_fill_data,

    output logic              wb_valid,
    output logic [ENT_AW-1:0] wb_entry,
    output logic [23:0]       wb_psn,

    output logic [7:0]        latency,            // constant: accept to m_valid, cycles
    output logic              busy,               // it changes state at the next edge without an input, or holds a result (a read in flight aside: rd_*)
    output logic              rd_held,            // a read of word 0 in flight ...
    output logic [T_W-1:0]    rd_due_at,          // ... its word due in this cycle (cfg_now's value)
    output logic              fill_wait,          // the request at s_* waits while refill words hold the port
    output logic              port_busy,          // the RAM port is held (read-modify-write or refill)
    output logic [CNT_W-1:0]  cnt_reads,
    output logic [CNT_W-1:0]  cnt_writebacks,
    output logic [CNT_W-1:0]  cnt_fill_words,
    output logic [CNT_W-1:0]  cnt_port_busy_cycles
);
    localparam int DEPTH = ENTRIES * WORDS;
    localparam int AW = $clog2(DEPTH);
    localparam int WA = WORDS > 1 ? $clog2(WORDS) : 1;
    localparam int FC_W = $clog2(FILL_DEPTH + 1);
    localparam int FP_W = FILL_DEPTH > 1 ? $clog2(FILL_DEPTH) : 1;

    function automatic logic [AW-1:0] addr_of(input logic [ENT_AW-1:0] e, input logic [WA-1:0] w);
        addr_of = AW'(e) * AW'(WORDS) + AW'(w);
    endfunction

    // ---------------- the QP-context RAM ----------------
    logic              en, we, rd_valid, rd_ok;
    logic [AW-1:0]     addr;
    logic [PORT_W-1:0] wdata, rd_data;
    // The read-modify-write's clock (and the RAM array's), gated
    // (clock_gate.sv) to the cycles in which one of its registers changes:
    // a request accepted, the word back, a write (the write-back or a
    // refill word), a result moving to or out of the output register. The
    // write-back report, the busy-cycle count and the RAM's turnaround
    // counter are a unit of their own clock, which runs in those cycles and
    // also in the cycle after a write-back (the report to clear) and in the
    // turnaround (the counter): a turnaround cycle clocks those registers
    // alone.
    logic gclk, changes, rep_gclk;
    clock_gate u_clock_gate (.clk, .en(rst || changes), .gclk);
    clock_gate u_report_gate (.clk, .en(rst || changes || wb_valid || !rd_ok), .gclk(rep_gclk));
    ram_sp #(.WIDTH(PORT_W), .DEPTH(DEPTH), .READ_LATENCY(RAM_LATENCY), .TURNAROUND(TURNAROUND), .T_W(T_W)) u_qpc_ram (
        .clk(gclk), .ta_clk(rep_gclk), .rst, .cfg_now, .en, .we, .addr, .wdata, .rd_data, .rd_valid, .rd_ok, .rd_held, .rd_due_at);

    // ---------------- refill buffer ----------------
    logic [ENT_AW-1:0] fill_entry [FILL_DEPTH];
    logic [REC_W-1:0]  fill_data  [FILL_DEPTH];
    logic [FP_W-1:0]   fill_head, fill_tail;
    logic [FC_W-1:0]   fill_count;
    logic [WA-1:0]     fill_word_q;
    logic              fill_push, fill_wr, fill_pop;
    assign s_fill_ready = fill_count != FC_W'(FILL_DEPTH);
    assign fill_push    = s_fill_valid && s_fill_ready;

    // the buffer's storage is clocked only in a cycle that pushes a refill
    // (clock_gate.sv): a context is 4 KiB wide, and the simulator forms the
    // value an array write carries for every edge of the domain the write
    // is in, written or not (Verilator's delayed-assignment temporary)
    logic fill_gclk;
    clock_gate u_fill_gate (.clk, .en(!rst && fill_push), .gclk(fill_gclk));
    always_ff @(posedge fill_gclk) begin
        fill_entry[fill_tail] <= s_fill_entry;
        fill_data[fill_tail]  <= s_fill_data;
    end

    // ---------------- the read-modify-write ----------------
    // rmw_rd_q: read issued, data not yet back; rmw_wb_q: the write-back is due
    logic              rmw_rd_q, rmw_wb_q;
    logic [ENT_AW-1:0] rmw_entry_q;
    logic [TAG_W-1:0]  rmw_tag_q;
    logic [23:0]       wb_next_psn_q;      // the incremented next_psn the write-back carries
    logic              res_v_q;            // a result waits for the output register
    logic [TAG_W+48-1:0] res_q;
    // the output register, {dest_qpn, psn, tag}: m_fields whole (a next
    // stage taking the three as one vector reads the register itself, not a
    // concatenation the simulator would form in every cycle), and its fields
    logic [TAG_W+48-1:0] m_q;
    assign m_fields = m_q;
    assign {m_dest_qpn, m_psn, m_tag} = m_q;
    // The datapath's two fields, next_psn and dest_qpn: the record's low 48
    // bits (qp_context_t; checked below), taken from word 0 as it comes
    // back. (A qp_context_t view of the word would widen every word read to
    // the record's 4096 bits in the simulator, for two 24-bit fields.)
    logic [23:0] rd_next_psn, rd_dest_qpn;
    assign {rd_dest_qpn, rd_next_psn} = rd_data[47:0];

    logic accept, out_free, data_now;
    assign data_now    = rmw_rd_q && rd_valid;
    assign out_free = !m_valid || m_ready;
    assign fill_wr  = !rmw_rd_q && !rmw_wb_q && fill_count != '0;
    assign s_ready  = !rmw_rd_q && !rmw_wb_q && fill_count == '0 && rd_ok && !res_v_q;
    assign accept   = s_valid && s_ready;
    assign fill_pop = fill_wr && fill_word_q == WA'(WORDS - 1);
    assign changes  = accept || data_now || rmw_wb_q || fill_wr || (out_free && (m_valid || res_v_q));

    // the port: the read of word 0, the write-back, or a refill word
    always_comb begin
        en = 1'b0; we = 1'b0; addr = '0; wdata = '0;
        if (rmw_wb_q) begin
            // word 0 as it was read (the RAM's read register holds it: no
            // access of the port since), its next_psn incremented (set as a
            // part of the word: a concatenation would shift every word in
            // simulation)
            en = 1'b1; we = 1'b1; addr = addr_of(rmw_entry_q, '0);
            wdata = rd_data;
            wdata[23:0] = wb_next_psn_q;
        end else if (fill_wr) begin
            en = 1'b1; we = 1'b1; addr = addr_of(fill_entry[fill_head], fill_word_q);
            wdata = fill_data[fill_head][32'(fill_word_q)*PORT_W +: PORT_W];
        end else if (accept) begin
            en = 1'b1; addr = addr_of(s_entry, '0);
        end
    end

    function automatic logic [FP_W-1:0] fill_next(input logic [FP_W-1:0] p);
        fill_next = (p == FP_W'(FILL_DEPTH - 1)) ? '0 : p + 1'b1;
    endfunction

    // the refill buffer's pointers, count and word counter: a unit of their
    // own clock, which runs only while a refill is offered or buffered (not
    // in the cycles of a read-modify-write without one)
    logic fill_ptr_gclk;
    clock_gate u_fill_ptr_gate (.clk, .en(rst || s_fill_valid || fill_count != '0), .gclk(fill_ptr_gclk));
    always_ff @(posedge fill_ptr_gclk) begin
        if (rst) begin
            fill_head <= '0; fill_tail <= '0; fill_count <= '0; fill_word_q <= '0;
            cnt_fill_words <= '0;
        end else begin
            cnt_fill_words <= cnt_fill_words + CNT_W'(fill_wr);
            if (fill_push) fill_tail <= fill_next(fill_tail);
            if (fill_wr) fill_word_q <= fill_pop ? '0 : fill_word_q + 1'b1;
            if (fill_pop) fill_head <= fill_next(fill_head);
            fill_count <= fill_count + FC_W'(fill_push) - FC_W'(fill_pop);
        end
    end

    always_ff @(posedge gclk) begin
        if (rst) begin
            rmw_rd_q <= 1'b0;
            rmw_wb_q <= 1'b0;
            res_v_q  <= 1'b0;
            m_valid  <= 1'b0;
            cnt_reads <= '0; cnt_writebacks <= '0;
        end else begin
            if (accept) begin
                rmw_entry_q <= s_entry;
                rmw_tag_q   <= s_tag;
            end
            // the data is back: increment; the write-back goes out next cycle
            // with the rest of the word from the RAM's read register, which
            // holds it until the port's next read (no second copy of the
            // word: in simulation each copy is a copy of every word)
            if (data_now) wb_next_psn_q <= rd_next_psn + 24'd1;
            // (the two flags written in every cycle: no shadow copy of either
            // in the generated C++)
            rmw_rd_q <= !data_now && (accept || rmw_rd_q);
            rmw_wb_q <= data_now && !rmw_wb_q;
            // the request leaves with its PSN: into the output register, or the
            // skid register when the output register is held (its fields
            // formed here, where a register takes them: as a net of their own
            // the simulator would form them, 4 words, in every cycle of the
            // unit's clock, taken or not)
            if (out_free) begin
                m_valid <= res_v_q || data_now;
                if (res_v_q || data_now) m_q <= res_v_q ? res_q : {rd_dest_qpn, rd_next_psn, rmw_tag_q};
            end
            res_v_q <= res_v_q ? !out_free : (data_now && !out_free);
            if (data_now && !out_free) res_q <= {rd_dest_qpn, rd_next_psn, rmw_tag_q};
            cnt_reads      <= cnt_reads + CNT_W'(en && !we);
            cnt_writebacks <= cnt_writebacks + CNT_W'(rmw_wb_q);
        end
    end
    // the write-back report and the busy-cycle count (with the cycles this
    // clock skipped: a read in flight held the port in each)
    always_ff @(posedge rep_gclk) begin
        if (rst) begin
            wb_valid <= 1'b0;
            next_now <= cfg_now + T_W'(1);
            busy_cycles_q <= '0;
        end else begin
            wb_valid <= rmw_wb_q;
            next_now <= cfg_now + T_W'(1);
            wb_entry_q <= rmw_entry_q;
            wb_psn_q   <= wb_next_psn_q;
            busy_cycles_q <= cnt_port_busy_cycles + CNT_W'(port_busy);
        end
    end
    // The cycles since the report's last edge: the hardware's registers
    // moved in each of them (no input or register they follow changed, the
    // clocks being off), so the outputs that follow a register by one cycle
    // show that register once a cycle has passed without an edge, and the
    // busy-cycle count adds the skipped cycles, busy only with a read in
    // flight (every other busy cycle clocks the report).
    logic [T_W-1:0]    next_now;            // cfg_now of the cycle after the report's last edge
    logic [ENT_AW-1:0] wb_entry_q;
    logic [23:0]       wb_psn_q;
    logic [CNT_W-1:0]  busy_cycles_q;
    logic              skipped;
    assign skipped  = cfg_now != next_now;
    assign wb_entry = skipped ? rmw_entry_q : wb_entry_q;
    assign wb_psn   = skipped ? wb_next_psn_q : wb_psn_q;
    assign cnt_port_busy_cycles = busy_cycles_q + (rmw_rd_q ? CNT_W'(T_W'(cfg_now - next_now)) : '0);

    // the port is the refill's: words still to write, or the turnaround after them
    logic last_write_fill_q;
    always_ff @(posedge gclk) begin
        if (rst) last_write_fill_q <= 1'b0;
        else if (fill_wr) last_write_fill_q <= 1'b1;
        else if (rmw_wb_q) last_write_fill_q <= 1'b0;
    end
    assign fill_wait = s_valid && !s_ready && !rmw_rd_q && !rmw_wb_q
                       && (fill_count != '0 || (last_write_fill_q && !rd_ok));
    // held: a read-modify-write open, a write this cycle, or the turnaround after one
    assign port_busy = rmw_rd_q || rmw_wb_q || en || !rd_ok;
    assign latency = 8'(RAM_LATENCY + 2);
    // (a read in flight alone changes nothing until its word: rd_held)
    assign busy = rmw_wb_q || en || !rd_ok || res_v_q || m_valid || fill_count != '0;

`ifndef SYNTHESIS
    initial assert ($bits(ubsim_pkg::qp_context_t) == REC_BITS) else $error("psn_alloc_rmw: QP_CONTEXT_BITS is not the context's size");
    // next_psn and dest_qpn are the record's bits [23:0] and [47:24] (the datapath reads them there)
    initial begin
        ubsim_pkg::qp_context_t probe;
        probe = '0;
        probe.next_psn = 24'hfedcba;
        probe.dest_qpn = 24'h123456;
        assert (probe == REC_BITS'(48'h123456_fedcba)) else $error("psn_alloc_rmw: next_psn / dest_qpn are not the QP context's low 48 bits");
    end
    initial assert (PORT_W >= 48 && REC_BITS <= REC_W && DEPTH >= 2)
        else $error("psn_alloc_rmw: a port of at least 6 B, and a QP context that fits its words");
    always_ff @(posedge gclk) begin
        if (!rst && rd_valid)   // (checked where a word returns)
            assert (rmw_rd_q) else $error("psn_alloc_rmw: a RAM word returned with no read open");
    end
    // (an entry index can name no context only where ENTRIES is not a power
    // of two: elsewhere the check cannot fail and is not compiled)
    if (ENTRIES < (1 << ENT_AW)) begin : g_entry_check
        always_ff @(posedge gclk)
            if (!rst) assert (!(s_valid && int'(s_entry) >= ENTRIES)) else $error("psn_alloc_rmw: entry %0d beyond %0d", s_entry, ENTRIES);
    end
`endif
endmodule
