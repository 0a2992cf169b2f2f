// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_bank: one instance per configuration, each with its own ports. The
// configurations are listed in test_rubick_bank.cpp.
`default_nettype none

module tb_rubick_bank (
  input  wire clk,
  input  wire b0_rd_en,
  input  wire [3:0] b0_rd_addr,
  output wire [7:0] b0_rd_data,
  input  wire b0_wr_en,
  input  wire [3:0] b0_wr_addr,
  input  wire [7:0] b0_wr_data,
  input  wire b1_rd_en,
  input  wire [3:0] b1_rd_addr,
  output wire [12:0] b1_rd_data,
  input  wire b1_wr_en,
  input  wire [3:0] b1_wr_addr,
  input  wire [12:0] b1_wr_data,
  input  wire b2_rd_en,
  input  wire [0:0] b2_rd_addr,
  output wire [31:0] b2_rd_data,
  input  wire b2_wr_en,
  input  wire [0:0] b2_wr_addr,
  input  wire [31:0] b2_wr_data,
  input  wire b3_rd_en,
  input  wire [5:0] b3_rd_addr,
  output wire [15:0] b3_rd_data,
  input  wire b3_wr_en,
  input  wire [5:0] b3_wr_addr,
  input  wire [15:0] b3_wr_data,
  input  wire b4_rd_en,
  input  wire [3:0] b4_rd_addr,
  output wire [39:0] b4_rd_data,
  input  wire b4_wr_en,
  input  wire [3:0] b4_wr_addr,
  input  wire [39:0] b4_wr_data,
  input  wire b5_rd_en,
  input  wire [1:0] b5_rd_addr,
  output wire [69:0] b5_rd_data,
  input  wire b5_wr_en,
  input  wire [1:0] b5_wr_addr,
  input  wire [69:0] b5_wr_data
);

  // b0: the defaults.
  rubick_bank #(.WIDTH(8), .DEPTH(16), .AW(4)) u_b0 (
    .clk(clk), .rd_en(b0_rd_en), .rd_addr(b0_rd_addr), .rd_data(b0_rd_data), .wr_en(b0_wr_en),
    .wr_addr(b0_wr_addr), .wr_data(b0_wr_data)
  );
  // b1: DEPTH not a power of two: addresses 10..15 are out of range.
  rubick_bank #(.WIDTH(13), .DEPTH(10), .AW(4)) u_b1 (
    .clk(clk), .rd_en(b1_rd_en), .rd_addr(b1_rd_addr), .rd_data(b1_rd_data), .wr_en(b1_wr_en),
    .wr_addr(b1_wr_addr), .wr_data(b1_wr_data)
  );
  // b2: one word: address 1 is out of range.
  rubick_bank #(.WIDTH(32), .DEPTH(1), .AW(1)) u_b2 (
    .clk(clk), .rd_en(b2_rd_en), .rd_addr(b2_rd_addr), .rd_data(b2_rd_data), .wr_en(b2_wr_en),
    .wr_addr(b2_wr_addr), .wr_data(b2_wr_data)
  );
  // b3: more address bits than needed (AW > $clog2(DEPTH)).
  rubick_bank #(.WIDTH(16), .DEPTH(5), .AW(6)) u_b3 (
    .clk(clk), .rd_en(b3_rd_en), .rd_addr(b3_rd_addr), .rd_data(b3_rd_data), .wr_en(b3_wr_en),
    .wr_addr(b3_wr_addr), .wr_data(b3_wr_data)
  );
  // b4: 40-bit words.
  rubick_bank #(.WIDTH(40), .DEPTH(12), .AW(4)) u_b4 (
    .clk(clk), .rd_en(b4_rd_en), .rd_addr(b4_rd_addr), .rd_data(b4_rd_data), .wr_en(b4_wr_en),
    .wr_addr(b4_wr_addr), .wr_data(b4_wr_data)
  );
  // b5: 70-bit words (wider than 64).
  rubick_bank #(.WIDTH(70), .DEPTH(3), .AW(2)) u_b5 (
    .clk(clk), .rd_en(b5_rd_en), .rd_addr(b5_rd_addr), .rd_data(b5_rd_data), .wr_en(b5_wr_en),
    .wr_addr(b5_wr_addr), .wr_data(b5_wr_data)
  );

endmodule

`default_nettype wire
