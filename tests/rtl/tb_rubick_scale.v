// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_scale: one instance per configuration, all fed from the same a and b
// (each takes the low bits it needs). The configurations are listed in test_rubick_scale.cpp.
`default_nettype none

module tb_rubick_scale (
  input  wire        clk,
  input  wire        in_valid,
  input  wire [63:0] a,
  input  wire [32:0] b,
  output wire        valid_s0,
  output wire [31:0] out_s0,
  output wire        valid_s1,
  output wire [ 7:0] out_s1,
  output wire        valid_s2,
  output wire [39:0] out_s2,
  output wire        valid_s3,
  output wire [ 3:0] out_s3,
  output wire        valid_s4,
  output wire [11:0] out_s4,
  output wire        valid_s5,
  output wire [ 2:0] out_s5,
  output wire        valid_s6,
  output wire [63:0] out_s6,
  output wire        valid_s7,
  output wire [ 0:0] out_s7,
  output wire        valid_s8,
  output wire [24:0] out_s8,
  output wire        valid_s9,
  output wire [29:0] out_s9
);

  // s0: the defaults: U / l through the reciprocal, int32 out.
  rubick_scale u_s0 (
    .clk(clk), .in_valid(in_valid), .a(a[31:0]), .b(b[32:0]), .out_valid(valid_s0),
    .out(out_s0)
  );
  // s1: the same division saturated to int8.
  rubick_scale #(.A_W(32), .B_W(33), .SHIFT(32), .OUT_W(8)) u_s1 (
    .clk(clk), .in_valid(in_valid), .a(a[31:0]), .b(b[32:0]), .out_valid(valid_s1),
    .out(out_s1)
  );
  // s2: the alpha rescale of a 40-bit running sum.
  rubick_scale #(.A_W(40), .B_W(15), .SHIFT(15), .OUT_W(40)) u_s2 (
    .clk(clk), .in_valid(in_valid), .a(a[39:0]), .b(b[14:0]), .out_valid(valid_s2),
    .out(out_s2)
  );
  // s3: small, tested exhaustively.
  rubick_scale #(.A_W(5), .B_W(4), .SHIFT(3), .OUT_W(4)) u_s3 (
    .clk(clk), .in_valid(in_valid), .a(a[4:0]), .b(b[3:0]), .out_valid(valid_s3),
    .out(out_s3)
  );
  // s4: SHIFT = 0 (no rounding term), saturating.
  rubick_scale #(.A_W(8), .B_W(8), .SHIFT(0), .OUT_W(12)) u_s4 (
    .clk(clk), .in_valid(in_valid), .a(a[7:0]), .b(b[7:0]), .out_valid(valid_s4),
    .out(out_s4)
  );
  // s5: SHIFT beyond the product: only 0 and -1 remain.
  rubick_scale #(.A_W(8), .B_W(4), .SHIFT(20), .OUT_W(3)) u_s5 (
    .clk(clk), .in_valid(in_valid), .a(a[7:0]), .b(b[3:0]), .out_valid(valid_s5),
    .out(out_s5)
  );
  // s6: the widest: 64-bit a.
  rubick_scale #(.A_W(64), .B_W(33), .SHIFT(32), .OUT_W(64)) u_s6 (
    .clk(clk), .in_valid(in_valid), .a(a[63:0]), .b(b[32:0]), .out_valid(valid_s6),
    .out(out_s6)
  );
  // s7: 1-bit everything.
  rubick_scale #(.A_W(1), .B_W(1), .SHIFT(0), .OUT_W(1)) u_s7 (
    .clk(clk), .in_valid(in_valid), .a(a[0:0]), .b(b[0:0]), .out_valid(valid_s7),
    .out(out_s7)
  );
  // s8: shifted sum exactly OUT_W wide.
  rubick_scale #(.A_W(16), .B_W(15), .SHIFT(8), .OUT_W(25)) u_s8 (
    .clk(clk), .in_valid(in_valid), .a(a[15:0]), .b(b[14:0]), .out_valid(valid_s8),
    .out(out_s8)
  );
  // s9: shifted sum narrower than OUT_W: sign-extended.
  rubick_scale #(.A_W(16), .B_W(16), .SHIFT(8), .OUT_W(30)) u_s9 (
    .clk(clk), .in_valid(in_valid), .a(a[15:0]), .b(b[15:0]), .out_valid(valid_s9),
    .out(out_s9)
  );

endmodule

`default_nettype wire
