// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_axi_split in a system: rubick_axi_rd and rubick_axi_wr at DATA_W = 4096
// behind one rubick_axi_split of 4 ways of 1024 bits (the wide system, ports m_axi_* with the
// split's packed vectors, to 4 memory models), and the narrow twin: the same engines at
// DATA_W = 1024 on one AXI4 port (n_m_axi_*, to one memory model). Checked by
// test_rubick_axi_split_system.cpp. The wide engines' AXI signals between them and the split are
// brought out as w_* (observed only).
//   engines: 32-bit addresses, 16-bit lengths, ID 5 of 3 bits, 8 bursts in flight; the wide
//   ones MAX_BURST 256 (so the 4 KiB cap, 8 beats of 512 bytes, limits their bursts), the narrow
//   ones MAX_BURST 8 (the same bursts for commands whose split no wide 4 KiB boundary changes)
`default_nettype none

module tb_rubick_axi_split_system (
  input  wire aclk,
  input  wire aresetn,
  input  wire w_rd_cmd_valid,
  output wire w_rd_cmd_ready,
  input  wire [31:0] w_rd_cmd_addr,
  input  wire [15:0] w_rd_cmd_len,
  output wire w_out_valid,
  input  wire w_out_ready,
  output wire [4095:0] w_out_data,
  output wire w_out_last,
  output wire w_rd_busy,
  output wire w_rd_error,
  input  wire w_wr_cmd_valid,
  output wire w_wr_cmd_ready,
  input  wire [31:0] w_wr_cmd_addr,
  input  wire [15:0] w_wr_cmd_len,
  input  wire w_in_valid,
  output wire w_in_ready,
  input  wire [4095:0] w_in_data,
  input  wire [511:0] w_in_strb,
  output wire w_wr_done,
  output wire w_wr_busy,
  output wire w_wr_error,
  input  wire n_rd_cmd_valid,
  output wire n_rd_cmd_ready,
  input  wire [31:0] n_rd_cmd_addr,
  input  wire [15:0] n_rd_cmd_len,
  output wire n_out_valid,
  input  wire n_out_ready,
  output wire [1023:0] n_out_data,
  output wire n_out_last,
  output wire n_rd_busy,
  output wire n_rd_error,
  input  wire n_wr_cmd_valid,
  output wire n_wr_cmd_ready,
  input  wire [31:0] n_wr_cmd_addr,
  input  wire [15:0] n_wr_cmd_len,
  input  wire n_in_valid,
  output wire n_in_ready,
  input  wire [1023:0] n_in_data,
  input  wire [127:0] n_in_strb,
  output wire n_wr_done,
  output wire n_wr_busy,
  output wire n_wr_error,
  output wire w_arvalid,
  output wire w_arready,
  output wire [31:0] w_araddr,
  output wire [7:0] w_arlen,
  output wire [2:0] w_arsize,
  output wire w_rvalid,
  output wire w_rready,
  output wire w_rlast,
  output wire [1:0] w_rresp,
  output wire w_awvalid,
  output wire w_awready,
  output wire [31:0] w_awaddr,
  output wire [7:0] w_awlen,
  output wire [2:0] w_awsize,
  output wire w_wvalid,
  output wire w_wready,
  output wire w_wlast,
  output wire w_bvalid,
  output wire w_bready,
  output wire [1:0] w_bresp,
  output wire [3:0] m_axi_arvalid,
  input  wire [3:0] m_axi_arready,
  output wire [127:0] m_axi_araddr,
  output wire [31:0] m_axi_arlen,
  output wire [11:0] m_axi_arsize,
  output wire [7:0] m_axi_arburst,
  output wire [11:0] m_axi_arid,
  output wire [15:0] m_axi_arcache,
  output wire [11:0] m_axi_arprot,
  input  wire [3:0] m_axi_rvalid,
  output wire [3:0] m_axi_rready,
  input  wire [4095:0] m_axi_rdata,
  input  wire [3:0] m_axi_rlast,
  input  wire [7:0] m_axi_rresp,
  input  wire [11:0] m_axi_rid,
  output wire [3:0] m_axi_awvalid,
  input  wire [3:0] m_axi_awready,
  output wire [127:0] m_axi_awaddr,
  output wire [31:0] m_axi_awlen,
  output wire [11:0] m_axi_awsize,
  output wire [7:0] m_axi_awburst,
  output wire [11:0] m_axi_awid,
  output wire [15:0] m_axi_awcache,
  output wire [11:0] m_axi_awprot,
  output wire [3:0] m_axi_wvalid,
  input  wire [3:0] m_axi_wready,
  output wire [4095:0] m_axi_wdata,
  output wire [511:0] m_axi_wstrb,
  output wire [3:0] m_axi_wlast,
  input  wire [3:0] m_axi_bvalid,
  output wire [3:0] m_axi_bready,
  input  wire [7:0] m_axi_bresp,
  input  wire [11:0] m_axi_bid,
  output wire [2:0] n_m_axi_arid,
  output wire [31:0] n_m_axi_araddr,
  output wire [7:0] n_m_axi_arlen,
  output wire [2:0] n_m_axi_arsize,
  output wire [1:0] n_m_axi_arburst,
  output wire [3:0] n_m_axi_arcache,
  output wire [2:0] n_m_axi_arprot,
  output wire n_m_axi_arvalid,
  input  wire n_m_axi_arready,
  input  wire [2:0] n_m_axi_rid,
  input  wire [1023:0] n_m_axi_rdata,
  input  wire [1:0] n_m_axi_rresp,
  input  wire n_m_axi_rlast,
  input  wire n_m_axi_rvalid,
  output wire n_m_axi_rready,
  output wire [2:0] n_m_axi_awid,
  output wire [31:0] n_m_axi_awaddr,
  output wire [7:0] n_m_axi_awlen,
  output wire [2:0] n_m_axi_awsize,
  output wire [1:0] n_m_axi_awburst,
  output wire [3:0] n_m_axi_awcache,
  output wire [2:0] n_m_axi_awprot,
  output wire n_m_axi_awvalid,
  input  wire n_m_axi_awready,
  output wire [1023:0] n_m_axi_wdata,
  output wire [127:0] n_m_axi_wstrb,
  output wire n_m_axi_wlast,
  output wire n_m_axi_wvalid,
  input  wire n_m_axi_wready,
  input  wire [2:0] n_m_axi_bid,
  input  wire [1:0] n_m_axi_bresp,
  input  wire n_m_axi_bvalid,
  output wire n_m_axi_bready
);

  // The wide engines' AXI signals that are not brought out.
  wire [2:0] w_arid;
  wire [1:0] w_arburst;
  wire [3:0] w_arcache;
  wire [2:0] w_arprot;
  wire [2:0] w_rid;
  wire [4095:0] w_rdata;
  wire [2:0] w_awid;
  wire [1:0] w_awburst;
  wire [3:0] w_awcache;
  wire [2:0] w_awprot;
  wire [4095:0] w_wdata;
  wire [511:0] w_wstrb;
  wire [2:0] w_bid;

  rubick_axi_rd #(
    .ADDR_W(32), .DATA_W(4096), .ID_W(3), .AXI_ID(5), .LEN_W(16), .MAX_BURST(256),
    .MAX_OUTSTANDING(8)
  ) u_w_rd (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(w_rd_cmd_valid), .cmd_ready(w_rd_cmd_ready),
    .cmd_addr(w_rd_cmd_addr), .cmd_len(w_rd_cmd_len), .out_valid(w_out_valid),
    .out_ready(w_out_ready), .out_data(w_out_data), .out_last(w_out_last), .busy(w_rd_busy),
    .error(w_rd_error), .m_axi_arid(w_arid), .m_axi_araddr(w_araddr), .m_axi_arlen(w_arlen),
    .m_axi_arsize(w_arsize), .m_axi_arburst(w_arburst), .m_axi_arcache(w_arcache),
    .m_axi_arprot(w_arprot), .m_axi_arvalid(w_arvalid), .m_axi_arready(w_arready),
    .m_axi_rid(w_rid), .m_axi_rdata(w_rdata), .m_axi_rresp(w_rresp), .m_axi_rlast(w_rlast),
    .m_axi_rvalid(w_rvalid), .m_axi_rready(w_rready)
  );

  rubick_axi_wr #(
    .ADDR_W(32), .DATA_W(4096), .ID_W(3), .AXI_ID(5), .LEN_W(16), .MAX_BURST(256),
    .MAX_OUTSTANDING(8)
  ) u_w_wr (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(w_wr_cmd_valid), .cmd_ready(w_wr_cmd_ready),
    .cmd_addr(w_wr_cmd_addr), .cmd_len(w_wr_cmd_len), .in_valid(w_in_valid), .in_ready(w_in_ready),
    .in_data(w_in_data), .in_strb(w_in_strb), .done(w_wr_done), .busy(w_wr_busy),
    .error(w_wr_error), .m_axi_awid(w_awid), .m_axi_awaddr(w_awaddr), .m_axi_awlen(w_awlen),
    .m_axi_awsize(w_awsize), .m_axi_awburst(w_awburst), .m_axi_awcache(w_awcache),
    .m_axi_awprot(w_awprot), .m_axi_awvalid(w_awvalid), .m_axi_awready(w_awready),
    .m_axi_wdata(w_wdata), .m_axi_wstrb(w_wstrb), .m_axi_wlast(w_wlast), .m_axi_wvalid(w_wvalid),
    .m_axi_wready(w_wready), .m_axi_bid(w_bid), .m_axi_bresp(w_bresp), .m_axi_bvalid(w_bvalid),
    .m_axi_bready(w_bready)
  );

  rubick_axi_split #(
    .WAYS(4), .PORT_W(1024), .ADDR_W(32), .ID_W(3)
  ) u_split (
    .aclk(aclk), .aresetn(aresetn), .s_axi_arvalid(w_arvalid), .s_axi_arready(w_arready),
    .s_axi_araddr(w_araddr), .s_axi_arlen(w_arlen), .s_axi_arsize(w_arsize),
    .s_axi_arburst(w_arburst), .s_axi_arid(w_arid), .s_axi_arcache(w_arcache),
    .s_axi_arprot(w_arprot), .s_axi_rvalid(w_rvalid), .s_axi_rready(w_rready),
    .s_axi_rdata(w_rdata), .s_axi_rlast(w_rlast), .s_axi_rresp(w_rresp), .s_axi_rid(w_rid),
    .s_axi_awvalid(w_awvalid), .s_axi_awready(w_awready), .s_axi_awaddr(w_awaddr),
    .s_axi_awlen(w_awlen), .s_axi_awsize(w_awsize), .s_axi_awburst(w_awburst), .s_axi_awid(w_awid),
    .s_axi_awcache(w_awcache), .s_axi_awprot(w_awprot), .s_axi_wvalid(w_wvalid),
    .s_axi_wready(w_wready), .s_axi_wdata(w_wdata), .s_axi_wstrb(w_wstrb), .s_axi_wlast(w_wlast),
    .s_axi_bvalid(w_bvalid), .s_axi_bready(w_bready), .s_axi_bresp(w_bresp), .s_axi_bid(w_bid),
    .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
    .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
    .m_axi_arid(m_axi_arid), .m_axi_arcache(m_axi_arcache), .m_axi_arprot(m_axi_arprot),
    .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready), .m_axi_rdata(m_axi_rdata),
    .m_axi_rlast(m_axi_rlast), .m_axi_rresp(m_axi_rresp), .m_axi_rid(m_axi_rid),
    .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
    .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
    .m_axi_awid(m_axi_awid), .m_axi_awcache(m_axi_awcache), .m_axi_awprot(m_axi_awprot),
    .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready), .m_axi_wdata(m_axi_wdata),
    .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast), .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp), .m_axi_bid(m_axi_bid)
  );

  rubick_axi_rd #(
    .ADDR_W(32), .DATA_W(1024), .ID_W(3), .AXI_ID(5), .LEN_W(16), .MAX_BURST(8),
    .MAX_OUTSTANDING(8)
  ) u_n_rd (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(n_rd_cmd_valid), .cmd_ready(n_rd_cmd_ready),
    .cmd_addr(n_rd_cmd_addr), .cmd_len(n_rd_cmd_len), .out_valid(n_out_valid),
    .out_ready(n_out_ready), .out_data(n_out_data), .out_last(n_out_last), .busy(n_rd_busy),
    .error(n_rd_error), .m_axi_arid(n_m_axi_arid), .m_axi_araddr(n_m_axi_araddr),
    .m_axi_arlen(n_m_axi_arlen), .m_axi_arsize(n_m_axi_arsize), .m_axi_arburst(n_m_axi_arburst),
    .m_axi_arcache(n_m_axi_arcache), .m_axi_arprot(n_m_axi_arprot), .m_axi_arvalid(n_m_axi_arvalid),
    .m_axi_arready(n_m_axi_arready), .m_axi_rid(n_m_axi_rid), .m_axi_rdata(n_m_axi_rdata),
    .m_axi_rresp(n_m_axi_rresp), .m_axi_rlast(n_m_axi_rlast), .m_axi_rvalid(n_m_axi_rvalid),
    .m_axi_rready(n_m_axi_rready)
  );

  rubick_axi_wr #(
    .ADDR_W(32), .DATA_W(1024), .ID_W(3), .AXI_ID(5), .LEN_W(16), .MAX_BURST(8),
    .MAX_OUTSTANDING(8)
  ) u_n_wr (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(n_wr_cmd_valid), .cmd_ready(n_wr_cmd_ready),
    .cmd_addr(n_wr_cmd_addr), .cmd_len(n_wr_cmd_len), .in_valid(n_in_valid), .in_ready(n_in_ready),
    .in_data(n_in_data), .in_strb(n_in_strb), .done(n_wr_done), .busy(n_wr_busy),
    .error(n_wr_error), .m_axi_awid(n_m_axi_awid), .m_axi_awaddr(n_m_axi_awaddr),
    .m_axi_awlen(n_m_axi_awlen), .m_axi_awsize(n_m_axi_awsize), .m_axi_awburst(n_m_axi_awburst),
    .m_axi_awcache(n_m_axi_awcache), .m_axi_awprot(n_m_axi_awprot), .m_axi_awvalid(n_m_axi_awvalid),
    .m_axi_awready(n_m_axi_awready), .m_axi_wdata(n_m_axi_wdata), .m_axi_wstrb(n_m_axi_wstrb),
    .m_axi_wlast(n_m_axi_wlast), .m_axi_wvalid(n_m_axi_wvalid), .m_axi_wready(n_m_axi_wready),
    .m_axi_bid(n_m_axi_bid), .m_axi_bresp(n_m_axi_bresp), .m_axi_bvalid(n_m_axi_bvalid),
    .m_axi_bready(n_m_axi_bready)
  );

endmodule

`default_nettype wire
