// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_hold: one instance per width, all fed from the same inputs (each takes the
// low W bits). The configurations are listed in test_rubick_hold.cpp.
`default_nettype none

module tb_rubick_hold (
  input  wire        clk,
  input  wire        load,
  input  wire [99:0] d,
  output wire [ 7:0] q_w8,
  output wire [ 0:0] q_w1,
  output wire [39:0] q_w40,
  output wire [99:0] q_w100
);

  rubick_hold u_w8 (.clk(clk), .load(load), .d(d[7:0]), .q(q_w8));
  rubick_hold #(.W(1)) u_w1 (.clk(clk), .load(load), .d(d[0:0]), .q(q_w1));
  rubick_hold #(.W(40)) u_w40 (.clk(clk), .load(load), .d(d[39:0]), .q(q_w40));
  rubick_hold #(.W(100)) u_w100 (.clk(clk), .load(load), .d(d), .q(q_w100));

endmodule

`default_nettype wire
