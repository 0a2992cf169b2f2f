// SPDX-License-Identifier: Apache-2.0
// rubick_psum: one stage of a systolic partial-sum chain (or of a running maximum or minimum).
//
// Timing: one cycle. At every clock edge
//   sum_out <= combine(sum_in, add)
// with combine by OP: sum_in + add (a sum), max(sum_in, add) or min(sum_in, add). No reset:
// sum_out is undefined until the first clock edge.
// Arithmetic: all values are signed (two's complement). The sum wraps modulo 2**W; the maximum
// and the minimum compare signed and are exact (the result is one of the two operands).
//
// Parameters:
//   W   width of sum_in, add and sum_out (signed)
//   OP  reduction: 0 sum (the default), 1 maximum, 2 minimum (other values fail elaboration)
`default_nettype none

module rubick_psum #(
  parameter W = 20,
  parameter OP = 0
) (
  input  wire                clk,
  input  wire signed [W-1:0] sum_in,
  input  wire signed [W-1:0] add,
  output reg  signed [W-1:0] sum_out
);

  // combine(sum_in, add).
  wire signed [W-1:0] combined;

  generate
    if (OP == 0) begin : g_sum
      assign combined = sum_in + add;
    end else if (OP == 1) begin : g_max
      assign combined = (add > sum_in) ? add : sum_in;
    end else if (OP == 2) begin : g_min
      assign combined = (add < sum_in) ? add : sum_in;
    end else begin : g_bad_op
      // Elaboration error on purpose: OP must be 0, 1 or 2.
      rubick_psum_parameter_OP_must_be_0_to_2 u_error ();
    end
  endgenerate

  always @(posedge clk) begin
    sum_out <= combined;
  end

endmodule

`default_nettype wire
