// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_axi_wr: three engines side by side, each with its own AXI port, checked by
// test_rubick_axi_wr.cpp against the AXI memory model of sim_templates/rubick_axi_mem.h.
//   w: 512-bit data, bursts of up to 64 beats (4 KiB), 4 in flight, ID 1 of 2 bits
//   n: 32-bit data, bursts of up to 5 beats (not a power of two), 2 in flight
//   b: 8-bit data, 256-beat bursts (AWLEN 255), 1 in flight, 13-bit addresses, ID 5 of 3 bits
`default_nettype none

module tb_rubick_axi_wr (
  input  wire aclk,
  input  wire aresetn,
  input  wire w_cmd_valid,
  output wire w_cmd_ready,
  input  wire [31:0] w_cmd_addr,
  input  wire [19:0] w_cmd_len,
  input  wire w_in_valid,
  output wire w_in_ready,
  input  wire [511:0] w_in_data,
  input  wire [63:0] w_in_strb,
  output wire w_done,
  output wire w_busy,
  output wire w_error,
  output wire [1:0] w_m_axi_awid,
  output wire [31:0] w_m_axi_awaddr,
  output wire [7:0] w_m_axi_awlen,
  output wire [2:0] w_m_axi_awsize,
  output wire [1:0] w_m_axi_awburst,
  output wire [3:0] w_m_axi_awcache,
  output wire [2:0] w_m_axi_awprot,
  output wire w_m_axi_awvalid,
  input  wire w_m_axi_awready,
  output wire [511:0] w_m_axi_wdata,
  output wire [63:0] w_m_axi_wstrb,
  output wire w_m_axi_wlast,
  output wire w_m_axi_wvalid,
  input  wire w_m_axi_wready,
  input  wire [1:0] w_m_axi_bid,
  input  wire [1:0] w_m_axi_bresp,
  input  wire w_m_axi_bvalid,
  output wire w_m_axi_bready,
  input  wire n_cmd_valid,
  output wire n_cmd_ready,
  input  wire [19:0] n_cmd_addr,
  input  wire [11:0] n_cmd_len,
  input  wire n_in_valid,
  output wire n_in_ready,
  input  wire [31:0] n_in_data,
  input  wire [3:0] n_in_strb,
  output wire n_done,
  output wire n_busy,
  output wire n_error,
  output wire n_m_axi_awid,
  output wire [19:0] n_m_axi_awaddr,
  output wire [7:0] n_m_axi_awlen,
  output wire [2:0] n_m_axi_awsize,
  output wire [1:0] n_m_axi_awburst,
  output wire [3:0] n_m_axi_awcache,
  output wire [2:0] n_m_axi_awprot,
  output wire n_m_axi_awvalid,
  input  wire n_m_axi_awready,
  output wire [31:0] n_m_axi_wdata,
  output wire [3:0] n_m_axi_wstrb,
  output wire n_m_axi_wlast,
  output wire n_m_axi_wvalid,
  input  wire n_m_axi_wready,
  input  wire n_m_axi_bid,
  input  wire [1:0] n_m_axi_bresp,
  input  wire n_m_axi_bvalid,
  output wire n_m_axi_bready,
  input  wire b_cmd_valid,
  output wire b_cmd_ready,
  input  wire [12:0] b_cmd_addr,
  input  wire [12:0] b_cmd_len,
  input  wire b_in_valid,
  output wire b_in_ready,
  input  wire [7:0] b_in_data,
  input  wire b_in_strb,
  output wire b_done,
  output wire b_busy,
  output wire b_error,
  output wire [2:0] b_m_axi_awid,
  output wire [12:0] b_m_axi_awaddr,
  output wire [7:0] b_m_axi_awlen,
  output wire [2:0] b_m_axi_awsize,
  output wire [1:0] b_m_axi_awburst,
  output wire [3:0] b_m_axi_awcache,
  output wire [2:0] b_m_axi_awprot,
  output wire b_m_axi_awvalid,
  input  wire b_m_axi_awready,
  output wire [7:0] b_m_axi_wdata,
  output wire b_m_axi_wstrb,
  output wire b_m_axi_wlast,
  output wire b_m_axi_wvalid,
  input  wire b_m_axi_wready,
  input  wire [2:0] b_m_axi_bid,
  input  wire [1:0] b_m_axi_bresp,
  input  wire b_m_axi_bvalid,
  output wire b_m_axi_bready
);

  rubick_axi_wr #(
    .ADDR_W(32), .DATA_W(512), .ID_W(2), .AXI_ID(1), .LEN_W(20), .MAX_BURST(64), .MAX_OUTSTANDING(4)
  ) u_w (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(w_cmd_valid), .cmd_ready(w_cmd_ready),
    .cmd_addr(w_cmd_addr), .cmd_len(w_cmd_len), .in_valid(w_in_valid), .in_ready(w_in_ready),
    .in_data(w_in_data), .in_strb(w_in_strb), .done(w_done), .busy(w_busy),
    .error(w_error), .m_axi_awid(w_m_axi_awid),
    .m_axi_awaddr(w_m_axi_awaddr), .m_axi_awlen(w_m_axi_awlen), .m_axi_awsize(w_m_axi_awsize),
    .m_axi_awburst(w_m_axi_awburst), .m_axi_awcache(w_m_axi_awcache),
    .m_axi_awprot(w_m_axi_awprot), .m_axi_awvalid(w_m_axi_awvalid),
    .m_axi_awready(w_m_axi_awready), .m_axi_wdata(w_m_axi_wdata), .m_axi_wstrb(w_m_axi_wstrb),
    .m_axi_wlast(w_m_axi_wlast), .m_axi_wvalid(w_m_axi_wvalid), .m_axi_wready(w_m_axi_wready),
    .m_axi_bid(w_m_axi_bid), .m_axi_bresp(w_m_axi_bresp), .m_axi_bvalid(w_m_axi_bvalid),
    .m_axi_bready(w_m_axi_bready)
  );

  rubick_axi_wr #(
    .ADDR_W(20), .DATA_W(32), .ID_W(1), .AXI_ID(0), .LEN_W(12), .MAX_BURST(5), .MAX_OUTSTANDING(2)
  ) u_n (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(n_cmd_valid), .cmd_ready(n_cmd_ready),
    .cmd_addr(n_cmd_addr), .cmd_len(n_cmd_len), .in_valid(n_in_valid), .in_ready(n_in_ready),
    .in_data(n_in_data), .in_strb(n_in_strb), .done(n_done), .busy(n_busy),
    .error(n_error), .m_axi_awid(n_m_axi_awid),
    .m_axi_awaddr(n_m_axi_awaddr), .m_axi_awlen(n_m_axi_awlen), .m_axi_awsize(n_m_axi_awsize),
    .m_axi_awburst(n_m_axi_awburst), .m_axi_awcache(n_m_axi_awcache),
    .m_axi_awprot(n_m_axi_awprot), .m_axi_awvalid(n_m_axi_awvalid),
    .m_axi_awready(n_m_axi_awready), .m_axi_wdata(n_m_axi_wdata), .m_axi_wstrb(n_m_axi_wstrb),
    .m_axi_wlast(n_m_axi_wlast), .m_axi_wvalid(n_m_axi_wvalid), .m_axi_wready(n_m_axi_wready),
    .m_axi_bid(n_m_axi_bid), .m_axi_bresp(n_m_axi_bresp), .m_axi_bvalid(n_m_axi_bvalid),
    .m_axi_bready(n_m_axi_bready)
  );

  rubick_axi_wr #(
    .ADDR_W(13), .DATA_W(8), .ID_W(3), .AXI_ID(5), .LEN_W(13), .MAX_BURST(256), .MAX_OUTSTANDING(1)
  ) u_b (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(b_cmd_valid), .cmd_ready(b_cmd_ready),
    .cmd_addr(b_cmd_addr), .cmd_len(b_cmd_len), .in_valid(b_in_valid), .in_ready(b_in_ready),
    .in_data(b_in_data), .in_strb(b_in_strb), .done(b_done), .busy(b_busy),
    .error(b_error), .m_axi_awid(b_m_axi_awid),
    .m_axi_awaddr(b_m_axi_awaddr), .m_axi_awlen(b_m_axi_awlen), .m_axi_awsize(b_m_axi_awsize),
    .m_axi_awburst(b_m_axi_awburst), .m_axi_awcache(b_m_axi_awcache),
    .m_axi_awprot(b_m_axi_awprot), .m_axi_awvalid(b_m_axi_awvalid),
    .m_axi_awready(b_m_axi_awready), .m_axi_wdata(b_m_axi_wdata), .m_axi_wstrb(b_m_axi_wstrb),
    .m_axi_wlast(b_m_axi_wlast), .m_axi_wvalid(b_m_axi_wvalid), .m_axi_wready(b_m_axi_wready),
    .m_axi_bid(b_m_axi_bid), .m_axi_bresp(b_m_axi_bresp), .m_axi_bvalid(b_m_axi_bvalid),
    .m_axi_bready(b_m_axi_bready)
  );

endmodule

`default_nettype wire
