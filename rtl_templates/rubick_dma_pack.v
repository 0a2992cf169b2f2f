// SPDX-License-Identifier: Apache-2.0
// rubick_dma_pack: packs the groups of a tile's rows into bus beats with byte strobes, each row
// realigned to its start address (part of rubick_dma_wr). A group carries up to LANES
// consecutive elements of one row: in_count of them are written (a prefix; 0: nothing, the
// group is dropped); in_first marks a row's first group, whose element 0 goes to element slot
// in_offset of the row's first beat (the row's byte address mod DATA_W/8, in elements);
// in_last marks the group holding the row's last written element, after which the row's last
// (partial) beat goes out. Beats carry the row's bytes in address order, the strobes high
// exactly on written elements; a row's first beat is the aligned beat holding its first element.
//
// Each cycle the held group's next elements go into a window of two beats behind the current
// partial beat; when the first beat of the window is complete (or the row ends) it goes out.
// So a group that completes k beats is held max(1, k) cycles (k counts the row's final partial
// beat when the group is the row's last) and the input waits meanwhile (in_ready low); at most
// one beat leaves per cycle and, with out_ready high, nothing else stalls.
//
// out_valid, out_data and out_strb are combinational from the input group and the registers;
// out_ready and enable gate in_ready and every state change (no change while the beat waits).
// clear (with start of a tile) empties the partial beat. aresetn (synchronous, active low) too.
//
// Parameters: DATA_W (a multiple of ELEM_W), ELEM_W (8 x a power of two), LANES (>= 1).
`default_nettype none

module rubick_dma_pack #(
  parameter integer DATA_W = 64,
  parameter integer ELEM_W = 8,
  parameter integer LANES = 4
) (
  input  wire                                                       aclk,
  input  wire                                                       aresetn,
  input  wire                                                       clear,
  input  wire                                                       enable,
  input  wire                                                       in_valid,
  output wire                                                       in_ready,
  input  wire [                                   LANES*ELEM_W-1:0] in_data,
  input  wire [                                $clog2(LANES+1)-1:0] in_count,
  input  wire                                                       in_first,
  input  wire                                                       in_last,
  input  wire [((DATA_W/ELEM_W > 1) ? $clog2(DATA_W/ELEM_W) : 1)-1:0] in_offset,
  output wire                                                       out_valid,
  input  wire                                                       out_ready,
  output reg  [                                         DATA_W-1:0] out_data,
  output reg  [                                       DATA_W/8-1:0] out_strb
);

  localparam integer BE = DATA_W / ELEM_W;  // elements per beat
  localparam integer EB = ELEM_W / 8;  // bytes per element
  localparam integer OFW = BE > 1 ? $clog2(BE) : 1;
  localparam integer CNW = $clog2(LANES + 1);
  localparam integer XW = (CNW > OFW + 1 ? CNW : OFW + 1) + 1;  // counts up to 2 beats
  localparam integer LGE = $clog2(ELEM_W);
  localparam integer WE = 2 * BE;  // window slots
  localparam integer SW = (LANES + WE) * ELEM_W;  // shifter width: no lane is lost
  localparam [XW-1:0] BEX = BE[XW-1:0];
  localparam integer ROOM_I = WE - 1;  // slots a cycle can fill
  localparam [XW-1:0] ROOM = ROOM_I[XW-1:0];

  reg  [DATA_W-1:0] cur;    // the partial beat
  reg  [    BE-1:0] cur_s;  // its written elements
  reg  [   OFW-1:0] f;      // its slots already decided
  reg  [   CNW-1:0] t;      // lanes of the held group already placed

  wire              row_start = in_first & (t == {CNW{1'b0}});
  wire [    XW-1:0] f_eff = {{(XW - OFW) {1'b0}}, row_start ? in_offset : f};
  wire [    XW-1:0] rem = {{(XW - CNW) {1'b0}}, in_count - t};
  wire [    XW-1:0] room = ROOM - f_eff;
  wire [    XW-1:0] n = (rem < room) ? rem : room;
  wire [    XW-1:0] fill = f_eff + n;
  wire              full = (fill >= BEX);
  wire              ends = (n == rem);  // the group's last lane is placed now
  wire              fin = in_last & ends;  // and it is the row's last
  wire              emit = full | (fin & (fill != {XW{1'b0}}));
  wire              pend = full & fin & (fill != BEX);  // the row's tail goes out next cycle
  wire              step = enable & in_valid & (~emit | out_ready);

  assign in_ready  = enable & ends & ~pend & (~emit | out_ready);
  assign out_valid = enable & in_valid & emit;

  // The window: the partial beat, then the group's lanes t.. from slot f_eff on.
  wire [SW-1:0] shifted = ({{(SW - LANES * ELEM_W) {1'b0}}, in_data} >> {t, {LGE{1'b0}}}) <<
                          {f_eff, {LGE{1'b0}}};
  reg  [WE*ELEM_W-1:0] win;
  reg  [       WE-1:0] win_s;
  integer s, k;
  always @* begin
    for (s = 0; s < WE; s = s + 1) begin
      if (s[XW-1:0] >= f_eff && s[XW-1:0] < fill) begin
        win[s*ELEM_W+:ELEM_W] = shifted[s*ELEM_W+:ELEM_W];
        win_s[s] = 1'b1;
      end else if (s < BE) begin
        win[s*ELEM_W+:ELEM_W] = cur[s*ELEM_W+:ELEM_W];
        win_s[s] = cur_s[s];
      end else begin
        win[s*ELEM_W+:ELEM_W] = {ELEM_W{1'b0}};
        win_s[s] = 1'b0;
      end
    end
    out_data = win[DATA_W-1:0];
    for (s = 0; s < BE; s = s + 1) for (k = 0; k < EB; k = k + 1) out_strb[s*EB+k] = win_s[s];
  end

  wire [XW-1:0] f_next = full ? fill - BEX : (fin ? {XW{1'b0}} : fill);

  always @(posedge aclk) begin
    if (!aresetn || clear) begin
      cur_s <= {BE{1'b0}};
      f     <= {OFW{1'b0}};
      t     <= {CNW{1'b0}};
    end else if (step) begin
      cur_s <= full ? win_s[WE-1:BE] : (fin ? {BE{1'b0}} : win_s[BE-1:0]);
      f     <= f_next[OFW-1:0];
      t     <= (ends && !pend) ? {CNW{1'b0}} : t + n[CNW-1:0];
    end
  end

  always @(posedge aclk) if (step) cur <= full ? win[WE*ELEM_W-1:DATA_W] : win[DATA_W-1:0];

  wire unused_bits = &{1'b0, f_next[XW-1:OFW]};

  generate
    if (ELEM_W < 8 || (8 << (LGE - 3)) != ELEM_W || DATA_W < ELEM_W || DATA_W % ELEM_W != 0)
    begin : g_bad_widths
      rubick_dma_pack_parameters_ELEM_W_8_times_a_power_of_2_dividing_DATA_W u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
