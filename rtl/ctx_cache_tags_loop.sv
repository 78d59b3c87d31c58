// ctx_cache_tags_loop: the context cache's tag search as the simulator
// runs it (ctx_cache with CAM_SEARCH = 0).
//
// The tag store (key and LRU stamp per entry) as arrays, searched by loops
// that run only for a key that needs them, behind a hint table: the entry
// each key (hashed) was last placed in. A record is present in at most one
// entry, so when the hinted entry holds the key the compare of the other
// entries cannot match and the result is the full compare's; a stale hint
// falls back to the scan. The hint only spares the simulation the scan of a
// large CAM when the record is there. ctx_cache_tags_cam is the same search
// as hardware; both pass the same cycle-by-cycle reference-model test.
//
// Contract (both forms): combinational search of the lookup presented on
// s_*; per key: found (present: on chip or being refilled), pend (its refill
// is in flight), choice (the entry it uses: its own if found, else the
// victim: the lowest free entry of its set, else the least recently used
// non-pending, unpinned one), evicts (the victim holds a valid record), can_go (an
// entry is available); key 1 never takes the entry key 0 takes. On upd_fire
// each key's entry gets its LRU stamp (key 0 upd_stamp, key 1 upd_stamp+1)
// and a key in upd_need its key.
module ctx_cache_tags_loop #(
    parameter int MAX_ENTRIES = 4096,
    parameter int KEY_W = 26,
    parameter int STAMP_W = 32,
    parameter int IDX_W = $clog2(MAX_ENTRIES),
    parameter int ENT_W = $clog2(MAX_ENTRIES + 1)
) (
    input  logic                   clk,
    input  logic [ENT_W-1:0]       cfg_entries,
    input  logic [ENT_W-1:0]       cfg_ways,
    input  logic [MAX_ENTRIES-1:0] tag_valid,
    input  logic [MAX_ENTRIES-1:0] tag_pend,
    input  logic [MAX_ENTRIES-1:0] tag_pin,    // in use by a granted request: not a victim

    input  logic                   s_valid,
    input  logic [1:0]             s_keys,
    input  logic [KEY_W-1:0]       s_key0,
    input  logic [KEY_W-1:0]       s_key1,

    output logic [1:0]             found,
    output logic [1:0]             pend,
    output logic [1:0]             evicts,
    output logic [1:0]             can_go,
    output logic [IDX_W-1:0]       choice0,
    output logic [IDX_W-1:0]       choice1,
    output logic [KEY_W-1:0]       evict_key0,
    output logic [KEY_W-1:0]       evict_key1,

    input  logic                   upd_fire,
    input  logic [1:0]             upd_need,
    input  logic [STAMP_W-1:0]     upd_stamp
);
    logic [KEY_W-1:0]   tag_key   [MAX_ENTRIES];
    logic [STAMP_W-1:0] tag_stamp [MAX_ENTRIES];

    // Set geometry: entry e belongs to set e % sets (entries interleave).
    logic [IDX_W-1:0] set_mask;
    logic [ENT_W-1:0] sets, ways;
    always_comb begin
        sets = (cfg_ways == '0) ? ENT_W'(1) : cfg_entries / cfg_ways;
        set_mask = IDX_W'(sets - 1'b1);
        ways = (cfg_ways == '0) ? cfg_entries : cfg_ways;
    end

    localparam int HINT_W = 12;
    logic [IDX_W-1:0] hint [2**HINT_W];

    function automatic logic [HINT_W-1:0] hint_of(input logic [KEY_W-1:0] key);
        hint_of = HINT_W'(key) ^ HINT_W'(key >> HINT_W) ^ HINT_W'(key >> (KEY_W - 2) << (HINT_W - 2));
    endfunction

    // (packed-vector results: yosys 0.23 reads neither `return` nor struct-typed functions)
    function automatic logic [IDX_W:0] match(input logic [KEY_W-1:0] key);
        logic             hit;
        logic [IDX_W-1:0] e, idx;
        hit = 1'b0;
        idx = '0;
        e = hint[hint_of(key)];
        if (tag_key[e] == key && (tag_valid[e] || tag_pend[e])) begin
            hit = 1'b1;
            idx = e;
        end else begin
            e = IDX_W'(key) & set_mask;
            for (int i = 0; i < MAX_ENTRIES; i++) begin
                if (i < 32'(ways) && !hit) begin
                    if (tag_key[e] == key && (tag_valid[e] || tag_pend[e])) begin hit = 1'b1; idx = e; end
                    e = e + IDX_W'(sets);
                end
            end
        end
        match = {hit, idx};
    endfunction

    /* verilator lint_off UNUSEDSIGNAL */  // only the set-index bits of the key
    function automatic logic [IDX_W+1:0] victim(input logic [KEY_W-1:0] key, input logic skip_en,
                                                input logic [IDX_W-1:0] skip);
        logic free_found, ev;
        logic [IDX_W-1:0] e, free_idx, idx;
        logic [STAMP_W-1:0] vict_stamp;
        free_found = 1'b0;
        ev = 1'b0;
        free_idx = '0;
        idx = '0;
        vict_stamp = '1;
        e = IDX_W'(key) & set_mask;
        for (int i = 0; i < MAX_ENTRIES; i++) begin
            if (i < 32'(ways) && !free_found) begin   // a free entry wins
                if (!(skip_en && e == skip)) begin
                    if (!tag_valid[e] && !tag_pend[e]) begin
                        free_found = 1'b1; free_idx = e;
                    end else if (tag_valid[e] && !tag_pend[e] && !tag_pin[e]) begin
                        if (!ev || tag_stamp[e] < vict_stamp) begin
                            ev = 1'b1; idx = e; vict_stamp = tag_stamp[e];
                        end
                    end
                end
                e = e + IDX_W'(sets);
            end
        end
        if (free_found) begin ev = 1'b0; idx = free_idx; end
        victim = {free_found || ev, ev, idx};   // {ok, evicts, idx}
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    logic [IDX_W:0]   m0, m1;     // {found, idx}
    logic [IDX_W+1:0] v0, v1;     // {ok, evicts, idx}
    always_comb begin
        // searches written as statements under their conditions, so a key
        // that hits never pays for the victim search in simulation
        m0 = '0; v0 = '0; m1 = '0; v1 = '0;
        if (s_valid && s_keys[0]) m0 = match(s_key0);
        if (s_valid && s_keys[0] && !m0[IDX_W]) v0 = victim(s_key0, 1'b0, '0);
        choice0 = m0[IDX_W] ? m0[IDX_W-1:0] : v0[IDX_W-1:0];
        if (s_valid && s_keys[1]) m1 = match(s_key1);
        // key 1's record in the entry key 0 is about to take counts as absent
        if (s_keys[0] && !m0[IDX_W] && m1[IDX_W] && m1[IDX_W-1:0] == choice0) m1 = '0;
        if (s_valid && s_keys[1] && !m1[IDX_W]) v1 = victim(s_key1, s_keys[0], choice0);
        choice1 = m1[IDX_W] ? m1[IDX_W-1:0] : v1[IDX_W-1:0];
        found  = {m1[IDX_W], m0[IDX_W]};
        pend   = {m1[IDX_W] && tag_pend[m1[IDX_W-1:0]], m0[IDX_W] && tag_pend[m0[IDX_W-1:0]]};
        evicts = {!m1[IDX_W] && v1[IDX_W], !m0[IDX_W] && v0[IDX_W]};
        can_go = {!s_keys[1] || m1[IDX_W] || v1[IDX_W+1], !s_keys[0] || m0[IDX_W] || v0[IDX_W+1]};
    end
    assign evict_key0 = tag_key[choice0];
    assign evict_key1 = tag_key[choice1];

    always_ff @(posedge clk) begin
        if (upd_fire) begin
            if (s_keys[0]) tag_stamp[choice0] <= upd_stamp;
            if (s_keys[1]) tag_stamp[choice1] <= upd_stamp + 1'b1;
            if (upd_need[0]) begin
                tag_key[choice0] <= s_key0;
                hint[hint_of(s_key0)] <= choice0;
            end
            if (upd_need[1]) begin
                tag_key[choice1] <= s_key1;
                hint[hint_of(s_key1)] <= choice1;
            end
        end
    end
endmodule
