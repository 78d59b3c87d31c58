// order_tracker: transaction ordering within each send queue (UB Jetty, or
// RoCE RC QP in strict mode), spec section 2.
//
// Each request names its queue (s_queue), its execution tag (NO/RO/SO), the
// Fence and completion-order flags, whether it is a Read/Atomic, and the
// queue's service mode (ROI/ROT/ROL/UNO). The tracker gives it a sequence
// number in its queue and either passes it on (1 cycle, like a pipeline
// register) or holds it in the queue's window, out of the stream, so later
// requests of other queues (and unordered ones of its own) go past it.
//  - SO under ROI waits until every earlier RO/SO of its queue completed;
//    under ROT (target enforces) and ROL (one in-order TP channel) the
//    initiator does not hold it.
//  - Fence waits until every earlier Read/Atomic of its queue completed, and
//    every later request of the queue waits behind a held Fence.
//  - NO and RO never wait for an SO.
//  - Strict mode (RoCE RC): SO or Fence waits for earlier Reads/Atomics and
//    every later request of the queue waits behind any held request.
//  - UNO accepts only NO without Fence/completion order and at most one MTU
//    of payload; anything else leaves on m_err_* (error completion) instead
//    of being reordered.
// A held request is released (one per cycle, ahead of new requests; within
// a queue the oldest one that may go, so a request is never kept behind a
// held one it does not depend on: an NO behind a Fence is not kept behind a
// held SO once the Fence has gone) in the cycle after its last
// predecessor's completion arrives on s_cpl_*; in strict mode only the
// oldest held request of a queue may go (in order). Completions are reported
// on m_rep_* once done; one with the completion-order bit only after every
// earlier one of its queue.
// Queues are slots: a queue id takes a free slot on its first request and
// gives it back when nothing of it is left. A request waits at s_* (and
// stalls the stream: the limit of this shared input) only when no slot is
// free or its queue's window of WIN sequence numbers is full; both are
// counted (stall_*) so an experiment can see them.
//
// Written for simulation cost as well as for synthesis (the same hardware
// as rtl/v1/order_tracker_v1.sv, output for output in every cycle): the
// window's searches run only while something can be found (a request at
// the input, a held request, an unreported completion, a window to tidy),
// and its output handshakes only while something is at its ports;
// the per-slot summaries the outputs and searches need (held_any, the
// slots' queue ids, "something unreported") are registers kept with the
// counters they summarize; an entry's fixed attributes are written once,
// when it enters the window, and its changing flags are bit vectors.
module order_tracker #(
    parameter int W = 64,          // payload carried through
    parameter int ID_W = 32,
    parameter int QID_W = 12,      // queue (Jetty / QP) id
    parameter int SLOTS = 8,       // queues tracked at once
    parameter int WIN = 16,        // requests per queue in flight or held
    parameter int SEQ_W = 8,       // sequence numbers (wrap; WIN <= 2^(SEQ_W-1))
    parameter int PAY_W = 16,
    parameter int LATE = 0,        // 1: s_late is used: a field of s_data the enclosing pipeline may supply apart
    parameter int LATE_W = 1,      // ... its width
    parameter int LATE_LSB = 0,    // ... its position in s_data
    parameter int SLOT_W = $clog2(SLOTS),
    parameter int WIN_W = $clog2(WIN)
) (
    input  logic               clk,
    input  logic               rst,
    input  logic               cfg_strict,     // RoCE RC: strict in-order per queue
    input  logic [PAY_W-1:0]   cfg_mtu,

    input  logic               s_valid,
    // A request is on s_* (its fields hold), offered or not: s_valid implies
    // it. The enclosing pipeline sets it from its own register where
    // s_valid waits on one of its inputs as well (the NIC pipeline's context
    // grant), so that the request's slot search reads registers only.
    input  logic               s_present,
    output logic               s_ready,
    input  logic [W-1:0]       s_data,
    // With LATE, while s_late_sel, the request's data is s_data with bits
    // [LATE_LSB +: LATE_W] taken from s_late: a field an enclosing pipeline
    // has only from one of its inputs (the NIC pipeline's granted context
    // entry). Muxed into s_data outside, it would be input logic formed on
    // every settle; here it is formed only where a register takes the
    // request.
    input  logic               s_late_sel,
    input  logic [LATE_W-1:0]  s_late,
    input  logic [ID_W-1:0]    s_id,
    input  logic               s_track,        // a new request (0: a response, passed untracked)
    input  logic [QID_W-1:0]   s_queue,
    input  logic [1:0]         s_mode,         // ubsim_pkg::MODE_*
    input  logic [1:0]         s_tag,          // ubsim_pkg::TAG_*
    input  logic               s_fence,
    input  logic               s_comp_order,
    input  logic               s_rdat,         // a Read or Atomic
    input  logic [PAY_W-1:0]   s_payload,

    output logic               m_valid,
    input  logic               m_ready,
    output logic [W-1:0]       m_data,
    output logic [ID_W-1:0]    m_id,
    output logic [SLOT_W-1:0]  m_slot,
    output logic [SEQ_W-1:0]   m_seq,
    output logic               m_released,     // it had been held
    output logic               m_tracked,      // m_slot / m_seq are valid (a tracked request)

    output logic               m_err_valid,    // rejected: error completion
    input  logic               m_err_ready,
    output logic [ID_W-1:0]    m_err_id,
    output logic [1:0]         m_err_code,     // ubsim_pkg::ERR_*

    input  logic               s_cpl_valid,    // a request of (slot, seq) completed
    input  logic [SLOT_W-1:0]  s_cpl_slot,
    input  logic [SEQ_W-1:0]   s_cpl_seq,

    output logic               m_rep_valid,    // completion reported to software
    input  logic               m_rep_ready,
    output logic [ID_W-1:0]    m_rep_id,

    output logic [SLOTS-1:0]   held_any,       // per slot: a request is held
    output logic [SLOTS-1:0]   slot_valid,
    output logic [SLOTS*QID_W-1:0] slot_queues,   // the queue id each valid slot tracks
    output logic               in_hold,        // the request on s_* is taken into the hold window
    output logic               rel_take,       // a held request is released into m_* this cycle
    output logic [ID_W-1:0]    rel_id,
    output logic               busy,           // it changes state without a new input
    output logic [31:0]        stall_slots,    // cycles s_* waited for a free slot
    output logic [31:0]        stall_window    // cycles s_* waited for window space
);
    localparam logic [1:0] MODE_ROI = 2'(ubsim_pkg::MODE_ROI), MODE_UNO = 2'(ubsim_pkg::MODE_UNO);
    localparam logic [1:0] TAG_NO = 2'(ubsim_pkg::TAG_NO), TAG_SO = 2'(ubsim_pkg::TAG_SO);
    localparam logic [1:0] ERR_ORDER = 2'(ubsim_pkg::ERR_ORDER_UNDER_UNO), ERR_MTU = 2'(ubsim_pkg::ERR_UNO_OVER_MTU);
    localparam int E = SLOTS * WIN;            // window entries: entry {slot, seq mod WIN}
    localparam int EI_W = SLOT_W + WIN_W;
    localparam int CW = WIN_W + 1;             // per-slot counters

    // ---------------- per-slot state (packed: one value per slot) ----------------
    // Flat vectors, slot i's value at [i*SEQ_W +: SEQ_W] (or CW): yosys 0.23
    // reads `logic [A][B] x` as a syntax error and a packed array of a typedef
    // as one element, so the 2-D packed form would not synthesize.
    logic [SLOTS*SEQ_W-1:0] base;         // oldest sequence number still in the window
    logic [SLOTS*SEQ_W-1:0] next_seq;
    logic [SLOTS*CW-1:0]    roso_out;     // RO/SO accepted, not completed
    logic [SLOTS*CW-1:0]    rdat_out;     // Read/Atomic accepted, not completed
    logic [SLOTS*CW-1:0]    held_cnt;
    logic [SLOTS*CW-1:0]    fence_held;   // held Fences (queue barriers)
    logic [SLOTS*CW-1:0]    unrep_done;   // done, not yet reported
    logic [SLOTS-1:0]            unrep_any;    // unrep_done != 0 per slot (kept with it)

    // ---------------- window entries ----------------
    // fixed when the entry enters the window (one write)
    localparam int A_ROSO = 0, A_RDAT = 1, A_SO = 2, A_FENCE = 3, A_CORDER = 4, A_ROI = 5;
    logic [W-1:0]    e_data [E];
    logic [ID_W-1:0] e_id   [E];
    logic [5:0]      e_attr [E];
    // changing flags, one bit per entry
    logic [E-1:0]    e_held, e_done, e_rep;

    // the request's data with its late field (s_late_sel, s_late), formed
    // where a register takes it (one mux in hardware, shared by both)
    function automatic logic [W-1:0] in_data(input logic [W-1:0] d, input logic sel, input logic [LATE_W-1:0] f);
        in_data = d;
        if (sel) in_data[LATE_LSB +: LATE_W] = f;
    endfunction
    /* verilator lint_off UNUSEDSIGNAL */  // the window index is seq mod WIN
    function automatic logic [EI_W-1:0] ent(input logic [SLOT_W-1:0] slot, input logic [SEQ_W-1:0] seq);
        ent = {slot, seq[WIN_W-1:0]};
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // ---------------- the arriving request (worked out only while one is present) ----------------
    // Its slot search, its window and hold checks and its window entry are
    // worked out under s_present, which s_valid implies: every use of them
    // is qualified by s_valid. Under s_valid (which may depend on the
    // enclosing pipeline's inputs: the NIC pipeline's context grant) this
    // logic would be in the input region, evaluated on every settle while
    // the request waits; under a register's s_present it is evaluated after
    // the edges that change what it reads. Idle, it is the defaults.
    logic             hit, free_found;
    logic [SLOT_W-1:0] in_slot, free_slot;
    logic illegal, oversize, has_slot, has_room, must_hold;
    logic [EI_W-1:0] new_e;
    always_comb begin
        hit = 1'b0; free_found = 1'b0; in_slot = '0; free_slot = '0;
        oversize = 1'b0; illegal = 1'b0; has_slot = 1'b1; has_room = 1'b1; must_hold = 1'b0; new_e = '0;
        if (s_present) begin
            // (no queue tracked, as for responses and untracked requests
            // only: slot 0 is the first free one, without the per-slot scan)
            if (slot_valid == '0) free_found = 1'b1;
            else
                for (int i = 0; i < SLOTS; i++) begin
                    if (slot_valid[i]) begin   // (a slot's compare only where it holds a queue)
                        if (slot_queues[i*QID_W +: QID_W] == s_queue) begin hit = 1'b1; in_slot = SLOT_W'(i); end
                    end else if (!free_found) begin
                        free_found = 1'b1; free_slot = SLOT_W'(i);
                    end
                end
            if (!hit) in_slot = free_slot;
            oversize  = s_track && s_mode == MODE_UNO && s_payload > cfg_mtu;
            illegal   = s_track && s_mode == MODE_UNO && (s_tag != TAG_NO || s_fence || s_comp_order || oversize);
            has_slot  = !s_track || hit || free_found;
            has_room  = !s_track || !hit || SEQ_W'(next_seq[(in_slot)*SEQ_W +: SEQ_W] - base[(in_slot)*SEQ_W +: SEQ_W]) < SEQ_W'(WIN);
            if (!s_track || !hit) begin
                must_hold = 1'b0;   // an empty queue: nothing earlier to wait for
            end else if (cfg_strict) begin
                must_hold = held_cnt[(in_slot)*CW +: CW] != '0
                            || ((s_tag == TAG_SO || s_fence) && rdat_out[(in_slot)*CW +: CW] != '0);
            end else begin
                must_hold = fence_held[(in_slot)*CW +: CW] != '0
                            || (s_fence && rdat_out[(in_slot)*CW +: CW] != '0)
                            || (s_mode == MODE_ROI && s_tag == TAG_SO && roso_out[(in_slot)*CW +: CW] != '0);
            end
            new_e = ent(in_slot, next_seq[(in_slot)*SEQ_W +: SEQ_W]);
        end
    end

    // ---------------- release of the oldest held request that may go ----------------
    // Per slot with a held request, its entries from the oldest: a held one
    // may go when nothing earlier it waits for is pending (an earlier held
    // Fence, or in strict mode any earlier held request; earlier RO/SO or
    // Reads/Atomics not completed, by its tag and Fence). Scanned only while
    // something is held; the scan stops at the first that may go.
    logic             rel_found;
    logic [SLOT_W-1:0] rel_slot;
    logic [SEQ_W-1:0]  rel_seq;
    always_comb begin
        logic r_roso_pend, r_rdat_pend, r_held_before, r_fence_before, r_ok;
        logic [SEQ_W-1:0] r_s;
        logic [EI_W-1:0]  r_e;
        rel_found = 1'b0; rel_slot = '0; rel_seq = '0;
        r_roso_pend = 1'b0; r_rdat_pend = 1'b0; r_held_before = 1'b0; r_fence_before = 1'b0; r_ok = 1'b0;
        r_s = '0; r_e = '0;
        if (held_any != '0) begin
            for (int i = 0; i < SLOTS; i++) begin
                if (held_any[i] && !rel_found) begin
                    r_roso_pend = 1'b0; r_rdat_pend = 1'b0; r_held_before = 1'b0; r_fence_before = 1'b0;
                    r_s = base[(i)*SEQ_W +: SEQ_W];
                    for (int k = 0; k < WIN; k++) begin
                        if (!rel_found && r_s != next_seq[(i)*SEQ_W +: SEQ_W]) begin
                            r_e = ent(SLOT_W'(i), r_s);
                            if (e_held[r_e]) begin
                                if (cfg_strict)
                                    r_ok = !r_held_before && !((e_attr[r_e][A_SO] || e_attr[r_e][A_FENCE]) && r_rdat_pend);
                                else
                                    r_ok = !r_fence_before && !(e_attr[r_e][A_FENCE] && r_rdat_pend)
                                         && !(e_attr[r_e][A_SO] && e_attr[r_e][A_ROI] && r_roso_pend);
                                if (r_ok) begin rel_found = 1'b1; rel_slot = SLOT_W'(i); rel_seq = r_s; end
                                r_held_before = 1'b1;
                                r_fence_before = r_fence_before || e_attr[r_e][A_FENCE];
                            end
                            if (!e_done[r_e]) begin
                                r_roso_pend = r_roso_pend || e_attr[r_e][A_ROSO];
                                r_rdat_pend = r_rdat_pend || e_attr[r_e][A_RDAT];
                            end
                            r_s = r_s + 1'b1;
                        end
                    end
                end
            end
        end
    end

    // ---------------- completion reports ----------------
    // Per slot: the first done, unreported entry that may be reported (no
    // completion order, or nothing earlier unreported). Scanned only while
    // some completion is unreported.
    logic             rep_found;
    logic [SLOT_W-1:0] rep_slot;
    logic [SEQ_W-1:0]  rep_seq;
    always_comb begin
        logic p_earlier;
        logic [SEQ_W-1:0] p_s;
        logic [EI_W-1:0]  p_e;
        rep_found = 1'b0; rep_slot = '0; rep_seq = '0;
        p_earlier = 1'b0; p_s = '0; p_e = '0;
        if (unrep_any != '0) begin
            for (int i = 0; i < SLOTS; i++) begin
                if (unrep_any[i] && !rep_found) begin
                    p_earlier = 1'b0;
                    p_s = base[(i)*SEQ_W +: SEQ_W];
                    for (int k = 0; k < WIN; k++) begin
                        if (!rep_found && p_s != next_seq[(i)*SEQ_W +: SEQ_W]) begin
                            p_e = ent(SLOT_W'(i), p_s);
                            if (e_done[p_e] && !e_rep[p_e] && (!e_attr[p_e][A_CORDER] || !p_earlier)) begin
                                rep_found = 1'b1; rep_slot = SLOT_W'(i); rep_seq = p_s;
                            end
                            p_earlier = p_earlier || !e_rep[p_e];
                            p_s = p_s + 1'b1;
                        end
                    end
                end
            end
        end
    end
    assign m_rep_valid = rep_found;
    assign m_rep_id    = e_id[ent(rep_slot, rep_seq)];

    // ---------------- output register ----------------
    // The handshakes, worked out only while a request is offered, an output
    // register is full or a held request may go: otherwise each is idle, the
    // value its default gives (out_free: no output held). (For simulation
    // cost: m_ready depends on the enclosing pipeline's inputs, so this
    // logic is in the input region, evaluated on every settle.)
    logic out_free, take_release, take_pass, take_hold, take_err, err_free;
    logic take_new;     // a tracked request gets a sequence number
    logic stall_now;    // s_* waits for a free slot or window space (counted)
    logic port_change;  // a handshake at s_*, m_* or m_err_*, or a stall counted
    always_comb begin
        out_free = 1'b1; err_free = 1'b1; take_release = 1'b0; s_ready = 1'b0;
        take_err = 1'b0; take_hold = 1'b0; take_pass = 1'b0; take_new = 1'b0;
        stall_now = 1'b0; port_change = 1'b0;
        if (s_valid || m_valid || m_err_valid || rel_found) begin
            out_free     = !m_valid || m_ready;
            err_free     = !m_err_valid || m_err_ready;
            take_release = rel_found && out_free;
            s_ready      = s_valid && (illegal ? err_free
                                       : has_slot && has_room && (must_hold || (out_free && !rel_found)));
            take_err     = s_valid && s_ready && illegal;
            take_hold    = s_valid && s_ready && !illegal && must_hold;
            take_pass    = s_valid && s_ready && !illegal && !must_hold;
            take_new     = (take_pass || take_hold) && s_track;
            stall_now    = s_valid && !illegal && !(has_slot && has_room);
            port_change  = (s_valid && s_ready) || stall_now || take_release
                           || (m_valid && m_ready) || (m_err_valid && m_err_ready);
        end
    end
    assign in_hold      = take_hold;
    assign rel_take     = take_release;
    assign rel_id       = e_id[ent(rel_slot, rel_seq)];

    // ---------------- state update ----------------
    logic rep_take, event_now, retiring;
    logic [SLOTS-1:0] tidy_q, retiring_slots;
    assign rep_take  = rep_found && m_rep_ready;
    assign event_now = s_cpl_valid || take_new || take_release || rep_take;
    // Something to retire at a window's base, or an empty slot to free. A
    // slot's window changes only with an event that names the slot or a
    // tidy step of it, and its tidy_q bit is set in the cycle after either,
    // so there is nothing to find in a slot without it.
    always_comb begin
        retiring_slots = '0;
        if (tidy_q != '0)
            for (int i = 0; i < SLOTS; i++) begin
                // (the slot's own check only where its bit is set: usually one slot)
                if (tidy_q[i]) begin
                    if (slot_valid[i] && (base[(i)*SEQ_W +: SEQ_W] == next_seq[(i)*SEQ_W +: SEQ_W]
                                          || (e_rep[ent(SLOT_W'(i), base[(i)*SEQ_W +: SEQ_W])] && !e_held[ent(SLOT_W'(i), base[(i)*SEQ_W +: SEQ_W])])))
                        retiring_slots[i] = 1'b1;
                end
            end
    end
    assign retiring = retiring_slots != '0;


    // this block's clock, gated by the cycles in which a register changes
    // (clock_gate.sv): a handshake at any of its ports, a completion, a
    // stall counted, a tidy step that retires. A request that waits at s_*
    // for the output register (m_ready low downstream) changes nothing, and
    // neither does a held request that may go but finds the output full:
    // those cycles are not clocked (a back-pressured pipeline spends most
    // of its cycles there). tidy_q is then left as it is, which is exact
    // (see busy below).
    logic gclk;
    clock_gate u_clock_gate (.clk, .en(rst || port_change || s_cpl_valid || rep_take || retiring), .gclk);

    always_ff @(posedge gclk) begin
        if (rst) begin
            m_valid <= 1'b0;
            m_err_valid <= 1'b0;
            slot_valid <= '0;
            held_any <= '0;
            unrep_any <= '0;
            tidy_q <= '0;
            stall_slots <= '0;
            stall_window <= '0;
            base <= '0; next_seq <= '0;
            roso_out <= '0; rdat_out <= '0; held_cnt <= '0; fence_held <= '0; unrep_done <= '0;
        end else begin
            // (written in every cycle: no shadow copy in the generated C++)
            stall_slots  <= stall_slots + 32'(stall_now && !has_slot);   // (tracked only)
            stall_window <= stall_window + 32'(stall_now && has_slot);
            if (m_err_valid && m_err_ready) m_err_valid <= 1'b0;
            if (take_err) begin
                m_err_valid <= 1'b1;
                m_err_id <= s_id;
                m_err_code <= (s_tag != TAG_NO || s_fence || s_comp_order) ? ERR_ORDER : ERR_MTU;
            end
            if (m_valid && m_ready) m_valid <= 1'b0;

            if (event_now) begin
                // completion of an issued request
                if (s_cpl_valid) e_done[ent(s_cpl_slot, s_cpl_seq)] <= 1'b1;

                // release (has priority for the output register)
                if (take_release) begin
                    e_held[ent(rel_slot, rel_seq)] <= 1'b0;
                    m_valid    <= 1'b1;
                    m_data     <= e_data[ent(rel_slot, rel_seq)];
                    m_id       <= e_id[ent(rel_slot, rel_seq)];
                    m_slot     <= rel_slot;
                    m_seq      <= rel_seq;
                    m_released <= 1'b1;
                    m_tracked  <= 1'b1;
                end

                // a new request: sequence number, window entry
                if (take_new) begin
                    e_data[new_e] <= LATE != 0 ? in_data(s_data, s_late_sel, s_late) : s_data;
                    e_id[new_e]   <= s_id;
                    e_attr[new_e] <= {s_mode == MODE_ROI, s_comp_order, s_fence, s_tag == TAG_SO, s_rdat, s_tag != TAG_NO};
                    e_held[new_e] <= take_hold;
                    e_done[new_e] <= 1'b0;
                    e_rep[new_e]  <= 1'b0;
                    next_seq[(in_slot)*SEQ_W +: SEQ_W] <= next_seq[(in_slot)*SEQ_W +: SEQ_W] + 1'b1;
                    if (!hit) begin
                        slot_valid[in_slot] <= 1'b1;
                        slot_queues[in_slot*QID_W +: QID_W] <= s_queue;
                    end
                end

                // report
                if (rep_take) e_rep[ent(rep_slot, rep_seq)] <= 1'b1;

                // counters: only the slots this cycle's events name change
                // (several events may name one slot: their steps add up)
                begin
                    logic [SLOTS*CW-1:0] roso_n, rdat_n, held_n, fence_n, unrep_n;
                    roso_n = roso_out; rdat_n = rdat_out; held_n = held_cnt; fence_n = fence_held; unrep_n = unrep_done;
                    if (s_cpl_valid) begin
                        if (e_attr[ent(s_cpl_slot, s_cpl_seq)][A_ROSO])
                            roso_n[(s_cpl_slot)*CW +: CW] = roso_n[(s_cpl_slot)*CW +: CW] - 1'b1;
                        if (e_attr[ent(s_cpl_slot, s_cpl_seq)][A_RDAT])
                            rdat_n[(s_cpl_slot)*CW +: CW] = rdat_n[(s_cpl_slot)*CW +: CW] - 1'b1;
                        unrep_n[(s_cpl_slot)*CW +: CW] = unrep_n[(s_cpl_slot)*CW +: CW] + 1'b1;
                    end
                    if (take_new) begin
                        if (s_tag != TAG_NO) roso_n[(in_slot)*CW +: CW] = roso_n[(in_slot)*CW +: CW] + 1'b1;
                        if (s_rdat) rdat_n[(in_slot)*CW +: CW] = rdat_n[(in_slot)*CW +: CW] + 1'b1;
                        if (take_hold) begin
                            held_n[(in_slot)*CW +: CW] = held_n[(in_slot)*CW +: CW] + 1'b1;
                            if (s_fence) fence_n[(in_slot)*CW +: CW] = fence_n[(in_slot)*CW +: CW] + 1'b1;
                        end
                    end
                    if (take_release) begin
                        held_n[(rel_slot)*CW +: CW] = held_n[(rel_slot)*CW +: CW] - 1'b1;
                        if (e_attr[ent(rel_slot, rel_seq)][A_FENCE])
                            fence_n[(rel_slot)*CW +: CW] = fence_n[(rel_slot)*CW +: CW] - 1'b1;
                    end
                    if (rep_take) unrep_n[(rep_slot)*CW +: CW] = unrep_n[(rep_slot)*CW +: CW] - 1'b1;
                    roso_out <= roso_n; rdat_out <= rdat_n; held_cnt <= held_n; fence_held <= fence_n; unrep_done <= unrep_n;
                    // the summaries of the slots whose counters moved
                    if (take_new && take_hold) held_any[in_slot] <= held_n[(in_slot)*CW +: CW] != '0;
                    if (take_release) held_any[rel_slot] <= held_n[(rel_slot)*CW +: CW] != '0;
                    if (s_cpl_valid) unrep_any[s_cpl_slot] <= unrep_n[(s_cpl_slot)*CW +: CW] != '0;
                    if (rep_take) unrep_any[rep_slot] <= unrep_n[(rep_slot)*CW +: CW] != '0;
                end
            end
            if (take_pass) begin
                m_valid    <= 1'b1;
                m_data     <= LATE != 0 ? in_data(s_data, s_late_sel, s_late) : s_data;
                m_id       <= s_id;
                m_slot     <= in_slot;
                m_seq      <= next_seq[(in_slot)*SEQ_W +: SEQ_W];
                m_released <= 1'b0;
                m_tracked  <= s_track;
            end

            // retire reported, unheld entries from each window's base and free
            // empty slots: only in the slots where there may be something to
            // retire (those the last cycle's events named, and those still
            // retiring)
            begin
                logic [SLOTS-1:0] tidy_n;
                tidy_n = retiring_slots;
                if (s_cpl_valid) tidy_n[s_cpl_slot] = 1'b1;
                if (take_new) tidy_n[in_slot] = 1'b1;
                if (take_release) tidy_n[rel_slot] = 1'b1;
                if (rep_take) tidy_n[rep_slot] = 1'b1;
                tidy_q <= tidy_n;
            end
            if (retiring) begin
                for (int i = 0; i < SLOTS; i++) begin
                    if (retiring_slots[i]) begin   // (the slot's own work only where its bit is set)
                        if (base[(i)*SEQ_W +: SEQ_W] != next_seq[(i)*SEQ_W +: SEQ_W])
                            base[(i)*SEQ_W +: SEQ_W] <= base[(i)*SEQ_W +: SEQ_W] + 1'b1;
                        else if (!(take_new && in_slot == SLOT_W'(i)))
                            slot_valid[i] <= 1'b0;
                    end
                end
            end
        end
    end

    // (retiring: the window's base still advances without an input). A tidy
    // step that finds nothing to retire (tidy_q set, !retiring) changes
    // nothing but tidy_q itself, so it does not keep the clock running:
    // tidy_q may stay set until the next clocked cycle, where its search
    // finds nothing either in those slots (every change to a slot's window
    // sets its bit for the cycle after), exactly as a cleared tidy_q would.
    assign busy = m_valid || m_err_valid || rel_found || m_rep_valid || retiring;

`ifdef UBSIM_COVER
    // ---------------- cover points (coverage builds only: scripts/coverage lists any never hit;
    // elsewhere their helper signals would be evaluated and traced every cycle) ----------------
    // Every arriving tracked request by service mode x tag x what it met:
    // passed, or held for a reason (several may hold at once; each is
    // covered). Relaxed modes: behind a held Fence (fence), a Fence waiting
    // for Reads/Atomics (rdat), SO under ROI waiting for RO/SO (roso).
    // Strict (RoCE RC): behind any held request (held), SO/Fence waiting for
    // Reads/Atomics (rdat). UNO: passed, or rejected and why.
    logic cv_new, cv_relaxed, cv_strict;
    logic cv_why_fence, cv_why_rdat, cv_why_roso, cv_why_held, cv_why_strict_rdat;
    assign cv_new      = s_valid && s_ready && s_track && hit;   // a queue with requests in flight
    assign cv_relaxed  = cv_new && !cfg_strict && !illegal;
    assign cv_strict   = cv_new && cfg_strict && !illegal;
    assign cv_why_fence       = fence_held[(in_slot)*CW +: CW] != '0;
    assign cv_why_rdat        = s_fence && rdat_out[(in_slot)*CW +: CW] != '0;
    assign cv_why_roso        = s_mode == MODE_ROI && s_tag == TAG_SO && roso_out[(in_slot)*CW +: CW] != '0;
    assign cv_why_held        = held_cnt[(in_slot)*CW +: CW] != '0;
    assign cv_why_strict_rdat = (s_tag == TAG_SO || s_fence) && rdat_out[(in_slot)*CW +: CW] != '0;
    localparam logic [1:0] MODE_ROT = 2'(ubsim_pkg::MODE_ROT), MODE_ROL = 2'(ubsim_pkg::MODE_ROL);
    localparam logic [1:0] TAG_RO = 2'(ubsim_pkg::TAG_RO);
    logic cv_unrep_any, cv_slot_freed;   // done and unreported somewhere; a queue gives its slot back
    always_comb begin
        cv_unrep_any = unrep_any != '0;
        cv_slot_freed = 1'b0;
        for (int i = 0; i < SLOTS; i++)
            if (tidy_q[i] && slot_valid[i] && base[(i)*SEQ_W +: SEQ_W] == next_seq[(i)*SEQ_W +: SEQ_W] && !(take_new && in_slot == SLOT_W'(i)))
                cv_slot_freed = 1'b1;
    end

    cp_roi_no_pass: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROI && s_tag == TAG_NO && take_pass);
    cp_roi_no_hold_fence: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROI && s_tag == TAG_NO && take_hold && cv_why_fence);
    cp_roi_no_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROI && s_tag == TAG_NO && take_hold && cv_why_rdat);
    cp_roi_ro_pass: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROI && s_tag == TAG_RO && take_pass);
    cp_roi_ro_hold_fence: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROI && s_tag == TAG_RO && take_hold && cv_why_fence);
    cp_roi_ro_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROI && s_tag == TAG_RO && take_hold && cv_why_rdat);
    cp_roi_so_pass: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROI && s_tag == TAG_SO && take_pass);
    cp_roi_so_hold_fence: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROI && s_tag == TAG_SO && take_hold && cv_why_fence);
    cp_roi_so_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROI && s_tag == TAG_SO && take_hold && cv_why_rdat);
    cp_rot_no_pass: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROT && s_tag == TAG_NO && take_pass);
    cp_rot_no_hold_fence: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROT && s_tag == TAG_NO && take_hold && cv_why_fence);
    cp_rot_no_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROT && s_tag == TAG_NO && take_hold && cv_why_rdat);
    cp_rot_ro_pass: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROT && s_tag == TAG_RO && take_pass);
    cp_rot_ro_hold_fence: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROT && s_tag == TAG_RO && take_hold && cv_why_fence);
    cp_rot_ro_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROT && s_tag == TAG_RO && take_hold && cv_why_rdat);
    cp_rot_so_pass: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROT && s_tag == TAG_SO && take_pass);
    cp_rot_so_hold_fence: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROT && s_tag == TAG_SO && take_hold && cv_why_fence);
    cp_rot_so_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROT && s_tag == TAG_SO && take_hold && cv_why_rdat);
    cp_rol_no_pass: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROL && s_tag == TAG_NO && take_pass);
    cp_rol_no_hold_fence: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROL && s_tag == TAG_NO && take_hold && cv_why_fence);
    cp_rol_no_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROL && s_tag == TAG_NO && take_hold && cv_why_rdat);
    cp_rol_ro_pass: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROL && s_tag == TAG_RO && take_pass);
    cp_rol_ro_hold_fence: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROL && s_tag == TAG_RO && take_hold && cv_why_fence);
    cp_rol_ro_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROL && s_tag == TAG_RO && take_hold && cv_why_rdat);
    cp_rol_so_pass: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROL && s_tag == TAG_SO && take_pass);
    cp_rol_so_hold_fence: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROL && s_tag == TAG_SO && take_hold && cv_why_fence);
    cp_rol_so_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && s_mode == MODE_ROL && s_tag == TAG_SO && take_hold && cv_why_rdat);
    cp_roi_so_hold_roso: cover property (@(posedge gclk) disable iff (rst) cv_relaxed && take_hold && cv_why_roso);
    cp_strict_no_pass: cover property (@(posedge gclk) disable iff (rst) cv_strict && s_tag == TAG_NO && take_pass);
    cp_strict_no_hold_held: cover property (@(posedge gclk) disable iff (rst) cv_strict && s_tag == TAG_NO && take_hold && cv_why_held);
    cp_strict_no_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_strict && s_tag == TAG_NO && take_hold && cv_why_strict_rdat);
    cp_strict_ro_pass: cover property (@(posedge gclk) disable iff (rst) cv_strict && s_tag == TAG_RO && take_pass);
    cp_strict_ro_hold_held: cover property (@(posedge gclk) disable iff (rst) cv_strict && s_tag == TAG_RO && take_hold && cv_why_held);
    cp_strict_ro_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_strict && s_tag == TAG_RO && take_hold && cv_why_strict_rdat);
    cp_strict_so_pass: cover property (@(posedge gclk) disable iff (rst) cv_strict && s_tag == TAG_SO && take_pass);
    cp_strict_so_hold_held: cover property (@(posedge gclk) disable iff (rst) cv_strict && s_tag == TAG_SO && take_hold && cv_why_held);
    cp_strict_so_hold_rdat: cover property (@(posedge gclk) disable iff (rst) cv_strict && s_tag == TAG_SO && take_hold && cv_why_strict_rdat);
    cp_uno_no_pass: cover property (@(posedge gclk) disable iff (rst) take_pass && s_track && s_mode == MODE_UNO);
    cp_uno_ro_reject: cover property (@(posedge gclk) disable iff (rst) take_err && s_tag == TAG_RO);
    cp_uno_so_reject: cover property (@(posedge gclk) disable iff (rst) take_err && s_tag == TAG_SO);
    cp_uno_fence_reject: cover property (@(posedge gclk) disable iff (rst) take_err && s_tag == TAG_NO && (s_fence || s_comp_order));
    cp_uno_mtu_reject: cover property (@(posedge gclk) disable iff (rst) take_err && s_tag == TAG_NO && !s_fence && !s_comp_order && oversize);
    // release, reports and the input's stalls

    cp_release_relaxed: cover property (@(posedge gclk) disable iff (rst) take_release && !cfg_strict);
    cp_release_strict: cover property (@(posedge gclk) disable iff (rst) take_release && cfg_strict);
    cp_release_and_new_hold: cover property (@(posedge gclk) disable iff (rst) take_release && take_hold);
    cp_report_order_wait: cover property (@(posedge gclk) disable iff (rst) cv_unrep_any && !rep_found);
    cp_stall_no_slot: cover property (@(posedge gclk) disable iff (rst) s_valid && !illegal && !has_slot);
    cp_stall_window_full: cover property (@(posedge gclk) disable iff (rst) s_valid && !illegal && has_slot && !has_room);
    cp_queue_slot_freed: cover property (@(posedge gclk) disable iff (rst) cv_slot_freed);
`endif
`ifndef SYNTHESIS
    initial assert (LATE_W >= 1 && LATE_LSB + LATE_W <= W) else $error("order_tracker: the late field lies outside s_data");
    initial assert (WIN <= (1 << (SEQ_W - 1)) && (1 << WIN_W) == WIN)
        else $error("order_tracker: WIN must be a power of two no larger than 2^(SEQ_W-1)");
    always_ff @(posedge gclk)
        if (!rst) assert (!s_valid || s_present) else $error("order_tracker: a request offered (s_valid) but not present (s_present)");
    always_ff @(posedge gclk) begin
        if (!rst && s_cpl_valid) begin
            assert (slot_valid[s_cpl_slot] && SEQ_W'(s_cpl_seq - base[(s_cpl_slot)*SEQ_W +: SEQ_W])
                    < SEQ_W'(next_seq[(s_cpl_slot)*SEQ_W +: SEQ_W] - base[(s_cpl_slot)*SEQ_W +: SEQ_W])
                    && !e_done[ent(s_cpl_slot, s_cpl_seq)] && !e_held[ent(s_cpl_slot, s_cpl_seq)])
                else $error("order_tracker: completion of slot %0d seq %0d that is not in flight",
                            s_cpl_slot, s_cpl_seq);
        end
    end
`endif
endmodule
