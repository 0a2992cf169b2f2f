// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_recip: the divider, and behind it the division the attention datapath
// builds from it, q = rubick_scale(a, recip) with SHIFT = 32, loaded when done is high (the
// module has no parameters, so one instance covers it). Checked by test_rubick_recip.cpp.
`default_nettype none

module tb_rubick_recip (
  input  wire               clk,
  input  wire               rst,
  input  wire               start,
  input  wire        [31:0] b,
  input  wire signed [31:0] a,
  output wire               busy,
  output wire               done,
  output wire        [32:0] recip,
  output wire               q_valid,
  output wire signed [31:0] q
);

  rubick_recip u_recip (
    .clk(clk), .rst(rst), .start(start), .b(b), .busy(busy), .done(done), .recip(recip)
  );
  rubick_scale #(.A_W(32), .B_W(33), .SHIFT(32), .OUT_W(32)) u_divide (
    .clk(clk), .in_valid(done), .a(a), .b(recip), .out_valid(q_valid), .out(q)
  );

endmodule

`default_nettype wire
