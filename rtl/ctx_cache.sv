// ctx_cache: the on-chip context cache of a controller: UB Jetty and
// TP-channel records, or RoCE QP contexts. This block is the tag store:
// which record each entry holds. Its data array is the send pipeline's
// context RAM (tp_ctx_lookup, psn_alloc_rmw), indexed by the entry number
// this block hands out with each response (m_entry*) and with each refill
// (m_refill_slot*, where the refilled record is to be written).
//
// Organisation: MAX_ENTRIES entries (build maximum); cfg_entries of them in
// use, in cfg_entries / cfg_ways sets (cfg_ways = 0: fully associative, one
// set). A key maps to set key % sets, and entry e belongs to set e % sets.
// Replacement is true LRU: every access writes a unique, increasing stamp
// into its entry; the victim is a free entry if the set has one, else the
// non-pending, unpinned entry with the oldest stamp.
//
// Pins: an entry whose record a granted request has yet to read must not
// be replaced under it. Every lookup pins the entries of its keys (a
// PIN_W-bit count per entry); the pipeline that made the request releases
// them on s_rel_* when it is done with the records. A pinned entry is
// never a victim; a lookup that would take a count past its maximum waits.
//
// Contract:
//  - s_*: one lookup per cycle, with one or two record keys (s_keys[k] =
//    key k present; a two-key lookup is Jetty + TP channel). The tag compare
//    is combinational. A lookup whose keys all hit, with no older response
//    waiting, is answered on m_* in the same cycle: zero added latency.
//  - A key that misses takes an entry, which turns pending, and its refill
//    request leaves on m_refill_* in the lookup cycle (slot = entry index):
//    the two records of one lookup refill concurrently. A key that finds its
//    record already pending joins that refill (a merge) without a new one.
//    At most MSHRS refills are outstanding.
//  - Responses leave in lookup order (a reorder buffer of ROB_DEPTH); a
//    response waits until every refill it needs has come back on s_fill_*.
//    A fill is taken every cycle (s_fill has no ready).
//  - s_ready is low while the lookup cannot be placed: reorder buffer full,
//    too few free MSHRs, no free or evictable entry (all pending), m_refill
//    not ready, a pin count at its maximum, or (same-cycle answer) m_ready
//    low. m_entry0/1: the entries of the response's keys.
//  - s_rel_*: one release per cycle, of the entries one response named.
// Counters count lookups, key hits, misses (refills issued), merges,
// evictions of valid records and fills.
//
// The tag search is one of two modules with identical ports, chosen by
// CAM_SEARCH: ctx_cache_tags_loop (0, the simulated form: loops behind a
// hint table) or ctx_cache_tags_cam (1, the hardware: one comparator per
// entry; what `ubsim area` synthesizes). Both pass the same cycle-by-cycle
// reference-model test (tests/test_ctx_cache.cpp).
module ctx_cache #(
    parameter int MAX_ENTRIES = 4096,
    parameter int KEY_W = 26,
    parameter int ID_W = 32,
    parameter int MSHRS = 8,
    parameter int ROB_DEPTH = 16,
    parameter int STAMP_W = 32,
    parameter int CNT_W = 48,
    parameter int CAM_SEARCH = 0,     // 1: the hardware tag search (ctx_cache_tags_cam)
    parameter int PIN_W = 8,          // granted requests per entry not yet done with it
    parameter int IDX_W = $clog2(MAX_ENTRIES),
    parameter int ENT_W = $clog2(MAX_ENTRIES + 1)
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [ENT_W-1:0] cfg_entries,
    input  logic [ENT_W-1:0] cfg_ways,

    input  logic             s_valid,
    output logic             s_ready,
    input  logic [ID_W-1:0]  s_id,
    input  logic [1:0]       s_keys,
    input  logic [KEY_W-1:0] s_key0,
    input  logic [KEY_W-1:0] s_key1,

    output logic             m_valid,
    input  logic             m_ready,
    output logic [ID_W-1:0]  m_id,
    output logic [IDX_W-1:0] m_entry0,         // entry of key 0's record
    output logic [IDX_W-1:0] m_entry1,         // entry of key 1's record

    input  logic             s_rel_valid,      // a request is done with the records of its response
    input  logic [1:0]       s_rel_keys,
    input  logic [IDX_W-1:0] s_rel_slot0,
    input  logic [IDX_W-1:0] s_rel_slot1,

    output logic [1:0]       m_refill_valid,   // one refill request per missing key
    input  logic             m_refill_ready,
    output logic [KEY_W-1:0] m_refill_key0,
    output logic [KEY_W-1:0] m_refill_key1,
    output logic [IDX_W-1:0] m_refill_slot0,
    output logic [IDX_W-1:0] m_refill_slot1,

    input  logic             s_fill_valid,
    input  logic [IDX_W-1:0] s_fill_slot,

    // What the lookup presented on s_* does if it is taken this cycle (for
    // statistics and for checking against a reference model).
    output logic             lk_fire,
    output logic [1:0]       lk_hit,
    output logic [1:0]       lk_merge,
    output logic [1:0]       lk_miss,
    output logic [1:0]       lk_evict,
    output logic [KEY_W-1:0] lk_evict_key0,
    output logic [KEY_W-1:0] lk_evict_key1,

    output logic             busy,             // a response is ready to leave
    output logic [$clog2(MSHRS+1)-1:0] mshr_used,
    output logic [CNT_W-1:0] cnt_lookups,
    output logic [CNT_W-1:0] cnt_hits,
    output logic [CNT_W-1:0] cnt_misses,
    output logic [CNT_W-1:0] cnt_merges,
    output logic [CNT_W-1:0] cnt_evictions,
    output logic [CNT_W-1:0] cnt_fills
);
    localparam int MW = $clog2(MSHRS + 1);
    localparam int RW = $clog2(ROB_DEPTH);
    localparam int RCW = $clog2(ROB_DEPTH + 1);

    logic [MAX_ENTRIES-1:0] tag_valid;             // record on chip
    logic [MAX_ENTRIES-1:0] tag_pend;              // refill in flight
    logic [STAMP_W-1:0]     stamp_ctr;
    logic [MAX_ENTRIES-1:0] tag_pin;               // pinned (pin_cnt valid only where set)
    logic [PIN_W-1:0]       pin_cnt [MAX_ENTRIES];

    // The block's two parts gate their clocks by their own activity
    // (clock_gate.sv): the tags, their stamps, the reorder buffer and the
    // counters change only with a lookup taken, a fill or a response
    // leaving (and are checked with a lookup offered); the pins with a
    // lookup taken or a release. A cycle with only a release (a request
    // done with its records) clocks the pins alone.
    logic main_gclk, pin_gclk;

    // The configuration, loaded at reset (the cfg_* inputs are held from
    // before the reset on) on a clock of its own that runs only then:
    // registered, so that the tag search's set geometry (a division) is not
    // logic of the inputs, evaluated by a simulator in every cycle.
    logic             cfg_gclk;
    logic [ENT_W-1:0] entries_q, ways_q;
    clock_gate u_cfg_gate (.clk, .en(rst), .gclk(cfg_gclk));
    always_ff @(posedge cfg_gclk) begin
        entries_q <= cfg_entries;
        ways_q    <= cfg_ways;
    end

    // ---------------- tag search (combinational) ----------------
    logic [1:0]       found, pend, evicts, can_go, need;
    logic [IDX_W-1:0] choice [2];
    logic [IDX_W-1:0] choice0, choice1;
    assign choice[0] = choice0;
    assign choice[1] = choice1;
    if (CAM_SEARCH != 0) begin : g_cam
        ctx_cache_tags_cam #(.MAX_ENTRIES(MAX_ENTRIES), .KEY_W(KEY_W), .STAMP_W(STAMP_W)) u_tags (
            .clk(main_gclk), .cfg_entries(entries_q), .cfg_ways(ways_q), .tag_valid, .tag_pend, .tag_pin,
            .s_valid, .s_keys, .s_key0, .s_key1,
            .found, .pend, .evicts, .can_go, .choice0, .choice1,
            .evict_key0(lk_evict_key0), .evict_key1(lk_evict_key1),
            .upd_fire(lk_fire), .upd_need(need), .upd_stamp(stamp_ctr));
    end else begin : g_loop
        ctx_cache_tags_loop #(.MAX_ENTRIES(MAX_ENTRIES), .KEY_W(KEY_W), .STAMP_W(STAMP_W)) u_tags (
            .clk(main_gclk), .cfg_entries(entries_q), .cfg_ways(ways_q), .tag_valid, .tag_pend, .tag_pin,
            .s_valid, .s_keys, .s_key0, .s_key1,
            .found, .pend, .evicts, .can_go, .choice0, .choice1,
            .evict_key0(lk_evict_key0), .evict_key1(lk_evict_key1),
            .upd_fire(lk_fire), .upd_need(need), .upd_stamp(stamp_ctr));
    end
    assign need = {s_valid && s_keys[1] && !found[1], s_valid && s_keys[0] && !found[0]};

    logic [MW:0] need_n;
    logic        mshr_ok, all_hit, place_ok;
    assign need_n  = (MW+1)'(need[0]) + (MW+1)'(need[1]);
    assign mshr_ok = (MW+1)'(mshr_used) + need_n <= (MW+1)'(MSHRS);
    assign all_hit = (!s_keys[0] || (found[0] && !pend[0])) && (!s_keys[1] || (found[1] && !pend[1]));
    logic pin_full;   // a key's entry cannot count one more request
    assign pin_full = (s_keys[0] && tag_pin[choice0] && pin_cnt[choice0] == '1)
                      || (s_keys[1] && tag_pin[choice1] && pin_cnt[choice1] == '1);
    assign place_ok = s_valid && can_go[0] && can_go[1] && mshr_ok && !pin_full
                      && (need == 2'b00 || m_refill_ready);

    // ---------------- reorder buffer of responses ----------------
    logic [ID_W-1:0]  rob_id   [ROB_DEPTH];
    // bit 2*i+k: entry i still waits for the refill of slot rob_s[i][k] (one
    // vector, so a cycle's update writes one register word in simulation,
    // not a flag per bit)
    logic [2*ROB_DEPTH-1:0] rob_p;
    logic [IDX_W-1:0] rob_s    [ROB_DEPTH][2];
    logic [RW-1:0]    rob_head, rob_tail;
    logic [RCW-1:0]   rob_count;

    function automatic logic fill_now(input logic [IDX_W-1:0] slot);
        fill_now = 1'b0;
        if (s_fill_valid) fill_now = s_fill_slot == slot;   // (the compare only with a fill)
    endfunction

    logic head_ready, bypass;
    assign head_ready = rob_count != '0
                        && (!rob_p[{rob_head, 1'b0}] || fill_now(rob_s[rob_head][0]))
                        && (!rob_p[{rob_head, 1'b1}] || fill_now(rob_s[rob_head][1]));
    assign bypass  = rob_count == '0 && all_hit;
    assign s_ready = place_ok && (bypass ? m_ready : rob_count != RCW'(ROB_DEPTH));
    assign m_valid = head_ready || (place_ok && bypass);
    assign m_id    = head_ready ? rob_id[rob_head] : s_id;
    assign m_entry0 = head_ready ? rob_s[rob_head][0] : choice0;
    assign m_entry1 = head_ready ? rob_s[rob_head][1] : choice1;
    assign busy    = rob_count != '0 && !rob_p[{rob_head, 1'b0}] && !rob_p[{rob_head, 1'b1}];

    assign m_refill_valid = (s_valid && s_ready) ? need : 2'b00;
    assign m_refill_key0  = s_key0;
    assign m_refill_key1  = s_key1;
    assign m_refill_slot0 = choice0;
    assign m_refill_slot1 = choice1;

    assign lk_fire  = s_valid && s_ready;
    assign lk_hit   = s_keys & found & ~pend;
    assign lk_merge = s_keys & found & pend;
    assign lk_miss  = need;
    assign lk_evict = s_keys & evicts;

    // ---------------- state update ----------------
    logic pop;
    assign pop = head_ready && m_ready;
    clock_gate u_main_gate (.clk, .en(rst || s_valid || s_fill_valid || pop), .gclk(main_gclk));
    clock_gate u_pin_gate (.clk, .en(rst || lk_fire || s_rel_valid), .gclk(pin_gclk));

    always_ff @(posedge main_gclk) begin
        if (rst) begin
            tag_valid <= '0;
            tag_pend  <= '0;
            rob_p     <= '0;
            stamp_ctr <= '0;
            mshr_used <= '0;
            rob_head <= '0; rob_tail <= '0; rob_count <= '0;
            cnt_lookups <= '0; cnt_hits <= '0; cnt_misses <= '0;
            cnt_merges <= '0; cnt_evictions <= '0; cnt_fills <= '0;
        end else begin
            if (s_fill_valid) begin
                tag_valid[s_fill_slot] <= 1'b1;
                tag_pend[s_fill_slot]  <= 1'b0;
                for (int i = 0; i < ROB_DEPTH; i++)
                    for (int k = 0; k < 2; k++)
                        if (rob_s[i][k] == s_fill_slot) rob_p[2*i+k] <= 1'b0;
            end
            mshr_used <= MW'((MW+1)'(mshr_used) + (lk_fire ? need_n : '0) - (MW+1)'(s_fill_valid));
            if (lk_fire) begin
                for (int k = 0; k < 2; k++) begin
                    if (need[k]) begin
                        tag_valid[choice[k]] <= 1'b0;
                        tag_pend[choice[k]]  <= 1'b1;
                    end
                end
                if (!bypass) begin
                    rob_id[rob_tail] <= s_id;
                    for (int k = 0; k < 2; k++) begin
                        rob_s[rob_tail][k] <= choice[k];
                        // waits for a refill unless that refill lands this very cycle
                        rob_p[2*rob_tail + k] <= s_keys[k] && (need[k] || (pend[k] && !fill_now(choice[k])));
                    end
                end
            end
            // written in every cycle: a register assigned on every path of its
            // block, and read by no other register's update, needs no shadow
            // copy in the C++ that Verilator 5.006 generates (the counters,
            // rob_head; rob_tail and stamp_ctr, which the ROB's and the tags'
            // writes read, keep theirs)
            stamp_ctr     <= stamp_ctr + (lk_fire ? STAMP_W'(2) : '0);
            rob_tail      <= rob_tail + RW'(lk_fire && !bypass);
            rob_head      <= rob_head + RW'(pop);
            cnt_fills     <= cnt_fills + CNT_W'(s_fill_valid);
            cnt_lookups   <= cnt_lookups + CNT_W'(lk_fire);
            cnt_hits      <= cnt_hits + (lk_fire ? CNT_W'(lk_hit[0]) + CNT_W'(lk_hit[1]) : '0);
            cnt_merges    <= cnt_merges + (lk_fire ? CNT_W'(lk_merge[0]) + CNT_W'(lk_merge[1]) : '0);
            cnt_misses    <= cnt_misses + (lk_fire ? CNT_W'(need[0]) + CNT_W'(need[1]) : '0);
            cnt_evictions <= cnt_evictions + (lk_fire ? CNT_W'(lk_evict[0]) + CNT_W'(lk_evict[1]) : '0);
            rob_count <= rob_count + RCW'(lk_fire && !bypass) - RCW'(pop);
        end
    end

    // ---------------- pins: +1 per key of a taken lookup, -1 per released slot ----------------
    logic             pin_en   [4];
    logic [IDX_W-1:0] pin_addr [4];
    assign pin_en[0] = lk_fire && s_keys[0];
    assign pin_en[1] = lk_fire && s_keys[1];
    assign pin_en[2] = s_rel_valid && s_rel_keys[0];
    assign pin_en[3] = s_rel_valid && s_rel_keys[1];
    assign pin_addr[0] = choice0;
    assign pin_addr[1] = choice1;
    assign pin_addr[2] = s_rel_slot0;
    assign pin_addr[3] = s_rel_slot1;
    // the count of entry a after this cycle (several operations may name it)
    function automatic logic [PIN_W+1:0] pin_next(input logic [IDX_W-1:0] a);
        logic [PIN_W+1:0] n;
        n = tag_pin[a] ? (PIN_W+2)'(pin_cnt[a]) : '0;
        // (each operation's compare only where it is enabled)
        for (int k = 0; k < 2; k++) begin
            if (pin_en[k]) begin
                if (pin_addr[k] == a) n = n + 1'b1;
            end
        end
        for (int k = 2; k < 4; k++) begin
            if (pin_en[k]) begin
                if (pin_addr[k] == a) n = n - 1'b1;
            end
        end
        pin_next = n;
    endfunction
    // The counts after this cycle, computed apart from the update so the
    // update reads no pin register: in simulation the registers are then
    // written in place, not through a copy of all of tag_pin every cycle.
    localparam int PN_W = PIN_W + 2;
    logic [4*PN_W-1:0] pin_after;   // operation k's entry: bits k*PN_W +: PN_W
    always_comb begin
        pin_after = '0;
        for (int k = 0; k < 4; k++)
            if (pin_en[k]) pin_after[k*PN_W +: PN_W] = pin_next(pin_addr[k]);
    end
    always_ff @(posedge pin_gclk) begin
        if (rst) begin
            tag_pin <= '0;
        end else begin
            for (int k = 0; k < 4; k++) begin
                if (pin_en[k]) begin
                    pin_cnt[pin_addr[k]] <= PIN_W'(pin_after[k*PN_W +: PN_W]);
                    tag_pin[pin_addr[k]] <= pin_after[k*PN_W +: PN_W] != '0;
                end
            end
        end
    end

`ifdef UBSIM_COVER
    // ---------------- cover points (coverage builds only: scripts/coverage lists any never hit;
    // elsewhere their helper signals would be evaluated and traced every cycle) ----------------
    // A placed lookup's keys: hit, miss (refill issued), merge (joins a refill
    // in flight), eviction of a valid record; how it was answered; and every
    // reason the input waits (s_ready low).
    cp_hit_key0: cover property (@(posedge clk) disable iff (rst) lk_fire && lk_hit[0]);
    cp_hit_key1: cover property (@(posedge clk) disable iff (rst) lk_fire && lk_hit[1]);
    cp_miss_key0: cover property (@(posedge clk) disable iff (rst) lk_fire && need[0]);
    cp_miss_key1: cover property (@(posedge clk) disable iff (rst) lk_fire && need[1]);
    cp_miss_both_keys: cover property (@(posedge clk) disable iff (rst) lk_fire && need == 2'b11);
    cp_merge_key0: cover property (@(posedge clk) disable iff (rst) lk_fire && lk_merge[0]);
    cp_merge_key1: cover property (@(posedge clk) disable iff (rst) lk_fire && lk_merge[1]);
    cp_evict_key0: cover property (@(posedge clk) disable iff (rst) lk_fire && lk_evict[0]);
    cp_evict_key1: cover property (@(posedge clk) disable iff (rst) lk_fire && lk_evict[1]);
    cp_evict_in_set: cover property (@(posedge clk) disable iff (rst) lk_fire && lk_evict != 2'b00 && ways_q != '0);
    cp_answer_same_cycle: cover property (@(posedge clk) disable iff (rst) lk_fire && bypass);
    cp_answer_behind_older: cover property (@(posedge clk) disable iff (rst) lk_fire && all_hit && !bypass);
    cp_answer_after_fill: cover property (@(posedge clk) disable iff (rst) pop && (rob_p[{rob_head, 1'b0}] || rob_p[{rob_head, 1'b1}]));
    cp_wait_mshr_full: cover property (@(posedge clk) disable iff (rst) s_valid && !mshr_ok);
    cp_wait_rob_full: cover property (@(posedge clk) disable iff (rst) s_valid && rob_count == RCW'(ROB_DEPTH));
    cp_wait_no_victim: cover property (@(posedge clk) disable iff (rst) s_valid && !(can_go[0] && can_go[1]));
    cp_wait_pin_full: cover property (@(posedge clk) disable iff (rst) s_valid && pin_full);
    cp_wait_refill_port: cover property (@(posedge clk) disable iff (rst) s_valid && need != 2'b00 && !m_refill_ready);
    cp_wait_answer_port: cover property (@(posedge clk) disable iff (rst) place_ok && bypass && !m_ready);
    cp_release: cover property (@(posedge clk) disable iff (rst) s_rel_valid);
`endif
`ifndef SYNTHESIS
    // (each checked on its part's clock: in every cycle in which what it
    // checks can happen)
    always_ff @(posedge pin_gclk) begin
        if (!rst) begin
            for (int k = 2; k < 4; k++) begin
                if (pin_en[k]) begin
                    assert (!pin_after[k*PN_W + PIN_W + 1])
                        else $error("ctx_cache: release of entry %0d, which no request holds", pin_addr[k]);
                end
            end
            if (s_rel_valid) begin
                assert (s_rel_keys[0] && (!s_rel_keys[1] || s_rel_slot0 != s_rel_slot1))
                    else $error("ctx_cache: a release names slot 0 and two distinct slots");
            end
        end
    end
    // the geometry is held from before the reset on: checked once, when the reset is released
    always @(negedge rst) begin
        assert (cfg_entries != '0 && int'(cfg_entries) <= MAX_ENTRIES)
            else $error("ctx_cache: cfg_entries %0d outside 1..%0d", cfg_entries, MAX_ENTRIES);
        assert (cfg_ways == '0 || (cfg_ways >= 2 && cfg_entries % cfg_ways == '0
                && ((cfg_entries / cfg_ways) & ((cfg_entries / cfg_ways) - 1'b1)) == '0))
            else $error("ctx_cache: cfg_ways %0d: need 0 or >= 2 ways and a power-of-two set count",
                        cfg_ways);
    end
    always_ff @(posedge main_gclk) begin
        if (!rst) begin
            if (s_valid) begin
                assert (s_keys[0] && (!s_keys[1] || s_key0 != s_key1))
                    else $error("ctx_cache: a lookup needs key 0 and two distinct keys");
            end
            if (s_fill_valid) begin
                assert (tag_pend[s_fill_slot] && mshr_used != '0)
                    else $error("ctx_cache: fill for slot %0d that has no refill in flight", s_fill_slot);
            end
            // (the counter moves only with a lookup: checked where one fires, before it moves)
            if (lk_fire)
                assert (stamp_ctr != '1 && stamp_ctr != '1 - 1'b1) else $error("ctx_cache: LRU stamp counter about to wrap");
        end
    end
`endif
endmodule
