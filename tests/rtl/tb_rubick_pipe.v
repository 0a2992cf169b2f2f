// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_pipe: one instance per width, all fed from the same input (each takes the
// low W bits). The configurations are listed in test_rubick_pipe.cpp.
`default_nettype none

module tb_rubick_pipe (
  input  wire        clk,
  input  wire [99:0] d,
  output wire [ 7:0] q_w8,
  output wire [ 0:0] q_w1,
  output wire [99:0] q_w100
);

  rubick_pipe u_w8 (.clk(clk), .d(d[7:0]), .q(q_w8));
  rubick_pipe #(.W(1)) u_w1 (.clk(clk), .d(d[0:0]), .q(q_w1));
  rubick_pipe #(.W(100)) u_w100 (.clk(clk), .d(d), .q(q_w100));

endmodule

`default_nettype wire
