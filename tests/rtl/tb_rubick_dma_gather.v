// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_dma_gather: four gathers with the DMA maps of real output tensors (GEMM
// M 6, N 5, K 7 on a 4 x 4 array, int8 inputs, int32 output; design point ids below), each
// reading real rubick_bank instances (ping-pong: address MSB = half) that the testbench fills
// through their write ports. <p>_info and <p>_cell_* give the parameters back, so that
// test_rubick_dma_gather.cpp can check them against the maps it derives itself.
//   a: gemm657/4x4 point 66aff94d5e7c5a42 tensor C: column lanes 3, 3 row phases, 16 banks
//   b: gemm657/4x4 point 15adb244cab869b8 tensor C: row lanes 4, column step -1, cells at 4..7
//   c: gemm657/4x4 point 8c94105b8f90e0c2 tensor C: row lanes 3 in 4 banks, 3 column phases
//   d: gemm657/4x4 point 039b1baf07c18b50 tensor C: column lanes 2, 2 row phases, 7 banks
`default_nettype none

module tb_rubick_dma_gather (
  input  wire aclk,
  input  wire aresetn,
  input  wire a_start,
  input  wire a_half,
  output wire a_busy,
  output wire a_done,
  output wire a_out_valid,
  input  wire a_out_ready,
  output wire [95:0] a_out_data,
  output wire [2:0] a_out_mask,
  output wire [15:0] a_rd_en,
  input  wire [15:0] a_wr_en,
  input  wire [2:0] a_wr_addr,
  input  wire [31:0] a_wr_data,
  output wire [383:0] a_info,
  output wire [44:0] a_cell_bank,
  output wire [17:0] a_cell_addr,
  input  wire b_start,
  input  wire b_half,
  output wire b_busy,
  output wire b_done,
  output wire b_out_valid,
  input  wire b_out_ready,
  output wire [127:0] b_out_data,
  output wire [3:0] b_out_mask,
  output wire [3:0] b_rd_en,
  input  wire [3:0] b_wr_en,
  input  wire [4:0] b_wr_addr,
  input  wire [31:0] b_wr_data,
  output wire [383:0] b_info,
  output wire [11:0] b_cell_bank,
  output wire [15:0] b_cell_addr,
  input  wire c_start,
  input  wire c_half,
  output wire c_busy,
  output wire c_done,
  output wire c_out_valid,
  input  wire c_out_ready,
  output wire [95:0] c_out_data,
  output wire [2:0] c_out_mask,
  output wire [3:0] c_rd_en,
  input  wire [3:0] c_wr_en,
  input  wire [4:0] c_wr_addr,
  input  wire [31:0] c_wr_data,
  output wire [383:0] c_info,
  output wire [26:0] c_cell_bank,
  output wire [35:0] c_cell_addr,
  input  wire d_start,
  input  wire d_half,
  output wire d_busy,
  output wire d_done,
  output wire d_out_valid,
  input  wire d_out_ready,
  output wire [63:0] d_out_data,
  output wire [1:0] d_out_mask,
  output wire [6:0] d_rd_en,
  input  wire [6:0] d_wr_en,
  input  wire [5:0] d_wr_addr,
  input  wire [31:0] d_wr_data,
  output wire [383:0] d_info,
  output wire [11:0] d_cell_bank,
  output wire [19:0] d_cell_addr
);

  // a: gemm657/4x4 point 66aff94d5e7c5a42
  localparam [44:0] A_BANK = 45'b010100100101000001100010100100000100000100000;
  localparam [17:0] A_ADDR = 18'b000000000000000000;
  // ROW_LANES, LANES, COPIES, BANKS, ADDR_BITS, ROWS, COLS, ROW_PERIOD, COL_PERIOD, ROW_STEP,
  // COL_STEP, ELEM_W; field 0 in the low bits
  assign a_info = {32'd32, 32'd1, 32'd2, 32'd1, 32'd3, 32'd5,
                   32'd6, 32'd2, 32'd16, 32'd1, 32'd3, 32'd0};
  assign a_cell_bank = A_BANK;
  assign a_cell_addr = A_ADDR;
  wire [47:0] a_rd_addr;
  wire [511:0] a_rd_data;
  rubick_dma_gather #(
    .LANES(3), .COPIES(1), .BANKS(16), .ELEM_W(32), .ADDR_BITS(2), .ROW_LANES(0),
    .ROWS(6), .COLS(5), .ROW_PERIOD(3), .COL_PERIOD(1), .ROW_STEP(2),
    .COL_STEP(1), .CELL_BANK(A_BANK), .CELL_ADDR(A_ADDR)
  ) u_a (
    .aclk(aclk), .aresetn(aresetn), .start(a_start), .half(a_half), .busy(a_busy),
    .done(a_done), .bank_rd_en(a_rd_en), .bank_rd_addr(a_rd_addr), .bank_rd_data(a_rd_data),
    .out_valid(a_out_valid), .out_ready(a_out_ready), .out_data(a_out_data),
    .out_mask(a_out_mask)
  );
  genvar a_i;
  generate
    for (a_i = 0; a_i < 16; a_i = a_i + 1) begin : g_a_bank
      rubick_bank #(
        .WIDTH(32), .DEPTH(8), .AW(3)
      ) u_bank (
        .clk(aclk), .rd_en(a_rd_en[a_i]), .rd_addr(a_rd_addr[a_i*3+:3]),
        .rd_data(a_rd_data[a_i*32+:32]), .wr_en(a_wr_en[a_i]), .wr_addr(a_wr_addr),
        .wr_data(a_wr_data)
      );
    end
  endgenerate

  // b: gemm657/4x4 point 15adb244cab869b8
  localparam [11:0] B_BANK = 12'b011010001000;
  localparam [15:0] B_ADDR = 16'b0111011001010100;
  // ROW_LANES, LANES, COPIES, BANKS, ADDR_BITS, ROWS, COLS, ROW_PERIOD, COL_PERIOD, ROW_STEP,
  // COL_STEP, ELEM_W; field 0 in the low bits
  assign b_info = {32'd32, -32'sd1, 32'd8, 32'd1, 32'd1, 32'd5,
                   32'd6, 32'd4, 32'd4, 32'd1, 32'd4, 32'd1};
  assign b_cell_bank = B_BANK;
  assign b_cell_addr = B_ADDR;
  wire [19:0] b_rd_addr;
  wire [127:0] b_rd_data;
  rubick_dma_gather #(
    .LANES(4), .COPIES(1), .BANKS(4), .ELEM_W(32), .ADDR_BITS(4), .ROW_LANES(1),
    .ROWS(6), .COLS(5), .ROW_PERIOD(1), .COL_PERIOD(1), .ROW_STEP(8),
    .COL_STEP(-1), .CELL_BANK(B_BANK), .CELL_ADDR(B_ADDR)
  ) u_b (
    .aclk(aclk), .aresetn(aresetn), .start(b_start), .half(b_half), .busy(b_busy),
    .done(b_done), .bank_rd_en(b_rd_en), .bank_rd_addr(b_rd_addr), .bank_rd_data(b_rd_data),
    .out_valid(b_out_valid), .out_ready(b_out_ready), .out_data(b_out_data),
    .out_mask(b_out_mask)
  );
  genvar b_i;
  generate
    for (b_i = 0; b_i < 4; b_i = b_i + 1) begin : g_b_bank
      rubick_bank #(
        .WIDTH(32), .DEPTH(32), .AW(5)
      ) u_bank (
        .clk(aclk), .rd_en(b_rd_en[b_i]), .rd_addr(b_rd_addr[b_i*5+:5]),
        .rd_data(b_rd_data[b_i*32+:32]), .wr_en(b_wr_en[b_i]), .wr_addr(b_wr_addr),
        .wr_data(b_wr_data)
      );
    end
  endgenerate

  // c: gemm657/4x4 point 8c94105b8f90e0c2
  localparam [26:0] C_BANK = 27'b010001000010001000010001000;
  localparam [35:0] C_ADDR = 36'b000000000000000100010001001000100010;
  // ROW_LANES, LANES, COPIES, BANKS, ADDR_BITS, ROWS, COLS, ROW_PERIOD, COL_PERIOD, ROW_STEP,
  // COL_STEP, ELEM_W; field 0 in the low bits
  assign c_info = {32'd32, 32'd3, 32'd6, 32'd3, 32'd1, 32'd5,
                   32'd6, 32'd4, 32'd4, 32'd1, 32'd3, 32'd1};
  assign c_cell_bank = C_BANK;
  assign c_cell_addr = C_ADDR;
  wire [19:0] c_rd_addr;
  wire [127:0] c_rd_data;
  rubick_dma_gather #(
    .LANES(3), .COPIES(1), .BANKS(4), .ELEM_W(32), .ADDR_BITS(4), .ROW_LANES(1),
    .ROWS(6), .COLS(5), .ROW_PERIOD(1), .COL_PERIOD(3), .ROW_STEP(6),
    .COL_STEP(3), .CELL_BANK(C_BANK), .CELL_ADDR(C_ADDR)
  ) u_c (
    .aclk(aclk), .aresetn(aresetn), .start(c_start), .half(c_half), .busy(c_busy),
    .done(c_done), .bank_rd_en(c_rd_en), .bank_rd_addr(c_rd_addr), .bank_rd_data(c_rd_data),
    .out_valid(c_out_valid), .out_ready(c_out_ready), .out_data(c_out_data),
    .out_mask(c_out_mask)
  );
  genvar c_i;
  generate
    for (c_i = 0; c_i < 4; c_i = c_i + 1) begin : g_c_bank
      rubick_bank #(
        .WIDTH(32), .DEPTH(32), .AW(5)
      ) u_bank (
        .clk(aclk), .rd_en(c_rd_en[c_i]), .rd_addr(c_rd_addr[c_i*5+:5]),
        .rd_data(c_rd_data[c_i*32+:32]), .wr_en(c_wr_en[c_i]), .wr_addr(c_wr_addr),
        .wr_data(c_wr_data)
      );
    end
  endgenerate

  // d: gemm657/4x4 point 039b1baf07c18b50
  localparam [11:0] D_BANK = 12'b011100010011;
  localparam [19:0] D_ADDR = 20'b00001000000000100000;
  // ROW_LANES, LANES, COPIES, BANKS, ADDR_BITS, ROWS, COLS, ROW_PERIOD, COL_PERIOD, ROW_STEP,
  // COL_STEP, ELEM_W; field 0 in the low bits
  assign d_info = {32'd32, 32'd2, 32'd6, 32'd1, 32'd2, 32'd5,
                   32'd6, 32'd5, 32'd7, 32'd1, 32'd2, 32'd0};
  assign d_cell_bank = D_BANK;
  assign d_cell_addr = D_ADDR;
  wire [41:0] d_rd_addr;
  wire [223:0] d_rd_data;
  rubick_dma_gather #(
    .LANES(2), .COPIES(1), .BANKS(7), .ELEM_W(32), .ADDR_BITS(5), .ROW_LANES(0),
    .ROWS(6), .COLS(5), .ROW_PERIOD(2), .COL_PERIOD(1), .ROW_STEP(6),
    .COL_STEP(2), .CELL_BANK(D_BANK), .CELL_ADDR(D_ADDR)
  ) u_d (
    .aclk(aclk), .aresetn(aresetn), .start(d_start), .half(d_half), .busy(d_busy),
    .done(d_done), .bank_rd_en(d_rd_en), .bank_rd_addr(d_rd_addr), .bank_rd_data(d_rd_data),
    .out_valid(d_out_valid), .out_ready(d_out_ready), .out_data(d_out_data),
    .out_mask(d_out_mask)
  );
  genvar d_i;
  generate
    for (d_i = 0; d_i < 7; d_i = d_i + 1) begin : g_d_bank
      rubick_bank #(
        .WIDTH(32), .DEPTH(64), .AW(6)
      ) u_bank (
        .clk(aclk), .rd_en(d_rd_en[d_i]), .rd_addr(d_rd_addr[d_i*6+:6]),
        .rd_data(d_rd_data[d_i*32+:32]), .wr_en(d_wr_en[d_i]), .wr_addr(d_wr_addr),
        .wr_data(d_wr_data)
      );
    end
  endgenerate

endmodule

`default_nettype wire
