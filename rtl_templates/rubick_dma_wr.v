// SPDX-License-Identifier: Apache-2.0
// rubick_dma_wr: writes one output tile, arriving as a stream of write groups (from
// rubick_dma_gather), to memory in row-major layout over AXI4 (through rubick_axi_wr). Exactly
// the elements inside rows_valid x cols_valid are written: every byte outside them keeps its
// value (byte strobes); the other elements of the stream are taken and dropped.
//
// The tile is ROWS x COLS elements of ELEM_W bits; element (r, c) goes to byte address
// base + r * pitch + c * ELEM_W / 8, little-endian in the bus word. base and pitch are any
// multiples of the element size (rows need not start on a beat, pitch need not be a multiple of
// the bus width); rows must not overlap. Groups come gr outer, gc inner (DmaMap order): with
// column lanes (ROW_LANES = 0) group (gr, gc) is columns gc * LANES + l of row gr; with row
// lanes (ROW_LANES = 1) it is rows gr * LANES + l of column gc, turned back into rows by
// rubick_dma_turn (a buffer of 2 x LANES x COLS elements: two blocks of LANES rows, one read
// out while the next comes in). in_data lane l is [l * ELEM_W +: ELEM_W].
//
// Each row below rows_valid (none if cols_valid = 0) is one command to rubick_axi_wr: the
// aligned beats from the one holding the row's first element to the one holding its last;
// rubick_dma_pack realigns the row's elements into them, strobes high exactly on them.
//
// Timing (start, with the geometry, sampled while not busy at edge 0; start while busy is
// ignored), for a memory with one beat per cycle, latency LAT (AW handshake to the earliest
// BVALID) and enough outstanding bursts, and in_valid high from cycle 1:
//   The row commands start in cycle 1, one burst per cycle: burst j's AW handshake is in cycle
//   3 + j (j = 0 .. NB - 1). A group i (stream order) that completes k_i beats (the beats whose
//   last written element it carries) takes c_i = max(1, k_i) cycles of the packer, back to back.
//   done (a one-cycle pulse) comes in cycle max(max(P + 2, NB + 2 + LAT) + 3, E + 2), or E + 2
//   if nothing is written, where P is the cycle the last beat goes to the engine and E the cycle
//   the last group is taken; busy is high in cycles 1 .. done - 1.
// Column lanes: packing starts in cycle 4 (when the engine first takes data; cycle 1 with
//   nothing to write): P = 3 + sum(c_i, i <= the last group with k_i > 0), E = 3 + sum(c_i)
//   (E = sum(c_i) with nothing to write).
// Row lanes: block k (LANES rows, COLS input groups, one per cycle) is stored only if it has
//   rows to write; a stored block waits for its slot: block k's input starts in cycle
//   max(I_{k-1} + 1, Q_{k-2} + 1) (I: cycle of a block's last input group, Q: cycle its last
//   output group leaves the packer), other blocks right after the previous one; block k's
//   packing starts in cycle max(Q_{k-1} + 1, I_k + 3) and takes sum(c_i) over its rows' groups
//   (up to column cols_valid - 1 only). P = Q of the last stored block, E = I of the last block.
// So the bus and the group stream overlap: with LANES * ELEM_W >= DATA_W the packer takes one
// beat per cycle (bus-bound), otherwise one group per cycle (stream-bound), plus one cycle per
// row whose last group completes two beats. Full rate needs MAX_OUTSTANDING >= (LAT + 3) /
// (cycles per burst) bursts (a burst's AW waits for a free slot otherwise, and the packer for
// its data); the formula above holds exactly while no AW waits (e.g. MAX_OUTSTANDING >= NB).
//
// Status: busy, done, error (a one-cycle pulse per B response that is not OKAY: the data was
// not written). aresetn (synchronous, active low) clears the control state.
//
// Parameters: ADDR_W (13..64), DATA_W (8 x a power of 2 up to 4096, >= ELEM_W; above 1024
// behind rubick_axi_split), ELEM_W (8 x a power of 2), LANES (>= 1), ROW_LANES (0/1), ROWS,
// COLS (>= 1), ID_W, AXI_ID, MAX_BURST, MAX_OUTSTANDING (as rubick_axi_wr).
`default_nettype none

module rubick_dma_wr #(
  parameter integer ADDR_W = 32,
  parameter integer DATA_W = 64,
  parameter integer ELEM_W = 8,
  parameter integer LANES = 4,
  parameter integer ROW_LANES = 0,
  parameter integer ROWS = 4,
  parameter integer COLS = 8,
  parameter integer ID_W = 1,
  parameter integer AXI_ID = 0,
  parameter integer MAX_BURST = 16,
  parameter integer MAX_OUTSTANDING = 4
) (
  input  wire                      aclk,
  input  wire                      aresetn,
  // Control and tile geometry (held while busy).
  input  wire                      start,
  input  wire [        ADDR_W-1:0] base,
  input  wire [        ADDR_W-1:0] pitch,
  input  wire [$clog2(ROWS+1)-1:0] rows_valid,
  input  wire [$clog2(COLS+1)-1:0] cols_valid,
  output wire                      busy,
  output reg                       done,
  output wire                      error,
  // Group stream.
  input  wire                      in_valid,
  output wire                      in_ready,
  input  wire [  LANES*ELEM_W-1:0] in_data,
  // AXI4 write channels.
  output wire [          ID_W-1:0] m_axi_awid,
  output wire [        ADDR_W-1:0] m_axi_awaddr,
  output wire [               7:0] m_axi_awlen,
  output wire [               2:0] m_axi_awsize,
  output wire [               1:0] m_axi_awburst,
  output wire [               3:0] m_axi_awcache,
  output wire [               2:0] m_axi_awprot,
  output wire                      m_axi_awvalid,
  input  wire                      m_axi_awready,
  output wire [        DATA_W-1:0] m_axi_wdata,
  output wire [      DATA_W/8-1:0] m_axi_wstrb,
  output wire                      m_axi_wlast,
  output wire                      m_axi_wvalid,
  input  wire                      m_axi_wready,
  input  wire [          ID_W-1:0] m_axi_bid,
  input  wire [               1:0] m_axi_bresp,
  input  wire                      m_axi_bvalid,
  output wire                      m_axi_bready
);

  localparam integer BB = DATA_W / 8;  // bytes per beat
  localparam integer EB = ELEM_W / 8;  // bytes per element
  localparam integer BE = DATA_W / ELEM_W;  // elements per beat
  localparam integer LGB = $clog2(BB);
  localparam integer LGE = $clog2(EB);
  localparam integer OFW = BE > 1 ? $clog2(BE) : 1;
  localparam integer RVW = $clog2(ROWS + 1);
  localparam integer CVW = $clog2(COLS + 1);
  localparam integer CNW = $clog2(LANES + 1);
  localparam integer GR = (ROW_LANES != 0) ? (ROWS + LANES - 1) / LANES : ROWS;
  localparam integer GC = (ROW_LANES != 0) ? COLS : (COLS + LANES - 1) / LANES;
  localparam integer N = GR * GC;  // groups in the stream
  localparam integer NW = $clog2(N + 1);
  localparam integer LEN_MAX = (2 * BB - 2 + COLS * EB) / BB;  // beats of a row at most
  localparam integer LEN_W = $clog2(LEN_MAX + 1);
  localparam [ADDR_W-1:0] BMASK = ~({ADDR_W{1'b1}} << LGB);  // byte in the beat
  localparam [NW-1:0] N_W = N[NW-1:0];

  reg              running;
  reg              go_q;       // the packer may start
  reg              cg_valid;   // row commands
  reg [ADDR_W-1:0] cg_addr;
  reg [   RVW-1:0] cg_left;
  reg [ADDR_W-1:0] pk_addr;    // the packer's row
  reg [    NW-1:0] in_cnt;     // input groups taken
  reg [   RVW-1:0] dn_cnt;     // rows answered (engine done pulses)

  wire             accept = start & ~running;
  wire [   RVW-1:0] rows_eff = (cols_valid != {CVW{1'b0}}) ? rows_valid : {RVW{1'b0}};
  wire             cmd_ready;
  wire             eng_done;
  wire             eng_in_ready;
  wire             eng_busy;
  wire             take = in_valid & in_ready;

  // A row's beats: from the one holding byte addr to the one holding its last byte.
  wire [ADDR_W-1:0] row_bytes = {{(ADDR_W - CVW) {1'b0}}, cols_valid} << LGE;
  wire [ADDR_W-1:0] row_span = (cg_addr & BMASK) + row_bytes + BMASK;
  wire [ADDR_W-1:0] row_beats = row_span >> LGB;

  assign busy = running;

  always @(posedge aclk) begin
    if (!aresetn) begin
      running  <= 1'b0;
      cg_valid <= 1'b0;
      go_q     <= 1'b0;
      done     <= 1'b0;
    end else begin
      done <= 1'b0;
      if (accept) begin
        running  <= 1'b1;
        cg_valid <= (rows_eff != {RVW{1'b0}});
        go_q     <= (rows_eff == {RVW{1'b0}});
      end else begin
        if (cg_valid && cmd_ready && cg_left == 1) cg_valid <= 1'b0;
        if (eng_in_ready) go_q <= 1'b1;
        if (running && in_cnt == N_W && dn_cnt == rows_eff) begin
          running <= 1'b0;
          done    <= 1'b1;
        end
      end
    end
  end

  always @(posedge aclk) begin
    if (accept) begin
      cg_addr <= base;
      cg_left <= rows_valid;
      in_cnt  <= {NW{1'b0}};
      dn_cnt  <= {RVW{1'b0}};
    end else begin
      if (cg_valid && cmd_ready) begin
        cg_addr <= cg_addr + pitch;
        cg_left <= cg_left - 1;
      end
      if (take) in_cnt <= in_cnt + 1;
      if (eng_done) dn_cnt <= dn_cnt + 1;
    end
  end

  // ---- Groups for the packer: with their written lanes and row marks ----
  wire                    pk_valid;
  wire                    pk_ready;
  wire [LANES*ELEM_W-1:0] pk_data;
  wire [         CNW-1:0] pk_count;
  wire                    pk_first;
  wire                    pk_last;
  wire                    pk_take = pk_valid & pk_ready;

  generate
    if (ROW_LANES != 0) begin : g_rows
      wire unused_bend;
      wire in_ready_turn;
      rubick_dma_turn #(
        .ELEM_W(ELEM_W), .LANES(LANES), .ROWS(ROWS), .COLS(COLS)
      ) u_turn (
        .aclk(aclk), .aresetn(aresetn), .start(accept), .rows_valid(rows_valid),
        .cols_valid(cols_valid), .in_valid(in_valid & running), .in_ready(in_ready_turn),
        .in_data(in_data), .out_valid(pk_valid), .out_ready(pk_ready), .out_data(pk_data),
        .out_count(pk_count), .out_first(pk_first), .out_last(pk_last), .out_bend(unused_bend)
      );
      assign in_ready = running & in_ready_turn;
    end else begin : g_cols
      // Column lanes: the stream is row-major already; count the written lanes.
      localparam integer XW = (CVW > CNW ? CVW : CNW) + 1;
      localparam integer GCW = GC > 1 ? $clog2(GC) : 1;
      localparam integer GC_LAST_I = GC - 1;
      localparam [GCW-1:0] GC_LAST = GC_LAST_I[GCW-1:0];
      localparam [XW-1:0] LX = LANES[XW-1:0];
      reg  [GCW-1:0] gc;
      reg  [ XW-1:0] cl;      // columns left in the row from this group
      reg  [RVW-1:0] r_left;  // rows left to write, from this one
      wire           rowv = (r_left != {RVW{1'b0}}) & (cols_valid != {CVW{1'b0}});
      always @(posedge aclk) begin
        if (accept) begin
          gc     <= {GCW{1'b0}};
          cl     <= {{(XW - CVW) {1'b0}}, cols_valid};
          r_left <= rows_valid;
        end else if (take) begin
          if (gc == GC_LAST) begin
            gc <= {GCW{1'b0}};
            cl <= {{(XW - CVW) {1'b0}}, cols_valid};
            if (rowv) r_left <= r_left - 1;
          end else begin
            gc <= gc + 1;
            cl <= (cl > LX) ? cl - LX : {XW{1'b0}};
          end
        end
      end
      wire [XW-1:0] cnt = (cl > LX) ? LX : cl;
      assign pk_valid = in_valid & running;
      assign in_ready = running & pk_ready;
      assign pk_data  = in_data;
      assign pk_count = rowv ? cnt[CNW-1:0] : {CNW{1'b0}};
      assign pk_first = rowv & (gc == {GCW{1'b0}});
      assign pk_last  = rowv & (cl != {XW{1'b0}}) & (cl <= LX);
      wire unused_cnt = &{1'b0, cnt[XW-1:CNW]};
    end
  endgenerate

  always @(posedge aclk) begin
    if (accept) pk_addr <= base;
    else if (pk_take && pk_last) pk_addr <= pk_addr + pitch;
  end

  // ---- Packer and AXI engine ----
  wire [    ADDR_W-1:0] pk_off = (pk_addr & BMASK) >> LGE;
  wire                  bt_valid;
  wire [    DATA_W-1:0] bt_data;
  wire [  DATA_W/8-1:0] bt_strb;

  rubick_dma_pack #(
    .DATA_W(DATA_W), .ELEM_W(ELEM_W), .LANES(LANES)
  ) u_pack (
    .aclk(aclk), .aresetn(aresetn), .clear(accept), .enable(go_q | eng_in_ready),
    .in_valid(pk_valid), .in_ready(pk_ready), .in_data(pk_data), .in_count(pk_count),
    .in_first(pk_first), .in_last(pk_last), .in_offset(pk_off[OFW-1:0]), .out_valid(bt_valid),
    .out_ready(eng_in_ready), .out_data(bt_data), .out_strb(bt_strb)
  );

  rubick_axi_wr #(
    .ADDR_W(ADDR_W), .DATA_W(DATA_W), .ID_W(ID_W), .AXI_ID(AXI_ID), .LEN_W(LEN_W),
    .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)
  ) u_axi (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(cg_valid), .cmd_ready(cmd_ready),
    .cmd_addr(cg_addr), .cmd_len(row_beats[LEN_W-1:0]), .in_valid(bt_valid),
    .in_ready(eng_in_ready), .in_data(bt_data), .in_strb(bt_strb), .done(eng_done),
    .busy(eng_busy), .error(error), .m_axi_awid(m_axi_awid), .m_axi_awaddr(m_axi_awaddr),
    .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
    .m_axi_awcache(m_axi_awcache), .m_axi_awprot(m_axi_awprot), .m_axi_awvalid(m_axi_awvalid),
    .m_axi_awready(m_axi_awready), .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb),
    .m_axi_wlast(m_axi_wlast), .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
    .m_axi_bid(m_axi_bid), .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready)
  );

  wire unused_bits = &{1'b0, eng_busy, pk_off[ADDR_W-1:OFW], row_beats[ADDR_W-1:LEN_W]};

  generate
    if (ELEM_W < 8 || (8 << LGE) != ELEM_W || DATA_W < ELEM_W) begin : g_bad_widths
      rubick_dma_wr_parameters_ELEM_W_8_times_a_power_of_2_at_most_DATA_W u_error ();
    end
    if (LANES < 1 || ROWS < 1 || COLS < 1) begin : g_bad_shape
      rubick_dma_wr_parameters_LANES_ROWS_COLS_must_be_positive u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
