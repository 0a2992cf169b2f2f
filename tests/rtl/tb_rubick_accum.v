// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_accum: one instance per width and reduction (OP), all fed from the same
// inputs (each takes the low W bits). The configurations are listed in test_rubick_accum.cpp.
`default_nettype none

module tb_rubick_accum (
  input  wire        clk,
  input  wire        init,
  input  wire [63:0] init_val,
  input  wire [63:0] in,
  output wire [19:0] acc_w20,
  output wire [ 0:0] acc_w1,
  output wire [63:0] acc_w64,
  output wire [32:0] acc_w33,
  output wire [19:0] acc_max_w20,
  output wire [ 0:0] acc_max_w1,
  output wire [63:0] acc_max_w64,
  output wire [32:0] acc_max_w33,
  output wire [19:0] acc_min_w20,
  output wire [ 0:0] acc_min_w1,
  output wire [63:0] acc_min_w64,
  output wire [32:0] acc_min_w33
);

  // Sums (OP = 0, the default).
  rubick_accum u_w20 (
    .clk(clk), .init(init), .init_val(init_val[19:0]), .in(in[19:0]), .acc(acc_w20)
  );
  rubick_accum #(.W(1)) u_w1 (
    .clk(clk), .init(init), .init_val(init_val[0:0]), .in(in[0:0]), .acc(acc_w1)
  );
  rubick_accum #(.W(64)) u_w64 (
    .clk(clk), .init(init), .init_val(init_val), .in(in), .acc(acc_w64)
  );
  rubick_accum #(.W(33)) u_w33 (
    .clk(clk), .init(init), .init_val(init_val[32:0]), .in(in[32:0]), .acc(acc_w33)
  );

  // Maxima (OP = 1).
  rubick_accum #(.OP(1)) u_max_w20 (
    .clk(clk), .init(init), .init_val(init_val[19:0]), .in(in[19:0]), .acc(acc_max_w20)
  );
  rubick_accum #(.W(1), .OP(1)) u_max_w1 (
    .clk(clk), .init(init), .init_val(init_val[0:0]), .in(in[0:0]), .acc(acc_max_w1)
  );
  rubick_accum #(.W(64), .OP(1)) u_max_w64 (
    .clk(clk), .init(init), .init_val(init_val), .in(in), .acc(acc_max_w64)
  );
  rubick_accum #(.W(33), .OP(1)) u_max_w33 (
    .clk(clk), .init(init), .init_val(init_val[32:0]), .in(in[32:0]), .acc(acc_max_w33)
  );

  // Minima (OP = 2).
  rubick_accum #(.OP(2)) u_min_w20 (
    .clk(clk), .init(init), .init_val(init_val[19:0]), .in(in[19:0]), .acc(acc_min_w20)
  );
  rubick_accum #(.W(1), .OP(2)) u_min_w1 (
    .clk(clk), .init(init), .init_val(init_val[0:0]), .in(in[0:0]), .acc(acc_min_w1)
  );
  rubick_accum #(.W(64), .OP(2)) u_min_w64 (
    .clk(clk), .init(init), .init_val(init_val), .in(in), .acc(acc_min_w64)
  );
  rubick_accum #(.W(33), .OP(2)) u_min_w33 (
    .clk(clk), .init(init), .init_val(init_val[32:0]), .in(in[32:0]), .acc(acc_min_w33)
  );

endmodule

`default_nettype wire
