// SPDX-License-Identifier: Apache-2.0
// rubick_pipe: one stage of a systolic data chain (a plain register).
//
// Timing: one cycle. At every clock edge q <= d. No reset: q is undefined until the first
// clock edge.
//
// Parameters:
//   W  data width
`default_nettype none

module rubick_pipe #(
  parameter W = 8
) (
  input  wire         clk,
  input  wire [W-1:0] d,
  output reg  [W-1:0] q
);

  always @(posedge clk) begin
    q <= d;
  end

endmodule

`default_nettype wire
