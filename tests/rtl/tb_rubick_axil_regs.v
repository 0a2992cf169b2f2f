// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_axil_regs: two register blocks, checked by test_rubick_axil_regs.cpp.
//   a: 8-bit addresses, 3 base registers (map 0x00..0x37, unmapped above)
//   b: 12-bit addresses, 1 base register (map 0x00..0x27, unmapped up to 0xfff)
`default_nettype none

module tb_rubick_axil_regs (
  input  wire aclk,
  input  wire aresetn,
  input  wire [7:0] a_s_axil_awaddr,
  input  wire a_s_axil_awvalid,
  output wire a_s_axil_awready,
  input  wire [31:0] a_s_axil_wdata,
  input  wire [3:0] a_s_axil_wstrb,
  input  wire a_s_axil_wvalid,
  output wire a_s_axil_wready,
  output wire [1:0] a_s_axil_bresp,
  output wire a_s_axil_bvalid,
  input  wire a_s_axil_bready,
  input  wire [7:0] a_s_axil_araddr,
  input  wire a_s_axil_arvalid,
  output wire a_s_axil_arready,
  output wire [31:0] a_s_axil_rdata,
  output wire [1:0] a_s_axil_rresp,
  output wire a_s_axil_rvalid,
  input  wire a_s_axil_rready,
  output wire a_start,
  input  wire a_busy_in,
  input  wire a_done_in,
  input  wire a_error_in,
  output wire a_irq,
  output wire [191:0] a_base_addr,
  input  wire [11:0] b_s_axil_awaddr,
  input  wire b_s_axil_awvalid,
  output wire b_s_axil_awready,
  input  wire [31:0] b_s_axil_wdata,
  input  wire [3:0] b_s_axil_wstrb,
  input  wire b_s_axil_wvalid,
  output wire b_s_axil_wready,
  output wire [1:0] b_s_axil_bresp,
  output wire b_s_axil_bvalid,
  input  wire b_s_axil_bready,
  input  wire [11:0] b_s_axil_araddr,
  input  wire b_s_axil_arvalid,
  output wire b_s_axil_arready,
  output wire [31:0] b_s_axil_rdata,
  output wire [1:0] b_s_axil_rresp,
  output wire b_s_axil_rvalid,
  input  wire b_s_axil_rready,
  output wire b_start,
  input  wire b_busy_in,
  input  wire b_done_in,
  input  wire b_error_in,
  output wire b_irq,
  output wire [63:0] b_base_addr
);

  rubick_axil_regs #(.ADDR_W(8), .N_BASE(3)) u_a (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(a_s_axil_awaddr),
    .s_axil_awvalid(a_s_axil_awvalid), .s_axil_awready(a_s_axil_awready),
    .s_axil_wdata(a_s_axil_wdata), .s_axil_wstrb(a_s_axil_wstrb), .s_axil_wvalid(a_s_axil_wvalid),
    .s_axil_wready(a_s_axil_wready), .s_axil_bresp(a_s_axil_bresp),
    .s_axil_bvalid(a_s_axil_bvalid), .s_axil_bready(a_s_axil_bready),
    .s_axil_araddr(a_s_axil_araddr), .s_axil_arvalid(a_s_axil_arvalid),
    .s_axil_arready(a_s_axil_arready), .s_axil_rdata(a_s_axil_rdata),
    .s_axil_rresp(a_s_axil_rresp), .s_axil_rvalid(a_s_axil_rvalid),
    .s_axil_rready(a_s_axil_rready), .start(a_start), .busy_in(a_busy_in), .done_in(a_done_in),
    .error_in(a_error_in), .irq(a_irq), .base_addr(a_base_addr)
  );

  rubick_axil_regs #(.ADDR_W(12), .N_BASE(1)) u_b (
    .aclk(aclk), .aresetn(aresetn), .s_axil_awaddr(b_s_axil_awaddr),
    .s_axil_awvalid(b_s_axil_awvalid), .s_axil_awready(b_s_axil_awready),
    .s_axil_wdata(b_s_axil_wdata), .s_axil_wstrb(b_s_axil_wstrb), .s_axil_wvalid(b_s_axil_wvalid),
    .s_axil_wready(b_s_axil_wready), .s_axil_bresp(b_s_axil_bresp),
    .s_axil_bvalid(b_s_axil_bvalid), .s_axil_bready(b_s_axil_bready),
    .s_axil_araddr(b_s_axil_araddr), .s_axil_arvalid(b_s_axil_arvalid),
    .s_axil_arready(b_s_axil_arready), .s_axil_rdata(b_s_axil_rdata),
    .s_axil_rresp(b_s_axil_rresp), .s_axil_rvalid(b_s_axil_rvalid),
    .s_axil_rready(b_s_axil_rready), .start(b_start), .busy_in(b_busy_in), .done_in(b_done_in),
    .error_in(b_error_in), .irq(b_irq), .base_addr(b_base_addr)
  );

endmodule

`default_nettype wire
