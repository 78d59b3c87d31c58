// psn_alloc_rmw: RoCE-RC in-order PSN allocation on a single-ported
// QP-context RAM shared by all QPs.
//
// Each request holds the one RAM port for a read-modify-write of its QP's
// next-PSN field: 1 address cycle, cfg_rd_latency cycles of read latency,
// 1 increment cycle, 1 write-back cycle and cfg_turnaround cycles of
// read/write turnaround (6 cycles with the defaults 2 and 1). The port is
// not pipelined, so the issue interval equals that occupancy whether the
// requests go to one QP or many.
// Contract: the request leaves (with its PSN) at the end of the increment
// cycle, 2 + cfg_rd_latency cycles after acceptance, then 1 cycle in the
// output register; next acceptance 3 + cfg_rd_latency + cfg_turnaround
// cycles after the previous one.
module psn_alloc_rmw #(
    parameter int ID_W = 32,
    parameter int CTX_W = 12,
    parameter int PSN_W = 24,
    parameter int MAX_RD_LATENCY = 8,
    parameter int MAX_TURNAROUND = 4,
    parameter int PH_W = 5
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [3:0]       cfg_rd_latency,
    input  logic [2:0]       cfg_turnaround,

    input  logic             s_valid,
    output logic             s_ready,
    input  logic [ID_W-1:0]  s_id,
    input  logic [CTX_W-1:0] s_ctx,

    output logic             m_valid,
    input  logic             m_ready,
    output logic [ID_W-1:0]  m_id,
    output logic [PSN_W-1:0] m_psn,

    output logic             busy
);
    logic [PSN_W-1:0] qpc_psn_ram [2**CTX_W];
    logic             active_q;
    logic [PH_W-1:0]  phase_q;       // index of the current port cycle (0 = address)
    logic [ID_W-1:0]  id_q;
    logic [CTX_W-1:0] ctx_q;
    logic [PSN_W-1:0] rd_data_q;
    logic [PH_W-1:0]  ph_data;       // last read-latency cycle: data captured
    logic [PH_W-1:0]  ph_inc;        // increment cycle: request leaves at its end
    logic [PH_W-1:0]  ph_wb;         // write-back cycle
    logic [PH_W-1:0]  ph_last;       // last turnaround cycle of the occupancy
    logic             stall_inc;

    assign ph_data  = PH_W'(cfg_rd_latency);
    assign ph_inc   = ph_data + 1'b1;
    assign ph_wb    = ph_inc + 1'b1;
    assign ph_last  = ph_wb + PH_W'(cfg_turnaround);
    // The increment cannot retire while the output register is full.
    assign stall_inc = active_q && phase_q == ph_inc && m_valid && !m_ready;
    assign s_ready  = !active_q || (phase_q == ph_last && !stall_inc);
    assign busy     = active_q || m_valid;

    // Context RAM contents are not reset (a RAM has no reset); PSNs start at 0.
    initial for (int i = 0; i < 2**CTX_W; i++) qpc_psn_ram[i] = '0;

    always_ff @(posedge clk) begin
        if (rst) begin
            active_q <= 1'b0;
            phase_q  <= '0;
            m_valid  <= 1'b0;
        end else begin
            if (m_valid && m_ready) m_valid <= 1'b0;
            if (active_q && !stall_inc) begin
                if (phase_q == ph_data) rd_data_q <= qpc_psn_ram[ctx_q];
                if (phase_q == ph_inc) begin
                    m_valid <= 1'b1;
                    m_id    <= id_q;
                    m_psn   <= rd_data_q;
                end
                if (phase_q == ph_wb) qpc_psn_ram[ctx_q] <= rd_data_q + 1'b1;
                phase_q <= phase_q + 1'b1;
                if (phase_q == ph_last) active_q <= 1'b0;
            end
            if (s_valid && s_ready) begin
                active_q <= 1'b1;
                phase_q  <= '0;
                id_q     <= s_id;
                ctx_q    <= s_ctx;
            end
        end
    end

`ifndef SYNTHESIS
    always_ff @(posedge clk) begin
        if (!rst) begin
            assert (cfg_rd_latency >= 1 && int'(cfg_rd_latency) <= MAX_RD_LATENCY)
                else $error("psn_alloc_rmw: cfg_rd_latency %0d outside 1..%0d", cfg_rd_latency, MAX_RD_LATENCY);
            assert (cfg_turnaround >= 1 && int'(cfg_turnaround) <= MAX_TURNAROUND)
                else $error("psn_alloc_rmw: cfg_turnaround %0d outside 1..%0d", cfg_turnaround, MAX_TURNAROUND);
        end
    end
`endif
endmodule
