// SPDX-License-Identifier: Apache-2.0
// rubick_hold: a held (stationary) register, loaded once and kept.
//
// Timing: one cycle. At every clock edge q <= load ? d : q. No reset: q is undefined until the
// first load.
//
// Parameters:
//   W  data width
`default_nettype none

module rubick_hold #(
  parameter W = 8
) (
  input  wire         clk,
  input  wire         load,
  input  wire [W-1:0] d,
  output reg  [W-1:0] q
);

  always @(posedge clk) begin
    if (load) q <= d;
  end

endmodule

`default_nettype wire
