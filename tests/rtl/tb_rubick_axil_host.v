// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_axil_host: four windows, each onto its own host-port memory model,
// checked by test_rubick_axil_host.cpp. The parameters are repeated in the test's table of
// configurations; keep them in step.
//   c8   DATA_W 8, 4 units (UNIT_W 2), TENSOR_W 1, BANK_W 1, AW 2, ADDR_W 12 (2 ignored bits)
//   c32  DATA_W 32, every field 1 bit, ADDR_W 8 (exactly the map)
//   c48  DATA_W 48 (a partial high half), UNIT_W 1, TENSOR_W 2, BANK_W 1, AW 4, ADDR_W 32
//   c64  DATA_W 64, UNIT_W 2, TENSOR_W 2, BANK_W 3, AW 3, ADDR_W 16
// The memory model of each: word {unit, tensor, bank, addr} (P_mem, one word per combination
// of the fields), written at an edge with host_we (with host_wall: that word of every unit),
// read with one cycle of latency (P_host_rdata loaded at an edge with host_re: read-during-
// write returns the old word). It has no reset; the test fills it through the model's signals.
`default_nettype none

module tb_rubick_axil_host (
  input  wire aclk,
  input  wire aresetn,
  input  wire [11:0] c8_s_axil_awaddr,
  input  wire c8_s_axil_awvalid,
  output wire c8_s_axil_awready,
  input  wire [31:0] c8_s_axil_wdata,
  input  wire [3:0] c8_s_axil_wstrb,
  input  wire c8_s_axil_wvalid,
  output wire c8_s_axil_wready,
  output wire [1:0] c8_s_axil_bresp,
  output wire c8_s_axil_bvalid,
  input  wire c8_s_axil_bready,
  input  wire [11:0] c8_s_axil_araddr,
  input  wire c8_s_axil_arvalid,
  output wire c8_s_axil_arready,
  output wire [31:0] c8_s_axil_rdata,
  output wire [1:0] c8_s_axil_rresp,
  output wire c8_s_axil_rvalid,
  input  wire c8_s_axil_rready,
  input  wire c8_busy_in,
  output wire c8_host_we,
  output wire [1:0] c8_host_wunit,
  output wire c8_host_wall,
  output wire c8_host_wtensor,
  output wire c8_host_wbank,
  output wire [1:0] c8_host_waddr,
  output wire [7:0] c8_host_wdata,
  output wire c8_host_re,
  output wire [1:0] c8_host_runit,
  output wire c8_host_rtensor,
  output wire c8_host_rbank,
  output wire [1:0] c8_host_raddr,
  output reg  [7:0] c8_host_rdata,
  input  wire [7:0] c32_s_axil_awaddr,
  input  wire c32_s_axil_awvalid,
  output wire c32_s_axil_awready,
  input  wire [31:0] c32_s_axil_wdata,
  input  wire [3:0] c32_s_axil_wstrb,
  input  wire c32_s_axil_wvalid,
  output wire c32_s_axil_wready,
  output wire [1:0] c32_s_axil_bresp,
  output wire c32_s_axil_bvalid,
  input  wire c32_s_axil_bready,
  input  wire [7:0] c32_s_axil_araddr,
  input  wire c32_s_axil_arvalid,
  output wire c32_s_axil_arready,
  output wire [31:0] c32_s_axil_rdata,
  output wire [1:0] c32_s_axil_rresp,
  output wire c32_s_axil_rvalid,
  input  wire c32_s_axil_rready,
  input  wire c32_busy_in,
  output wire c32_host_we,
  output wire c32_host_wunit,
  output wire c32_host_wall,
  output wire c32_host_wtensor,
  output wire c32_host_wbank,
  output wire c32_host_waddr,
  output wire [31:0] c32_host_wdata,
  output wire c32_host_re,
  output wire c32_host_runit,
  output wire c32_host_rtensor,
  output wire c32_host_rbank,
  output wire c32_host_raddr,
  output reg  [31:0] c32_host_rdata,
  input  wire [31:0] c48_s_axil_awaddr,
  input  wire c48_s_axil_awvalid,
  output wire c48_s_axil_awready,
  input  wire [31:0] c48_s_axil_wdata,
  input  wire [3:0] c48_s_axil_wstrb,
  input  wire c48_s_axil_wvalid,
  output wire c48_s_axil_wready,
  output wire [1:0] c48_s_axil_bresp,
  output wire c48_s_axil_bvalid,
  input  wire c48_s_axil_bready,
  input  wire [31:0] c48_s_axil_araddr,
  input  wire c48_s_axil_arvalid,
  output wire c48_s_axil_arready,
  output wire [31:0] c48_s_axil_rdata,
  output wire [1:0] c48_s_axil_rresp,
  output wire c48_s_axil_rvalid,
  input  wire c48_s_axil_rready,
  input  wire c48_busy_in,
  output wire c48_host_we,
  output wire c48_host_wunit,
  output wire c48_host_wall,
  output wire [1:0] c48_host_wtensor,
  output wire c48_host_wbank,
  output wire [3:0] c48_host_waddr,
  output wire [47:0] c48_host_wdata,
  output wire c48_host_re,
  output wire c48_host_runit,
  output wire [1:0] c48_host_rtensor,
  output wire c48_host_rbank,
  output wire [3:0] c48_host_raddr,
  output reg  [47:0] c48_host_rdata,
  input  wire [15:0] c64_s_axil_awaddr,
  input  wire c64_s_axil_awvalid,
  output wire c64_s_axil_awready,
  input  wire [31:0] c64_s_axil_wdata,
  input  wire [3:0] c64_s_axil_wstrb,
  input  wire c64_s_axil_wvalid,
  output wire c64_s_axil_wready,
  output wire [1:0] c64_s_axil_bresp,
  output wire c64_s_axil_bvalid,
  input  wire c64_s_axil_bready,
  input  wire [15:0] c64_s_axil_araddr,
  input  wire c64_s_axil_arvalid,
  output wire c64_s_axil_arready,
  output wire [31:0] c64_s_axil_rdata,
  output wire [1:0] c64_s_axil_rresp,
  output wire c64_s_axil_rvalid,
  input  wire c64_s_axil_rready,
  input  wire c64_busy_in,
  output wire c64_host_we,
  output wire [1:0] c64_host_wunit,
  output wire c64_host_wall,
  output wire [1:0] c64_host_wtensor,
  output wire [2:0] c64_host_wbank,
  output wire [2:0] c64_host_waddr,
  output wire [63:0] c64_host_wdata,
  output wire c64_host_re,
  output wire [1:0] c64_host_runit,
  output wire [1:0] c64_host_rtensor,
  output wire [2:0] c64_host_rbank,
  output wire [2:0] c64_host_raddr,
  output reg  [63:0] c64_host_rdata
);

  rubick_axil_host #(.ADDR_W(12), .UNIT_W(2), .TENSOR_W(1), .BANK_W(1), .AW(2), .DATA_W(8)) u_c8 (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(c8_s_axil_awaddr),
    .s_axil_awvalid(c8_s_axil_awvalid), .s_axil_awready(c8_s_axil_awready),
    .s_axil_wdata(c8_s_axil_wdata), .s_axil_wstrb(c8_s_axil_wstrb),
    .s_axil_wvalid(c8_s_axil_wvalid), .s_axil_wready(c8_s_axil_wready),
    .s_axil_bresp(c8_s_axil_bresp), .s_axil_bvalid(c8_s_axil_bvalid),
    .s_axil_bready(c8_s_axil_bready), .s_axil_araddr(c8_s_axil_araddr),
    .s_axil_arvalid(c8_s_axil_arvalid), .s_axil_arready(c8_s_axil_arready),
    .s_axil_rdata(c8_s_axil_rdata), .s_axil_rresp(c8_s_axil_rresp),
    .s_axil_rvalid(c8_s_axil_rvalid), .s_axil_rready(c8_s_axil_rready),
    .busy_in(c8_busy_in), .host_we(c8_host_we), .host_wunit(c8_host_wunit),
    .host_wall(c8_host_wall), .host_wtensor(c8_host_wtensor), .host_wbank(c8_host_wbank),
    .host_waddr(c8_host_waddr), .host_wdata(c8_host_wdata), .host_re(c8_host_re),
    .host_runit(c8_host_runit), .host_rtensor(c8_host_rtensor), .host_rbank(c8_host_rbank),
    .host_raddr(c8_host_raddr), .host_rdata(c8_host_rdata)
  );

  // c8's host-port memory.
  reg [7:0] c8_mem [0:63];
  always @(posedge aclk) begin
    if (c8_host_we && (c8_host_wall || c8_host_wunit == 2'd0))
      c8_mem[{2'd0, c8_host_wtensor, c8_host_wbank, c8_host_waddr}] <= c8_host_wdata;
    if (c8_host_we && (c8_host_wall || c8_host_wunit == 2'd1))
      c8_mem[{2'd1, c8_host_wtensor, c8_host_wbank, c8_host_waddr}] <= c8_host_wdata;
    if (c8_host_we && (c8_host_wall || c8_host_wunit == 2'd2))
      c8_mem[{2'd2, c8_host_wtensor, c8_host_wbank, c8_host_waddr}] <= c8_host_wdata;
    if (c8_host_we && (c8_host_wall || c8_host_wunit == 2'd3))
      c8_mem[{2'd3, c8_host_wtensor, c8_host_wbank, c8_host_waddr}] <= c8_host_wdata;
    if (c8_host_re)
      c8_host_rdata <= c8_mem[{c8_host_runit, c8_host_rtensor, c8_host_rbank, c8_host_raddr}];
  end

  rubick_axil_host #(.ADDR_W(8), .UNIT_W(1), .TENSOR_W(1), .BANK_W(1), .AW(1), .DATA_W(32)) u_c32 (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(c32_s_axil_awaddr),
    .s_axil_awvalid(c32_s_axil_awvalid), .s_axil_awready(c32_s_axil_awready),
    .s_axil_wdata(c32_s_axil_wdata), .s_axil_wstrb(c32_s_axil_wstrb),
    .s_axil_wvalid(c32_s_axil_wvalid), .s_axil_wready(c32_s_axil_wready),
    .s_axil_bresp(c32_s_axil_bresp), .s_axil_bvalid(c32_s_axil_bvalid),
    .s_axil_bready(c32_s_axil_bready), .s_axil_araddr(c32_s_axil_araddr),
    .s_axil_arvalid(c32_s_axil_arvalid), .s_axil_arready(c32_s_axil_arready),
    .s_axil_rdata(c32_s_axil_rdata), .s_axil_rresp(c32_s_axil_rresp),
    .s_axil_rvalid(c32_s_axil_rvalid), .s_axil_rready(c32_s_axil_rready),
    .busy_in(c32_busy_in), .host_we(c32_host_we), .host_wunit(c32_host_wunit),
    .host_wall(c32_host_wall), .host_wtensor(c32_host_wtensor), .host_wbank(c32_host_wbank),
    .host_waddr(c32_host_waddr), .host_wdata(c32_host_wdata), .host_re(c32_host_re),
    .host_runit(c32_host_runit), .host_rtensor(c32_host_rtensor), .host_rbank(c32_host_rbank),
    .host_raddr(c32_host_raddr), .host_rdata(c32_host_rdata)
  );

  // c32's host-port memory.
  reg [31:0] c32_mem [0:15];
  always @(posedge aclk) begin
    if (c32_host_we && (c32_host_wall || c32_host_wunit == 1'd0))
      c32_mem[{1'd0, c32_host_wtensor, c32_host_wbank, c32_host_waddr}] <= c32_host_wdata;
    if (c32_host_we && (c32_host_wall || c32_host_wunit == 1'd1))
      c32_mem[{1'd1, c32_host_wtensor, c32_host_wbank, c32_host_waddr}] <= c32_host_wdata;
    if (c32_host_re)
      c32_host_rdata <= c32_mem[{c32_host_runit, c32_host_rtensor, c32_host_rbank, c32_host_raddr}];
  end

  rubick_axil_host #(.ADDR_W(32), .UNIT_W(1), .TENSOR_W(2), .BANK_W(1), .AW(4), .DATA_W(48)) u_c48 (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(c48_s_axil_awaddr),
    .s_axil_awvalid(c48_s_axil_awvalid), .s_axil_awready(c48_s_axil_awready),
    .s_axil_wdata(c48_s_axil_wdata), .s_axil_wstrb(c48_s_axil_wstrb),
    .s_axil_wvalid(c48_s_axil_wvalid), .s_axil_wready(c48_s_axil_wready),
    .s_axil_bresp(c48_s_axil_bresp), .s_axil_bvalid(c48_s_axil_bvalid),
    .s_axil_bready(c48_s_axil_bready), .s_axil_araddr(c48_s_axil_araddr),
    .s_axil_arvalid(c48_s_axil_arvalid), .s_axil_arready(c48_s_axil_arready),
    .s_axil_rdata(c48_s_axil_rdata), .s_axil_rresp(c48_s_axil_rresp),
    .s_axil_rvalid(c48_s_axil_rvalid), .s_axil_rready(c48_s_axil_rready),
    .busy_in(c48_busy_in), .host_we(c48_host_we), .host_wunit(c48_host_wunit),
    .host_wall(c48_host_wall), .host_wtensor(c48_host_wtensor), .host_wbank(c48_host_wbank),
    .host_waddr(c48_host_waddr), .host_wdata(c48_host_wdata), .host_re(c48_host_re),
    .host_runit(c48_host_runit), .host_rtensor(c48_host_rtensor), .host_rbank(c48_host_rbank),
    .host_raddr(c48_host_raddr), .host_rdata(c48_host_rdata)
  );

  // c48's host-port memory.
  reg [47:0] c48_mem [0:255];
  always @(posedge aclk) begin
    if (c48_host_we && (c48_host_wall || c48_host_wunit == 1'd0))
      c48_mem[{1'd0, c48_host_wtensor, c48_host_wbank, c48_host_waddr}] <= c48_host_wdata;
    if (c48_host_we && (c48_host_wall || c48_host_wunit == 1'd1))
      c48_mem[{1'd1, c48_host_wtensor, c48_host_wbank, c48_host_waddr}] <= c48_host_wdata;
    if (c48_host_re)
      c48_host_rdata <= c48_mem[{c48_host_runit, c48_host_rtensor, c48_host_rbank, c48_host_raddr}];
  end

  rubick_axil_host #(.ADDR_W(16), .UNIT_W(2), .TENSOR_W(2), .BANK_W(3), .AW(3), .DATA_W(64)) u_c64 (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(c64_s_axil_awaddr),
    .s_axil_awvalid(c64_s_axil_awvalid), .s_axil_awready(c64_s_axil_awready),
    .s_axil_wdata(c64_s_axil_wdata), .s_axil_wstrb(c64_s_axil_wstrb),
    .s_axil_wvalid(c64_s_axil_wvalid), .s_axil_wready(c64_s_axil_wready),
    .s_axil_bresp(c64_s_axil_bresp), .s_axil_bvalid(c64_s_axil_bvalid),
    .s_axil_bready(c64_s_axil_bready), .s_axil_araddr(c64_s_axil_araddr),
    .s_axil_arvalid(c64_s_axil_arvalid), .s_axil_arready(c64_s_axil_arready),
    .s_axil_rdata(c64_s_axil_rdata), .s_axil_rresp(c64_s_axil_rresp),
    .s_axil_rvalid(c64_s_axil_rvalid), .s_axil_rready(c64_s_axil_rready),
    .busy_in(c64_busy_in), .host_we(c64_host_we), .host_wunit(c64_host_wunit),
    .host_wall(c64_host_wall), .host_wtensor(c64_host_wtensor), .host_wbank(c64_host_wbank),
    .host_waddr(c64_host_waddr), .host_wdata(c64_host_wdata), .host_re(c64_host_re),
    .host_runit(c64_host_runit), .host_rtensor(c64_host_rtensor), .host_rbank(c64_host_rbank),
    .host_raddr(c64_host_raddr), .host_rdata(c64_host_rdata)
  );

  // c64's host-port memory.
  reg [63:0] c64_mem [0:1023];
  always @(posedge aclk) begin
    if (c64_host_we && (c64_host_wall || c64_host_wunit == 2'd0))
      c64_mem[{2'd0, c64_host_wtensor, c64_host_wbank, c64_host_waddr}] <= c64_host_wdata;
    if (c64_host_we && (c64_host_wall || c64_host_wunit == 2'd1))
      c64_mem[{2'd1, c64_host_wtensor, c64_host_wbank, c64_host_waddr}] <= c64_host_wdata;
    if (c64_host_we && (c64_host_wall || c64_host_wunit == 2'd2))
      c64_mem[{2'd2, c64_host_wtensor, c64_host_wbank, c64_host_waddr}] <= c64_host_wdata;
    if (c64_host_we && (c64_host_wall || c64_host_wunit == 2'd3))
      c64_mem[{2'd3, c64_host_wtensor, c64_host_wbank, c64_host_waddr}] <= c64_host_wdata;
    if (c64_host_re)
      c64_host_rdata <= c64_mem[{c64_host_runit, c64_host_rtensor, c64_host_rbank, c64_host_raddr}];
  end

endmodule

`default_nettype wire
