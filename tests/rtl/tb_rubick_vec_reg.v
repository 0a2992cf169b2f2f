// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_vec_reg, checked by test_rubick_vec_reg.cpp: five register files with
// every pin on the ports of the top (prefix a_ .. e_ before the template's port names), sharing
// aclk and aresetn:
//   a: N = 10, W = 32, LANES = 4, NR = 3, IDX_W = 8 (a short last group: 2 of 4 lanes)
//   b: N = 1, W = 1, LANES = 1, NR = 1, IDX_W = 1 (the least of everything)
//   c: N = 5, W = 64, LANES = 8, NR = 2, IDX_W = 3 (one group, wider than the vector; indices
//      5..7 out of range)
//   d: N = 12, W = 16, LANES = 3, NR = 4, IDX_W = 32 (groups filling the vector exactly; 32-bit
//      indices)
//   e: N = 10, W = 8, LANES = 4, NR = 2, IDX_W = 2 (N > 2**IDX_W: elements 4..9 written, never
//      named)
`default_nettype none

module tb_rubick_vec_reg (
  input  wire aclk,
  input  wire aresetn,
  input  wire a_start,
  output wire a_busy,
  output wire a_done,
  input  wire a_in_valid,
  output wire a_in_ready,
  input  wire [127:0] a_in_data,
  input  wire [3:0] a_in_mask,
  input  wire [23:0] a_rd_idx,
  output wire [95:0] a_rd_data,
  input  wire b_start,
  output wire b_busy,
  output wire b_done,
  input  wire b_in_valid,
  output wire b_in_ready,
  input  wire b_in_data,
  input  wire b_in_mask,
  input  wire b_rd_idx,
  output wire b_rd_data,
  input  wire c_start,
  output wire c_busy,
  output wire c_done,
  input  wire c_in_valid,
  output wire c_in_ready,
  input  wire [511:0] c_in_data,
  input  wire [7:0] c_in_mask,
  input  wire [5:0] c_rd_idx,
  output wire [127:0] c_rd_data,
  input  wire d_start,
  output wire d_busy,
  output wire d_done,
  input  wire d_in_valid,
  output wire d_in_ready,
  input  wire [47:0] d_in_data,
  input  wire [2:0] d_in_mask,
  input  wire [127:0] d_rd_idx,
  output wire [63:0] d_rd_data,
  input  wire e_start,
  output wire e_busy,
  output wire e_done,
  input  wire e_in_valid,
  output wire e_in_ready,
  input  wire [31:0] e_in_data,
  input  wire [3:0] e_in_mask,
  input  wire [3:0] e_rd_idx,
  output wire [15:0] e_rd_data
);

  rubick_vec_reg #(.N(10), .W(32), .LANES(4), .NR(3), .IDX_W(8)) u_a (
    .aclk(aclk), .aresetn(aresetn), .start(a_start), .busy(a_busy), .done(a_done),
    .in_valid(a_in_valid), .in_ready(a_in_ready), .in_data(a_in_data),
    .in_mask(a_in_mask), .rd_idx(a_rd_idx), .rd_data(a_rd_data)
  );

  rubick_vec_reg #(.N(1), .W(1), .LANES(1), .NR(1), .IDX_W(1)) u_b (
    .aclk(aclk), .aresetn(aresetn), .start(b_start), .busy(b_busy), .done(b_done),
    .in_valid(b_in_valid), .in_ready(b_in_ready), .in_data(b_in_data),
    .in_mask(b_in_mask), .rd_idx(b_rd_idx), .rd_data(b_rd_data)
  );

  rubick_vec_reg #(.N(5), .W(64), .LANES(8), .NR(2), .IDX_W(3)) u_c (
    .aclk(aclk), .aresetn(aresetn), .start(c_start), .busy(c_busy), .done(c_done),
    .in_valid(c_in_valid), .in_ready(c_in_ready), .in_data(c_in_data),
    .in_mask(c_in_mask), .rd_idx(c_rd_idx), .rd_data(c_rd_data)
  );

  rubick_vec_reg #(.N(12), .W(16), .LANES(3), .NR(4), .IDX_W(32)) u_d (
    .aclk(aclk), .aresetn(aresetn), .start(d_start), .busy(d_busy), .done(d_done),
    .in_valid(d_in_valid), .in_ready(d_in_ready), .in_data(d_in_data),
    .in_mask(d_in_mask), .rd_idx(d_rd_idx), .rd_data(d_rd_data)
  );

  rubick_vec_reg #(.N(10), .W(8), .LANES(4), .NR(2), .IDX_W(2)) u_e (
    .aclk(aclk), .aresetn(aresetn), .start(e_start), .busy(e_busy), .done(e_done),
    .in_valid(e_in_valid), .in_ready(e_in_ready), .in_data(e_in_data),
    .in_mask(e_in_mask), .rd_idx(e_rd_idx), .rd_data(e_rd_data)
  );

endmodule

`default_nettype wire
