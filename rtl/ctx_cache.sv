// ctx_cache: the on-chip context cache of a controller: UB Jetty and
// TP-channel records, or RoCE QP contexts. Only the tag store is modelled:
// which records are on chip. The record bytes live in the pipelines'
// context RAMs (tp_lookup, psn_alloc_rmw).
//
// Organisation: MAX_ENTRIES entries (build maximum); cfg_entries of them in
// use, in cfg_entries / cfg_ways sets (cfg_ways = 0: fully associative, one
// set). A key maps to set key % sets, and entry e belongs to set e % sets.
// Replacement is true LRU: every access writes a unique, increasing stamp
// into its entry; the victim is a free entry if the set has one, else the
// non-pending entry with the oldest stamp.
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
//    not ready, or (same-cycle answer) m_ready low.
// Counters count lookups, key hits, misses (refills issued), merges,
// evictions of valid records and fills.
//
// Two descriptions of the same lookup, selected at build time:
//  - default (simulation): the tag store as arrays, searched by loops that
//    run only for a key that needs them, behind a hint table that spares
//    the simulator the compare of a large CAM when the record is there;
//  - CTX_CACHE_PARALLEL_SEARCH (defined under SYNTHESIS): one register pair
//    and one comparator per entry (generate), one-hot matches encoded by OR
//    chains, LRU by a compare chain: the hardware that scripts/area and
//    `ubsim area` synthesize. tests/test_ctx_cache.cpp runs the same
//    cycle-by-cycle reference check on a verilated build of this form.
`ifdef SYNTHESIS
`define CTX_CACHE_PARALLEL_SEARCH
`endif
module ctx_cache #(
    parameter int MAX_ENTRIES = 4096,
    parameter int KEY_W = 26,
    parameter int ID_W = 32,
    parameter int MSHRS = 8,
    parameter int ROB_DEPTH = 16,
    parameter int STAMP_W = 32,
    parameter int CNT_W = 48,
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

    // ---------------- tag store ----------------
`ifndef CTX_CACHE_PARALLEL_SEARCH
    logic [KEY_W-1:0]   tag_key   [MAX_ENTRIES];   // parallel form: g_entry[e].key_q
    logic [STAMP_W-1:0] tag_stamp [MAX_ENTRIES];   // parallel form: g_entry[e].stamp_q
`endif
    logic [MAX_ENTRIES-1:0] tag_valid;             // record on chip
    logic [MAX_ENTRIES-1:0] tag_pend;              // refill in flight
    logic [STAMP_W-1:0] stamp_ctr;

    // Set geometry: entry e belongs to set e % sets (entries interleave).
    logic [IDX_W-1:0] set_mask;
    logic [ENT_W-1:0] sets;
    always_comb begin
        sets = (cfg_ways == '0) ? ENT_W'(1) : cfg_entries / cfg_ways;
        set_mask = IDX_W'(sets - 1'b1);
    end

    // ---------------- lookup (combinational) ----------------
    // The tag compare of every entry of the key's set (a CAM when fully
    // associative); -1 (found = 0) when the record is not present.
    typedef struct packed {
        logic             found;
        logic [IDX_W-1:0] idx;
    } match_t;

    // The entry a missing key takes in its set: the lowest-numbered free
    // one, else the least recently used one (oldest stamp) whose refill is
    // not in flight; `skip` excludes the entry key 0 of the same lookup uses.
    typedef struct packed {
        logic             ok;
        logic             evicts;
        logic [IDX_W-1:0] idx;
    } victim_t;

    match_t           m0, m1;
    victim_t          v0, v1;
    logic [IDX_W-1:0] choice  [2];

`ifndef CTX_CACHE_PARALLEL_SEARCH
    logic [ENT_W-1:0] ways;   // entries a search walks
    assign ways = (cfg_ways == '0) ? cfg_entries : cfg_ways;


    // Hint table: the entry each key (hashed) was last placed in. A record is
    // present in at most one entry, so when the hinted entry holds the key the
    // compare of the other entries cannot match: the result is the full
    // compare's. It only spares the simulation the scan of a large CAM when
    // the record is there; a stale hint falls back to the scan.
    localparam int HINT_W = 12;
    logic [IDX_W-1:0] hint [2**HINT_W];

    function automatic logic [HINT_W-1:0] hint_of(input logic [KEY_W-1:0] key);
        hint_of = HINT_W'(key) ^ HINT_W'(key >> HINT_W) ^ HINT_W'(key >> (KEY_W - 2) << (HINT_W - 2));
    endfunction

    // (packed-vector results: yosys 0.23 reads neither `return` nor struct-typed functions)
    function automatic logic [IDX_W:0] match(input logic [KEY_W-1:0] key);
        logic             found;
        logic [IDX_W-1:0] e, idx;
        found = 1'b0;
        idx = '0;
        e = hint[hint_of(key)];
        if (tag_key[e] == key && (tag_valid[e] || tag_pend[e])) begin
            found = 1'b1;
            idx = e;
        end else begin
            e = IDX_W'(key) & set_mask;
            for (int i = 0; i < MAX_ENTRIES; i++) begin
                if (i < 32'(ways) && !found) begin
                    // present = on chip or being refilled (the key compare first)
                    if (tag_key[e] == key) begin
                        if (tag_valid[e] || tag_pend[e]) begin found = 1'b1; idx = e; end
                    end
                    e = e + IDX_W'(sets);
                end
            end
        end
        match = {found, idx};
    endfunction


    /* verilator lint_off UNUSEDSIGNAL */  // only the set-index bits of the key
    function automatic logic [IDX_W+1:0] victim(input logic [KEY_W-1:0] key, input logic skip_en,
                                                input logic [IDX_W-1:0] skip);
        logic free_found, evicts;
        logic [IDX_W-1:0] e, free_idx, idx;
        logic [STAMP_W-1:0] vict_stamp;
        free_found = 1'b0;
        evicts = 1'b0;
        free_idx = '0;
        idx = '0;
        vict_stamp = '1;
        e = IDX_W'(key) & set_mask;
        for (int i = 0; i < MAX_ENTRIES; i++) begin
            if (i < 32'(ways) && !free_found) begin   // a free entry wins
                if (!(skip_en && e == skip)) begin
                    if (!tag_valid[e] && !tag_pend[e]) begin
                        free_found = 1'b1; free_idx = e;
                    end else if (tag_valid[e] && !tag_pend[e]) begin
                        if (!evicts || tag_stamp[e] < vict_stamp) begin
                            evicts = 1'b1; idx = e; vict_stamp = tag_stamp[e];
                        end
                    end
                end
                e = e + IDX_W'(sets);
            end
        end
        if (free_found) begin evicts = 1'b0; idx = free_idx; end
        victim = {free_found || evicts, evicts, idx};   // {ok, evicts, idx}
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    always_comb begin
        // Searches written as statements under their conditions, so a key
        // that hits never pays for the victim search in simulation.
        m0 = '0; v0 = '0; m1 = '0; v1 = '0;
        if (s_valid && s_keys[0]) m0 = match(s_key0);
        if (s_valid && s_keys[0] && !m0.found) v0 = victim(s_key0, 1'b0, '0);
        choice[0] = m0.found ? m0.idx : v0.idx;
        if (s_valid && s_keys[1]) m1 = match(s_key1);
        // key 1's record in the entry key 0 is about to take counts as absent
        if (s_keys[0] && !m0.found && m1.found && m1.idx == choice[0]) m1 = '0;
        if (s_valid && s_keys[1] && !m1.found) v1 = victim(s_key1, s_keys[0], choice[0]);
        choice[1] = m1.found ? m1.idx : v1.idx;
    end
`else
    // ---- parallel form: per entry registers, comparators and chains ----
    // Chain node e+1 carries the result over entries 0..e: OR of the indices
    // of matching (h*) or first-free (f*) entries, both one-hot; the oldest
    // evictable entry so far (c*), a strictly older stamp replacing it, so
    // the lowest index wins a tie, as in the sequential search.
    localparam int N = MAX_ENTRIES;
    // (split_var: the chains are acyclic bit by bit, Verilator orders them)
    /* verilator lint_off UNUSEDSIGNAL */   // the last node's stamp
    logic [N-1:0] hit0, hit1, free0, free1, first0, first1;
    logic [N:0] c0_ok /*verilator split_var*/, c1_ok /*verilator split_var*/;
    logic [(N+1)*STAMP_W-1:0] c0_stamp /*verilator split_var*/, c1_stamp /*verilator split_var*/;
    logic [(N+1)*IDX_W-1:0] c0_idx /*verilator split_var*/, c1_idx /*verilator split_var*/;
    logic [(N+1)*IDX_W-1:0] h0_idx /*verilator split_var*/, h1_idx /*verilator split_var*/;
    logic [(N+1)*IDX_W-1:0] f0_idx /*verilator split_var*/, f1_idx /*verilator split_var*/;
    /* verilator lint_on UNUSEDSIGNAL */
    assign c0_ok[0] = 1'b0;
    assign c1_ok[0] = 1'b0;
    assign c0_stamp[STAMP_W-1:0] = '1;
    assign c1_stamp[STAMP_W-1:0] = '1;
    assign c0_idx[IDX_W-1:0] = '0;
    assign c1_idx[IDX_W-1:0] = '0;
    assign h0_idx[IDX_W-1:0] = '0;
    assign h1_idx[IDX_W-1:0] = '0;
    assign f0_idx[IDX_W-1:0] = '0;
    assign f1_idx[IDX_W-1:0] = '0;
    assign first0 = free0 & ~(free0 - 1'b1);   // the lowest free entry, one-hot
    assign first1 = free1 & ~(free1 - 1'b1);
`ifndef SYNTHESIS
    // the key in the chosen entry (observability)
    logic [(N+1)*KEY_W-1:0] ek0 /*verilator split_var*/, ek1 /*verilator split_var*/;
    assign ek0[KEY_W-1:0] = '0;
    assign ek1[KEY_W-1:0] = '0;
`endif
    for (genvar e = 0; e < N; e++) begin : g_entry
        localparam logic [IDX_W-1:0] E = IDX_W'(e);
        logic [KEY_W-1:0]   key_q;
        logic [STAMP_W-1:0] stamp_q;
        logic used, in0, in1, cand1, old, take0, take1;
        always_ff @(posedge clk) begin
            if (lk_fire && s_keys[0] && choice[0] == E) begin
                stamp_q <= stamp_ctr;
                if (need[0]) key_q <= s_key0;
            end
            if (lk_fire && s_keys[1] && choice[1] == E) begin
                stamp_q <= stamp_ctr + 1'b1;
                if (need[1]) key_q <= s_key1;
            end
        end
        assign used  = (ENT_W+1)'(e) < (ENT_W+1)'(cfg_entries);
        assign in0   = used && (E & set_mask) == (IDX_W'(s_key0) & set_mask);
        assign in1   = used && (E & set_mask) == (IDX_W'(s_key1) & set_mask);
        assign cand1 = in1 && !(s_keys[0] && choice0 == E);   // never the entry key 0 takes
        assign old   = tag_valid[e] && !tag_pend[e];
        assign hit0[e]  = in0 && key_q == s_key0 && (tag_valid[e] || tag_pend[e]);
        assign hit1[e]  = in1 && key_q == s_key1 && (tag_valid[e] || tag_pend[e]);
        assign free0[e] = in0 && !tag_valid[e] && !tag_pend[e];
        assign free1[e] = cand1 && !tag_valid[e] && !tag_pend[e];
        assign take0 = in0 && old && (!c0_ok[e] || stamp_q < c0_stamp[e*STAMP_W +: STAMP_W]);
        assign take1 = cand1 && old && (!c1_ok[e] || stamp_q < c1_stamp[e*STAMP_W +: STAMP_W]);
        assign c0_ok[e+1] = c0_ok[e] || take0;
        assign c1_ok[e+1] = c1_ok[e] || take1;
        assign c0_stamp[(e+1)*STAMP_W +: STAMP_W] = take0 ? stamp_q : c0_stamp[e*STAMP_W +: STAMP_W];
        assign c1_stamp[(e+1)*STAMP_W +: STAMP_W] = take1 ? stamp_q : c1_stamp[e*STAMP_W +: STAMP_W];
        assign c0_idx[(e+1)*IDX_W +: IDX_W] = take0 ? E : c0_idx[e*IDX_W +: IDX_W];
        assign c1_idx[(e+1)*IDX_W +: IDX_W] = take1 ? E : c1_idx[e*IDX_W +: IDX_W];
        assign h0_idx[(e+1)*IDX_W +: IDX_W] = h0_idx[e*IDX_W +: IDX_W] | (hit0[e] ? E : '0);
        assign h1_idx[(e+1)*IDX_W +: IDX_W] = h1_idx[e*IDX_W +: IDX_W] | (hit1[e] ? E : '0);
        assign f0_idx[(e+1)*IDX_W +: IDX_W] = f0_idx[e*IDX_W +: IDX_W] | (first0[e] ? E : '0);
        assign f1_idx[(e+1)*IDX_W +: IDX_W] = f1_idx[e*IDX_W +: IDX_W] | (first1[e] ? E : '0);
`ifndef SYNTHESIS
        assign ek0[(e+1)*KEY_W +: KEY_W] = ek0[e*KEY_W +: KEY_W] | (choice[0] == E ? key_q : '0);
        assign ek1[(e+1)*KEY_W +: KEY_W] = ek1[e*KEY_W +: KEY_W] | (choice[1] == E ? key_q : '0);
`endif
    end
    // key 0, then key 1 (whose victim depends on key 0's choice)
    logic [IDX_W-1:0] choice0, choice1;
    assign choice[0] = choice0;
    assign choice[1] = choice1;
    always_comb begin
        m0 = '0; v0 = '0;
        if (s_valid && s_keys[0]) m0 = {hit0 != '0, h0_idx[N*IDX_W +: IDX_W]};
        if (s_valid && s_keys[0] && !m0.found)
            v0 = (free0 != '0) ? {1'b1, 1'b0, f0_idx[N*IDX_W +: IDX_W]} : {c0_ok[N], c0_ok[N], c0_idx[N*IDX_W +: IDX_W]};
        choice0 = m0.found ? m0.idx : v0.idx;
    end
    always_comb begin
        m1 = '0; v1 = '0;
        if (s_valid && s_keys[1]) m1 = {hit1 != '0, h1_idx[N*IDX_W +: IDX_W]};
        if (s_keys[0] && !m0.found && m1.found && m1.idx == choice0) m1 = '0;
        if (s_valid && s_keys[1] && !m1.found)
            v1 = (free1 != '0) ? {1'b1, 1'b0, f1_idx[N*IDX_W +: IDX_W]} : {c1_ok[N], c1_ok[N], c1_idx[N*IDX_W +: IDX_W]};
        choice1 = m1.found ? m1.idx : v1.idx;
    end
`endif

    logic             found   [2];
    logic             pend    [2];
    logic             can_go  [2];
    logic             evicts  [2];
    logic [1:0]       need;          // key misses: allocates and refills
    always_comb begin
        found[0] = m0.found;
        found[1] = m1.found;
        pend[0]  = m0.found && tag_pend[m0.idx];
        pend[1]  = m1.found && tag_pend[m1.idx];
        evicts[0] = !m0.found && v0.evicts;
        evicts[1] = !m1.found && v1.evicts;
        can_go[0] = !s_keys[0] || m0.found || v0.ok;
        can_go[1] = !s_keys[1] || m1.found || v1.ok;
        need[0] = s_valid && s_keys[0] && !m0.found;
        need[1] = s_valid && s_keys[1] && !m1.found;
    end

    logic [MW:0] need_n;
    logic        mshr_ok, all_hit, place_ok;
    assign need_n  = (MW+1)'(need[0]) + (MW+1)'(need[1]);
    assign mshr_ok = (MW+1)'(mshr_used) + need_n <= (MW+1)'(MSHRS);
    assign all_hit = (!s_keys[0] || (found[0] && !pend[0])) && (!s_keys[1] || (found[1] && !pend[1]));
    assign place_ok = s_valid && can_go[0] && can_go[1] && mshr_ok && (need == 2'b00 || m_refill_ready);

    // ---------------- reorder buffer of responses ----------------
    logic [ID_W-1:0]  rob_id   [ROB_DEPTH];
    logic             rob_p    [ROB_DEPTH][2];   // still waiting for the refill of slot rob_s
    logic [IDX_W-1:0] rob_s    [ROB_DEPTH][2];
    logic [RW-1:0]    rob_head, rob_tail;
    logic [RCW-1:0]   rob_count;

    function automatic logic fill_now(input logic [IDX_W-1:0] slot);
        fill_now = s_fill_valid && s_fill_slot == slot;
    endfunction

    logic head_ready, bypass;
    assign head_ready = rob_count != '0
                        && (!rob_p[rob_head][0] || fill_now(rob_s[rob_head][0]))
                        && (!rob_p[rob_head][1] || fill_now(rob_s[rob_head][1]));
    assign bypass  = rob_count == '0 && all_hit;
    assign s_ready = place_ok && (bypass ? m_ready : rob_count != RCW'(ROB_DEPTH));
    assign m_valid = head_ready || (place_ok && bypass);
    assign m_id    = head_ready ? rob_id[rob_head] : s_id;
    assign busy    = rob_count != '0 && !rob_p[rob_head][0] && !rob_p[rob_head][1];

    assign m_refill_valid = (s_valid && s_ready) ? need : 2'b00;
    assign m_refill_key0  = s_key0;
    assign m_refill_key1  = s_key1;
    assign m_refill_slot0 = choice[0];
    assign m_refill_slot1 = choice[1];

    assign lk_fire  = s_valid && s_ready;
    assign lk_hit   = {s_keys[1] && found[1] && !pend[1], s_keys[0] && found[0] && !pend[0]};
    assign lk_merge = {s_keys[1] && found[1] && pend[1], s_keys[0] && found[0] && pend[0]};
    assign lk_miss  = need;
    assign lk_evict = {s_keys[1] && evicts[1], s_keys[0] && evicts[0]};
`ifndef CTX_CACHE_PARALLEL_SEARCH
    assign lk_evict_key0 = tag_key[choice[0]];
    assign lk_evict_key1 = tag_key[choice[1]];
`elsif SYNTHESIS
    // observability for the reference check only: not hardware
    assign lk_evict_key0 = '0;
    assign lk_evict_key1 = '0;
`else
    assign lk_evict_key0 = ek0[N*KEY_W +: KEY_W];
    assign lk_evict_key1 = ek1[N*KEY_W +: KEY_W];
`endif

    // ---------------- state update ----------------
    logic pop;
    assign pop = head_ready && m_ready;

    always_ff @(posedge clk) begin
        if (rst) begin
            tag_valid <= '0;
            tag_pend  <= '0;
            for (int i = 0; i < ROB_DEPTH; i++) begin
                rob_p[i][0] <= 1'b0;
                rob_p[i][1] <= 1'b0;
            end
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
                        if (rob_s[i][k] == s_fill_slot) rob_p[i][k] <= 1'b0;
                cnt_fills <= cnt_fills + 1'b1;
            end
            mshr_used <= MW'((MW+1)'(mshr_used) + (lk_fire ? need_n : '0) - (MW+1)'(s_fill_valid));
            if (lk_fire) begin
                for (int k = 0; k < 2; k++) begin
                    if (s_keys[k]) begin
`ifndef CTX_CACHE_PARALLEL_SEARCH
                        tag_stamp[choice[k]] <= stamp_ctr + STAMP_W'(k);
`endif
                        if (need[k]) begin
`ifndef CTX_CACHE_PARALLEL_SEARCH
                            tag_key[choice[k]]   <= (k == 0) ? s_key0 : s_key1;
                            hint[hint_of((k == 0) ? s_key0 : s_key1)] <= choice[k];
`endif
                            tag_valid[choice[k]] <= 1'b0;
                            tag_pend[choice[k]]  <= 1'b1;
                        end
                    end
                end
                stamp_ctr <= stamp_ctr + STAMP_W'(2);
                cnt_lookups   <= cnt_lookups + 1'b1;
                cnt_hits      <= cnt_hits + CNT_W'(lk_hit[0]) + CNT_W'(lk_hit[1]);
                cnt_merges    <= cnt_merges + CNT_W'(lk_merge[0]) + CNT_W'(lk_merge[1]);
                cnt_misses    <= cnt_misses + CNT_W'(need[0]) + CNT_W'(need[1]);
                cnt_evictions <= cnt_evictions + CNT_W'(lk_evict[0]) + CNT_W'(lk_evict[1]);
                if (!bypass) begin
                    rob_id[rob_tail] <= s_id;
                    for (int k = 0; k < 2; k++) begin
                        rob_s[rob_tail][k] <= choice[k];
                        // waits for a refill unless that refill lands this very cycle
                        rob_p[rob_tail][k] <= s_keys[k] && (need[k] || (pend[k] && !fill_now(choice[k])));
                    end
                    rob_tail <= rob_tail + 1'b1;
                end
            end
            if (pop) rob_head <= rob_head + 1'b1;
            rob_count <= rob_count + RCW'(lk_fire && !bypass) - RCW'(pop);
        end
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (cfg_entries != '0 && int'(cfg_entries) <= MAX_ENTRIES)
                else $error("ctx_cache: cfg_entries %0d outside 1..%0d", cfg_entries, MAX_ENTRIES);
            assert (cfg_ways == '0 || (cfg_ways >= 2 && cfg_entries % cfg_ways == '0
                    && ((cfg_entries / cfg_ways) & ((cfg_entries / cfg_ways) - 1'b1)) == '0))
                else $error("ctx_cache: cfg_ways %0d: need 0 or >= 2 ways and a power-of-two set count",
                            cfg_ways);
            if (s_valid) begin
                assert (s_keys[0] && (!s_keys[1] || s_key0 != s_key1))
                    else $error("ctx_cache: a lookup needs key 0 and two distinct keys");
            end
            if (s_fill_valid) begin
                assert (tag_pend[s_fill_slot] && mshr_used != '0)
                    else $error("ctx_cache: fill for slot %0d that has no refill in flight", s_fill_slot);
            end
            assert (stamp_ctr != '1 && stamp_ctr != '1 - 1'b1)
                else $error("ctx_cache: LRU stamp counter about to wrap");
        end
    end
`endif
endmodule
