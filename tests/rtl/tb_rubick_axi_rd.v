// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_axi_rd: three engines side by side, each with its own AXI port, checked by
// test_rubick_axi_rd.cpp against the AXI memory model of sim_templates/rubick_axi_mem.h.
//   w: 512-bit data, bursts of up to 64 beats (4 KiB), 4 in flight, ID 1 of 2 bits
//   n: 32-bit data, bursts of up to 5 beats (not a power of two), 2 in flight
//   b: 8-bit data, 256-beat bursts (ARLEN 255), 1 in flight, 13-bit addresses, ID 5 of 3 bits
`default_nettype none

module tb_rubick_axi_rd (
  input  wire aclk,
  input  wire aresetn,
  input  wire w_cmd_valid,
  output wire w_cmd_ready,
  input  wire [31:0] w_cmd_addr,
  input  wire [19:0] w_cmd_len,
  output wire w_out_valid,
  input  wire w_out_ready,
  output wire [511:0] w_out_data,
  output wire w_out_last,
  output wire w_busy,
  output wire w_error,
  output wire [1:0] w_m_axi_arid,
  output wire [31:0] w_m_axi_araddr,
  output wire [7:0] w_m_axi_arlen,
  output wire [2:0] w_m_axi_arsize,
  output wire [1:0] w_m_axi_arburst,
  output wire [3:0] w_m_axi_arcache,
  output wire [2:0] w_m_axi_arprot,
  output wire w_m_axi_arvalid,
  input  wire w_m_axi_arready,
  input  wire [1:0] w_m_axi_rid,
  input  wire [511:0] w_m_axi_rdata,
  input  wire [1:0] w_m_axi_rresp,
  input  wire w_m_axi_rlast,
  input  wire w_m_axi_rvalid,
  output wire w_m_axi_rready,
  input  wire n_cmd_valid,
  output wire n_cmd_ready,
  input  wire [19:0] n_cmd_addr,
  input  wire [11:0] n_cmd_len,
  output wire n_out_valid,
  input  wire n_out_ready,
  output wire [31:0] n_out_data,
  output wire n_out_last,
  output wire n_busy,
  output wire n_error,
  output wire n_m_axi_arid,
  output wire [19:0] n_m_axi_araddr,
  output wire [7:0] n_m_axi_arlen,
  output wire [2:0] n_m_axi_arsize,
  output wire [1:0] n_m_axi_arburst,
  output wire [3:0] n_m_axi_arcache,
  output wire [2:0] n_m_axi_arprot,
  output wire n_m_axi_arvalid,
  input  wire n_m_axi_arready,
  input  wire n_m_axi_rid,
  input  wire [31:0] n_m_axi_rdata,
  input  wire [1:0] n_m_axi_rresp,
  input  wire n_m_axi_rlast,
  input  wire n_m_axi_rvalid,
  output wire n_m_axi_rready,
  input  wire b_cmd_valid,
  output wire b_cmd_ready,
  input  wire [12:0] b_cmd_addr,
  input  wire [12:0] b_cmd_len,
  output wire b_out_valid,
  input  wire b_out_ready,
  output wire [7:0] b_out_data,
  output wire b_out_last,
  output wire b_busy,
  output wire b_error,
  output wire [2:0] b_m_axi_arid,
  output wire [12:0] b_m_axi_araddr,
  output wire [7:0] b_m_axi_arlen,
  output wire [2:0] b_m_axi_arsize,
  output wire [1:0] b_m_axi_arburst,
  output wire [3:0] b_m_axi_arcache,
  output wire [2:0] b_m_axi_arprot,
  output wire b_m_axi_arvalid,
  input  wire b_m_axi_arready,
  input  wire [2:0] b_m_axi_rid,
  input  wire [7:0] b_m_axi_rdata,
  input  wire [1:0] b_m_axi_rresp,
  input  wire b_m_axi_rlast,
  input  wire b_m_axi_rvalid,
  output wire b_m_axi_rready
);

  rubick_axi_rd #(
    .ADDR_W(32), .DATA_W(512), .ID_W(2), .AXI_ID(1), .LEN_W(20), .MAX_BURST(64), .MAX_OUTSTANDING(4)
  ) u_w (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(w_cmd_valid), .cmd_ready(w_cmd_ready),
    .cmd_addr(w_cmd_addr), .cmd_len(w_cmd_len), .out_valid(w_out_valid), .out_ready(w_out_ready),
    .out_data(w_out_data), .out_last(w_out_last), .busy(w_busy), .error(w_error),
    .m_axi_arid(w_m_axi_arid), .m_axi_araddr(w_m_axi_araddr), .m_axi_arlen(w_m_axi_arlen),
    .m_axi_arsize(w_m_axi_arsize), .m_axi_arburst(w_m_axi_arburst),
    .m_axi_arcache(w_m_axi_arcache), .m_axi_arprot(w_m_axi_arprot),
    .m_axi_arvalid(w_m_axi_arvalid), .m_axi_arready(w_m_axi_arready), .m_axi_rid(w_m_axi_rid),
    .m_axi_rdata(w_m_axi_rdata), .m_axi_rresp(w_m_axi_rresp), .m_axi_rlast(w_m_axi_rlast),
    .m_axi_rvalid(w_m_axi_rvalid), .m_axi_rready(w_m_axi_rready)
  );

  rubick_axi_rd #(
    .ADDR_W(20), .DATA_W(32), .ID_W(1), .AXI_ID(0), .LEN_W(12), .MAX_BURST(5), .MAX_OUTSTANDING(2)
  ) u_n (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(n_cmd_valid), .cmd_ready(n_cmd_ready),
    .cmd_addr(n_cmd_addr), .cmd_len(n_cmd_len), .out_valid(n_out_valid), .out_ready(n_out_ready),
    .out_data(n_out_data), .out_last(n_out_last), .busy(n_busy), .error(n_error),
    .m_axi_arid(n_m_axi_arid), .m_axi_araddr(n_m_axi_araddr), .m_axi_arlen(n_m_axi_arlen),
    .m_axi_arsize(n_m_axi_arsize), .m_axi_arburst(n_m_axi_arburst),
    .m_axi_arcache(n_m_axi_arcache), .m_axi_arprot(n_m_axi_arprot),
    .m_axi_arvalid(n_m_axi_arvalid), .m_axi_arready(n_m_axi_arready), .m_axi_rid(n_m_axi_rid),
    .m_axi_rdata(n_m_axi_rdata), .m_axi_rresp(n_m_axi_rresp), .m_axi_rlast(n_m_axi_rlast),
    .m_axi_rvalid(n_m_axi_rvalid), .m_axi_rready(n_m_axi_rready)
  );

  rubick_axi_rd #(
    .ADDR_W(13), .DATA_W(8), .ID_W(3), .AXI_ID(5), .LEN_W(13), .MAX_BURST(256), .MAX_OUTSTANDING(1)
  ) u_b (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(b_cmd_valid), .cmd_ready(b_cmd_ready),
    .cmd_addr(b_cmd_addr), .cmd_len(b_cmd_len), .out_valid(b_out_valid), .out_ready(b_out_ready),
    .out_data(b_out_data), .out_last(b_out_last), .busy(b_busy), .error(b_error),
    .m_axi_arid(b_m_axi_arid), .m_axi_araddr(b_m_axi_araddr), .m_axi_arlen(b_m_axi_arlen),
    .m_axi_arsize(b_m_axi_arsize), .m_axi_arburst(b_m_axi_arburst),
    .m_axi_arcache(b_m_axi_arcache), .m_axi_arprot(b_m_axi_arprot),
    .m_axi_arvalid(b_m_axi_arvalid), .m_axi_arready(b_m_axi_arready), .m_axi_rid(b_m_axi_rid),
    .m_axi_rdata(b_m_axi_rdata), .m_axi_rresp(b_m_axi_rresp), .m_axi_rlast(b_m_axi_rlast),
    .m_axi_rvalid(b_m_axi_rvalid), .m_axi_rready(b_m_axi_rready)
  );

endmodule

`default_nettype wire
