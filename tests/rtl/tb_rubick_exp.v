// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_exp: one instance per EXP_FRAC, all fed the same d and in_valid. The
// configurations are listed in test_rubick_exp.cpp.
`default_nettype none

module tb_rubick_exp (
  input  wire        clk,
  input  wire        in_valid,
  input  wire [31:0] d,
  output wire        valid_c0,
  output wire [15:0] out_c0,
  output wire        valid_c1,
  output wire [15:0] out_c1,
  output wire        valid_c2,
  output wire [15:0] out_c2,
  output wire        valid_c3,
  output wire [15:0] out_c3
);

  // c0: the default, EXP_FRAC = 12.
  rubick_exp u_c0 (
    .clk(clk), .in_valid(in_valid), .d(d), .out_valid(valid_c0), .out(out_c0)
  );
  // c1: EXP_FRAC = 0, integer arguments.
  rubick_exp #(.EXP_FRAC(0)) u_c1 (
    .clk(clk), .in_valid(in_valid), .d(d), .out_valid(valid_c1), .out(out_c1)
  );
  // c2: EXP_FRAC = 9, the smallest where consecutive d reach every table index.
  rubick_exp #(.EXP_FRAC(9)) u_c2 (
    .clk(clk), .in_valid(in_valid), .d(d), .out_valid(valid_c2), .out(out_c2)
  );
  // c3: EXP_FRAC = 24, the largest.
  rubick_exp #(.EXP_FRAC(24)) u_c3 (
    .clk(clk), .in_valid(in_valid), .d(d), .out_valid(valid_c3), .out(out_c3)
  );

endmodule

`default_nettype wire
