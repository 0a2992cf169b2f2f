// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_psum: one instance per width and reduction (OP), all fed from the same
// inputs (each takes the low W bits). The configurations are listed in test_rubick_psum.cpp.
`default_nettype none

module tb_rubick_psum (
  input  wire        clk,
  input  wire [63:0] sum_in,
  input  wire [63:0] add,
  output wire [19:0] sum_out_w20,
  output wire [ 0:0] sum_out_w1,
  output wire [63:0] sum_out_w64,
  output wire [32:0] sum_out_w33,
  output wire [19:0] max_out_w20,
  output wire [ 0:0] max_out_w1,
  output wire [63:0] max_out_w64,
  output wire [32:0] max_out_w33,
  output wire [19:0] min_out_w20,
  output wire [ 0:0] min_out_w1,
  output wire [63:0] min_out_w64,
  output wire [32:0] min_out_w33
);

  // Sums (OP = 0, the default).
  rubick_psum u_w20 (.clk(clk), .sum_in(sum_in[19:0]), .add(add[19:0]), .sum_out(sum_out_w20));
  rubick_psum #(.W(1)) u_w1 (
    .clk(clk), .sum_in(sum_in[0:0]), .add(add[0:0]), .sum_out(sum_out_w1)
  );
  rubick_psum #(.W(64)) u_w64 (.clk(clk), .sum_in(sum_in), .add(add), .sum_out(sum_out_w64));
  rubick_psum #(.W(33)) u_w33 (
    .clk(clk), .sum_in(sum_in[32:0]), .add(add[32:0]), .sum_out(sum_out_w33)
  );

  // Maxima (OP = 1).
  rubick_psum #(.OP(1)) u_max_w20 (
    .clk(clk), .sum_in(sum_in[19:0]), .add(add[19:0]), .sum_out(max_out_w20)
  );
  rubick_psum #(.W(1), .OP(1)) u_max_w1 (
    .clk(clk), .sum_in(sum_in[0:0]), .add(add[0:0]), .sum_out(max_out_w1)
  );
  rubick_psum #(.W(64), .OP(1)) u_max_w64 (
    .clk(clk), .sum_in(sum_in), .add(add), .sum_out(max_out_w64)
  );
  rubick_psum #(.W(33), .OP(1)) u_max_w33 (
    .clk(clk), .sum_in(sum_in[32:0]), .add(add[32:0]), .sum_out(max_out_w33)
  );

  // Minima (OP = 2).
  rubick_psum #(.OP(2)) u_min_w20 (
    .clk(clk), .sum_in(sum_in[19:0]), .add(add[19:0]), .sum_out(min_out_w20)
  );
  rubick_psum #(.W(1), .OP(2)) u_min_w1 (
    .clk(clk), .sum_in(sum_in[0:0]), .add(add[0:0]), .sum_out(min_out_w1)
  );
  rubick_psum #(.W(64), .OP(2)) u_min_w64 (
    .clk(clk), .sum_in(sum_in), .add(add), .sum_out(min_out_w64)
  );
  rubick_psum #(.W(33), .OP(2)) u_min_w33 (
    .clk(clk), .sum_in(sum_in[32:0]), .add(add[32:0]), .sum_out(min_out_w33)
  );

endmodule

`default_nettype wire
