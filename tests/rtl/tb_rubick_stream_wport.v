// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_stream_wport: one port per configuration, each with its own signals,
// checked by test_rubick_stream_wport.cpp against a model of the words the core writes.
// The parameters are repeated in the test's table of configurations; keep them in step.
//   n1w1   1 port, 1-word columns of 8 bits, 7 words a run (DEPTH 1)
//   n4w4   4 ports, 4 words of 32 bits, 37 words (the last column padded; DEPTH 7)
//   aim    16 ports of int8 words, 32-byte columns, 1000 words (DEPTH 47)
//   aim32  16 ports of int32 words, 32-byte columns, 256 words (DEPTH 23)
//   n16w1  16 ports, 1-word columns of 32 bits: the stream binds (DEPTH 16)
//   n3w5   3 ports, 5 words of 5 bits, 23 words (DEPTH 7, nothing a power of two)
//   toy    1 port, 2 words of 32 bits, 5 words (the toy PIM top's; DEPTH 2)
//   n4w1   4 ports, 1-word columns of 16 bits (DEPTH 4)
//   one    2 ports, 3 words of 16 bits, a run of 1 word (DEPTH 4)
//   deep   4 ports, 4 words of 8 bits, DEPTH 12 (above the least, 7)
`default_nettype none

module tb_rubick_stream_wport (
  input  wire clk,
  input  wire rst,
  input  wire n1w1_start,
  input  wire n1w1_valid,
  input  wire [7:0] n1w1_data,
  output wire n1w1_go,
  input  wire n1w1_step,
  output wire n1w1_out_valid,
  input  wire n1w1_out_ready,
  output wire [7:0] n1w1_out_data,
  input  wire n4w4_start,
  input  wire [3:0] n4w4_valid,
  input  wire [127:0] n4w4_data,
  output wire n4w4_go,
  input  wire n4w4_step,
  output wire n4w4_out_valid,
  input  wire n4w4_out_ready,
  output wire [127:0] n4w4_out_data,
  input  wire aim_start,
  input  wire [15:0] aim_valid,
  input  wire [127:0] aim_data,
  output wire aim_go,
  input  wire aim_step,
  output wire aim_out_valid,
  input  wire aim_out_ready,
  output wire [255:0] aim_out_data,
  input  wire aim32_start,
  input  wire [15:0] aim32_valid,
  input  wire [511:0] aim32_data,
  output wire aim32_go,
  input  wire aim32_step,
  output wire aim32_out_valid,
  input  wire aim32_out_ready,
  output wire [255:0] aim32_out_data,
  input  wire n16w1_start,
  input  wire [15:0] n16w1_valid,
  input  wire [511:0] n16w1_data,
  output wire n16w1_go,
  input  wire n16w1_step,
  output wire n16w1_out_valid,
  input  wire n16w1_out_ready,
  output wire [31:0] n16w1_out_data,
  input  wire n3w5_start,
  input  wire [2:0] n3w5_valid,
  input  wire [14:0] n3w5_data,
  output wire n3w5_go,
  input  wire n3w5_step,
  output wire n3w5_out_valid,
  input  wire n3w5_out_ready,
  output wire [24:0] n3w5_out_data,
  input  wire toy_start,
  input  wire toy_valid,
  input  wire [31:0] toy_data,
  output wire toy_go,
  input  wire toy_step,
  output wire toy_out_valid,
  input  wire toy_out_ready,
  output wire [63:0] toy_out_data,
  input  wire n4w1_start,
  input  wire [3:0] n4w1_valid,
  input  wire [63:0] n4w1_data,
  output wire n4w1_go,
  input  wire n4w1_step,
  output wire n4w1_out_valid,
  input  wire n4w1_out_ready,
  output wire [15:0] n4w1_out_data,
  input  wire one_start,
  input  wire [1:0] one_valid,
  input  wire [31:0] one_data,
  output wire one_go,
  input  wire one_step,
  output wire one_out_valid,
  input  wire one_out_ready,
  output wire [47:0] one_out_data,
  input  wire deep_start,
  input  wire [3:0] deep_valid,
  input  wire [31:0] deep_data,
  output wire deep_go,
  input  wire deep_step,
  output wire deep_out_valid,
  input  wire deep_out_ready,
  output wire [31:0] deep_out_data
);

  rubick_stream_wport #(.NP(1), .W(8), .WORDS(1), .TOTAL(7)) u_n1w1 (
    .clk(clk), .rst(rst), .start(n1w1_start), .valid(n1w1_valid), .data(n1w1_data), .go(n1w1_go),
    .step(n1w1_step), .out_valid(n1w1_out_valid), .out_ready(n1w1_out_ready), .out_data(n1w1_out_data)
  );

  rubick_stream_wport #(.NP(4), .W(32), .WORDS(4), .TOTAL(37)) u_n4w4 (
    .clk(clk), .rst(rst), .start(n4w4_start), .valid(n4w4_valid), .data(n4w4_data), .go(n4w4_go),
    .step(n4w4_step), .out_valid(n4w4_out_valid), .out_ready(n4w4_out_ready), .out_data(n4w4_out_data)
  );

  rubick_stream_wport #(.NP(16), .W(8), .WORDS(32), .TOTAL(1000)) u_aim (
    .clk(clk), .rst(rst), .start(aim_start), .valid(aim_valid), .data(aim_data), .go(aim_go),
    .step(aim_step), .out_valid(aim_out_valid), .out_ready(aim_out_ready), .out_data(aim_out_data)
  );

  rubick_stream_wport #(.NP(16), .W(32), .WORDS(8), .TOTAL(256)) u_aim32 (
    .clk(clk), .rst(rst), .start(aim32_start), .valid(aim32_valid), .data(aim32_data), .go(aim32_go),
    .step(aim32_step), .out_valid(aim32_out_valid), .out_ready(aim32_out_ready), .out_data(aim32_out_data)
  );

  rubick_stream_wport #(.NP(16), .W(32), .WORDS(1), .TOTAL(50)) u_n16w1 (
    .clk(clk), .rst(rst), .start(n16w1_start), .valid(n16w1_valid), .data(n16w1_data), .go(n16w1_go),
    .step(n16w1_step), .out_valid(n16w1_out_valid), .out_ready(n16w1_out_ready), .out_data(n16w1_out_data)
  );

  rubick_stream_wport #(.NP(3), .W(5), .WORDS(5), .TOTAL(23)) u_n3w5 (
    .clk(clk), .rst(rst), .start(n3w5_start), .valid(n3w5_valid), .data(n3w5_data), .go(n3w5_go),
    .step(n3w5_step), .out_valid(n3w5_out_valid), .out_ready(n3w5_out_ready), .out_data(n3w5_out_data)
  );

  rubick_stream_wport #(.NP(1), .W(32), .WORDS(2), .TOTAL(5)) u_toy (
    .clk(clk), .rst(rst), .start(toy_start), .valid(toy_valid), .data(toy_data), .go(toy_go),
    .step(toy_step), .out_valid(toy_out_valid), .out_ready(toy_out_ready), .out_data(toy_out_data)
  );

  rubick_stream_wport #(.NP(4), .W(16), .WORDS(1), .TOTAL(9)) u_n4w1 (
    .clk(clk), .rst(rst), .start(n4w1_start), .valid(n4w1_valid), .data(n4w1_data), .go(n4w1_go),
    .step(n4w1_step), .out_valid(n4w1_out_valid), .out_ready(n4w1_out_ready), .out_data(n4w1_out_data)
  );

  rubick_stream_wport #(.NP(2), .W(16), .WORDS(3), .TOTAL(1)) u_one (
    .clk(clk), .rst(rst), .start(one_start), .valid(one_valid), .data(one_data), .go(one_go),
    .step(one_step), .out_valid(one_out_valid), .out_ready(one_out_ready), .out_data(one_out_data)
  );

  rubick_stream_wport #(.NP(4), .W(8), .WORDS(4), .TOTAL(30), .DEPTH(12)) u_deep (
    .clk(clk), .rst(rst), .start(deep_start), .valid(deep_valid), .data(deep_data), .go(deep_go),
    .step(deep_step), .out_valid(deep_out_valid), .out_ready(deep_out_ready), .out_data(deep_out_data)
  );

endmodule

`default_nettype wire
