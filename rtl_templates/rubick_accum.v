// SPDX-License-Identifier: Apache-2.0
// rubick_accum: in-place accumulator (the output-stationary PE register).
//
// Timing: one cycle. At every clock edge
//   acc <= init ? init_val : combine(acc, in)
// with combine by OP: acc + in (a sum), max(acc, in) or min(acc, in). There is no reset: load the
// first value with init (init_val = 0 to start a sum from zero, or the old partial result to
// continue one).
// Arithmetic: all values are signed (two's complement). The sum wraps modulo 2**W; the maximum
// and the minimum compare signed and are exact (the result is one of the two operands).
//
// Parameters:
//   W   width of init_val, in and acc (signed)
//   OP  reduction: 0 sum (the default), 1 maximum, 2 minimum (other values fail elaboration)
`default_nettype none

module rubick_accum #(
  parameter W = 20,
  parameter OP = 0
) (
  input  wire                clk,
  input  wire                init,
  input  wire signed [W-1:0] init_val,
  input  wire signed [W-1:0] in,
  output reg  signed [W-1:0] acc
);

  // combine(acc, in).
  wire signed [W-1:0] combined;

  generate
    if (OP == 0) begin : g_sum
      assign combined = acc + in;
    end else if (OP == 1) begin : g_max
      assign combined = (in > acc) ? in : acc;
    end else if (OP == 2) begin : g_min
      assign combined = (in < acc) ? in : acc;
    end else begin : g_bad_op
      // Elaboration error on purpose: OP must be 0, 1 or 2.
      rubick_accum_parameter_OP_must_be_0_to_2 u_error ();
    end
  endgenerate

  always @(posedge clk) begin
    acc <= init ? init_val : combined;
  end

endmodule

`default_nettype wire
