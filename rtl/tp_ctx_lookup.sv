// tp_ctx_lookup: UB TP-channel context lookup and PSN assignment on the
// context RAM (the context cache's data array).
//
// The RAM (one read and one write port) holds ENTRIES TP-channel records (ubsim_pkg::
// tp_record_t, 56 B), each as WORDS = ceil(record bits / port bits) words of
// PORT_BYTES; entry e's word k sits at address e * WORDS + k. A lookup
// reads its record's words on consecutive cycles through the one read
// port, assembles the record when the last word returns, takes the header
// fields (next PSN, peer TP id, remote EID) from it and writes word 0 back
// with next_psn + 1 through the write port in that same cycle.
//
// A lookup of the same record right behind another sees the PSN the
// previous one wrote through a forwarding path: the last WORDS +
// READ_LATENCY - 1 cycles of word-0 writes (entry, PSN), which are exactly
// the writes that happened after this lookup's word-0 read passed the RAM;
// the newest matching one replaces the PSN read. No stall.
//
// Refills arrive whole on s_fill (the record the context cache fetched,
// for the entry it chose) into a FILL_DEPTH-record buffer and are written
// word by word in the cycles the write port has no PSN write-back. A lookup
// of an entry that still has fill words to write waits (read-after-write
// hazard); s_fill_ready is low while the buffer is full.
//
// Contract:
//  - issue interval WORDS cycles (the read port is busy one cycle per word):
//    2 with 32 B ports, 1 with 64 B ports; nothing else limits it;
//  - latency: a lookup accepted in cycle c is on m_* from cycle
//    c + WORDS + READ_LATENCY + 1 (its output FIFO entry);
//  - accepts only with room in the output FIFO for everything in flight, so
//    an assembled record never waits; back-pressure reaches s_ready;
//  - wb_*: the PSN write-back of the previous cycle (entry, new next_psn).
//
// Written for simulation cost as well as for synthesis (the same hardware as
// rtl/v1/tp_ctx_lookup_v1.sv, output for output in every cycle): the wide
// values (the assembled record, the word written back, a refill word, the
// output entry) are formed only in the cycle that writes them, inside the
// RAM's own write and the registers' enables, not as wires evaluated in
// every cycle; the RAM (a synchronous-read memory with one write port and
// READ_LATENCY registered stages, as the v1 block's ram_1r1w) is written
// in this module for that reason. Its parts (the read port, assembly and
// the output FIFO, the write port, the forwarding history) are units on
// clocks of their own, each gated by its own work, so that an edge runs
// only the units it can change.
module tp_ctx_lookup #(
    parameter int TAG_W = 48,
    parameter int ENTRIES = 4096,
    parameter int PORT_BYTES = 32,
    parameter int RAM_LATENCY = 2,
    parameter int FILL_DEPTH = 8,
    parameter int CNT_W = 32,
    // derived (not set from outside)
    parameter int ENT_AW = $clog2(ENTRIES),
    parameter int PORT_W = PORT_BYTES * 8,
    parameter int REC_BITS = ubsim_pkg::TP_RECORD_BITS,
    parameter int WORDS = (REC_BITS + PORT_W - 1) / PORT_W,
    parameter int REC_W = WORDS * PORT_W
) (
    input  logic              clk,
    input  logic              rst,

    input  logic              s_valid,
    output logic              s_ready,
    input  logic [TAG_W-1:0]  s_tag,
    input  logic [ENT_AW-1:0] s_entry,

    output logic              m_valid,
    input  logic              m_ready,
    output logic [TAG_W-1:0]  m_tag,
    output logic [23:0]       m_psn,
    output logic [23:0]       m_peer_tp,
    output logic [127:0]      m_remote_eid,

    input  logic              s_fill_valid,
    output logic              s_fill_ready,
    input  logic [ENT_AW-1:0] s_fill_entry,
    input  logic [REC_W-1:0]  s_fill_data,

    output logic              wb_valid,
    output logic [ENT_AW-1:0] wb_entry,
    output logic [23:0]       wb_psn,

    output logic [7:0]        latency,            // constant: accept to m_valid, cycles
    output logic              busy,
    output logic              fill_wait,          // the request at s_* waits for its entry's refill words
    output logic [CNT_W-1:0]  cnt_reads,          // RAM read-port accesses
    output logic [CNT_W-1:0]  cnt_writebacks,     // PSN write-backs
    output logic [CNT_W-1:0]  cnt_fill_words,     // refill words written
    output logic [CNT_W-1:0]  cnt_forwards,       // lookups whose PSN came from the forwarding path
    output logic [CNT_W-1:0]  cnt_hazard_cycles   // cycles a lookup waited for its entry's refill words
);
    localparam int DEPTH = ENTRIES * WORDS;
    localparam int AW = $clog2(DEPTH);
    localparam int WA = WORDS > 1 ? $clog2(WORDS) : 1;
    localparam int FWD = WORDS + RAM_LATENCY - 1;     // word-0 writes a lookup in flight may have missed
    // every lookup accepted in the last WORDS + RAM_LATENCY cycles, the one
    // assembled last cycle and one more: a lookup every cycle with one word
    // per record never waits for a credit (the count is registered, so the
    // entry leaving this cycle does not free its credit until the next)
    localparam int OUT_DEPTH = WORDS + RAM_LATENCY + 2;
    localparam int OC_W = $clog2(OUT_DEPTH + 1);
    localparam int OP_W = $clog2(OUT_DEPTH);
    localparam int FC_W = $clog2(FILL_DEPTH + 1);
    localparam int FP_W = FILL_DEPTH > 1 ? $clog2(FILL_DEPTH) : 1;
    localparam int OUT_W = TAG_W + 24 + 24 + 128;

    function automatic logic [AW-1:0] addr_of(input logic [ENT_AW-1:0] e, input logic [WA-1:0] w);
        addr_of = AW'(e) * AW'(WORDS) + AW'(w);
    endfunction
    function automatic logic [OP_W-1:0] out_next(input logic [OP_W-1:0] p);
        out_next = (p == OP_W'(OUT_DEPTH - 1)) ? '0 : p + 1'b1;
    endfunction
    function automatic logic [FP_W-1:0] fill_next(input logic [FP_W-1:0] p);
        fill_next = (p == FP_W'(FILL_DEPTH - 1)) ? '0 : p + 1'b1;
    endfunction

    // ---------------- the context RAM: one read port, one write port ----------------
    logic [PORT_W-1:0] mem [DEPTH];
    logic [AW-1:0]     ram_addr_q;            // the registered read address
    logic              ram_en_q;
    logic [RAM_LATENCY-1:0] ram_valid_q;
    logic [PORT_W-1:0] rd_data;
    logic              rd_valid;
    // the read stages, a register each (not an array: no delayed-write
    // temporary per stage formed on every edge of the unit)
    for (genvar i = 0; i < RAM_LATENCY; i++) begin : g_stage
        logic [PORT_W-1:0] q;
        if (i == 0) begin : g_first
            always_ff @(posedge rd_gclk) if (!rst && ram_en_q) q <= mem[ram_addr_q];
        end else begin : g_next
            always_ff @(posedge rd_gclk) if (!rst && ram_valid_q[i-1]) q <= g_stage[i-1].q;
        end
    end
    assign rd_data  = g_stage[RAM_LATENCY-1].q;
    assign rd_valid = ram_valid_q[RAM_LATENCY-1];
`ifndef SYNTHESIS
    initial for (int i = 0; i < DEPTH; i++) mem[i] = '0;
`endif

    // ---------------- fill buffer ----------------
    logic [ENT_AW-1:0] fill_entry [FILL_DEPTH];
    logic [REC_W-1:0]  fill_data  [FILL_DEPTH];
    logic [FILL_DEPTH-1:0] fill_v;
    logic [FP_W-1:0]   fill_head, fill_tail;
    logic [FC_W-1:0]   fill_count;
    logic [WA-1:0]     fill_word_q;
    logic              fill_push, fill_wr, fill_pop;
    assign s_fill_ready = fill_count != FC_W'(FILL_DEPTH);
    assign fill_push    = s_fill_valid && s_fill_ready;

    // a lookup's entry still has refill words to write (the buffer is
    // searched only while it holds refills)
    logic hazard;
    always_comb begin
        hazard = s_fill_valid && s_fill_entry == s_entry;
        if (fill_v != '0)
            for (int i = 0; i < FILL_DEPTH; i++)
                if (fill_v[i] && fill_entry[i] == s_entry) hazard = 1'b1;
    end

    // ---------------- read side: one word per cycle ----------------
    logic              rd_busy_q;
    logic [WA-1:0]     rd_word_q;
    logic [ENT_AW-1:0] rd_entry_q;
    logic [OC_W-1:0]   out_count, inflight;
    logic              accept, rd_en;
    assign s_ready = !rd_busy_q && !hazard && (inflight + out_count) < OC_W'(OUT_DEPTH);
    assign accept  = s_valid && s_ready;
    assign rd_en   = accept || rd_busy_q;

    // lookups in flight (their reads return in order)
    logic [TAG_W-1:0]  if_tag   [OUT_DEPTH];
    logic [ENT_AW-1:0] if_entry [OUT_DEPTH];
    logic [OP_W-1:0]   if_head, if_tail;

    // ---------------- assembly ----------------
    logic [WA-1:0]     ret_word_q;
    /* verilator lint_off UNUSEDSIGNAL */  // with one word per record nothing is held back
    logic [PORT_W-1:0] asm_q [WORDS];
    /* verilator lint_on UNUSEDSIGNAL */
    logic              asm_last;
    logic [ENT_AW-1:0] asm_entry;
    assign asm_last  = rd_valid && ret_word_q == WA'(WORDS - 1);
    assign asm_entry = if_entry[if_head];

    // forwarding: word-0 writes of the last FWD cycles, [0] the newest; the
    // PSN of the record being assembled (word 0 read, or a newer write of it)
    logic [FWD-1:0]    hist_v;
    logic [ENT_AW-1:0] hist_e   [FWD];
    logic [23:0]       hist_psn [FWD];
    logic [23:0]       psn_cur;
    logic              fwd_hit;
    always_comb begin
        fwd_hit = 1'b0;
        psn_cur = WORDS > 1 ? asm_q[0][23:0] : rd_data[23:0];   // the record's next_psn (word 0, bits 23:0)
        if (hist_v != '0)
            for (int i = FWD - 1; i >= 0; i--)   // oldest first: the newest match wins
                if (hist_v[i]) begin   // (an entry's compare only where it holds a write)
                    if (hist_e[i] == asm_entry) begin
                        fwd_hit = 1'b1;
                        psn_cur = hist_psn[i];
                    end
                end
    end

    // ---------------- output FIFO ----------------
    logic [OUT_W-1:0] out_mem [OUT_DEPTH];
    logic [OP_W-1:0]  out_head, out_tail;
    logic             out_pop;
    assign m_valid = out_count != '0;
    assign out_pop = m_valid && m_ready;
    // (an entry is {psn, peer, tag, eid}: the EID in the low four words and
    // the tag word-aligned above it, so a stage that keeps the entry's fields
    // in that order copies them whole: the UB pipeline's flits)
    assign {m_psn, m_peer_tp, m_tag, m_remote_eid} = out_mem[out_head];

    // the write port: the PSN write-back of an assembled record first, then refill words
    assign fill_wr  = !asm_last && fill_count != '0;
    assign fill_pop = fill_wr && fill_word_q == WA'(WORDS - 1);

    // The block's clocks, each gated by its own unit's work (clock_gate.sv),
    // so that an edge runs only the units it can change:
    //  - rd_gclk, the read port: a lookup offered or being read, words in
    //    the RAM's stages (the read sequencing, the RAM's address and
    //    stages, the count of lookups in flight);
    //  - out_gclk, assembly and the output FIFO: a word returning, an entry
    //    held for m_*;
    //  - wr_gclk, the write port: a refill offered or buffered, a record's
    //    write-back;
    //  - wb_gclk, the forwarding history and the write-back report, below.
    logic rd_gclk, out_gclk, wr_gclk, wb_gclk, work, active, tick_q;
    logic rd_work, out_work, wr_work;
    assign rd_work  = s_valid || rd_busy_q || ram_en_q || ram_valid_q != '0;
    assign out_work = rd_valid || out_count != '0;
    assign wr_work  = s_fill_valid || fill_count != '0 || asm_last;
    assign work   = rd_work || out_work || wr_work;   // (a lookup in flight has a word in the read port)
    assign active = work || hist_v != '0 || wb_valid;
    clock_gate u_rd_gate  (.clk, .en(rst || rd_work),  .gclk(rd_gclk));
    clock_gate u_out_gate (.clk, .en(rst || out_work), .gclk(out_gclk));
    clock_gate u_wr_gate  (.clk, .en(rst || wr_work),  .gclk(wr_gclk));
    // the forwarding history and the write-back report: a unit of their own
    // clock, which runs in every cycle the lookup has work, while the
    // history holds a write, and one edge after (wb_entry / wb_psn follow
    // the record in assembly in every cycle, as the v1 block's did)
    clock_gate u_wb_gate (.clk, .en(rst || active || tick_q), .gclk(wb_gclk));

    always_ff @(posedge wb_gclk) begin
        if (rst) begin
            hist_v <= '0;
            wb_valid <= 1'b0;
            tick_q <= 1'b1;   // one edge after reset: wb_entry / wb_psn take the record's values
        end else begin
            // forwarding history: this cycle's word-0 write (kept moving only
            // while it holds one)
            if (hist_v != '0 || asm_last || (fill_wr && fill_word_q == '0)) begin
                hist_v <= FWD'({hist_v, asm_last || (fill_wr && fill_word_q == '0)});
                hist_e[0]   <= asm_last ? asm_entry : fill_entry[fill_head];
                hist_psn[0] <= asm_last ? psn_cur + 24'd1 : fill_data[fill_head][23:0];
                for (int i = 1; i < FWD; i++) begin
                    hist_e[i]   <= hist_e[i-1];
                    hist_psn[i] <= hist_psn[i-1];
                end
            end
            wb_valid <= asm_last;
            tick_q   <= active;
            wb_entry <= asm_entry;
            wb_psn   <= psn_cur + 24'd1;
        end
    end

    // (In each unit, nonblocking updates may come in any order: those that
    // read a register a later one writes come first, for which Verilator
    // 5.006 generates less; measured, docs/performance.md. The counters and
    // counts are written in every cycle of their unit: Verilator 5.006
    // keeps a shadow copy, copied in and out on every edge, of many
    // registers written only under a condition.)

    // ---- the read port: read sequencing, the RAM's address and stages ----
    always_ff @(posedge rd_gclk) begin
        if (rst) begin
            rd_busy_q <= 1'b0;
            rd_word_q <= '0;
            if_tail <= '0; inflight <= '0;
            ram_en_q <= 1'b0;
            ram_valid_q <= '0;
            cnt_reads <= '0; cnt_hazard_cycles <= '0;
        end else begin
            cnt_reads         <= cnt_reads + CNT_W'(rd_en);
            cnt_hazard_cycles <= cnt_hazard_cycles + CNT_W'(s_valid && hazard);

            // the address registers, then RAM_LATENCY stages (the address
            // formed at the register: not a wire of the input logic)
            if (accept) ram_addr_q <= addr_of(s_entry, '0);
            else if (rd_busy_q) ram_addr_q <= addr_of(rd_entry_q, rd_word_q);
            ram_en_q <= rd_en;
            if (ram_en_q || ram_valid_q != '0) begin
                ram_valid_q <= RAM_LATENCY'({ram_valid_q, ram_en_q});
            end

            if (accept) begin
                if_tag[if_tail]   <= s_tag;
                if_entry[if_tail] <= s_entry;
                if_tail <= out_next(if_tail);
                rd_entry_q <= s_entry;
                if (WORDS > 1) begin
                    rd_busy_q <= 1'b1;
                    rd_word_q <= WA'(1);
                end
            end else if (rd_busy_q) begin
                if (rd_word_q == WA'(WORDS - 1)) rd_busy_q <= 1'b0;
                rd_word_q <= rd_word_q + 1'b1;
            end
            // (a record completes only while its words are in the stages:
            // this unit's clock runs then)
            inflight <= inflight + OC_W'(accept) - OC_W'(asm_last);
        end
    end

    // ---- assembly and the output FIFO ----
    // The words coming back; the last one completes the record: its entry
    // leaves for the output FIFO (its word 0 is written back by the write
    // port, below).
    always_ff @(posedge out_gclk) begin
        if (rst) begin
            ret_word_q <= '0;
            if_head <= '0;
            out_head <= '0; out_tail <= '0; out_count <= '0;
            cnt_writebacks <= '0; cnt_forwards <= '0;
        end else begin
            cnt_writebacks <= cnt_writebacks + CNT_W'(asm_last);
            cnt_forwards   <= cnt_forwards + CNT_W'(asm_last && fwd_hit);
            if (rd_valid) begin
                if (asm_last) begin
                    /* verilator lint_off UNUSEDSIGNAL */  // the datapath reads the header fields
                    logic [REC_W-1:0] rec_bits;
                    ubsim_pkg::tp_record_t rec;
                    /* verilator lint_on UNUSEDSIGNAL */
                    ret_word_q <= '0;
                    for (int k = 0; k < WORDS - 1; k++) rec_bits[k*PORT_W +: PORT_W] = asm_q[k];
                    rec_bits[(WORDS-1)*PORT_W +: PORT_W] = rd_data;
                    rec = rec_bits[REC_BITS-1:0];
                    out_mem[out_tail] <= {psn_cur, rec.peer_tp_id, if_tag[if_head], rec.remote_eid};
                    out_tail <= out_next(out_tail);
                    if_head <= out_next(if_head);
                end else begin
                    asm_q[ret_word_q] <= rd_data;
                    ret_word_q <= ret_word_q + 1'b1;
                end
            end
            out_count <= out_count + OC_W'(asm_last) - OC_W'(out_pop);
            if (out_pop) out_head <= out_next(out_head);
        end
    end

    // ---- the write port: the PSN write-back of an assembled record first, then refill words ----
    always_ff @(posedge wr_gclk) begin
        if (rst) begin
            fill_head <= '0; fill_tail <= '0; fill_count <= '0; fill_word_q <= '0;
            fill_v <= '0;
            cnt_fill_words <= '0;
        end else begin
            cnt_fill_words <= cnt_fill_words + CNT_W'(fill_wr);
            if (asm_last) begin
                // word 0 with the next PSN in its low 24 bits, set as a part
                // of the word (in simulation a copy of each word; a
                // concatenation would mask every word with a constant)
                logic [PORT_W-1:0] word0;
                word0 = WORDS > 1 ? asm_q[0] : rd_data;
                word0[23:0] = psn_cur + 24'd1;
                mem[addr_of(asm_entry, '0)] <= word0;
            end
            if (fill_wr) begin
                mem[addr_of(fill_entry[fill_head], fill_word_q)] <= fill_data[fill_head][32'(fill_word_q)*PORT_W +: PORT_W];
                fill_word_q <= fill_pop ? '0 : fill_word_q + 1'b1;
            end
            if (fill_push) begin
                fill_entry[fill_tail] <= s_fill_entry;
                fill_data[fill_tail]  <= s_fill_data;
                fill_v[fill_tail]     <= 1'b1;
                fill_tail <= fill_next(fill_tail);
            end
            if (fill_pop) begin
                fill_v[fill_head] <= 1'b0;
                fill_head <= fill_next(fill_head);
            end
            fill_count <= fill_count + FC_W'(fill_push) - FC_W'(fill_pop);
        end
    end
    assign latency = 8'(WORDS + RAM_LATENCY + 1);
    assign fill_wait = s_valid && hazard;
    assign busy = rd_busy_q || inflight != '0 || out_count != '0 || fill_count != '0;

`ifndef SYNTHESIS
    initial begin
        assert ($bits(ubsim_pkg::tp_record_t) == REC_BITS) else $error("tp_ctx_lookup: TP_RECORD_BITS is not the record's size");
        assert (PORT_W >= 32 && REC_BITS <= REC_W && DEPTH >= 2)
            else $error("tp_ctx_lookup: a port of at least 4 B, and a record that fits its words");
        assert (RAM_LATENCY >= 1) else $error("tp_ctx_lookup: RAM_LATENCY must be at least 1");
    end
    // (on the read port's clock: the only edges at which a lookup enters)
    always_ff @(posedge rd_gclk) begin
        if (!rst) begin
            if (rd_valid)   // (checked where a word returns)
                assert (inflight != '0) else $error("tp_ctx_lookup: a RAM word returned with no lookup in flight");
            assert (int'(inflight) + int'(out_count) <= OUT_DEPTH) else $error("tp_ctx_lookup: output FIFO overrun");
        end
    end
    // (an entry index can name no record only where ENTRIES is not a power
    // of two: elsewhere the check cannot fail and is not compiled)
    if (ENTRIES < (1 << ENT_AW)) begin : g_entry_check
        always_ff @(posedge rd_gclk)
            if (!rst) assert (!(s_valid && int'(s_entry) >= ENTRIES)) else $error("tp_ctx_lookup: entry %0d beyond %0d", s_entry, ENTRIES);
    end
`endif
endmodule
