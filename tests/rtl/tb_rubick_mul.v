// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_mul: one instance per configuration, all fed from the same operands
// (each takes the low bits it needs); c0..c8 output 0 on invalid cycles (INVALID at its
// default), c9..c16 another INVALID. The configurations are listed in test_rubick_mul.cpp.
`default_nettype none

module tb_rubick_mul (
  input  wire        clk,
  input  wire        valid,
  input  wire [15:0] op0,
  input  wire [15:0] op1,
  input  wire [15:0] op2,
  input  wire [15:0] op3,
  output wire [ 7:0] prod_c0,
  output wire [15:0] prod_c1,
  output wire [ 3:0] prod_c2,
  output wire [17:0] prod_c3,
  output wire [16:0] prod_c4,
  output wire [63:0] prod_c5,
  output wire [11:0] prod_c6,
  output wire [ 8:0] prod_c7,
  output wire [29:0] prod_c8,
  output wire [ 7:0] prod_c9,
  output wire [15:0] prod_c10,
  output wire [32:0] prod_c11,
  output wire [32:0] prod_c12,
  output wire [63:0] prod_c13,
  output wire [69:0] prod_c14,
  output wire [69:0] prod_c15,
  output wire [ 0:0] prod_c16
);

  // c0: N=1, one 8-bit operand.
  rubick_mul #(.N(1), .W0(8), .PW(8)) u_c0 (
    .clk(clk), .valid(valid), .op0(op0[7:0]), .op1(op1[7:0]), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c0)
  );
  // c1: the defaults, 8 x 8 -> 16.
  rubick_mul u_c1 (
    .clk(clk), .valid(valid), .op0(op0[7:0]), .op1(op1[7:0]), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c1)
  );
  // c2: N=2 with a 1-bit operand, 1 x 3 -> 4.
  rubick_mul #(.N(2), .W0(1), .W1(3), .PW(4)) u_c2 (
    .clk(clk), .valid(valid), .op0(op0[0:0]), .op1(op1[2:0]), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c2)
  );
  // c3: N=3, 8 x 4 x 6 -> 18.
  rubick_mul #(.N(3), .W0(8), .W1(4), .W2(6), .PW(18)) u_c3 (
    .clk(clk), .valid(valid), .op0(op0[7:0]), .op1(op1[3:0]), .op2(op2[5:0]), .op3(op3[7:0]),
    .prod(prod_c3)
  );
  // c4: N=4, 3 x 5 x 7 x 2 -> 17.
  rubick_mul #(.N(4), .W0(3), .W1(5), .W2(7), .W3(2), .PW(17)) u_c4 (
    .clk(clk), .valid(valid), .op0(op0[2:0]), .op1(op1[4:0]), .op2(op2[6:0]), .op3(op3[1:0]),
    .prod(prod_c4)
  );
  // c5: N=4, 16 x 16 x 16 x 16 -> 64.
  rubick_mul #(.N(4), .W0(16), .W1(16), .W2(16), .W3(16), .PW(64)) u_c5 (
    .clk(clk), .valid(valid), .op0(op0), .op1(op1), .op2(op2), .op3(op3), .prod(prod_c5)
  );
  // c6: N=2, 8 x 8 truncated to 12 bits.
  rubick_mul #(.N(2), .W0(8), .W1(8), .PW(12)) u_c6 (
    .clk(clk), .valid(valid), .op0(op0[7:0]), .op1(op1[7:0]), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c6)
  );
  // c7: N=1, 5 bits sign-extended to 9.
  rubick_mul #(.N(1), .W0(5), .PW(9)) u_c7 (
    .clk(clk), .valid(valid), .op0(op0[4:0]), .op1(op1[7:0]), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c7)
  );
  // c8: N=3, 2 x 16 x 9 -> 27, sign-extended to 30.
  rubick_mul #(.N(3), .W0(2), .W1(16), .W2(9), .PW(30)) u_c8 (
    .clk(clk), .valid(valid), .op0(op0[1:0]), .op1(op1), .op2(op2[8:0]), .op3(op3[7:0]),
    .prod(prod_c8)
  );

  // With INVALID: the value of an invalid cycle, its low PW bits (PW <= 64) or sign-extended
  // from bit 63 (PW > 64).
  // c9: N=1, 8 -> 8, invalid -128 (written as 64 bits: only the low 8 bits are used).
  rubick_mul #(.N(1), .W0(8), .PW(8), .INVALID(-64'sd128)) u_c9 (
    .clk(clk), .valid(valid), .op0(op0[7:0]), .op1(op1[7:0]), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c9)
  );
  // c10: N=2, 8 x 8 -> 16, invalid the most positive 16-bit value.
  rubick_mul #(.N(2), .W0(8), .W1(8), .PW(16), .INVALID(64'h7fff)) u_c10 (
    .clk(clk), .valid(valid), .op0(op0[7:0]), .op1(op1[7:0]), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c10)
  );
  // c11: N=3, 16 x 8 x 9 -> 33, invalid the most negative 33-bit value.
  rubick_mul #(.N(3), .W0(16), .W1(8), .W2(9), .PW(33), .INVALID(64'h00000001_00000000)) u_c11 (
    .clk(clk), .valid(valid), .op0(op0), .op1(op1[7:0]), .op2(op2[8:0]), .op3(op3[7:0]),
    .prod(prod_c11)
  );
  // c12: N=2, 16 x 16 -> 32, sign-extended to 33, invalid the most positive 33-bit value with
  // other bits above (ignored).
  rubick_mul #(.N(2), .W0(16), .W1(16), .PW(33), .INVALID(64'hdeadbeee_ffffffff)) u_c12 (
    .clk(clk), .valid(valid), .op0(op0), .op1(op1), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c12)
  );
  // c13: N=4, 16 x 16 x 16 x 16 -> 64, invalid the most negative 64-bit value.
  rubick_mul #(
    .N(4), .W0(16), .W1(16), .W2(16), .W3(16), .PW(64), .INVALID(64'h80000000_00000000)
  ) u_c13 (
    .clk(clk), .valid(valid), .op0(op0), .op1(op1), .op2(op2), .op3(op3), .prod(prod_c13)
  );
  // c14: N=2, 16 x 16 -> 32, sign-extended to 70; INVALID sign-extended (ones above).
  rubick_mul #(.N(2), .W0(16), .W1(16), .PW(70), .INVALID(64'h80000000_00000001)) u_c14 (
    .clk(clk), .valid(valid), .op0(op0), .op1(op1), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c14)
  );
  // c15: N=3, 16 x 16 x 16 -> 48, sign-extended to 70; INVALID sign-extended (zeros above).
  rubick_mul #(.N(3), .W0(16), .W1(16), .W2(16), .PW(70), .INVALID(64'h7fffffff_fffffffe)) u_c15 (
    .clk(clk), .valid(valid), .op0(op0), .op1(op1), .op2(op2), .op3(op3[7:0]), .prod(prod_c15)
  );
  // c16: N=1, 1 -> 1, invalid -1.
  rubick_mul #(.N(1), .W0(1), .PW(1), .INVALID(64'h1)) u_c16 (
    .clk(clk), .valid(valid), .op0(op0[0:0]), .op1(op1[7:0]), .op2(op2[7:0]), .op3(op3[7:0]),
    .prod(prod_c16)
  );

endmodule

`default_nettype wire
