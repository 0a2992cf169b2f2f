// SPDX-License-Identifier: Apache-2.0
// rubick_dma_rd_cols: the column-lanes half of rubick_dma_rd (see there for the ports and the
// timing). Reads the tile row by row, one read command per row, realigns each row's beats to
// its first element and cuts the element stream into write groups of LANES consecutive columns
// through a shift buffer of BUF_ELEMS elements (a gearbox: DATA_W and LANES*ELEM_W need not
// divide each other).
//
// Commands: row r (r < rows_valid) covers the aligned beats around bytes
//   [base + r*pitch, base + r*pitch + cols_valid*ELEM_W/8). When the rows are contiguous
//   (pitch = cols_valid*ELEM_W/8) the tile is one run: each command starts where the previous
//   one ended (a beat holding the end of one row and the start of the next is read once) and
//   the realigner sees one stream of rows_valid*cols_valid elements.
// Buffer: a beat is taken while the buffer has room for a whole beat (cnt <= BUF_ELEMS - EPB,
//   EPB = DATA_W/ELEM_W elements per beat); a group leaves when the buffer holds its elements
//   (need = real columns of the group; zero for groups past cols_valid or rows_valid).
`default_nettype none

module rubick_dma_rd_cols #(
  parameter integer ADDR_W = 32,
  parameter integer DATA_W = 32,
  parameter integer ELEM_W = 8,
  parameter integer LANES = 3,
  parameter integer ROWS = 2,
  parameter integer COLS = 6,
  parameter integer LEN_W = 20,
  parameter integer BUF_ELEMS = 2 * (DATA_W / ELEM_W) + 2 * LANES +
                                ((LANES > DATA_W / ELEM_W) ? COLS : 0)
) (
  input  wire                              aclk,
  input  wire                              aresetn,
  input  wire                              start,
  input  wire [                ADDR_W-1:0] base,
  input  wire [                ADDR_W-1:0] pitch,
  input  wire [    $clog2(ROWS + 1) - 1:0] rows_valid,
  input  wire [    $clog2(COLS + 1) - 1:0] cols_valid,
  output reg                               busy,
  // Read commands (to rubick_axi_rd).
  output reg                               cmd_valid,
  input  wire                              cmd_ready,
  output reg  [                ADDR_W-1:0] cmd_addr,
  output reg  [                 LEN_W-1:0] cmd_len,
  // Beats (from rubick_axi_rd).
  input  wire                              in_valid,
  output wire                              in_ready,
  input  wire [                DATA_W-1:0] in_data,
  // Write groups.
  output reg                               out_valid,
  input  wire                              out_ready,
  output reg  [          LANES*ELEM_W-1:0] out_data,
  output reg  [                 LANES-1:0] out_mask,
  output reg                               out_last
);

  localparam integer EB = ELEM_W / 8;  // bytes per element
  localparam integer LOG_EB = $clog2(EB);
  localparam integer LOG_EW = $clog2(ELEM_W);
  localparam integer ASZ = $clog2(DATA_W / 8);
  localparam integer EPB = DATA_W / ELEM_W;
  localparam integer CAP = BUF_ELEMS;
  localparam integer GC = (COLS + LANES - 1) / LANES;  // groups per row
  localparam integer RW = $clog2(ROWS + 1);
  localparam integer CW = $clog2(COLS + 1);
  localparam integer NW = $clog2(((CAP > COLS) ? CAP : COLS) + 1);  // element counts
  // Zero as a constant, not a replication: Verilator flags replications above 8k bits.
  localparam [CAP*ELEM_W-1:0] SBUF_ZERO = 0;
  localparam integer GW = (GC > 1) ? $clog2(GC) : 1;
  localparam integer SW = (EPB > 1) ? $clog2(EPB) : 1;  // skip within a beat
  localparam [ADDR_W-1:0] ALIGN = {ADDR_W{1'b1}} << ASZ;
  localparam [ADDR_W-1:0] BEAT_M1 = ~ALIGN;
  localparam integer LAST_LANES = COLS - (GC - 1) * LANES;  // lanes inside the tile, last group
  localparam [LANES-1:0] LAST_MASK = ~({LANES{1'b1}} << LAST_LANES);
  localparam [GW-1:0] GC_LAST = GC[GW-1:0] - 1'b1;
  localparam [RW-1:0] ROWS_LAST = ROWS[RW-1:0] - 1'b1;
  localparam [NW-1:0] ROOM = CAP[NW-1:0] - EPB[NW-1:0];  // most elements before a beat
  localparam [CW-1:0] LANES_C = LANES[CW-1:0];
  localparam [NW:0] EPB_N = EPB[NW:0];

  wire [ADDR_W-1:0] cv_bytes = {{(ADDR_W - CW) {1'b0}}, cols_valid} << LOG_EB;
  wire              merged = (pitch == cv_bytes);
  wire              empty = (rows_valid == 0) | (cols_valid == 0);

  // ---- Commands: one per row ----
  reg              c_on;  // rows left to issue
  reg [    RW-1:0] c_left;
  reg [ADDR_W-1:0] c_row;  // byte address of the row's element 0
  reg [ADDR_W-1:0] c_prev;  // merged: where the previous command ended
  reg              c_first;
  wire [ADDR_W-1:0] c_end = (c_row + cv_bytes + BEAT_M1) & ALIGN;
  wire [ADDR_W-1:0] c_from = (merged & ~c_first) ? c_prev : (c_row & ALIGN);
  wire [ADDR_W-1:0] c_beats = (c_end - c_from) >> ASZ;
  wire [LEN_W+ADDR_W-1:0] c_beats_x = {{LEN_W{1'b0}}, c_beats};
  wire              c_next = c_on & (~cmd_valid | cmd_ready);

  always @(posedge aclk) begin
    if (!aresetn) begin
      c_on      <= 1'b0;
      cmd_valid <= 1'b0;
    end else if (start && !busy) begin
      c_on      <= ~empty;
      cmd_valid <= 1'b0;
    end else begin
      if (cmd_ready) cmd_valid <= 1'b0;
      if (c_next) begin
        cmd_valid <= (c_beats != 0);  // a merged row inside the previous beat reads nothing
        if (c_left == 1) c_on <= 1'b0;
      end
    end
  end

  always @(posedge aclk) begin
    if (start && !busy) begin
      c_left  <= rows_valid;
      c_row   <= base;
      c_first <= 1'b1;
    end else if (c_next) begin
      cmd_addr <= c_from;
      cmd_len  <= c_beats_x[LEN_W-1:0];
      c_prev   <= c_end;
      c_left   <= c_left - 1'b1;
      c_row    <= c_row + pitch;
      c_first  <= 1'b0;
    end
  end

  // ---- Realigner: the useful elements of each beat ----
  reg  [ADDR_W-1:0] d_row;  // address of the current row's element 0
  reg  [    CW-1:0] d_left;  // elements of the row still to come (unmerged)
  reg               d_first;  // the next beat is the row's (run's) first
  reg  [    NW-1:0] cnt;  // elements in the buffer
  wire [ADDR_W-1:0] d_off = (d_row & BEAT_M1) >> LOG_EB;
  wire [    SW-1:0] skip = d_first ? d_off[SW-1:0] : {SW{1'b0}};
  wire [      NW:0] avail = EPB_N - {{(NW + 1 - SW) {1'b0}}, skip};
  wire              cap_row = ~merged & ({{(NW + 1 - CW) {1'b0}}, d_left} < avail);
  wire [      NW:0] useful = cap_row ? {{(NW + 1 - CW) {1'b0}}, d_left} : avail;
  wire              in_fire = in_valid & in_ready;
  wire [DATA_W-1:0] in_elems = (in_data >> {skip, {LOG_EW{1'b0}}}) &
                               ~({DATA_W{1'b1}} << {useful, {LOG_EW{1'b0}}});

  assign in_ready = busy & (cnt <= ROOM);

  always @(posedge aclk) begin
    if (start && !busy) begin
      d_row   <= base;
      d_left  <= cols_valid;
      d_first <= 1'b1;
    end else if (in_fire) begin
      d_first <= ~merged & (d_left == useful[CW-1:0]);
      if (~merged && d_left == useful[CW-1:0]) begin  // the row's last beat
        d_row  <= d_row + pitch;
        d_left <= cols_valid;
      end else begin
        d_left <= d_left - useful[CW-1:0];
      end
    end
  end

  // ---- Groups ----
  reg           o_on;
  reg  [RW-1:0] o_row;
  reg  [GW-1:0] o_gc;
  reg  [CW-1:0] o_cols;  // real columns left in the row
  reg           o_real;  // the row is below rows_valid
  wire [CW-1:0] need = ~o_real ? {CW{1'b0}} : (o_cols < LANES_C) ? o_cols : LANES_C;
  wire [NW-1:0] need_n = {{(NW - CW) {1'b0}}, need};
  wire          o_fire = o_on & (~out_valid | out_ready) & (cnt >= need_n);
  wire [NW-1:0] take = o_fire ? need_n : {NW{1'b0}};
  wire          row_end = (o_gc == GC_LAST);
  wire          tile_end = row_end & (o_row == ROWS_LAST);

  reg  [CAP*ELEM_W-1:0] sbuf;
  wire [      NW-1:0] keep = cnt - take;
  wire [CAP*ELEM_W-1:0] ins = {{(CAP * ELEM_W - DATA_W) {1'b0}}, in_elems};
  wire [LANES*ELEM_W-1:0] need_mask = ~({(LANES * ELEM_W) {1'b1}} << {need, {LOG_EW{1'b0}}});

  always @(posedge aclk) begin
    if (!aresetn) begin
      busy      <= 1'b0;
      o_on      <= 1'b0;
      out_valid <= 1'b0;
    end else if (start && !busy) begin
      busy <= 1'b1;
      o_on <= 1'b1;
    end else begin
      if (out_valid && out_ready) begin
        out_valid <= 1'b0;
        if (out_last) busy <= 1'b0;
      end
      if (o_fire) begin
        out_valid <= 1'b1;
        if (tile_end) o_on <= 1'b0;
      end
    end
  end

  always @(posedge aclk) begin
    if (start && !busy) begin
      cnt    <= {NW{1'b0}};
      sbuf   <= SBUF_ZERO;
      o_row  <= {RW{1'b0}};
      o_gc   <= {GW{1'b0}};
      o_cols <= cols_valid;
      o_real <= (rows_valid != 0);
    end else begin
      cnt  <= keep + (in_fire ? useful[NW-1:0] : {NW{1'b0}});
      sbuf <= (sbuf >> {take, {LOG_EW{1'b0}}}) | (in_fire ? ins << {keep, {LOG_EW{1'b0}}} : SBUF_ZERO);
      if (o_fire) begin
        out_data <= sbuf[LANES*ELEM_W-1:0] & need_mask;
        out_mask <= row_end ? LAST_MASK : {LANES{1'b1}};
        out_last <= tile_end;
        if (row_end) begin
          o_gc   <= {GW{1'b0}};
          o_cols <= cols_valid;
          o_row  <= o_row + 1'b1;
          o_real <= ({1'b0, o_row} + 1'b1 < {1'b0, rows_valid});
        end else begin
          o_gc   <= o_gc + 1'b1;
          o_cols <= o_cols - need;
        end
      end
    end
  end

  wire unused_bits = &{1'b0, c_beats_x, useful[NW], avail[NW], d_off};

endmodule

`default_nettype wire
