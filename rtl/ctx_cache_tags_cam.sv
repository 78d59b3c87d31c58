// ctx_cache_tags_cam: the context cache's tag search as hardware (ctx_cache
// with CAM_SEARCH = 1; what `ubsim area` synthesizes).
//
// Per entry a key register, a stamp register and a comparator (generate);
// one-hot matches encoded by OR chains, the lowest free entry by
// free & ~(free - 1), LRU by a compare chain. Chain node e+1 carries the
// result over entries 0..e: OR of the indices of matching (h*) or first
// free (f*) entries, both one-hot; the oldest evictable entry so far (c*),
// a strictly older stamp replacing it, so the lowest index wins a tie, as
// in ctx_cache_tags_loop. Ports and contract: ctx_cache_tags_loop's; both
// pass the same cycle-by-cycle reference-model test.
module ctx_cache_tags_cam #(
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
    localparam int N = MAX_ENTRIES;

    logic [IDX_W-1:0] set_mask;
    logic [ENT_W-1:0] sets;
    always_comb begin
        sets = (cfg_ways == '0) ? ENT_W'(1) : cfg_entries / cfg_ways;
        set_mask = IDX_W'(sets - 1'b1);
    end

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
`ifndef SYNTHESIS
    logic [(N+1)*KEY_W-1:0] ek0 /*verilator split_var*/, ek1 /*verilator split_var*/;
    assign ek0[KEY_W-1:0] = '0;
    assign ek1[KEY_W-1:0] = '0;
`endif
    assign first0 = free0 & ~(free0 - 1'b1);   // the lowest free entry, one-hot
    assign first1 = free1 & ~(free1 - 1'b1);
    for (genvar e = 0; e < N; e++) begin : g_entry
        localparam logic [IDX_W-1:0] E = IDX_W'(e);
        logic [KEY_W-1:0]   key_q;
        logic [STAMP_W-1:0] stamp_q;
        logic used, in0, in1, cand1, old, take0, take1;
        always_ff @(posedge clk) begin
            if (upd_fire && s_keys[0] && choice0 == E) begin
                stamp_q <= upd_stamp;
                if (upd_need[0]) key_q <= s_key0;
            end
            if (upd_fire && s_keys[1] && choice1 == E) begin
                stamp_q <= upd_stamp + 1'b1;
                if (upd_need[1]) key_q <= s_key1;
            end
        end
        assign used  = (ENT_W+1)'(e) < (ENT_W+1)'(cfg_entries);
        assign in0   = used && (E & set_mask) == (IDX_W'(s_key0) & set_mask);
        assign in1   = used && (E & set_mask) == (IDX_W'(s_key1) & set_mask);
        assign cand1 = in1 && !(s_keys[0] && choice0 == E);   // never the entry key 0 takes
        assign old   = tag_valid[e] && !tag_pend[e] && !tag_pin[e];
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
        // the key in the chosen entry (what an eviction drops): observed by
        // the reference check only, not hardware
        assign ek0[(e+1)*KEY_W +: KEY_W] = ek0[e*KEY_W +: KEY_W] | (choice0 == E ? key_q : '0);
        assign ek1[(e+1)*KEY_W +: KEY_W] = ek1[e*KEY_W +: KEY_W] | (choice1 == E ? key_q : '0);
`endif
    end
`ifndef SYNTHESIS
    assign evict_key0 = ek0[N*KEY_W +: KEY_W];
    assign evict_key1 = ek1[N*KEY_W +: KEY_W];
`else
    assign evict_key0 = '0;
    assign evict_key1 = '0;
`endif

    // key 0, then key 1 (whose victim depends on key 0's choice)
    logic             f0, f1, vok0, vok1, vev0, vev1;
    logic [IDX_W-1:0] vidx0, vidx1;
    always_comb begin
        f0 = s_valid && s_keys[0] && hit0 != '0;
        vok0 = 1'b0; vev0 = 1'b0; vidx0 = '0;
        if (s_valid && s_keys[0] && !f0) begin
            if (free0 != '0) begin vok0 = 1'b1; vidx0 = f0_idx[N*IDX_W +: IDX_W]; end
            else begin vok0 = c0_ok[N]; vev0 = c0_ok[N]; vidx0 = c0_idx[N*IDX_W +: IDX_W]; end
        end
        choice0 = f0 ? h0_idx[N*IDX_W +: IDX_W] : vidx0;
    end
    always_comb begin
        f1 = s_valid && s_keys[1] && hit1 != '0;
        // key 1's record in the entry key 0 is about to take counts as absent
        if (s_keys[0] && !f0 && f1 && h1_idx[N*IDX_W +: IDX_W] == choice0) f1 = 1'b0;
        vok1 = 1'b0; vev1 = 1'b0; vidx1 = '0;
        if (s_valid && s_keys[1] && !f1) begin
            if (free1 != '0) begin vok1 = 1'b1; vidx1 = f1_idx[N*IDX_W +: IDX_W]; end
            else begin vok1 = c1_ok[N]; vev1 = c1_ok[N]; vidx1 = c1_idx[N*IDX_W +: IDX_W]; end
        end
        choice1 = f1 ? h1_idx[N*IDX_W +: IDX_W] : vidx1;
    end
    assign found  = {f1, f0};
    assign pend   = {f1 && tag_pend[choice1], f0 && tag_pend[choice0]};
    assign evicts = {!f1 && vev1, !f0 && vev0};
    assign can_go = {!s_keys[1] || f1 || vok1, !s_keys[0] || f0 || vok0};
endmodule
