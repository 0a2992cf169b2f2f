// SPDX-License-Identifier: Apache-2.0
// rubick_agu: address generator for the outer time loops, built from adders only.
//
// It keeps base, the part of a bank address contributed by the outer time stamps
// (sum over i of STRIDES[i] * counter i, modulo 2**AW), in step with rubick_ctrl's odometer:
// connect step to the controller's step and pulse start together with the controller's start.
//
// Timing (all synchronous, one cycle):
//   rst or start: every counter and base become 0 (start wins over step).
//   step: counter 0 (innermost) increments; a counter at EXTENTS[i]-1 wraps to 0 and carries
//         into counter i+1, like an odometer. base then changes by +STRIDES[k] - sum over j < k
//         of STRIDES[j]*(EXTENTS[j]-1), k being the counter that increments without wrapping;
//         these NDIM constants are localparams, so the logic is one adder and a constant mux.
//         Stepping past the last tile (every counter wraps) returns everything to 0.
//   otherwise everything holds.
//   base_prev: base before the last step (0 after rst or start): the previous tile's base, for
//   a controller whose tiles overlap.
// A dimension with extent 1 never changes anything.
//
// Parameters:
//   AW       address width of base (>= 1); arithmetic is modulo 2**AW
//   NDIM     number of outer dimensions (>= 1), counter 0 innermost
//   EXTENTS  NDIM unsigned 32-bit fields, field i in bits [i*32 +: 32]; every extent >= 1
//   STRIDES  NDIM unsigned 32-bit fields, field i in bits [i*32 +: 32]
`default_nettype none

module rubick_agu #(
  parameter AW = 8,
  parameter NDIM = 1,
  parameter [NDIM*32-1:0] EXTENTS = 1,
  parameter [NDIM*32-1:0] STRIDES = 0
) (
  input  wire          clk,
  input  wire          rst,
  input  wire          start,
  input  wire          step,
  output wire [AW-1:0] base,
  output reg  [AW-1:0] base_prev
);

  localparam [AW-1:0] ONE = 1;

  // Field i of a packed parameter vector, modulo 2**AW.
  function [AW-1:0] field_aw;
    input [NDIM*32-1:0] fields;
    input integer i;
    integer b;
    begin
      field_aw = {AW{1'b0}};
      for (b = 0; b < AW && b < 32; b = b + 1) field_aw[b] = fields[i*32+b];
    end
  endfunction

  // Change of base when counter k increments and counters 0..k-1 wrap, modulo 2**AW.
  function [AW-1:0] carry_delta;
    input integer k;
    integer j;
    begin
      carry_delta = field_aw(STRIDES, k);
      for (j = 0; j < k; j = j + 1)
        carry_delta = carry_delta - field_aw(STRIDES, j) * (field_aw(EXTENTS, j) - ONE);
    end
  endfunction

  // wraps[i]: counter i is at its last value. terms: the constant selected by dimension i
  // (zero unless counter i increments without wrapping at this edge; at most one is nonzero).
  wire [     NDIM-1:0] wraps;
  wire [  NDIM*AW-1:0] terms;
  wire                 wrap_all = step & (&wraps);
  reg  [       AW-1:0] delta;

  genvar i;
  generate
    for (i = 0; i < NDIM; i = i + 1) begin : g_dim
      localparam [31:0] EXT = EXTENTS[i*32+:32];
      localparam CW = (EXT > 1) ? $clog2(EXT) : 1;
      localparam [31:0] LAST32 = EXT - 1;
      localparam [CW-1:0] LAST = LAST32[CW-1:0];
      localparam [CW-1:0] CNT_ONE = 1;
      localparam [AW-1:0] DELTA = carry_delta(i);

      if (EXT == 0) begin : g_bad_extent
        // Elaboration error on purpose: every extent must be >= 1.
        rubick_agu_parameter_EXTENTS_must_be_positive u_error ();
      end

      // advance: counter i increments (or wraps) at this edge.
      wire advance;
      if (i == 0) begin : g_first
        assign advance = step;
      end else begin : g_carry
        assign advance = step & (&wraps[i-1:0]);
      end

      reg [CW-1:0] cnt;
      assign wraps[i] = (cnt == LAST);
      assign terms[i*AW+:AW] = {AW{advance & ~wraps[i]}} & DELTA;

      always @(posedge clk) begin
        if (rst || start) cnt <= {CW{1'b0}};
        else if (advance) cnt <= wraps[i] ? {CW{1'b0}} : cnt + CNT_ONE;
      end
    end
  endgenerate

  integer k;
  always @* begin
    delta = {AW{1'b0}};
    for (k = 0; k < NDIM; k = k + 1) delta = delta | terms[k*AW+:AW];
  end

  reg [AW-1:0] base_r;

  always @(posedge clk) begin
    if (rst || start || wrap_all) base_r <= {AW{1'b0}};
    else if (step) base_r <= base_r + delta;
  end

  assign base = base_r;

  always @(posedge clk) begin
    if (rst || start) base_prev <= {AW{1'b0}};
    else if (step) base_prev <= base_r;
  end

endmodule

`default_nettype wire
