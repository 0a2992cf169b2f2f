// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_stream_port: one port per configuration, each with its own signals,
// checked by test_rubick_stream_port.cpp against a model of the words each core cycle reads.
// The parameters are repeated in the test's table of configurations; keep them in step.
//   n1w1   1 port, 1-word columns of 8 bits (DEPTH 1)
//   n4w4   4 ports, 4 words of 32 bits (DEPTH 7, not a power of two)
//   aim    16 ports, the AiM-like 32-byte column of 32 int8 words (DEPTH 47)
//   n4w32  4 ports, 32 words of 8 bits (DEPTH 35)
//   n16w1  16 ports, 1-word columns of 32 bits: the stream binds (DEPTH 16)
//   n16w4  16 ports, 4 words of 8 bits: the stream binds (DEPTH 19)
//   n1w32  1 port, 32 words of 32 bits (DEPTH 32)
//   n4w1   4 ports, 1-word columns of 32 bits: the stream binds (DEPTH 4)
//   deep   4 ports, 4 words of 8 bits, DEPTH 12 (above the least, 7)
`default_nettype none

module tb_rubick_stream_port (
  input  wire clk,
  input  wire rst,
  input  wire n1w1_start,
  input  wire n1w1_in_valid,
  output wire n1w1_in_ready,
  input  wire [7:0] n1w1_in_data,
  input  wire n1w1_need,
  output wire n1w1_go,
  input  wire n1w1_step,
  output wire [7:0] n1w1_rdata,
  input  wire n4w4_start,
  input  wire n4w4_in_valid,
  output wire n4w4_in_ready,
  input  wire [127:0] n4w4_in_data,
  input  wire [3:0] n4w4_need,
  output wire n4w4_go,
  input  wire n4w4_step,
  output wire [127:0] n4w4_rdata,
  input  wire aim_start,
  input  wire aim_in_valid,
  output wire aim_in_ready,
  input  wire [255:0] aim_in_data,
  input  wire [15:0] aim_need,
  output wire aim_go,
  input  wire aim_step,
  output wire [127:0] aim_rdata,
  input  wire n4w32_start,
  input  wire n4w32_in_valid,
  output wire n4w32_in_ready,
  input  wire [255:0] n4w32_in_data,
  input  wire [3:0] n4w32_need,
  output wire n4w32_go,
  input  wire n4w32_step,
  output wire [31:0] n4w32_rdata,
  input  wire n16w1_start,
  input  wire n16w1_in_valid,
  output wire n16w1_in_ready,
  input  wire [31:0] n16w1_in_data,
  input  wire [15:0] n16w1_need,
  output wire n16w1_go,
  input  wire n16w1_step,
  output wire [511:0] n16w1_rdata,
  input  wire n16w4_start,
  input  wire n16w4_in_valid,
  output wire n16w4_in_ready,
  input  wire [31:0] n16w4_in_data,
  input  wire [15:0] n16w4_need,
  output wire n16w4_go,
  input  wire n16w4_step,
  output wire [127:0] n16w4_rdata,
  input  wire n1w32_start,
  input  wire n1w32_in_valid,
  output wire n1w32_in_ready,
  input  wire [1023:0] n1w32_in_data,
  input  wire n1w32_need,
  output wire n1w32_go,
  input  wire n1w32_step,
  output wire [31:0] n1w32_rdata,
  input  wire n4w1_start,
  input  wire n4w1_in_valid,
  output wire n4w1_in_ready,
  input  wire [31:0] n4w1_in_data,
  input  wire [3:0] n4w1_need,
  output wire n4w1_go,
  input  wire n4w1_step,
  output wire [127:0] n4w1_rdata,
  input  wire deep_start,
  input  wire deep_in_valid,
  output wire deep_in_ready,
  input  wire [31:0] deep_in_data,
  input  wire [3:0] deep_need,
  output wire deep_go,
  input  wire deep_step,
  output wire [31:0] deep_rdata
);

  rubick_stream_port #(.NP(1), .W(8), .WORDS(1)) u_n1w1 (
    .clk(clk), .rst(rst), .start(n1w1_start), .in_valid(n1w1_in_valid), .in_ready(n1w1_in_ready),
    .in_data(n1w1_in_data), .need(n1w1_need), .go(n1w1_go),
    .step(n1w1_step), .rdata(n1w1_rdata)
  );

  rubick_stream_port #(.NP(4), .W(32), .WORDS(4)) u_n4w4 (
    .clk(clk), .rst(rst), .start(n4w4_start), .in_valid(n4w4_in_valid), .in_ready(n4w4_in_ready),
    .in_data(n4w4_in_data), .need(n4w4_need), .go(n4w4_go),
    .step(n4w4_step), .rdata(n4w4_rdata)
  );

  rubick_stream_port #(.NP(16), .W(8), .WORDS(32)) u_aim (
    .clk(clk), .rst(rst), .start(aim_start), .in_valid(aim_in_valid), .in_ready(aim_in_ready),
    .in_data(aim_in_data), .need(aim_need), .go(aim_go),
    .step(aim_step), .rdata(aim_rdata)
  );

  rubick_stream_port #(.NP(4), .W(8), .WORDS(32)) u_n4w32 (
    .clk(clk), .rst(rst), .start(n4w32_start), .in_valid(n4w32_in_valid), .in_ready(n4w32_in_ready),
    .in_data(n4w32_in_data), .need(n4w32_need), .go(n4w32_go),
    .step(n4w32_step), .rdata(n4w32_rdata)
  );

  rubick_stream_port #(.NP(16), .W(32), .WORDS(1)) u_n16w1 (
    .clk(clk), .rst(rst), .start(n16w1_start), .in_valid(n16w1_in_valid), .in_ready(n16w1_in_ready),
    .in_data(n16w1_in_data), .need(n16w1_need), .go(n16w1_go),
    .step(n16w1_step), .rdata(n16w1_rdata)
  );

  rubick_stream_port #(.NP(16), .W(8), .WORDS(4)) u_n16w4 (
    .clk(clk), .rst(rst), .start(n16w4_start), .in_valid(n16w4_in_valid), .in_ready(n16w4_in_ready),
    .in_data(n16w4_in_data), .need(n16w4_need), .go(n16w4_go),
    .step(n16w4_step), .rdata(n16w4_rdata)
  );

  rubick_stream_port #(.NP(1), .W(32), .WORDS(32)) u_n1w32 (
    .clk(clk), .rst(rst), .start(n1w32_start), .in_valid(n1w32_in_valid), .in_ready(n1w32_in_ready),
    .in_data(n1w32_in_data), .need(n1w32_need), .go(n1w32_go),
    .step(n1w32_step), .rdata(n1w32_rdata)
  );

  rubick_stream_port #(.NP(4), .W(32), .WORDS(1)) u_n4w1 (
    .clk(clk), .rst(rst), .start(n4w1_start), .in_valid(n4w1_in_valid), .in_ready(n4w1_in_ready),
    .in_data(n4w1_in_data), .need(n4w1_need), .go(n4w1_go),
    .step(n4w1_step), .rdata(n4w1_rdata)
  );

  rubick_stream_port #(.NP(4), .W(8), .WORDS(4), .DEPTH(12)) u_deep (
    .clk(clk), .rst(rst), .start(deep_start), .in_valid(deep_in_valid), .in_ready(deep_in_ready),
    .in_data(deep_in_data), .need(deep_need), .go(deep_go),
    .step(deep_step), .rdata(deep_rdata)
  );

endmodule

`default_nettype wire
