// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_dma_scatter: one instance per DMA map of tests/rtl/dma_maps.h (maps of real
// designs derived by rubick, and one made-up map with two copies). The tables are pasted from
// what rubick derived; each instance also puts its parameters on ports (<name>_cell_bank,
// <name>_cell_addr, <name>_shape = 32-bit fields LANES, COPIES, BANKS, ADDR_BITS, ROW_PERIOD,
// COL_PERIOD, ROW_STEP, COL_STEP, GROUP_ROWS, GROUP_COLS from bit 0 up) so that
// test_rubick_dma_scatter.cpp checks them against a fresh derivation.
`default_nettype none

module tb_rubick_dma_scatter (
  input  wire aclk,
  input  wire aresetn,
  input  wire rl_start,
  input  wire rl_half,
  output wire rl_busy,
  output wire rl_done,
  input  wire rl_in_valid,
  output wire rl_in_ready,
  input  wire [31:0] rl_in_data,
  input  wire [3:0] rl_in_mask,
  output wire [3:0] rl_bank_we,
  output wire [27:0] rl_bank_addr,
  output wire [31:0] rl_bank_data,
  output wire [11:0] rl_cell_bank,
  output wire [23:0] rl_cell_addr,
  output wire [319:0] rl_shape,
  input  wire r3_start,
  input  wire r3_half,
  output wire r3_busy,
  output wire r3_done,
  input  wire r3_in_valid,
  output wire r3_in_ready,
  input  wire [23:0] r3_in_data,
  input  wire [2:0] r3_in_mask,
  output wire [15:0] r3_bank_we,
  output wire [111:0] r3_bank_addr,
  output wire [127:0] r3_bank_data,
  output wire [29:0] r3_cell_bank,
  output wire [35:0] r3_cell_addr,
  output wire [319:0] r3_shape,
  input  wire c3_start,
  input  wire c3_half,
  output wire c3_busy,
  output wire c3_done,
  input  wire c3_in_valid,
  output wire c3_in_ready,
  input  wire [23:0] c3_in_data,
  input  wire [2:0] c3_in_mask,
  output wire [5:0] c3_bank_we,
  output wire [23:0] c3_bank_addr,
  output wire [47:0] c3_bank_data,
  output wire [17:0] c3_cell_bank,
  output wire [17:0] c3_cell_addr,
  output wire [319:0] c3_shape,
  input  wire cv_start,
  input  wire cv_half,
  output wire cv_busy,
  output wire cv_done,
  input  wire cv_in_valid,
  output wire cv_in_ready,
  input  wire [23:0] cv_in_data,
  input  wire [2:0] cv_in_mask,
  output wire [3:0] cv_bank_we,
  output wire [23:0] cv_bank_addr,
  output wire [31:0] cv_bank_data,
  output wire [53:0] cv_cell_bank,
  output wire [89:0] cv_cell_addr,
  output wire [319:0] cv_shape,
  input  wire rn_start,
  input  wire rn_half,
  output wire rn_busy,
  output wire rn_done,
  input  wire rn_in_valid,
  output wire rn_in_ready,
  input  wire [23:0] rn_in_data,
  input  wire [2:0] rn_in_mask,
  output wire [3:0] rn_bank_we,
  output wire [23:0] rn_bank_addr,
  output wire [31:0] rn_bank_data,
  output wire [17:0] rn_cell_bank,
  output wire [29:0] rn_cell_addr,
  output wire [319:0] rn_shape,
  input  wire cp_start,
  input  wire cp_half,
  output wire cp_busy,
  output wire cp_done,
  input  wire cp_in_valid,
  output wire cp_in_ready,
  input  wire [15:0] cp_in_data,
  input  wire [1:0] cp_in_mask,
  output wire [3:0] cp_bank_we,
  output wire [27:0] cp_bank_addr,
  output wire [31:0] cp_bank_data,
  output wire [23:0] cp_cell_bank,
  output wire [47:0] cp_cell_addr,
  output wire [319:0] cp_shape
);

  // rl: design 03eb61985255a623 tensor A
  // (row lanes 4, copies 1, phases 1x1, steps 16/-1)
  localparam [11:0] rl_BANK = 12'h688;
  localparam [23:0] rl_ADDR = 24'h3cf3cf;
  rubick_dma_scatter #(
    .LANES(4), .COPIES(1), .BANKS(4), .ELEM_W(8), .ADDR_BITS(6), .ROW_PERIOD(1),
    .COL_PERIOD(1), .ROW_STEP(16), .COL_STEP(-1), .GROUP_ROWS(4), .GROUP_COLS(16),
    .CELL_BANK(rl_BANK), .CELL_ADDR(rl_ADDR)
  ) u_rl (
    .aclk(aclk), .aresetn(aresetn), .start(rl_start), .half(rl_half), .busy(rl_busy), .done(rl_done),
    .in_valid(rl_in_valid), .in_ready(rl_in_ready), .in_data(rl_in_data), .in_mask(rl_in_mask),
    .bank_we(rl_bank_we), .bank_addr(rl_bank_addr), .bank_data(rl_bank_data)
  );
  assign rl_cell_bank = rl_BANK;
  assign rl_cell_addr = rl_ADDR;
  assign rl_shape = {32'sd16, 32'sd4, -32'sd1, 32'sd16, 32'sd1, 32'sd1,
                      32'sd6, 32'sd4, 32'sd1, 32'sd4};

  // r3: design c64c8775c7be3ef2 tensor A
  // (row lanes 3, copies 1, phases 1x2, steps 8/1)
  localparam [29:0] r3_BANK = 30'h0c520c41;
  localparam [35:0] r3_ADDR = 36'h000000000;
  rubick_dma_scatter #(
    .LANES(3), .COPIES(1), .BANKS(16), .ELEM_W(8), .ADDR_BITS(6), .ROW_PERIOD(1),
    .COL_PERIOD(2), .ROW_STEP(8), .COL_STEP(1), .GROUP_ROWS(6), .GROUP_COLS(16),
    .CELL_BANK(r3_BANK), .CELL_ADDR(r3_ADDR)
  ) u_r3 (
    .aclk(aclk), .aresetn(aresetn), .start(r3_start), .half(r3_half), .busy(r3_busy), .done(r3_done),
    .in_valid(r3_in_valid), .in_ready(r3_in_ready), .in_data(r3_in_data), .in_mask(r3_in_mask),
    .bank_we(r3_bank_we), .bank_addr(r3_bank_addr), .bank_data(r3_bank_data)
  );
  assign r3_cell_bank = r3_BANK;
  assign r3_cell_addr = r3_ADDR;
  assign r3_shape = {32'sd16, 32'sd6, 32'sd1, 32'sd8, 32'sd2, 32'sd1,
                      32'sd6, 32'sd16, 32'sd1, 32'sd3};

  // c3: design a269509ecb82c992 tensor B
  // (column lanes 3, copies 1, phases 2x1, steps 1/4)
  localparam [17:0] c3_BANK = 18'h2b310;
  localparam [17:0] c3_ADDR = 18'h00000;
  rubick_dma_scatter #(
    .LANES(3), .COPIES(1), .BANKS(6), .ELEM_W(8), .ADDR_BITS(3), .ROW_PERIOD(2),
    .COL_PERIOD(1), .ROW_STEP(1), .COL_STEP(4), .GROUP_ROWS(7), .GROUP_COLS(2),
    .CELL_BANK(c3_BANK), .CELL_ADDR(c3_ADDR)
  ) u_c3 (
    .aclk(aclk), .aresetn(aresetn), .start(c3_start), .half(c3_half), .busy(c3_busy), .done(c3_done),
    .in_valid(c3_in_valid), .in_ready(c3_in_ready), .in_data(c3_in_data), .in_mask(c3_in_mask),
    .bank_we(c3_bank_we), .bank_addr(c3_bank_addr), .bank_data(c3_bank_data)
  );
  assign c3_cell_bank = c3_BANK;
  assign c3_cell_addr = c3_ADDR;
  assign c3_shape = {32'sd2, 32'sd7, 32'sd4, 32'sd1, 32'sd1, 32'sd2,
                      32'sd3, 32'sd6, 32'sd1, 32'sd3};

  // cv: design 36c5011e58093aa7 tensor Wt
  // (column lanes 3, copies 1, phases 6x1, steps -1/0)
  localparam [53:0] cv_BANK = 54'h11088442211088;
  localparam [89:0] cv_ADDR = 90'h2b6bc6536b9e952ca638443;
  rubick_dma_scatter #(
    .LANES(3), .COPIES(1), .BANKS(4), .ELEM_W(8), .ADDR_BITS(5), .ROW_PERIOD(6),
    .COL_PERIOD(1), .ROW_STEP(-1), .COL_STEP(0), .GROUP_ROWS(12), .GROUP_COLS(1),
    .CELL_BANK(cv_BANK), .CELL_ADDR(cv_ADDR)
  ) u_cv (
    .aclk(aclk), .aresetn(aresetn), .start(cv_start), .half(cv_half), .busy(cv_busy), .done(cv_done),
    .in_valid(cv_in_valid), .in_ready(cv_in_ready), .in_data(cv_in_data), .in_mask(cv_in_mask),
    .bank_we(cv_bank_we), .bank_addr(cv_bank_addr), .bank_data(cv_bank_data)
  );
  assign cv_cell_bank = cv_BANK;
  assign cv_cell_addr = cv_ADDR;
  assign cv_shape = {32'sd1, 32'sd12, 32'sd0, -32'sd1, 32'sd1, 32'sd6,
                      32'sd5, 32'sd4, 32'sd1, 32'sd3};

  // rn: design 1646d8cc2d004fcf tensor Wt
  // (row lanes 3, copies 1, phases 2x1, steps -1/4)
  localparam [17:0] rn_BANK = 18'h11088;
  localparam [29:0] rn_ADDR = 30'h1ae78443;
  rubick_dma_scatter #(
    .LANES(3), .COPIES(1), .BANKS(4), .ELEM_W(8), .ADDR_BITS(5), .ROW_PERIOD(2),
    .COL_PERIOD(1), .ROW_STEP(-1), .COL_STEP(4), .GROUP_ROWS(4), .GROUP_COLS(3),
    .CELL_BANK(rn_BANK), .CELL_ADDR(rn_ADDR)
  ) u_rn (
    .aclk(aclk), .aresetn(aresetn), .start(rn_start), .half(rn_half), .busy(rn_busy), .done(rn_done),
    .in_valid(rn_in_valid), .in_ready(rn_in_ready), .in_data(rn_in_data), .in_mask(rn_in_mask),
    .bank_we(rn_bank_we), .bank_addr(rn_bank_addr), .bank_data(rn_bank_data)
  );
  assign rn_cell_bank = rn_BANK;
  assign rn_cell_addr = rn_ADDR;
  assign rn_shape = {32'sd3, 32'sd4, 32'sd4, -32'sd1, 32'sd1, 32'sd2,
                      32'sd5, 32'sd4, 32'sd1, 32'sd3};

  // cp: made-up host map with two copies of every element
  // (column lanes 2, copies 2, phases 2x1, steps 6/1)
  localparam [23:0] cp_BANK = 24'h458650;
  localparam [47:0] cp_ADDR = 48'h5c35c3500500;
  rubick_dma_scatter #(
    .LANES(2), .COPIES(2), .BANKS(4), .ELEM_W(8), .ADDR_BITS(6), .ROW_PERIOD(2),
    .COL_PERIOD(1), .ROW_STEP(6), .COL_STEP(1), .GROUP_ROWS(5), .GROUP_COLS(3),
    .CELL_BANK(cp_BANK), .CELL_ADDR(cp_ADDR)
  ) u_cp (
    .aclk(aclk), .aresetn(aresetn), .start(cp_start), .half(cp_half), .busy(cp_busy), .done(cp_done),
    .in_valid(cp_in_valid), .in_ready(cp_in_ready), .in_data(cp_in_data), .in_mask(cp_in_mask),
    .bank_we(cp_bank_we), .bank_addr(cp_bank_addr), .bank_data(cp_bank_data)
  );
  assign cp_cell_bank = cp_BANK;
  assign cp_cell_addr = cp_ADDR;
  assign cp_shape = {32'sd3, 32'sd5, 32'sd1, 32'sd6, 32'sd1, 32'sd2,
                      32'sd6, 32'sd4, 32'sd2, 32'sd2};

endmodule

`default_nettype wire
