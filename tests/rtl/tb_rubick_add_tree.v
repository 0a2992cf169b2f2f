// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_add_tree: one instance per configuration, sums (OP = 0), maxima (OP = 1,
// outputs max_*) and minima (OP = 2, outputs min_*). Group a (16-bit inputs, mostly 20-bit
// results) shares in_a, group b (odd widths, truncation) shares in_b, each instance taking the low
// N*WI bits; the larger trees share in_big. The configurations are listed in
// test_rubick_add_tree.cpp.
`default_nettype none

module tb_rubick_add_tree (
  input  wire          clk,
  input  wire [ 255:0] in_a,
  input  wire [  55:0] in_b,
  input  wire [ 399:0] in_big,
  output wire [  19:0] sum_a1,
  output wire [  19:0] sum_a2,
  output wire [  19:0] sum_a3,
  output wire [  19:0] sum_a4,
  output wire [  19:0] sum_a5,
  output wire [  19:0] sum_a7,
  output wire [  19:0] sum_a8,
  output wire [  19:0] sum_a16,
  output wire [   5:0] sum_b5,
  output wire [   3:0] sum_b7,
  output wire [   3:0] sum_b1,
  output wire [   2:0] sum_b3,
  output wire [  10:0] sum_big,
  output wire [  19:0] max_a1,
  output wire [  19:0] max_a2,
  output wire [  19:0] max_a3,
  output wire [  19:0] max_a16,
  output wire [   3:0] max_b7,
  output wire [   5:0] max_b5,
  output wire [   2:0] max_b3,
  output wire [   3:0] max_big,
  output wire [  15:0] min_a5,
  output wire [  19:0] min_a16,
  output wire [   3:0] min_b7,
  output wire [   3:0] min_b1,
  output wire [   5:0] min_b5,
  output wire [  10:0] min_big
);

  rubick_add_tree #(.N(1), .WI(16), .WO(20)) u_a1 (.clk(clk), .in(in_a[15:0]), .sum(sum_a1));
  rubick_add_tree #(.N(2), .WI(16), .WO(20)) u_a2 (.clk(clk), .in(in_a[31:0]), .sum(sum_a2));
  rubick_add_tree #(.N(3), .WI(16), .WO(20)) u_a3 (.clk(clk), .in(in_a[47:0]), .sum(sum_a3));
  rubick_add_tree u_a4 (.clk(clk), .in(in_a[63:0]), .sum(sum_a4));  // the defaults
  rubick_add_tree #(.N(5), .WI(16), .WO(20)) u_a5 (.clk(clk), .in(in_a[79:0]), .sum(sum_a5));
  rubick_add_tree #(.N(7), .WI(16), .WO(20)) u_a7 (.clk(clk), .in(in_a[111:0]), .sum(sum_a7));
  rubick_add_tree #(.N(8), .WI(16), .WO(20)) u_a8 (.clk(clk), .in(in_a[127:0]), .sum(sum_a8));
  rubick_add_tree #(.N(16), .WI(16), .WO(20)) u_a16 (.clk(clk), .in(in_a), .sum(sum_a16));

  // Exact width (3 + 3 bits for 5 inputs).
  rubick_add_tree #(.N(5), .WI(3), .WO(6)) u_b5 (.clk(clk), .in(in_b[14:0]), .sum(sum_b5));
  // Narrower sum than the inputs: everything wraps modulo 2**4.
  rubick_add_tree #(.N(7), .WI(8), .WO(4)) u_b7 (.clk(clk), .in(in_b), .sum(sum_b7));
  rubick_add_tree #(.N(1), .WI(8), .WO(4)) u_b1 (.clk(clk), .in(in_b[7:0]), .sum(sum_b1));
  // 1-bit signed inputs (0 or -1).
  rubick_add_tree #(.N(3), .WI(1), .WO(3)) u_b3 (.clk(clk), .in(in_b[2:0]), .sum(sum_b3));

  // Larger, with odd element counts at several levels (100, 50, 25, 13, 7, 4, 2, 1).
  rubick_add_tree #(.N(100), .WI(4), .WO(11)) u_big (.clk(clk), .in(in_big), .sum(sum_big));

  // Maxima (OP = 1): sign-extended (a), truncated to 4 bits (b7), exact widths (b5, big),
  // 1-bit inputs (b3), combinational (a1).
  rubick_add_tree #(.N(1), .WI(16), .WO(20), .OP(1)) u_max_a1 (
    .clk(clk), .in(in_a[15:0]), .sum(max_a1)
  );
  rubick_add_tree #(.N(2), .WI(16), .WO(20), .OP(1)) u_max_a2 (
    .clk(clk), .in(in_a[31:0]), .sum(max_a2)
  );
  rubick_add_tree #(.N(3), .WI(16), .WO(20), .OP(1)) u_max_a3 (
    .clk(clk), .in(in_a[47:0]), .sum(max_a3)
  );
  rubick_add_tree #(.N(16), .WI(16), .WO(20), .OP(1)) u_max_a16 (
    .clk(clk), .in(in_a), .sum(max_a16)
  );
  rubick_add_tree #(.N(7), .WI(8), .WO(4), .OP(1)) u_max_b7 (.clk(clk), .in(in_b), .sum(max_b7));
  rubick_add_tree #(.N(5), .WI(3), .WO(6), .OP(1)) u_max_b5 (
    .clk(clk), .in(in_b[14:0]), .sum(max_b5)
  );
  rubick_add_tree #(.N(3), .WI(1), .WO(3), .OP(1)) u_max_b3 (
    .clk(clk), .in(in_b[2:0]), .sum(max_b3)
  );
  rubick_add_tree #(.N(100), .WI(4), .WO(4), .OP(1)) u_max_big (
    .clk(clk), .in(in_big), .sum(max_big)
  );

  // Minima (OP = 2): exact width (a5), sign-extended (a16, b5, big), truncated to 4 bits (b7,
  // and b1 combinational).
  rubick_add_tree #(.N(5), .WI(16), .WO(16), .OP(2)) u_min_a5 (
    .clk(clk), .in(in_a[79:0]), .sum(min_a5)
  );
  rubick_add_tree #(.N(16), .WI(16), .WO(20), .OP(2)) u_min_a16 (
    .clk(clk), .in(in_a), .sum(min_a16)
  );
  rubick_add_tree #(.N(7), .WI(8), .WO(4), .OP(2)) u_min_b7 (.clk(clk), .in(in_b), .sum(min_b7));
  rubick_add_tree #(.N(1), .WI(8), .WO(4), .OP(2)) u_min_b1 (
    .clk(clk), .in(in_b[7:0]), .sum(min_b1)
  );
  rubick_add_tree #(.N(5), .WI(3), .WO(6), .OP(2)) u_min_b5 (
    .clk(clk), .in(in_b[14:0]), .sum(min_b5)
  );
  rubick_add_tree #(.N(100), .WI(4), .WO(11), .OP(2)) u_min_big (
    .clk(clk), .in(in_big), .sum(min_big)
  );

endmodule

`default_nettype wire
