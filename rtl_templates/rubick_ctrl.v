// rubick_ctrl: controller of the tile schedule (docs/cost-model.md): a cycle counter tau that
// runs TAU_FIRST..TAU_LAST inside a tile, and an odometer of outer time stamps that steps from
// tile to tile. Tiles run back to back.
//
// Timing (all synchronous):
//   rst: busy = 0, done = 0, tau = TAU_FIRST, stamps = 0 (rst wins over start).
//   start sampled while !busy: busy = 1, done = 0, tau = TAU_FIRST, stamps = 0, so the first
//     busy cycle is tau = TAU_FIRST of tile 0. start while busy is ignored.
//   while busy, each edge: if tau != TAU_LAST then tau = tau + 1; otherwise (the tile's last
//     cycle, where step is high) the odometer steps (counter 0 increments, wraps at EXTENTS[0]
//     and carries into counter 1, ...) and tau = TAU_FIRST; if that was the last tile (every
//     counter at its extent - 1) the counters wrap to 0, busy = 0 and done = 1.
//   done stays 1 until the next start (or rst). While !busy, tau = TAU_FIRST and stamps = 0.
//   With T = TAU_LAST - TAU_FIRST + 1 and N = product of EXTENTS, start sampled at edge 0 gives
//   busy in cycles 1 .. N*T and done from cycle N*T + 1.
//   step = busy && tau == TAU_LAST (combinational from the registers): connect it to every
//   rubick_agu's step.
//
// Parameters:
//   TW         width of tau (signed)
//   TAU_FIRST  first tau of a tile (signed, may be negative)
//   TAU_LAST   last tau of a tile (signed, >= TAU_FIRST)
//   NDIM       number of outer dimensions (>= 1), counter 0 innermost
//   EXTENTS    NDIM unsigned 32-bit fields, field i in bits [i*32 +: 32]; every extent >= 1 and
//              extent - 1 < 2**OW
//   OW         width of each stamp counter; counter i is stamps[i*OW +: OW]
`default_nettype none

module rubick_ctrl #(
  parameter TW = 16,
  parameter signed [TW-1:0] TAU_FIRST = -2,
  parameter signed [TW-1:0] TAU_LAST = 5,
  parameter NDIM = 1,
  parameter [NDIM*32-1:0] EXTENTS = 1,
  parameter OW = 16
) (
  input  wire                 clk,
  input  wire                 rst,
  input  wire                 start,
  output reg                  busy,
  output reg                  done,
  output reg  signed [TW-1:0] tau,
  output wire                 step,
  output wire [ NDIM*OW-1:0]  stamps
);

  localparam signed [TW-1:0] TAU_ONE = 1;
  localparam [OW-1:0] CNT_ONE = 1;

  // Field i of a packed parameter vector, modulo 2**OW.
  function [OW-1:0] field_ow;
    input [NDIM*32-1:0] fields;
    input integer i;
    integer b;
    begin
      field_ow = {OW{1'b0}};
      for (b = 0; b < OW && b < 32; b = b + 1) field_ow[b] = fields[i*32+b];
    end
  endfunction

  // wraps[i]: counter i is at its last value.
  wire [NDIM-1:0] wraps;
  wire            last_tile = &wraps;
  wire            launch = start & ~busy;

  assign step = busy && (tau == TAU_LAST);

  genvar i;
  generate
    if (TAU_LAST < TAU_FIRST) begin : g_bad_tau
      // Elaboration error on purpose: TAU_LAST must be >= TAU_FIRST.
      rubick_ctrl_parameter_TAU_LAST_must_not_be_below_TAU_FIRST u_error ();
    end

    for (i = 0; i < NDIM; i = i + 1) begin : g_dim
      localparam [31:0] EXT = EXTENTS[i*32+:32];
      localparam [OW-1:0] LAST = field_ow(EXTENTS, i) - CNT_ONE;

      if (EXT == 0 || (OW < 32 && ((EXT - 1) >> OW) != 0)) begin : g_bad_extent
        // Elaboration error on purpose: every extent must be in 1 .. 2**OW.
        rubick_ctrl_parameter_EXTENTS_must_be_1_to_2_pow_OW u_error ();
      end

      // advance: counter i increments (or wraps) at this edge.
      wire advance;
      if (i == 0) begin : g_first
        assign advance = step;
      end else begin : g_carry
        assign advance = step & (&wraps[i-1:0]);
      end

      reg [OW-1:0] cnt;
      assign wraps[i] = (cnt == LAST);
      assign stamps[i*OW+:OW] = cnt;

      always @(posedge clk) begin
        if (rst || launch) cnt <= {OW{1'b0}};
        else if (advance) cnt <= wraps[i] ? {OW{1'b0}} : cnt + CNT_ONE;
      end
    end
  endgenerate

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      done <= 1'b0;
      tau  <= TAU_FIRST;
    end else if (!busy) begin
      if (start) begin
        busy <= 1'b1;
        done <= 1'b0;
        tau  <= TAU_FIRST;
      end
    end else if (tau != TAU_LAST) begin
      tau <= tau + TAU_ONE;
    end else begin
      tau <= TAU_FIRST;
      if (last_tile) begin
        busy <= 1'b0;
        done <= 1'b1;
      end
    end
  end

endmodule

`default_nettype wire
