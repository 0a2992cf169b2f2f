// SPDX-License-Identifier: Apache-2.0
// rubick_scratch: AXI4 slave RAM of DEPTH words of DATA_BYTES bytes (a scratchpad), so that a
// chain of accelerator stages can keep intermediate tensors on chip instead of in external
// memory. Its cycle behaviour is exactly that of the testbench memory model
// sim_templates/rubick_axi_mem.h configured with dataBytes = DATA_BYTES, bytesPerCycle =
// DATA_BYTES (one beat per cycle per direction, not shared), latency = LATENCY, maxOutstanding =
// MAX_OUTSTANDING, no DRAM: a design verified against that model behaves the same on this RAM.
//
// Bursts: INCR, full-width beats (ARSIZE / AWSIZE = log2(DATA_BYTES)), 1..256 beats. AxBURST,
//   AxSIZE, AxCACHE, AxPROT and WLAST are ignored (the beat count comes from AxLEN); the low
//   log2(DATA_BYTES) address bits are ignored (aligned beats). Addresses are taken modulo the
//   RAM size (DEPTH * DATA_BYTES bytes): word = (AxADDR / DATA_BYTES + beat) mod DEPTH, so a
//   burst that runs past the end wraps to word 0 (the model answers DECERR there instead; keep
//   bursts inside the RAM for the two to agree). Every response is OKAY; RID / BID are the
//   burst's AxID. WSTRB selects the bytes written.
// Timing (all synchronous, aclk rising edge; a value "in cycle n" is the one after edge n-1):
//   Every output is a register or (RDATA) a byte mux of registers: none depends on the
//   master's outputs of the same cycle.
//   In flight: a read burst from its AR handshake to the handshake of its last R beat, a write
//   burst from its AW handshake to its B handshake. ARREADY (AWREADY) in cycle n is high iff
//   fewer than MAX_OUTSTANDING read (write) bursts are in flight after edge n-1 (out of reset:
//   high).
//   R: bursts are answered in AR order. The head burst, taken by the AR handshake in cycle c,
//   presents its beat k in the first cycle n >= c + LATENCY in which the beat before it is no
//   longer shown (taken at edge n-1, or k = 0 and the previous burst's last beat taken by
//   then): one beat per cycle while RREADY is high. A beat not taken (RREADY low) is held with
//   its data, RLAST and RID. RLAST is low while RVALID is low. (The model's token bucket adds
//   no other limit here: with bytesPerCycle = dataBytes it refills to at least one beat's credit
//   every cycle, on R and on W.)
//   W: WREADY in cycle n is high iff some burst whose AW was taken at edge n-1 or before has
//   beats still to come (W beats go to the oldest such burst, beat by beat; W before its AW
//   waits with WREADY low). A beat is written at the edge of its handshake.
//   B: in AW order; the head burst's BVALID in the first cycle n >= c + LATENCY (c: its AW
//   handshake cycle) after its last W beat was taken (at edge n-1 or before) and the previous
//   burst's B taken (at edge n-1 or before), held until BREADY.
//   Read-after-write: an R beat first shown in cycle n carries the RAM as written by every W
//   beat taken in cycles <= n-1 (including the beat of cycle n-1, through a one-beat bypass:
//   the RAM itself reads the old data); a held beat keeps the data it was first shown with.
//   (The model writes at its tick before it picks the next R beat's data: the same rule.)
// Reset: aresetn low at an edge drops every burst in flight (the RAM keeps its contents) and
//   leaves ARREADY and AWREADY high, WREADY, RVALID, BVALID low; the master must keep its
//   VALIDs low in reset, as AXI requires.
// FPGA mapping: the RAM is a simple dual-port memory (one synchronous read port with enable,
//   one write port with byte enables, no reset), as block RAM or LUT RAM infer it; the bypass
//   is DATA_BYTES * 9 flip-flops and a byte mux after the RAM's output register.
//
// Parameters:
//   DATA_BYTES       bus width in bytes: a power of two, 1..128 (RDATA / WDATA 8 * DATA_BYTES)
//   ADDR_W           address bits of the AXI port: log2(DEPTH * DATA_BYTES) (at least 1) ..64;
//                    bits above the RAM's are ignored
//   ID_W             ID bits (1..32)
//   DEPTH            words: a power of two, 2 .. 2**24
//   LATENCY          cycles from an address handshake to the first R beat / BVALID, 1..256
//   MAX_OUTSTANDING  bursts in flight per direction, 1..256
`default_nettype none

module rubick_scratch #(
  parameter integer DATA_BYTES = 8,
  parameter integer ADDR_W = 32,
  parameter integer ID_W = 1,
  parameter integer DEPTH = 16,
  parameter integer LATENCY = 2,
  parameter integer MAX_OUTSTANDING = 4
) (
  input  wire                    aclk,
  input  wire                    aresetn,
  // Read address channel.
  input  wire                    s_axi_arvalid,
  output reg                     s_axi_arready,
  input  wire [      ADDR_W-1:0] s_axi_araddr,
  input  wire [             7:0] s_axi_arlen,
  input  wire [             2:0] s_axi_arsize,
  input  wire [             1:0] s_axi_arburst,
  input  wire [        ID_W-1:0] s_axi_arid,
  input  wire [             3:0] s_axi_arcache,
  input  wire [             2:0] s_axi_arprot,
  // Read data channel.
  output reg                     s_axi_rvalid,
  input  wire                    s_axi_rready,
  output wire [8*DATA_BYTES-1:0] s_axi_rdata,
  output reg                     s_axi_rlast,
  output wire [             1:0] s_axi_rresp,
  output reg  [        ID_W-1:0] s_axi_rid,
  // Write address channel.
  input  wire                    s_axi_awvalid,
  output reg                     s_axi_awready,
  input  wire [      ADDR_W-1:0] s_axi_awaddr,
  input  wire [             7:0] s_axi_awlen,
  input  wire [             2:0] s_axi_awsize,
  input  wire [             1:0] s_axi_awburst,
  input  wire [        ID_W-1:0] s_axi_awid,
  input  wire [             3:0] s_axi_awcache,
  input  wire [             2:0] s_axi_awprot,
  // Write data channel.
  input  wire                    s_axi_wvalid,
  output reg                     s_axi_wready,
  input  wire [8*DATA_BYTES-1:0] s_axi_wdata,
  input  wire [  DATA_BYTES-1:0] s_axi_wstrb,
  input  wire                    s_axi_wlast,
  // Write response channel.
  output reg                     s_axi_bvalid,
  input  wire                    s_axi_bready,
  output wire [             1:0] s_axi_bresp,
  output reg  [        ID_W-1:0] s_axi_bid
);

  localparam integer DATA_W = 8 * DATA_BYTES;
  localparam integer LSB = (DATA_BYTES > 1) ? $clog2(DATA_BYTES) : 0;  // byte offset bits
  localparam integer IW = $clog2(DEPTH);  // word index bits
  localparam integer MO = MAX_OUTSTANDING;
  localparam integer PW = (MO > 1) ? $clog2(MO) : 1;  // queue pointers
  localparam integer CW = $clog2(MO + 1) + 1;  // counts 0..MO, at least 2 bits
  localparam integer PLAST_I = MO - 1;
  localparam [PW-1:0] PLAST = PLAST_I[PW-1:0];
  localparam [CW-1:0] FULL = MO[CW-1:0];

  assign s_axi_rresp = 2'b00;
  assign s_axi_bresp = 2'b00;

  // ---- The RAM: one read port (registered, with enable), one write port with byte enables ----
  reg  [DATA_W-1:0] mem       [0:DEPTH-1];
  reg  [DATA_W-1:0] rd_q;  // the RAM's output register
  // The W beat written at the edge that reads the same word: its bytes replace the old ones.
  reg  [DATA_W-1:0] byp_data;
  reg  [DATA_BYTES-1:0] byp_strb;
  wire              ram_re;
  wire [    IW-1:0] ram_raddr;
  wire              ram_we;
  wire [    IW-1:0] ram_waddr;

  always @(posedge aclk) begin
    if (ram_re) rd_q <= mem[ram_raddr];
  end

  always @(posedge aclk) begin
    if (ram_re) begin
      byp_data <= s_axi_wdata;
      byp_strb <= (ram_we && ram_waddr == ram_raddr) ? s_axi_wstrb : {DATA_BYTES{1'b0}};
    end
  end

  // One write process per byte lane (a byte-enable write port to synthesis tools).
  genvar g;
  generate
    for (g = 0; g < DATA_BYTES; g = g + 1) begin : g_byte
      always @(posedge aclk) begin
        if (ram_we && s_axi_wstrb[g]) mem[ram_waddr][8*g+:8] <= s_axi_wdata[8*g+:8];
      end
      assign s_axi_rdata[8*g+:8] = byp_strb[g] ? byp_data[8*g+:8] : rd_q[8*g+:8];
    end
  endgenerate

  // ---- Handshakes ----
  wire ar_hs = s_axi_arvalid & s_axi_arready;
  wire r_hs = s_axi_rvalid & s_axi_rready;
  wire aw_hs = s_axi_awvalid & s_axi_awready;
  wire w_hs = s_axi_wvalid & s_axi_wready;
  wire b_hs = s_axi_bvalid & s_axi_bready;

  // Bursts that reach LATENCY at the next edge: an address handshake LATENCY - 1 cycles ago
  // (this cycle's for LATENCY = 1). Handshakes come in order and at most one per cycle, so a
  // count of such bursts says whether the head one has reached it.
  wire r_mature;
  wire w_mature;
  generate
    if (LATENCY == 1) begin : g_lat1
      assign r_mature = ar_hs;
      assign w_mature = aw_hs;
    end else begin : g_lat
      reg [LATENCY-2:0] r_sr;
      reg [LATENCY-2:0] w_sr;
      integer j;
      always @(posedge aclk) begin
        if (!aresetn) begin
          r_sr <= {(LATENCY - 1) {1'b0}};
          w_sr <= {(LATENCY - 1) {1'b0}};
        end else begin
          r_sr[0] <= ar_hs;
          w_sr[0] <= aw_hs;
          for (j = 1; j < LATENCY - 1; j = j + 1) begin
            r_sr[j] <= r_sr[j-1];
            w_sr[j] <= w_sr[j-1];
          end
        end
      end
      assign r_mature = r_sr[LATENCY-2];
      assign w_mature = w_sr[LATENCY-2];
    end
  endgenerate

  // ---- Read bursts in flight, in order: {word, ARLEN, ARID} ----
  reg  [    IW-1:0] rq_idx   [0:MO-1];
  reg  [       7:0] rq_len   [0:MO-1];
  reg  [  ID_W-1:0] rq_id    [0:MO-1];
  reg  [    PW-1:0] r_head;
  reg  [    PW-1:0] r_tail;
  reg  [    CW-1:0] r_cnt;  // in flight
  reg  [    CW-1:0] r_mat;  // in flight and past LATENCY
  reg  [       7:0] r_beat;  // beats of the head burst taken

  wire              r_pop = r_hs & s_axi_rlast;
  wire [    CW-1:0] r_pop_c = {{(CW - 1) {1'b0}}, r_pop};
  wire [    CW-1:0] r_left = r_cnt - r_pop_c;  // in flight after this edge's last beat
  wire [    CW-1:0] r_cnt_n = r_left + {{(CW - 1) {1'b0}}, ar_hs};
  wire [    CW-1:0] r_mat_n = r_mat - r_pop_c + {{(CW - 1) {1'b0}}, r_mature};
  wire [    PW-1:0] r_head_n = r_pop ? ((r_head == PLAST) ? {PW{1'b0}} : r_head + 1) : r_head;
  wire [       7:0] r_beat_n = r_pop ? 8'd0 : (r_hs ? r_beat + 8'd1 : r_beat);
  // The next cycle's head burst: the queue's, or the AR taken now if the queue empties.
  wire              r_from_ar = (r_left == {CW{1'b0}});
  wire [    IW-1:0] r_f_idx = r_from_ar ? s_axi_araddr[LSB+:IW] : rq_idx[r_head_n];
  wire [       7:0] r_f_len = r_from_ar ? s_axi_arlen : rq_len[r_head_n];
  wire [  ID_W-1:0] r_f_id = r_from_ar ? s_axi_arid : rq_id[r_head_n];
  wire              r_held = s_axi_rvalid & ~s_axi_rready;
  wire              r_show = ~r_held & (r_mat_n != {CW{1'b0}});
  wire [IW+7:0]     r_sum = {8'd0, r_f_idx} + {{IW{1'b0}}, r_beat_n};

  assign ram_re    = r_show;
  assign ram_raddr = r_sum[IW-1:0];

  always @(posedge aclk) begin
    if (!aresetn) begin
      s_axi_arready <= 1'b1;
      s_axi_rvalid  <= 1'b0;
      s_axi_rlast   <= 1'b0;
      s_axi_rid     <= {ID_W{1'b0}};
      r_head        <= {PW{1'b0}};
      r_tail        <= {PW{1'b0}};
      r_cnt         <= {CW{1'b0}};
      r_mat         <= {CW{1'b0}};
      r_beat        <= 8'd0;
    end else begin
      s_axi_arready <= (r_cnt_n != FULL);
      if (ar_hs) r_tail <= (r_tail == PLAST) ? {PW{1'b0}} : r_tail + 1;
      r_head <= r_head_n;
      r_cnt  <= r_cnt_n;
      r_mat  <= r_mat_n;
      r_beat <= r_beat_n;
      if (r_show) begin
        s_axi_rvalid <= 1'b1;
        s_axi_rlast  <= (r_beat_n == r_f_len);
        s_axi_rid    <= r_f_id;
      end else if (!r_held) begin
        s_axi_rvalid <= 1'b0;
        s_axi_rlast  <= 1'b0;
      end
    end
  end

  always @(posedge aclk) begin
    if (ar_hs) begin
      rq_idx[r_tail] <= s_axi_araddr[LSB+:IW];
      rq_len[r_tail] <= s_axi_arlen;
      rq_id[r_tail]  <= s_axi_arid;
    end
  end

  // ---- Write bursts in flight, in order: filled (all W beats taken) before the fill pointer ----
  reg  [    IW-1:0] wq_idx   [0:MO-1];
  reg  [       7:0] wq_len   [0:MO-1];
  reg  [  ID_W-1:0] wq_id    [0:MO-1];
  reg  [    PW-1:0] w_head;  // oldest, awaiting B
  reg  [    PW-1:0] w_fill;  // taking W beats
  reg  [    PW-1:0] w_tail;
  reg  [    CW-1:0] w_cnt;  // in flight
  reg  [    CW-1:0] w_unf;  // awaiting W beats
  reg  [    CW-1:0] w_cmp;  // all W beats taken, awaiting B
  reg  [    CW-1:0] w_mat;  // in flight and past LATENCY
  reg  [       7:0] w_beat;  // beats of the filling burst taken

  wire [IW+7:0]     w_sum = {8'd0, wq_idx[w_fill]} + {{IW{1'b0}}, w_beat};
  wire              w_done = w_hs & (w_beat == wq_len[w_fill]);
  wire [    CW-1:0] w_done_c = {{(CW - 1) {1'b0}}, w_done};
  wire [    CW-1:0] aw_hs_c = {{(CW - 1) {1'b0}}, aw_hs};
  wire [    CW-1:0] b_hs_c = {{(CW - 1) {1'b0}}, b_hs};
  wire [    CW-1:0] w_cnt_n = w_cnt - b_hs_c + aw_hs_c;
  wire [    CW-1:0] w_unf_n = w_unf - w_done_c + aw_hs_c;
  wire [    CW-1:0] w_cmp_n = w_cmp - b_hs_c + w_done_c;
  wire [    CW-1:0] w_mat_n = w_mat - b_hs_c + {{(CW - 1) {1'b0}}, w_mature};
  wire [    PW-1:0] w_head_n = b_hs ? ((w_head == PLAST) ? {PW{1'b0}} : w_head + 1) : w_head;
  wire              b_held = s_axi_bvalid & ~s_axi_bready;
  // Bursts complete and mature in order, so both counts non-zero means the head is both.
  wire              b_show = ~b_held & (w_cmp_n != {CW{1'b0}}) & (w_mat_n != {CW{1'b0}});

  assign ram_we    = w_hs;
  assign ram_waddr = w_sum[IW-1:0];

  always @(posedge aclk) begin
    if (!aresetn) begin
      s_axi_awready <= 1'b1;
      s_axi_wready  <= 1'b0;
      s_axi_bvalid  <= 1'b0;
      s_axi_bid     <= {ID_W{1'b0}};
      w_head        <= {PW{1'b0}};
      w_fill        <= {PW{1'b0}};
      w_tail        <= {PW{1'b0}};
      w_cnt         <= {CW{1'b0}};
      w_unf         <= {CW{1'b0}};
      w_cmp         <= {CW{1'b0}};
      w_mat         <= {CW{1'b0}};
      w_beat        <= 8'd0;
    end else begin
      s_axi_awready <= (w_cnt_n != FULL);
      s_axi_wready  <= (w_unf_n != {CW{1'b0}});
      if (aw_hs) w_tail <= (w_tail == PLAST) ? {PW{1'b0}} : w_tail + 1;
      if (w_done) w_fill <= (w_fill == PLAST) ? {PW{1'b0}} : w_fill + 1;
      if (w_hs) w_beat <= w_done ? 8'd0 : w_beat + 8'd1;
      w_head <= w_head_n;
      w_cnt  <= w_cnt_n;
      w_unf  <= w_unf_n;
      w_cmp  <= w_cmp_n;
      w_mat  <= w_mat_n;
      if (b_show) begin
        s_axi_bvalid <= 1'b1;
        s_axi_bid    <= wq_id[w_head_n];
      end else if (!b_held) begin
        s_axi_bvalid <= 1'b0;
      end
    end
  end

  always @(posedge aclk) begin
    if (aw_hs) begin
      wq_idx[w_tail] <= s_axi_awaddr[LSB+:IW];
      wq_len[w_tail] <= s_axi_awlen;
      wq_id[w_tail]  <= s_axi_awid;
    end
  end

  // Ignored inputs and the carries of the word sums (the index wraps modulo DEPTH).
  wire unused_bits = &{1'b0, s_axi_arsize, s_axi_arburst, s_axi_arcache, s_axi_arprot,
                       s_axi_awsize, s_axi_awburst, s_axi_awcache, s_axi_awprot, s_axi_wlast,
                       s_axi_araddr, s_axi_awaddr, r_sum[IW+7:IW], w_sum[IW+7:IW]};

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (DATA_BYTES < 1 || DATA_BYTES > 128 || (1 << LSB) != DATA_BYTES) begin : g_bad_data_bytes
      rubick_scratch_parameter_DATA_BYTES_must_be_a_power_of_2_from_1_to_128 u_error ();
    end
    if (DEPTH < 2 || DEPTH > (1 << 24) || (1 << IW) != DEPTH) begin : g_bad_depth
      rubick_scratch_parameter_DEPTH_must_be_a_power_of_2_from_2_to_2_pow_24 u_error ();
    end
    if (ADDR_W < LSB + IW || ADDR_W > 64) begin : g_bad_addr_w
      rubick_scratch_parameter_ADDR_W_must_cover_the_RAM_and_be_at_most_64 u_error ();
    end
    if (ID_W < 1 || ID_W > 32) begin : g_bad_id_w
      rubick_scratch_parameter_ID_W_must_be_1_to_32 u_error ();
    end
    if (LATENCY < 1 || LATENCY > 256) begin : g_bad_latency
      rubick_scratch_parameter_LATENCY_must_be_1_to_256 u_error ();
    end
    if (MO < 1 || MO > 256) begin : g_bad_max_outstanding
      rubick_scratch_parameter_MAX_OUTSTANDING_must_be_1_to_256 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
