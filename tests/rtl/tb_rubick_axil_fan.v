// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_axil_fan, checked by test_rubick_axil_fan.cpp: three fans with every pin
// on the ports of the top (prefix a_, b_, c_ before the template's port names), driven by the
// test and checked cycle by cycle against a C++ model of the template's header, and a system,
// prefix h_ (the host side) and d_ (a direct port): a fan of 5 ports in front of 5 real
// rubick_axil_regs register files, as a host would use it.
//   a: N = 3, ADDR_W = 12
//   b: N = 1, ADDR_W = 1 (the least of both)
//   c: N = 64, ADDR_W = 32 (the most of both)
//   system: N = 5, ADDR_W = 8, units rubick_axil_regs with ADDR_W = 8 and N_BASE = 3. Each unit
//     has its own busy_in, done_in, error_in, start, irq and base_addr (unit k in bits
//     [k*W +: W] of the h_* vectors). With d_en high, unit d_unit is taken off the fan and
//     connected to the direct AXI4-Lite port d_axil_* instead (its fan port then sees READY and
//     VALID low): the test reads every unit's registers through the unit's own port, and writes
//     one unit alone to make the units differ. Switch only while the fan and the unit are idle.
`default_nettype none

module tb_rubick_axil_fan (
  input  wire aclk,
  input  wire aresetn,
  input  wire [11:0] a_s_axil_awaddr,
  input  wire a_s_axil_awvalid,
  output wire a_s_axil_awready,
  input  wire [31:0] a_s_axil_wdata,
  input  wire [3:0] a_s_axil_wstrb,
  input  wire a_s_axil_wvalid,
  output wire a_s_axil_wready,
  output wire [1:0] a_s_axil_bresp,
  output wire a_s_axil_bvalid,
  input  wire a_s_axil_bready,
  input  wire [11:0] a_s_axil_araddr,
  input  wire a_s_axil_arvalid,
  output wire a_s_axil_arready,
  output wire [31:0] a_s_axil_rdata,
  output wire [1:0] a_s_axil_rresp,
  output wire a_s_axil_rvalid,
  input  wire a_s_axil_rready,
  output wire [35:0] a_m_axil_awaddr,
  output wire [2:0] a_m_axil_awvalid,
  input  wire [2:0] a_m_axil_awready,
  output wire [95:0] a_m_axil_wdata,
  output wire [11:0] a_m_axil_wstrb,
  output wire [2:0] a_m_axil_wvalid,
  input  wire [2:0] a_m_axil_wready,
  input  wire [5:0] a_m_axil_bresp,
  input  wire [2:0] a_m_axil_bvalid,
  output wire [2:0] a_m_axil_bready,
  output wire [35:0] a_m_axil_araddr,
  output wire [2:0] a_m_axil_arvalid,
  input  wire [2:0] a_m_axil_arready,
  input  wire [95:0] a_m_axil_rdata,
  input  wire [5:0] a_m_axil_rresp,
  input  wire [2:0] a_m_axil_rvalid,
  output wire [2:0] a_m_axil_rready,
  input  wire b_s_axil_awaddr,
  input  wire b_s_axil_awvalid,
  output wire b_s_axil_awready,
  input  wire [31:0] b_s_axil_wdata,
  input  wire [3:0] b_s_axil_wstrb,
  input  wire b_s_axil_wvalid,
  output wire b_s_axil_wready,
  output wire [1:0] b_s_axil_bresp,
  output wire b_s_axil_bvalid,
  input  wire b_s_axil_bready,
  input  wire b_s_axil_araddr,
  input  wire b_s_axil_arvalid,
  output wire b_s_axil_arready,
  output wire [31:0] b_s_axil_rdata,
  output wire [1:0] b_s_axil_rresp,
  output wire b_s_axil_rvalid,
  input  wire b_s_axil_rready,
  output wire b_m_axil_awaddr,
  output wire b_m_axil_awvalid,
  input  wire b_m_axil_awready,
  output wire [31:0] b_m_axil_wdata,
  output wire [3:0] b_m_axil_wstrb,
  output wire b_m_axil_wvalid,
  input  wire b_m_axil_wready,
  input  wire [1:0] b_m_axil_bresp,
  input  wire b_m_axil_bvalid,
  output wire b_m_axil_bready,
  output wire b_m_axil_araddr,
  output wire b_m_axil_arvalid,
  input  wire b_m_axil_arready,
  input  wire [31:0] b_m_axil_rdata,
  input  wire [1:0] b_m_axil_rresp,
  input  wire b_m_axil_rvalid,
  output wire b_m_axil_rready,
  input  wire [31:0] c_s_axil_awaddr,
  input  wire c_s_axil_awvalid,
  output wire c_s_axil_awready,
  input  wire [31:0] c_s_axil_wdata,
  input  wire [3:0] c_s_axil_wstrb,
  input  wire c_s_axil_wvalid,
  output wire c_s_axil_wready,
  output wire [1:0] c_s_axil_bresp,
  output wire c_s_axil_bvalid,
  input  wire c_s_axil_bready,
  input  wire [31:0] c_s_axil_araddr,
  input  wire c_s_axil_arvalid,
  output wire c_s_axil_arready,
  output wire [31:0] c_s_axil_rdata,
  output wire [1:0] c_s_axil_rresp,
  output wire c_s_axil_rvalid,
  input  wire c_s_axil_rready,
  output wire [2047:0] c_m_axil_awaddr,
  output wire [63:0] c_m_axil_awvalid,
  input  wire [63:0] c_m_axil_awready,
  output wire [2047:0] c_m_axil_wdata,
  output wire [255:0] c_m_axil_wstrb,
  output wire [63:0] c_m_axil_wvalid,
  input  wire [63:0] c_m_axil_wready,
  input  wire [127:0] c_m_axil_bresp,
  input  wire [63:0] c_m_axil_bvalid,
  output wire [63:0] c_m_axil_bready,
  output wire [2047:0] c_m_axil_araddr,
  output wire [63:0] c_m_axil_arvalid,
  input  wire [63:0] c_m_axil_arready,
  input  wire [2047:0] c_m_axil_rdata,
  input  wire [127:0] c_m_axil_rresp,
  input  wire [63:0] c_m_axil_rvalid,
  output wire [63:0] c_m_axil_rready,
  input  wire [7:0] h_s_axil_awaddr,
  input  wire h_s_axil_awvalid,
  output wire h_s_axil_awready,
  input  wire [31:0] h_s_axil_wdata,
  input  wire [3:0] h_s_axil_wstrb,
  input  wire h_s_axil_wvalid,
  output wire h_s_axil_wready,
  output wire [1:0] h_s_axil_bresp,
  output wire h_s_axil_bvalid,
  input  wire h_s_axil_bready,
  input  wire [7:0] h_s_axil_araddr,
  input  wire h_s_axil_arvalid,
  output wire h_s_axil_arready,
  output wire [31:0] h_s_axil_rdata,
  output wire [1:0] h_s_axil_rresp,
  output wire h_s_axil_rvalid,
  input  wire h_s_axil_rready,
  input  wire [4:0] h_busy_in,
  input  wire [4:0] h_done_in,
  input  wire [4:0] h_error_in,
  output wire [4:0] h_start,
  output wire [4:0] h_irq,
  output wire [959:0] h_base_addr,
  input  wire d_en,
  input  wire [2:0] d_unit,
  input  wire [7:0] d_axil_awaddr,
  input  wire d_axil_awvalid,
  output wire d_axil_awready,
  input  wire [31:0] d_axil_wdata,
  input  wire [3:0] d_axil_wstrb,
  input  wire d_axil_wvalid,
  output wire d_axil_wready,
  output wire [1:0] d_axil_bresp,
  output wire d_axil_bvalid,
  input  wire d_axil_bready,
  input  wire [7:0] d_axil_araddr,
  input  wire d_axil_arvalid,
  output wire d_axil_arready,
  output wire [31:0] d_axil_rdata,
  output wire [1:0] d_axil_rresp,
  output wire d_axil_rvalid,
  input  wire d_axil_rready
);

  rubick_axil_fan #(.N(3), .ADDR_W(12)) u_a (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(a_s_axil_awaddr),
    .s_axil_awvalid(a_s_axil_awvalid), .s_axil_awready(a_s_axil_awready),
    .s_axil_wdata(a_s_axil_wdata), .s_axil_wstrb(a_s_axil_wstrb), .s_axil_wvalid(a_s_axil_wvalid),
    .s_axil_wready(a_s_axil_wready), .s_axil_bresp(a_s_axil_bresp),
    .s_axil_bvalid(a_s_axil_bvalid), .s_axil_bready(a_s_axil_bready),
    .s_axil_araddr(a_s_axil_araddr), .s_axil_arvalid(a_s_axil_arvalid),
    .s_axil_arready(a_s_axil_arready), .s_axil_rdata(a_s_axil_rdata),
    .s_axil_rresp(a_s_axil_rresp), .s_axil_rvalid(a_s_axil_rvalid),
    .s_axil_rready(a_s_axil_rready), .m_axil_awaddr(a_m_axil_awaddr),
    .m_axil_awvalid(a_m_axil_awvalid), .m_axil_awready(a_m_axil_awready),
    .m_axil_wdata(a_m_axil_wdata), .m_axil_wstrb(a_m_axil_wstrb), .m_axil_wvalid(a_m_axil_wvalid),
    .m_axil_wready(a_m_axil_wready), .m_axil_bresp(a_m_axil_bresp),
    .m_axil_bvalid(a_m_axil_bvalid), .m_axil_bready(a_m_axil_bready),
    .m_axil_araddr(a_m_axil_araddr), .m_axil_arvalid(a_m_axil_arvalid),
    .m_axil_arready(a_m_axil_arready), .m_axil_rdata(a_m_axil_rdata),
    .m_axil_rresp(a_m_axil_rresp), .m_axil_rvalid(a_m_axil_rvalid),
    .m_axil_rready(a_m_axil_rready)
  );

  rubick_axil_fan #(.N(1), .ADDR_W(1)) u_b (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(b_s_axil_awaddr),
    .s_axil_awvalid(b_s_axil_awvalid), .s_axil_awready(b_s_axil_awready),
    .s_axil_wdata(b_s_axil_wdata), .s_axil_wstrb(b_s_axil_wstrb), .s_axil_wvalid(b_s_axil_wvalid),
    .s_axil_wready(b_s_axil_wready), .s_axil_bresp(b_s_axil_bresp),
    .s_axil_bvalid(b_s_axil_bvalid), .s_axil_bready(b_s_axil_bready),
    .s_axil_araddr(b_s_axil_araddr), .s_axil_arvalid(b_s_axil_arvalid),
    .s_axil_arready(b_s_axil_arready), .s_axil_rdata(b_s_axil_rdata),
    .s_axil_rresp(b_s_axil_rresp), .s_axil_rvalid(b_s_axil_rvalid),
    .s_axil_rready(b_s_axil_rready), .m_axil_awaddr(b_m_axil_awaddr),
    .m_axil_awvalid(b_m_axil_awvalid), .m_axil_awready(b_m_axil_awready),
    .m_axil_wdata(b_m_axil_wdata), .m_axil_wstrb(b_m_axil_wstrb), .m_axil_wvalid(b_m_axil_wvalid),
    .m_axil_wready(b_m_axil_wready), .m_axil_bresp(b_m_axil_bresp),
    .m_axil_bvalid(b_m_axil_bvalid), .m_axil_bready(b_m_axil_bready),
    .m_axil_araddr(b_m_axil_araddr), .m_axil_arvalid(b_m_axil_arvalid),
    .m_axil_arready(b_m_axil_arready), .m_axil_rdata(b_m_axil_rdata),
    .m_axil_rresp(b_m_axil_rresp), .m_axil_rvalid(b_m_axil_rvalid),
    .m_axil_rready(b_m_axil_rready)
  );

  rubick_axil_fan #(.N(64), .ADDR_W(32)) u_c (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(c_s_axil_awaddr),
    .s_axil_awvalid(c_s_axil_awvalid), .s_axil_awready(c_s_axil_awready),
    .s_axil_wdata(c_s_axil_wdata), .s_axil_wstrb(c_s_axil_wstrb), .s_axil_wvalid(c_s_axil_wvalid),
    .s_axil_wready(c_s_axil_wready), .s_axil_bresp(c_s_axil_bresp),
    .s_axil_bvalid(c_s_axil_bvalid), .s_axil_bready(c_s_axil_bready),
    .s_axil_araddr(c_s_axil_araddr), .s_axil_arvalid(c_s_axil_arvalid),
    .s_axil_arready(c_s_axil_arready), .s_axil_rdata(c_s_axil_rdata),
    .s_axil_rresp(c_s_axil_rresp), .s_axil_rvalid(c_s_axil_rvalid),
    .s_axil_rready(c_s_axil_rready), .m_axil_awaddr(c_m_axil_awaddr),
    .m_axil_awvalid(c_m_axil_awvalid), .m_axil_awready(c_m_axil_awready),
    .m_axil_wdata(c_m_axil_wdata), .m_axil_wstrb(c_m_axil_wstrb), .m_axil_wvalid(c_m_axil_wvalid),
    .m_axil_wready(c_m_axil_wready), .m_axil_bresp(c_m_axil_bresp),
    .m_axil_bvalid(c_m_axil_bvalid), .m_axil_bready(c_m_axil_bready),
    .m_axil_araddr(c_m_axil_araddr), .m_axil_arvalid(c_m_axil_arvalid),
    .m_axil_arready(c_m_axil_arready), .m_axil_rdata(c_m_axil_rdata),
    .m_axil_rresp(c_m_axil_rresp), .m_axil_rvalid(c_m_axil_rvalid),
    .m_axil_rready(c_m_axil_rready)
  );

  // ---- The system: a fan of 5 ports in front of 5 rubick_axil_regs ----
  localparam integer SN = 5;
  // The fan's master side.
  wire [ SN*8-1:0] f_awaddr;
  wire [   SN-1:0] f_awvalid;
  wire [   SN-1:0] f_awready;
  wire [SN*32-1:0] f_wdata;
  wire [ SN*4-1:0] f_wstrb;
  wire [   SN-1:0] f_wvalid;
  wire [   SN-1:0] f_wready;
  wire [ SN*2-1:0] f_bresp;
  wire [   SN-1:0] f_bvalid;
  wire [   SN-1:0] f_bready;
  wire [ SN*8-1:0] f_araddr;
  wire [   SN-1:0] f_arvalid;
  wire [   SN-1:0] f_arready;
  wire [SN*32-1:0] f_rdata;
  wire [ SN*2-1:0] f_rresp;
  wire [   SN-1:0] f_rvalid;
  wire [   SN-1:0] f_rready;
  // The units' slave-side outputs, and which unit is on the direct port.
  wire [   SN-1:0] x_awready;
  wire [   SN-1:0] x_wready;
  wire [ SN*2-1:0] x_bresp;
  wire [   SN-1:0] x_bvalid;
  wire [   SN-1:0] x_arready;
  wire [SN*32-1:0] x_rdata;
  wire [ SN*2-1:0] x_rresp;
  wire [   SN-1:0] x_rvalid;
  wire [   SN-1:0] dsel;

  rubick_axil_fan #(.N(SN), .ADDR_W(8)) u_fan (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(h_s_axil_awaddr),
    .s_axil_awvalid(h_s_axil_awvalid), .s_axil_awready(h_s_axil_awready),
    .s_axil_wdata(h_s_axil_wdata), .s_axil_wstrb(h_s_axil_wstrb), .s_axil_wvalid(h_s_axil_wvalid),
    .s_axil_wready(h_s_axil_wready), .s_axil_bresp(h_s_axil_bresp),
    .s_axil_bvalid(h_s_axil_bvalid), .s_axil_bready(h_s_axil_bready),
    .s_axil_araddr(h_s_axil_araddr), .s_axil_arvalid(h_s_axil_arvalid),
    .s_axil_arready(h_s_axil_arready), .s_axil_rdata(h_s_axil_rdata),
    .s_axil_rresp(h_s_axil_rresp), .s_axil_rvalid(h_s_axil_rvalid),
    .s_axil_rready(h_s_axil_rready), .m_axil_awaddr(f_awaddr), .m_axil_awvalid(f_awvalid),
    .m_axil_awready(f_awready), .m_axil_wdata(f_wdata), .m_axil_wstrb(f_wstrb),
    .m_axil_wvalid(f_wvalid), .m_axil_wready(f_wready), .m_axil_bresp(f_bresp),
    .m_axil_bvalid(f_bvalid), .m_axil_bready(f_bready), .m_axil_araddr(f_araddr),
    .m_axil_arvalid(f_arvalid), .m_axil_arready(f_arready), .m_axil_rdata(f_rdata),
    .m_axil_rresp(f_rresp), .m_axil_rvalid(f_rvalid), .m_axil_rready(f_rready)
  );

  genvar k;
  generate
    for (k = 0; k < SN; k = k + 1) begin : g_unit
      localparam integer KI = k;
      localparam [2:0] KU = KI[2:0];
      wire d = d_en & (d_unit == KU);  // this unit is on the direct port
      assign dsel[k] = d;
      rubick_axil_regs #(.ADDR_W(8), .N_BASE(3)) u_regs (
        .aclk(aclk), .aresetn(aresetn),
        .s_axil_awaddr(d ? d_axil_awaddr : f_awaddr[k*8+:8]),
        .s_axil_awvalid(d ? d_axil_awvalid : f_awvalid[k]), .s_axil_awready(x_awready[k]),
        .s_axil_wdata(d ? d_axil_wdata : f_wdata[k*32+:32]),
        .s_axil_wstrb(d ? d_axil_wstrb : f_wstrb[k*4+:4]),
        .s_axil_wvalid(d ? d_axil_wvalid : f_wvalid[k]), .s_axil_wready(x_wready[k]),
        .s_axil_bresp(x_bresp[k*2+:2]), .s_axil_bvalid(x_bvalid[k]),
        .s_axil_bready(d ? d_axil_bready : f_bready[k]),
        .s_axil_araddr(d ? d_axil_araddr : f_araddr[k*8+:8]),
        .s_axil_arvalid(d ? d_axil_arvalid : f_arvalid[k]), .s_axil_arready(x_arready[k]),
        .s_axil_rdata(x_rdata[k*32+:32]), .s_axil_rresp(x_rresp[k*2+:2]),
        .s_axil_rvalid(x_rvalid[k]), .s_axil_rready(d ? d_axil_rready : f_rready[k]),
        .start(h_start[k]), .busy_in(h_busy_in[k]), .done_in(h_done_in[k]),
        .error_in(h_error_in[k]), .irq(h_irq[k]), .base_addr(h_base_addr[k*192+:192])
      );
    end
  endgenerate

  // A unit on the direct port is off the fan: its fan port sees READY and VALID low.
  assign f_awready = x_awready & ~dsel;
  assign f_wready  = x_wready & ~dsel;
  assign f_bvalid  = x_bvalid & ~dsel;
  assign f_bresp   = x_bresp;
  assign f_arready = x_arready & ~dsel;
  assign f_rvalid  = x_rvalid & ~dsel;
  assign f_rdata   = x_rdata;
  assign f_rresp   = x_rresp;

  reg [ 1:0] d_bresp_q;
  reg [31:0] d_rdata_q;
  reg [ 1:0] d_rresp_q;
  integer j;
  always @(*) begin
    d_bresp_q = 2'b00;
    d_rdata_q = 32'd0;
    d_rresp_q = 2'b00;
    for (j = 0; j < SN; j = j + 1)
      if (dsel[j]) begin
        d_bresp_q = x_bresp[j*2+:2];
        d_rdata_q = x_rdata[j*32+:32];
        d_rresp_q = x_rresp[j*2+:2];
      end
  end
  assign d_axil_awready = |(x_awready & dsel);
  assign d_axil_wready  = |(x_wready & dsel);
  assign d_axil_bvalid  = |(x_bvalid & dsel);
  assign d_axil_bresp   = d_bresp_q;
  assign d_axil_arready = |(x_arready & dsel);
  assign d_axil_rvalid  = |(x_rvalid & dsel);
  assign d_axil_rdata   = d_rdata_q;
  assign d_axil_rresp   = d_rresp_q;

endmodule

`default_nettype wire
