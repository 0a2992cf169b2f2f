// SPDX-License-Identifier: Apache-2.0
// rubick_dma_turn: the reverse corner turn of rubick_dma_wr for row lanes. Its input groups are
// columns of LANES rows (lane l = row gr * LANES + l of column gc; gr outer, gc inner); its
// output groups are LANES consecutive columns of one row, rows in order, for rubick_dma_pack.
//
// Block: the LANES rows of one gr, all COLS columns. Two blocks are buffered (double
// buffering: a block is read out while the next one comes in), in LANES skewed RAMs of
// 2 x COLS words of ELEM_W bits (2 x LANES x COLS elements in all): element (l, c) is in RAM
// (l + c) mod LANES at slot * COLS + c, so a column is written and LANES columns of a row are
// read with one access per RAM. Only blocks with rows to write are stored (the others are
// taken and dropped), and only their rows below rows_valid (none when cols_valid = 0), up to
// column cols_valid - 1, are read out.
//
// Timing: input groups are taken one per cycle, except that a block to be stored waits for its
// slot, which is freed when the block read out two blocks before has left (out_bend handshake).
// A stored block's last input group taken in cycle c: its first group can be on out_* in cycle
// c + 3 (full flag, RAM read, output register). out_* are registers (a two-entry buffer), one
// group per cycle with out_ready high. out_count = written lanes (a prefix), out_first = the
// row's first group, out_last = the group with the row's last written column, out_bend = the
// block's last group.
//
// Control: start (while idle) restarts the walk; rows_valid and cols_valid are held during the
// tile. aresetn (synchronous, active low) clears the control state.
`default_nettype none

module rubick_dma_turn #(
  parameter integer ELEM_W = 8,
  parameter integer LANES = 4,
  parameter integer ROWS = 8,
  parameter integer COLS = 4
) (
  input  wire                       aclk,
  input  wire                       aresetn,
  input  wire                       start,
  input  wire [$clog2(ROWS+1)-1:0]  rows_valid,
  input  wire [$clog2(COLS+1)-1:0]  cols_valid,
  input  wire                       in_valid,
  output wire                       in_ready,
  input  wire [  LANES*ELEM_W-1:0]  in_data,
  output reg                        out_valid,
  input  wire                       out_ready,
  output reg  [  LANES*ELEM_W-1:0]  out_data,
  output reg  [$clog2(LANES+1)-1:0] out_count,
  output reg                        out_first,
  output reg                        out_last,
  output reg                        out_bend
);

  localparam integer EW = ELEM_W;
  localparam integer RVW = $clog2(ROWS + 1);
  localparam integer CVW = $clog2(COLS + 1);
  localparam integer CNW = $clog2(LANES + 1);
  localparam integer LW = LANES > 1 ? $clog2(LANES) : 1;  // lane index
  localparam integer DEPTH = 2 * COLS;
  localparam integer DW = $clog2(DEPTH);
  // Column arithmetic and row counts, wide enough for COLS + LANES and ROWS + LANES.
  localparam integer YW0 = (DW > CVW ? DW : CVW) > LW ? (DW > CVW ? DW : CVW) : LW;
  localparam integer YW = YW0 + 2;
  localparam integer RXW = (RVW > LW ? RVW : LW) + 1;
  localparam integer LGE = $clog2(EW);
  localparam integer L_LAST_I = LANES - 1;
  localparam [LW-1:0] L_LAST = L_LAST_I[LW-1:0];
  localparam [LW:0] LANES_S = LANES[LW:0];
  localparam [YW-1:0] LANES_Y = LANES[YW-1:0];
  localparam [YW-1:0] COLS_Y = COLS[YW-1:0];
  localparam [RXW-1:0] LANES_R = LANES[RXW-1:0];
  localparam [DW-1:0] COLS_D = COLS[DW-1:0];

  // Rows to write: none without columns.
  wire [RVW-1:0] rows_eff = (cols_valid != {CVW{1'b0}}) ? rows_valid : {RVW{1'b0}};
  wire [ YW-1:0] cv = {{(YW - CVW) {1'b0}}, cols_valid};

  // ---- Write side ----
  reg  [   DW-1:0] wc;       // column in the block
  reg  [   LW-1:0] wrot;     // wc mod LANES
  reg              wslot;
  reg  [  RVW-1:0] w_left;   // rows still to store, from this block on
  reg  [      1:0] full;     // slot holds a block not yet read out
  reg              rel_slot; // the slot freed next
  wire             stored = (w_left != {RVW{1'b0}});
  wire             w_end = (wc == COLS_D - 1);
  wire [  RXW-1:0] w_left_x = {{(RXW - RVW) {1'b0}}, w_left};
  wire [  RXW-1:0] w_less = w_left_x - LANES_R;
  wire             take = in_valid & in_ready;
  assign in_ready = ~stored | ~full[wslot];

  always @(posedge aclk) begin
    if (start) begin
      wc     <= {DW{1'b0}};
      wrot   <= {LW{1'b0}};
      wslot  <= 1'b0;
      w_left <= rows_eff;
    end else if (take) begin
      wc   <= w_end ? {DW{1'b0}} : wc + 1;
      wrot <= (w_end || wrot == L_LAST) ? {LW{1'b0}} : wrot + 1;
      if (w_end && stored) begin
        wslot  <= ~wslot;
        w_left <= (w_left_x > LANES_R) ? w_less[RVW-1:0] : {RVW{1'b0}};
      end
    end
  end

  // Lane l goes to RAM (l + wc) mod LANES: RAM r takes lane (r - wrot) mod LANES.
  wire [        LW:0] w_sh = LANES_S - {1'b0, wrot};
  wire [2*LANES*EW-1:0] w_rot = {in_data, in_data} >> {w_sh, {LGE{1'b0}}};
  wire [        DW-1:0] waddr = wc + (wslot ? COLS_D : {DW{1'b0}});

  // ---- Read side: rows of the block in order, groups of LANES columns ----
  reg           rslot;
  reg  [LW-1:0] rl;        // row in the block
  reg  [YW-1:0] rcol;      // first column of the group
  reg  [YW-1:0] rcl;       // columns left in the row, from rcol
  reg  [RVW-1:0] r_left;   // rows left to read
  reg           s1_valid;
  reg  [LW-1:0] s1_rot;
  reg  [CNW-1:0] s1_count;
  reg           s1_first, s1_last, s1_bend;
  reg           sk_valid;
  reg  [LANES*EW-1:0] sk_data;
  reg  [CNW-1:0] sk_count;
  reg           sk_first, sk_last, sk_bend;

  wire       pop = out_valid & out_ready;
  wire [1:0] held = {1'b0, out_valid} + {1'b0, sk_valid} + {1'b0, s1_valid} - {1'b0, pop};
  wire       issue = full[rslot] & (r_left != {RVW{1'b0}}) & (held < 2'd2);
  wire       row_end = (rcl <= LANES_Y);
  wire       blk_end = row_end & ((rl == L_LAST) | (r_left == 1));
  wire [CNW-1:0] count = row_end ? rcl[CNW-1:0] : LANES[CNW-1:0];

  always @(posedge aclk) begin
    if (start) begin
      rslot  <= 1'b0;
      rl     <= {LW{1'b0}};
      rcol   <= {YW{1'b0}};
      rcl    <= cv;
      r_left <= rows_eff;
    end else if (issue) begin
      if (row_end) begin
        rcol   <= {YW{1'b0}};
        rcl    <= cv;
        r_left <= r_left - 1;
        rl     <= blk_end ? {LW{1'b0}} : rl + 1;
        if (blk_end) rslot <= ~rslot;
      end else begin
        rcol <= rcol + LANES_Y;
        rcl  <= rcl - LANES_Y;
      end
    end
  end

  always @(posedge aclk) begin
    if (!aresetn || start) begin
      full     <= 2'b00;
      rel_slot <= 1'b0;
    end else begin
      if (take && w_end && stored) full[wslot] <= 1'b1;
      if (pop && out_bend) begin
        full[rel_slot] <= 1'b0;
        rel_slot <= ~rel_slot;
      end
    end
  end

  // ---- The RAMs: RAM r holds lane (r - rl) mod LANES of the group being read ----
  wire [LANES*EW-1:0] rd;
  genvar r;
  generate
    for (r = 0; r < LANES; r = r + 1) begin : g_ram
      reg  [EW-1:0] mem [0:DEPTH-1];
      reg  [EW-1:0] q;
      // (r - rl) mod LANES; modulo 2**LW adding LANES to a negative difference is exact.
      wire [LW:0] d = r[LW:0] - {1'b0, rl};
      wire [LW-1:0] lane = d[LW-1:0] + (d[LW] ? LANES[LW-1:0] : {LW{1'b0}});
      wire [YW-1:0] col = rcol + {{(YW - LW) {1'b0}}, lane};
      always @(posedge aclk) begin
        if (take && stored) mem[waddr] <= w_rot[r*EW+:EW];
        // Columns past the tile hold nothing to write: no read.
        if (issue && col < COLS_Y) q <= mem[col[DW-1:0]+(rslot ? COLS_D : {DW{1'b0}})];
      end
      assign rd[r*EW+:EW] = q;
    end
  endgenerate

  // Lane l of the row comes from RAM (l + rl) mod LANES.
  wire [2*LANES*EW-1:0] s1_wide = {rd, rd} >> {s1_rot, {LGE{1'b0}}};
  wire [  LANES*EW-1:0] s1_data = s1_wide[LANES*EW-1:0];

  always @(posedge aclk) begin
    if (!aresetn || start) begin
      s1_valid  <= 1'b0;
      out_valid <= 1'b0;
      sk_valid  <= 1'b0;
    end else begin
      s1_valid <= issue;
      if (s1_valid && (!out_valid || (pop && !sk_valid))) out_valid <= 1'b1;
      else if (pop && !sk_valid) out_valid <= 1'b0;
      if (s1_valid && out_valid && !pop) sk_valid <= 1'b1;
      else if (pop && !s1_valid) sk_valid <= 1'b0;
    end
  end

  always @(posedge aclk) begin
    if (issue) begin
      s1_rot   <= rl;
      s1_count <= count;
      s1_first <= (rcol == {YW{1'b0}});
      s1_last  <= row_end;
      s1_bend  <= blk_end;
    end
    if (pop && sk_valid) begin
      out_data  <= sk_data;
      out_count <= sk_count;
      out_first <= sk_first;
      out_last  <= sk_last;
      out_bend  <= sk_bend;
    end else if (s1_valid && (!out_valid || pop)) begin
      out_data  <= s1_data;
      out_count <= s1_count;
      out_first <= s1_first;
      out_last  <= s1_last;
      out_bend  <= s1_bend;
    end
    if (s1_valid && (sk_valid ? pop : (out_valid && !pop))) begin
      sk_data  <= s1_data;
      sk_count <= s1_count;
      sk_first <= s1_first;
      sk_last  <= s1_last;
      sk_bend  <= s1_bend;
    end
  end

  wire unused_bits = &{1'b0, s1_wide[2*LANES*EW-1:LANES*EW], w_rot[2*LANES*EW-1:LANES*EW],
                       w_less[RXW-1:RVW]};

endmodule

`default_nettype wire
