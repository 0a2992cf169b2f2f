// SPDX-License-Identifier: Apache-2.0
// Test top for a PIM stream unit's read path, end to end: rubick_bank_stream (an AiM-like
// reader: 1 bank, rows of 64 columns of 32 bytes, tRCD = tRP = 18, tRAS = 35, CL = 14) ->
// rubick_stream_port (16 ports of int8 words, 32 words a column) -> a toy core on the gated
// clock of rubick_clock_gate, checked by test_rubick_pim_chain.cpp with the bank model of
// sim_templates/rubick_pim_bank.h.
// The core: for core_len core cycles after start, its ports read by a fixed pattern of need
// masks (PATTERN[core_t mod 8]), and at every core edge it adds the signed words its ports read
// at the edge before (rdata of need_prev) to core_sum; core_edges counts its edges. start goes
// to the reader, the port and the core at once (the core is idle then: need 0, so go is high
// and its clock runs). The gate's enable is go | rst, so that a reset reaches a stopped core.
`default_nettype none

module tb_rubick_pim_chain (
  input  wire         clk,
  input  wire         rst,
  input  wire         start,
  input  wire [  9:0] start_row,
  input  wire [  5:0] start_col,
  input  wire [ 15:0] start_len,
  input  wire [ 31:0] core_len,
  // Bank commands and read data (the bank model).
  output wire         row_valid,
  output wire         row_act,
  output wire         row_bank,
  output wire [  9:0] row_addr,
  output wire         col_valid,
  output wire         col_bank,
  output wire [  5:0] col_addr,
  input  wire         rd_valid,
  input  wire [255:0] rd_data,
  output wire         stream_busy,
  output wire         stream_done,
  // The port and the core.
  output wire         go,
  output wire         gclk,
  output wire [ 15:0] need,
  output reg          core_running,
  output reg  [ 31:0] core_t,
  output reg  [ 31:0] core_sum,
  output reg  [ 31:0] core_edges
);

  localparam integer NP = 16;
  localparam [8*NP-1:0] PATTERN = {
    16'hfffe, 16'h0f0f, 16'hffff, 16'h0000, 16'h8001, 16'h00ff, 16'hffff, 16'hffff
  };

  wire         col_ok;
  wire         col_take;
  wire [255:0] col_data;
  wire [NP*8-1:0] rdata;
  // A read path only: no write columns.
  wire         unused_col_write, unused_win_ready;
  wire [255:0] unused_wr_data;

  rubick_bank_stream #(
    .BANKS(1), .COL_W(256), .ROW_COLS(64), .ROW_W(10), .LEN_W(16), .TRCD(18), .TRP(18),
    .TRAS(35), .CL(14), .DEPTH(16)
  ) u_reader (
    .clk(clk), .rst(rst), .start(start), .start_bank(1'b0), .start_row(start_row),
    .start_col(start_col), .start_len(start_len), .busy(stream_busy), .done(stream_done),
    .out_valid(col_ok), .out_ready(col_take), .out_data(col_data),
    .row_valid(row_valid), .row_act(row_act), .row_bank(row_bank), .row_addr(row_addr),
    .col_valid(col_valid), .col_write(unused_col_write), .col_bank(col_bank),
    .col_addr(col_addr), .wr_data(unused_wr_data), .rd_valid(rd_valid), .rd_data(rd_data),
    .win_valid(1'b0), .win_ready(unused_win_ready), .win_data(256'd0)
  );

  // The core steps where go (or rst) is high: the gate's enable, and the port's step.
  wire step = go | rst;

  rubick_stream_port #(
    .NP(NP), .W(8), .WORDS(32)
  ) u_port (
    .clk(clk), .rst(rst), .start(start), .in_valid(col_ok), .in_ready(col_take),
    .in_data(col_data), .need(need), .go(go), .step(step), .rdata(rdata)
  );

  rubick_clock_gate u_gate (
    .clk(clk), .en(step), .test_en(1'b0), .gclk(gclk)
  );

  // ---- The toy core, on gclk ----
  reg  [NP-1:0] need_prev;
  assign need = core_running ? PATTERN[core_t[2:0]*NP+:NP] : {NP{1'b0}};

  reg  [  31:0] add;
  integer p;
  always @* begin
    add = 32'd0;
    for (p = 0; p < NP; p = p + 1)
      if (need_prev[p]) add = add + {{24{rdata[p*8+7]}}, rdata[p*8+:8]};
  end

  always @(posedge gclk) begin
    if (rst) begin
      core_running <= 1'b0;
      core_t       <= 32'd0;
      core_sum     <= 32'd0;
      core_edges   <= 32'd0;
      need_prev    <= {NP{1'b0}};
    end else begin
      core_edges <= core_edges + 32'd1;
      need_prev  <= need;
      if (start) begin
        core_running <= core_len != 32'd0;
        core_t       <= 32'd0;
        core_sum     <= 32'd0;
      end else begin
        core_sum <= core_sum + add;
        if (core_running) begin
          core_t <= core_t + 32'd1;
          if (core_t == core_len - 32'd1) core_running <= 1'b0;
        end
      end
    end
  end

endmodule

`default_nettype wire
