// SPDX-License-Identifier: Apache-2.0
// A hand-made processing-in-memory top with the pins rubick's PIM tops have (docs/pim.md,
// sim_templates/rubick_pim_harness.cpp), for testing the PIM testbench before rubick emits
// such tops: three units, each streaming 9 columns of its own DRAM banks (2 banks, rows of 2
// columns of 8 bytes: 5 rows, so both banks and row changes in both) with rubick_bank_stream:
// 6 read columns, R, and between them 3 write columns, W, in the order R R W R R W R W R (runs
// [2, 1], [2, 1], [1, 1]). A unit sums each read column's four 16-bit words with weights:
//   acc(u) = sum over read words k of (k / 4 + 1) x (k % 4 + 1) x word(u, k)
// (the weights make any misplaced word change the sums), and after each of its first 5 read
// columns c writes the running sum S(u, c) (acc after column c, 32 bits) through
// rubick_stream_wport (1 port, 2 words a column, 5 words a run): S(u, 0..1) in the first W
// column, S(u, 2..3) in the second, S(u, 4) and a zero word of padding in the third. A unit
// takes a read column only where the write port has room for its word (go), and the reader
// writes a W column only once its words are there, so the third W column waits for column 4's
// sum. Tensor selects:
//   1 bias  (16 bits) the same register in every unit (bank 0, address 0)
//   2 offs  (8 bits)  one register per unit (bank 0, address 0)
//   3 C     (32 bits) C(u) = acc(u) + bias + offs(u), read from unit u
//   4 T     (8 bits)  unit u's partial sum acc(u); the host adds the units' parts
//   5 S     (32 bits) S(u, c), in the units' W columns only (no host read)
// Host reads of anything else return 0. Row addresses of 30 bits (the banks have 4 rows) make
// dram_row_addr 90 bits wide (a VlWide, as the packed fields of real designs often are), its
// fields across 32- and 64-bit word boundaries. design.json and stimulus.txt: random inputs,
// the expected values by the formulas above; A's words in each unit's read columns with two
// unfilled words (11 and 23 of the read words).
`default_nettype none

/* verilator lint_off DECLFILENAME */
module toy_pim_unit #(
  parameter integer ROW_W = 2
) (
  input  wire        clk,
  input  wire        rst,
  input  wire        start,
  input  wire        wr_bias,
  input  wire        wr_offs,
  input  wire [31:0] wdata,
  output reg         running,
  output reg         fin,
  output reg  [31:0] c_reg,
  output reg  [31:0] acc,
  output reg  [15:0] bias,
  output reg  [ 7:0] offs,
  output wire        row_valid,
  output wire        row_act,
  output wire        row_bank,
  output wire [ROW_W-1:0] row_addr,
  output wire        col_valid,
  output wire        col_write,
  output wire        col_bank,
  output wire        col_addr,
  output wire [63:0] wr_data,
  input  wire        rd_valid,
  input  wire [63:0] rd_data
);
  wire        rs_busy, rs_done, out_valid;
  wire [63:0] out_data;
  wire        wcol_ok, wcol_take, wgo;
  wire [63:0] wcol_data;
  rubick_bank_stream #(
    .BANKS(2),
    .COL_W(64),
    .ROW_COLS(2),
    .ROW_W(ROW_W),
    .LEN_W(4),
    .TRCD(2),
    .TRP(2),
    .TRAS(5),
    .CL(2),
    .NRUNS(3),
    .RUNS({32'd1, 32'd1, 32'd1, 32'd2, 32'd1, 32'd2})
  ) u_stream (
    .clk(clk),
    .rst(rst),
    .start(start & ~running),
    .start_bank(1'b0),
    .start_row({ROW_W{1'b0}}),
    .start_col(1'b0),
    .start_len(4'd9),
    .busy(rs_busy),
    .done(rs_done),
    .out_valid(out_valid),
    .out_ready(wgo),
    .out_data(out_data),
    .row_valid(row_valid),
    .row_act(row_act),
    .row_bank(row_bank),
    .row_addr(row_addr),
    .col_valid(col_valid),
    .col_write(col_write),
    .col_bank(col_bank),
    .col_addr(col_addr),
    .wr_data(wr_data),
    .rd_valid(rd_valid),
    .rd_data(rd_data),
    .win_valid(wcol_ok),
    .win_ready(wcol_take),
    .win_data(wcol_data)
  );

  // The column's words, sign-extended, and their weighted sum (modulo 2^32).
  wire [31:0] w0 = {{16{out_data[15]}}, out_data[15:0]};
  wire [31:0] w1 = {{16{out_data[31]}}, out_data[31:16]};
  wire [31:0] w2 = {{16{out_data[47]}}, out_data[47:32]};
  wire [31:0] w3 = {{16{out_data[63]}}, out_data[63:48]};
  wire [31:0] colsum = w0 + 32'd2 * w1 + 32'd3 * w2 + 32'd4 * w3;
  reg  [31:0] weight;  // the column's: its index + 1
  wire [31:0] acc_next = acc + weight * colsum;
  // A read column is taken where the write port has room for its running sum (the unit's
  // "core" steps with go); the first 5 running sums go out to the W columns.
  wire        take = running & out_valid & wgo;
  rubick_stream_wport #(
    .NP(1),
    .W(32),
    .WORDS(2),
    .TOTAL(5)
  ) u_wport (
    .clk(clk),
    .rst(rst),
    .start(start & ~running),
    .valid(running & out_valid & (weight <= 32'd5)),
    .data(acc_next),
    .go(wgo),
    .step(wgo),
    .out_valid(wcol_ok),
    .out_ready(wcol_take),
    .out_data(wcol_data)
  );

  always @(posedge clk) begin
    if (rst) begin
      running <= 1'b0;
      fin <= 1'b0;
      acc <= 32'd0;
      c_reg <= 32'd0;
      weight <= 32'd1;
    end else if (start && !running) begin
      running <= 1'b1;
      fin <= 1'b0;
      acc <= 32'd0;
      weight <= 32'd1;
    end else if (running) begin
      if (take) begin
        acc <= acc_next;
        weight <= weight + 32'd1;
      end
      // The reader's done comes after its last column: acc is complete.
      if (rs_done) begin
        running <= 1'b0;
        fin <= 1'b1;
        c_reg <= acc + {{16{bias[15]}}, bias} + {{24{offs[7]}}, offs};
      end
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      bias <= 16'd0;
      offs <= 8'd0;
    end else begin
      if (wr_bias) bias <= wdata[15:0];
      if (wr_offs) offs <= wdata[7:0];
    end
  end

  wire unused = &{1'b0, rs_busy, wdata[31:16]};
endmodule
/* verilator lint_on DECLFILENAME */

module toy_pim (
  input  wire         clk,
  input  wire         rst,
  input  wire         start,
  output wire         busy,
  output wire         done,
  input  wire         host_we,
  input  wire [  1:0] host_wunit,
  input  wire         host_wall,
  input  wire [  2:0] host_wtensor,
  input  wire         host_wbank,
  input  wire         host_waddr,
  input  wire [ 31:0] host_wdata,
  input  wire         host_re,
  input  wire [  1:0] host_runit,
  input  wire [  2:0] host_rtensor,
  input  wire         host_rbank,
  input  wire         host_raddr,
  output reg  [ 31:0] host_rdata,
  output wire [  2:0] dram_row_valid,
  output wire [  2:0] dram_row_act,
  output wire [  2:0] dram_row_bank,
  output wire [ 89:0] dram_row_addr,
  output wire [  2:0] dram_col_valid,
  output wire [  2:0] dram_col_bank,
  output wire [  2:0] dram_col_addr,
  output wire [  2:0] dram_col_write,
  output wire [191:0] dram_wr_data,
  input  wire [  2:0] dram_rd_valid,
  input  wire [191:0] dram_rd_data
);
  localparam integer N = 3;
  localparam integer ROW_W = 30;
  wire [N-1:0] running, fin;
  wire [31:0] c_reg[0:N-1];
  wire [31:0] acc[0:N-1];
  wire [15:0] bias[0:N-1];
  wire [7:0] offs[0:N-1];
  wire at0 = ~host_wbank & ~host_waddr;

  genvar u;
  generate
    for (u = 0; u < N; u = u + 1) begin : g_unit
      wire mine = host_we & at0 & (host_wall | (host_wunit == u[1:0]));
      toy_pim_unit #(
        .ROW_W(ROW_W)
      ) unit (
        .clk(clk),
        .rst(rst),
        .start(start),
        .wr_bias(mine & (host_wtensor == 3'd1)),
        .wr_offs(mine & (host_wtensor == 3'd2)),
        .wdata(host_wdata),
        .running(running[u]),
        .fin(fin[u]),
        .c_reg(c_reg[u]),
        .acc(acc[u]),
        .bias(bias[u]),
        .offs(offs[u]),
        .row_valid(dram_row_valid[u]),
        .row_act(dram_row_act[u]),
        .row_bank(dram_row_bank[u]),
        .row_addr(dram_row_addr[u*ROW_W+:ROW_W]),
        .col_valid(dram_col_valid[u]),
        .col_write(dram_col_write[u]),
        .col_bank(dram_col_bank[u]),
        .col_addr(dram_col_addr[u]),
        .wr_data(dram_wr_data[u*64+:64]),
        .rd_valid(dram_rd_valid[u]),
        .rd_data(dram_rd_data[u*64+:64])
      );
    end
  endgenerate

  assign busy = |running;
  assign done = &fin;  // cleared by start, set when every unit has finished

  always @(posedge clk) begin
    if (host_re) begin
      host_rdata <= 32'd0;
      if (!host_rbank && !host_raddr && host_runit != 2'd3)
        case (host_rtensor)
          3'd1: host_rdata <= {{16{bias[host_runit][15]}}, bias[host_runit]};
          3'd2: host_rdata <= {{24{offs[host_runit][7]}}, offs[host_runit]};
          3'd3: host_rdata <= c_reg[host_runit];
          3'd4: host_rdata <= acc[host_runit];
          default: host_rdata <= 32'd0;
        endcase
    end
  end
endmodule

`default_nettype wire

// toy_pim behind the host interface rubick's PIM tops have (their emitted <top>_axil): the
// AXI4-Lite control slave (rubick_axil_regs) and the AXI4-Lite host window (rubick_axil_host),
// the testbench's only way in. Written by hand like toy_pim.
`default_nettype none

/* verilator lint_off DECLFILENAME */
module toy_pim_axil (
  input  wire         aclk,
  input  wire         aresetn,
  input  wire [  7:0] s_axil_awaddr,
  input  wire         s_axil_awvalid,
  output wire         s_axil_awready,
  input  wire [ 31:0] s_axil_wdata,
  input  wire [  3:0] s_axil_wstrb,
  input  wire         s_axil_wvalid,
  output wire         s_axil_wready,
  output wire [  1:0] s_axil_bresp,
  output wire         s_axil_bvalid,
  input  wire         s_axil_bready,
  input  wire [  7:0] s_axil_araddr,
  input  wire         s_axil_arvalid,
  output wire         s_axil_arready,
  output wire [ 31:0] s_axil_rdata,
  output wire [  1:0] s_axil_rresp,
  output wire         s_axil_rvalid,
  input  wire         s_axil_rready,
  input  wire [ 10:0] s_axil_host_awaddr,
  input  wire         s_axil_host_awvalid,
  output wire         s_axil_host_awready,
  input  wire [ 31:0] s_axil_host_wdata,
  input  wire [  3:0] s_axil_host_wstrb,
  input  wire         s_axil_host_wvalid,
  output wire         s_axil_host_wready,
  output wire [  1:0] s_axil_host_bresp,
  output wire         s_axil_host_bvalid,
  input  wire         s_axil_host_bready,
  input  wire [ 10:0] s_axil_host_araddr,
  input  wire         s_axil_host_arvalid,
  output wire         s_axil_host_arready,
  output wire [ 31:0] s_axil_host_rdata,
  output wire [  1:0] s_axil_host_rresp,
  output wire         s_axil_host_rvalid,
  input  wire         s_axil_host_rready,
  output wire         irq,
  output wire [  2:0] dram_row_valid,
  output wire [  2:0] dram_row_act,
  output wire [  2:0] dram_row_bank,
  output wire [ 89:0] dram_row_addr,
  output wire [  2:0] dram_col_valid,
  output wire [  2:0] dram_col_bank,
  output wire [  2:0] dram_col_addr,
  output wire [  2:0] dram_col_write,
  output wire [191:0] dram_wr_data,
  input  wire [  2:0] dram_rd_valid,
  input  wire [191:0] dram_rd_data
);
  wire start, busy, done;
  reg  done_q;
  always @(posedge aclk) done_q <= aresetn & done;
  wire [63:0] base_unused;
  rubick_axil_regs #(.ADDR_W(8), .N_BASE(1)) regs (
    .aclk(aclk), .aresetn(aresetn),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr), .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready), .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),
    .start(start), .busy_in(busy), .done_in(done & ~done_q), .error_in(1'b0), .irq(irq),
    .base_addr(base_unused));

  wire host_we, host_wall, host_re, host_wbank, host_waddr, host_rbank, host_raddr;
  wire [1:0] host_wunit, host_runit;
  wire [2:0] host_wtensor, host_rtensor;
  wire [31:0] host_wdata, host_rdata;
  rubick_axil_host #(.ADDR_W(11), .UNIT_W(2), .TENSOR_W(3), .BANK_W(1), .AW(1), .DATA_W(32)) window (
    .aclk(aclk), .aresetn(aresetn),
    .s_axil_awaddr(s_axil_host_awaddr), .s_axil_awvalid(s_axil_host_awvalid),
    .s_axil_awready(s_axil_host_awready), .s_axil_wdata(s_axil_host_wdata),
    .s_axil_wstrb(s_axil_host_wstrb), .s_axil_wvalid(s_axil_host_wvalid),
    .s_axil_wready(s_axil_host_wready), .s_axil_bresp(s_axil_host_bresp),
    .s_axil_bvalid(s_axil_host_bvalid), .s_axil_bready(s_axil_host_bready),
    .s_axil_araddr(s_axil_host_araddr), .s_axil_arvalid(s_axil_host_arvalid),
    .s_axil_arready(s_axil_host_arready), .s_axil_rdata(s_axil_host_rdata),
    .s_axil_rresp(s_axil_host_rresp), .s_axil_rvalid(s_axil_host_rvalid),
    .s_axil_rready(s_axil_host_rready),
    .busy_in(busy),
    .host_we(host_we), .host_wunit(host_wunit), .host_wall(host_wall),
    .host_wtensor(host_wtensor), .host_wbank(host_wbank), .host_waddr(host_waddr),
    .host_wdata(host_wdata),
    .host_re(host_re), .host_runit(host_runit), .host_rtensor(host_rtensor),
    .host_rbank(host_rbank), .host_raddr(host_raddr), .host_rdata(host_rdata));

  toy_pim core (
    .clk(aclk), .rst(~aresetn), .start(start), .busy(busy), .done(done),
    .host_we(host_we), .host_wunit(host_wunit), .host_wall(host_wall),
    .host_wtensor(host_wtensor), .host_wbank(host_wbank), .host_waddr(host_waddr),
    .host_wdata(host_wdata),
    .host_re(host_re), .host_runit(host_runit), .host_rtensor(host_rtensor),
    .host_rbank(host_rbank), .host_raddr(host_raddr), .host_rdata(host_rdata),
    .dram_row_valid(dram_row_valid), .dram_row_act(dram_row_act), .dram_row_bank(dram_row_bank),
    .dram_row_addr(dram_row_addr), .dram_col_valid(dram_col_valid),
    .dram_col_bank(dram_col_bank), .dram_col_addr(dram_col_addr),
    .dram_col_write(dram_col_write), .dram_wr_data(dram_wr_data),
    .dram_rd_valid(dram_rd_valid), .dram_rd_data(dram_rd_data));

  wire unused_ok = &{1'b0, base_unused};
endmodule

`default_nettype wire
