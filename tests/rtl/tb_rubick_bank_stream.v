// Test top for rubick_bank_stream: one reader per configuration, each with its own ports,
// checked by test_rubick_bank_stream.cpp against the bank model of sim_templates/rubick_pim_bank.h.
// The parameters are repeated in the test's table of configurations; keep them in step.
//   aim   AiM-like: 1 bank, 64 columns of 32 bytes a row, tRCD = tRP = 18, tRAS = 35, CL = 14
//   hbm   HBM-PIM-like: 2 banks, 32 columns of 32 bytes, 4 / 4 / 9 / 5
//   aim2  the AiM timings with 2 banks (the second hides every row change)
//   b4    4 banks of short rows, bank-bound (busy 22 > 4 x 4 columns), tRAS above tRCD + row
//   b2    2 banks, bank-bound by tRAS
//   z2    2 banks, every timing 0 (ACT and RD in one cycle, data in the RD's cycle)
//   z1    1 bank, every timing 0
//   d1    a FIFO of one column (DEPTH 1)
//   b3    3 banks (not a power of two), rows of 5 columns
//   c1    rows of one column: the row command slot binds
`default_nettype none

module tb_rubick_bank_stream (
  input  wire clk,
  input  wire rst,
  input  wire aim_start,
  input  wire aim_start_bank,
  input  wire [9:0] aim_start_row,
  input  wire [5:0] aim_start_col,
  input  wire [15:0] aim_start_len,
  output wire aim_busy,
  output wire aim_done,
  output wire aim_out_valid,
  input  wire aim_out_ready,
  output wire [255:0] aim_out_data,
  output wire aim_row_valid,
  output wire aim_row_act,
  output wire aim_row_bank,
  output wire [9:0] aim_row_addr,
  output wire aim_col_valid,
  output wire aim_col_bank,
  output wire [5:0] aim_col_addr,
  input  wire aim_rd_valid,
  input  wire [255:0] aim_rd_data,
  input  wire hbm_start,
  input  wire hbm_start_bank,
  input  wire [9:0] hbm_start_row,
  input  wire [4:0] hbm_start_col,
  input  wire [15:0] hbm_start_len,
  output wire hbm_busy,
  output wire hbm_done,
  output wire hbm_out_valid,
  input  wire hbm_out_ready,
  output wire [255:0] hbm_out_data,
  output wire hbm_row_valid,
  output wire hbm_row_act,
  output wire hbm_row_bank,
  output wire [9:0] hbm_row_addr,
  output wire hbm_col_valid,
  output wire hbm_col_bank,
  output wire [4:0] hbm_col_addr,
  input  wire hbm_rd_valid,
  input  wire [255:0] hbm_rd_data,
  input  wire aim2_start,
  input  wire aim2_start_bank,
  input  wire [8:0] aim2_start_row,
  input  wire [5:0] aim2_start_col,
  input  wire [15:0] aim2_start_len,
  output wire aim2_busy,
  output wire aim2_done,
  output wire aim2_out_valid,
  input  wire aim2_out_ready,
  output wire [255:0] aim2_out_data,
  output wire aim2_row_valid,
  output wire aim2_row_act,
  output wire aim2_row_bank,
  output wire [8:0] aim2_row_addr,
  output wire aim2_col_valid,
  output wire aim2_col_bank,
  output wire [5:0] aim2_col_addr,
  input  wire aim2_rd_valid,
  input  wire [255:0] aim2_rd_data,
  input  wire b4_start,
  input  wire [1:0] b4_start_bank,
  input  wire [5:0] b4_start_row,
  input  wire [1:0] b4_start_col,
  input  wire [9:0] b4_start_len,
  output wire b4_busy,
  output wire b4_done,
  output wire b4_out_valid,
  input  wire b4_out_ready,
  output wire [31:0] b4_out_data,
  output wire b4_row_valid,
  output wire b4_row_act,
  output wire [1:0] b4_row_bank,
  output wire [5:0] b4_row_addr,
  output wire b4_col_valid,
  output wire [1:0] b4_col_bank,
  output wire [1:0] b4_col_addr,
  input  wire b4_rd_valid,
  input  wire [31:0] b4_rd_data,
  input  wire b2_start,
  input  wire b2_start_bank,
  input  wire [5:0] b2_start_row,
  input  wire [2:0] b2_start_col,
  input  wire [9:0] b2_start_len,
  output wire b2_busy,
  output wire b2_done,
  output wire b2_out_valid,
  input  wire b2_out_ready,
  output wire [39:0] b2_out_data,
  output wire b2_row_valid,
  output wire b2_row_act,
  output wire b2_row_bank,
  output wire [5:0] b2_row_addr,
  output wire b2_col_valid,
  output wire b2_col_bank,
  output wire [2:0] b2_col_addr,
  input  wire b2_rd_valid,
  input  wire [39:0] b2_rd_data,
  input  wire z2_start,
  input  wire z2_start_bank,
  input  wire [4:0] z2_start_row,
  input  wire [1:0] z2_start_col,
  input  wire [7:0] z2_start_len,
  output wire z2_busy,
  output wire z2_done,
  output wire z2_out_valid,
  input  wire z2_out_ready,
  output wire [15:0] z2_out_data,
  output wire z2_row_valid,
  output wire z2_row_act,
  output wire z2_row_bank,
  output wire [4:0] z2_row_addr,
  output wire z2_col_valid,
  output wire z2_col_bank,
  output wire [1:0] z2_col_addr,
  input  wire z2_rd_valid,
  input  wire [15:0] z2_rd_data,
  input  wire z1_start,
  input  wire z1_start_bank,
  input  wire [5:0] z1_start_row,
  input  wire z1_start_col,
  input  wire [7:0] z1_start_len,
  output wire z1_busy,
  output wire z1_done,
  output wire z1_out_valid,
  input  wire z1_out_ready,
  output wire [7:0] z1_out_data,
  output wire z1_row_valid,
  output wire z1_row_act,
  output wire z1_row_bank,
  output wire [5:0] z1_row_addr,
  output wire z1_col_valid,
  output wire z1_col_bank,
  output wire z1_col_addr,
  input  wire z1_rd_valid,
  input  wire [7:0] z1_rd_data,
  input  wire d1_start,
  input  wire d1_start_bank,
  input  wire [4:0] d1_start_row,
  input  wire [3:0] d1_start_col,
  input  wire [9:0] d1_start_len,
  output wire d1_busy,
  output wire d1_done,
  output wire d1_out_valid,
  input  wire d1_out_ready,
  output wire [63:0] d1_out_data,
  output wire d1_row_valid,
  output wire d1_row_act,
  output wire d1_row_bank,
  output wire [4:0] d1_row_addr,
  output wire d1_col_valid,
  output wire d1_col_bank,
  output wire [3:0] d1_col_addr,
  input  wire d1_rd_valid,
  input  wire [63:0] d1_rd_data,
  input  wire b3_start,
  input  wire [1:0] b3_start_bank,
  input  wire [4:0] b3_start_row,
  input  wire [2:0] b3_start_col,
  input  wire [7:0] b3_start_len,
  output wire b3_busy,
  output wire b3_done,
  output wire b3_out_valid,
  input  wire b3_out_ready,
  output wire [23:0] b3_out_data,
  output wire b3_row_valid,
  output wire b3_row_act,
  output wire [1:0] b3_row_bank,
  output wire [4:0] b3_row_addr,
  output wire b3_col_valid,
  output wire [1:0] b3_col_bank,
  output wire [2:0] b3_col_addr,
  input  wire b3_rd_valid,
  input  wire [23:0] b3_rd_data,
  input  wire c1_start,
  input  wire c1_start_bank,
  input  wire [6:0] c1_start_row,
  input  wire c1_start_col,
  input  wire [7:0] c1_start_len,
  output wire c1_busy,
  output wire c1_done,
  output wire c1_out_valid,
  input  wire c1_out_ready,
  output wire [11:0] c1_out_data,
  output wire c1_row_valid,
  output wire c1_row_act,
  output wire c1_row_bank,
  output wire [6:0] c1_row_addr,
  output wire c1_col_valid,
  output wire c1_col_bank,
  output wire c1_col_addr,
  input  wire c1_rd_valid,
  input  wire [11:0] c1_rd_data
);

  rubick_bank_stream #(
    .BANKS(1), .COL_W(256), .ROW_COLS(64), .ROW_W(10), .LEN_W(16), .TRCD(18), .TRP(18),
    .TRAS(35), .CL(14), .DEPTH(16)
  ) u_aim (
    .clk(clk), .rst(rst), .start(aim_start), .start_bank(aim_start_bank), .start_row(aim_start_row),
    .start_col(aim_start_col), .start_len(aim_start_len), .busy(aim_busy), .done(aim_done),
    .out_valid(aim_out_valid), .out_ready(aim_out_ready), .out_data(aim_out_data),
    .row_valid(aim_row_valid), .row_act(aim_row_act), .row_bank(aim_row_bank),
    .row_addr(aim_row_addr), .col_valid(aim_col_valid), .col_bank(aim_col_bank),
    .col_addr(aim_col_addr), .rd_valid(aim_rd_valid), .rd_data(aim_rd_data)
  );

  rubick_bank_stream #(
    .BANKS(2), .COL_W(256), .ROW_COLS(32), .ROW_W(10), .LEN_W(16), .TRCD(4), .TRP(4),
    .TRAS(9), .CL(5), .DEPTH(7)
  ) u_hbm (
    .clk(clk), .rst(rst), .start(hbm_start), .start_bank(hbm_start_bank), .start_row(hbm_start_row),
    .start_col(hbm_start_col), .start_len(hbm_start_len), .busy(hbm_busy), .done(hbm_done),
    .out_valid(hbm_out_valid), .out_ready(hbm_out_ready), .out_data(hbm_out_data),
    .row_valid(hbm_row_valid), .row_act(hbm_row_act), .row_bank(hbm_row_bank),
    .row_addr(hbm_row_addr), .col_valid(hbm_col_valid), .col_bank(hbm_col_bank),
    .col_addr(hbm_col_addr), .rd_valid(hbm_rd_valid), .rd_data(hbm_rd_data)
  );

  rubick_bank_stream #(
    .BANKS(2), .COL_W(256), .ROW_COLS(64), .ROW_W(9), .LEN_W(16), .TRCD(18), .TRP(18),
    .TRAS(35), .CL(14), .DEPTH(16)
  ) u_aim2 (
    .clk(clk), .rst(rst), .start(aim2_start), .start_bank(aim2_start_bank), .start_row(aim2_start_row),
    .start_col(aim2_start_col), .start_len(aim2_start_len), .busy(aim2_busy), .done(aim2_done),
    .out_valid(aim2_out_valid), .out_ready(aim2_out_ready), .out_data(aim2_out_data),
    .row_valid(aim2_row_valid), .row_act(aim2_row_act), .row_bank(aim2_row_bank),
    .row_addr(aim2_row_addr), .col_valid(aim2_col_valid), .col_bank(aim2_col_bank),
    .col_addr(aim2_col_addr), .rd_valid(aim2_rd_valid), .rd_data(aim2_rd_data)
  );

  rubick_bank_stream #(
    .BANKS(4), .COL_W(32), .ROW_COLS(4), .ROW_W(6), .LEN_W(10), .TRCD(6), .TRP(7),
    .TRAS(15), .CL(3), .DEPTH(5)
  ) u_b4 (
    .clk(clk), .rst(rst), .start(b4_start), .start_bank(b4_start_bank), .start_row(b4_start_row),
    .start_col(b4_start_col), .start_len(b4_start_len), .busy(b4_busy), .done(b4_done),
    .out_valid(b4_out_valid), .out_ready(b4_out_ready), .out_data(b4_out_data),
    .row_valid(b4_row_valid), .row_act(b4_row_act), .row_bank(b4_row_bank),
    .row_addr(b4_row_addr), .col_valid(b4_col_valid), .col_bank(b4_col_bank),
    .col_addr(b4_col_addr), .rd_valid(b4_rd_valid), .rd_data(b4_rd_data)
  );

  rubick_bank_stream #(
    .BANKS(2), .COL_W(40), .ROW_COLS(8), .ROW_W(6), .LEN_W(10), .TRCD(5), .TRP(6),
    .TRAS(20), .CL(2), .DEPTH(4)
  ) u_b2 (
    .clk(clk), .rst(rst), .start(b2_start), .start_bank(b2_start_bank), .start_row(b2_start_row),
    .start_col(b2_start_col), .start_len(b2_start_len), .busy(b2_busy), .done(b2_done),
    .out_valid(b2_out_valid), .out_ready(b2_out_ready), .out_data(b2_out_data),
    .row_valid(b2_row_valid), .row_act(b2_row_act), .row_bank(b2_row_bank),
    .row_addr(b2_row_addr), .col_valid(b2_col_valid), .col_bank(b2_col_bank),
    .col_addr(b2_col_addr), .rd_valid(b2_rd_valid), .rd_data(b2_rd_data)
  );

  rubick_bank_stream #(
    .BANKS(2), .COL_W(16), .ROW_COLS(4), .ROW_W(5), .LEN_W(8), .TRCD(0), .TRP(0),
    .TRAS(0), .CL(0), .DEPTH(2)
  ) u_z2 (
    .clk(clk), .rst(rst), .start(z2_start), .start_bank(z2_start_bank), .start_row(z2_start_row),
    .start_col(z2_start_col), .start_len(z2_start_len), .busy(z2_busy), .done(z2_done),
    .out_valid(z2_out_valid), .out_ready(z2_out_ready), .out_data(z2_out_data),
    .row_valid(z2_row_valid), .row_act(z2_row_act), .row_bank(z2_row_bank),
    .row_addr(z2_row_addr), .col_valid(z2_col_valid), .col_bank(z2_col_bank),
    .col_addr(z2_col_addr), .rd_valid(z2_rd_valid), .rd_data(z2_rd_data)
  );

  rubick_bank_stream #(
    .BANKS(1), .COL_W(8), .ROW_COLS(2), .ROW_W(6), .LEN_W(8), .TRCD(0), .TRP(0),
    .TRAS(0), .CL(0), .DEPTH(2)
  ) u_z1 (
    .clk(clk), .rst(rst), .start(z1_start), .start_bank(z1_start_bank), .start_row(z1_start_row),
    .start_col(z1_start_col), .start_len(z1_start_len), .busy(z1_busy), .done(z1_done),
    .out_valid(z1_out_valid), .out_ready(z1_out_ready), .out_data(z1_out_data),
    .row_valid(z1_row_valid), .row_act(z1_row_act), .row_bank(z1_row_bank),
    .row_addr(z1_row_addr), .col_valid(z1_col_valid), .col_bank(z1_col_bank),
    .col_addr(z1_col_addr), .rd_valid(z1_rd_valid), .rd_data(z1_rd_data)
  );

  rubick_bank_stream #(
    .BANKS(2), .COL_W(64), .ROW_COLS(16), .ROW_W(5), .LEN_W(10), .TRCD(3), .TRP(2),
    .TRAS(8), .CL(4), .DEPTH(1)
  ) u_d1 (
    .clk(clk), .rst(rst), .start(d1_start), .start_bank(d1_start_bank), .start_row(d1_start_row),
    .start_col(d1_start_col), .start_len(d1_start_len), .busy(d1_busy), .done(d1_done),
    .out_valid(d1_out_valid), .out_ready(d1_out_ready), .out_data(d1_out_data),
    .row_valid(d1_row_valid), .row_act(d1_row_act), .row_bank(d1_row_bank),
    .row_addr(d1_row_addr), .col_valid(d1_col_valid), .col_bank(d1_col_bank),
    .col_addr(d1_col_addr), .rd_valid(d1_rd_valid), .rd_data(d1_rd_data)
  );

  rubick_bank_stream #(
    .BANKS(3), .COL_W(24), .ROW_COLS(5), .ROW_W(5), .LEN_W(8), .TRCD(2), .TRP(3),
    .TRAS(7), .CL(2), .DEPTH(4)
  ) u_b3 (
    .clk(clk), .rst(rst), .start(b3_start), .start_bank(b3_start_bank), .start_row(b3_start_row),
    .start_col(b3_start_col), .start_len(b3_start_len), .busy(b3_busy), .done(b3_done),
    .out_valid(b3_out_valid), .out_ready(b3_out_ready), .out_data(b3_out_data),
    .row_valid(b3_row_valid), .row_act(b3_row_act), .row_bank(b3_row_bank),
    .row_addr(b3_row_addr), .col_valid(b3_col_valid), .col_bank(b3_col_bank),
    .col_addr(b3_col_addr), .rd_valid(b3_rd_valid), .rd_data(b3_rd_data)
  );

  rubick_bank_stream #(
    .BANKS(2), .COL_W(12), .ROW_COLS(1), .ROW_W(7), .LEN_W(8), .TRCD(1), .TRP(1),
    .TRAS(2), .CL(1), .DEPTH(3)
  ) u_c1 (
    .clk(clk), .rst(rst), .start(c1_start), .start_bank(c1_start_bank), .start_row(c1_start_row),
    .start_col(c1_start_col), .start_len(c1_start_len), .busy(c1_busy), .done(c1_done),
    .out_valid(c1_out_valid), .out_ready(c1_out_ready), .out_data(c1_out_data),
    .row_valid(c1_row_valid), .row_act(c1_row_act), .row_bank(c1_row_bank),
    .row_addr(c1_row_addr), .col_valid(c1_col_valid), .col_bank(c1_col_bank),
    .col_addr(c1_col_addr), .rd_valid(c1_rd_valid), .rd_data(c1_rd_data)
  );

endmodule

`default_nettype wire
