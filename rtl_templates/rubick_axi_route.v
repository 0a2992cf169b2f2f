// SPDX-License-Identifier: Apache-2.0
// rubick_axi_route: one AXI4 slave port (from a master such as rubick_axi_rd / rubick_axi_wr)
// routed to two AXI4 master ports, m0_axi_* (external memory) and m1_axi_* (e.g. a
// rubick_scratch), per burst by one address bit, so that a chain of accelerator stages can keep
// some tensors on chip and the others in external memory behind one engine.
//
// Routing: a burst whose AxADDR has bit SEL_BIT set goes to port 1, else to port 0. The address
//   and every other AR / AW field pass through unchanged (the selected slave sees bit SEL_BIT;
//   rubick_scratch ignores the bits above its RAM). A burst must not cross a 2**SEL_BIT-byte
//   boundary (with SEL_BIT >= 12 no AXI-legal burst does: bursts stay within 4 KiB).
// Order: the targets of the ARs in flight (AR handshake to last R beat) are kept in a FIFO of
//   MAX_OUTSTANDING entries; R beats are passed from the head burst's port only (the other
//   port's RREADY is held low), so R comes back in AR order. The targets of the AWs in flight
//   (AW handshake to B handshake) are kept likewise; W beats go to the port of the oldest AW
//   whose beats are not all sent (counted by WLAST), B is passed from the head AW's port only.
//   A W beat before its AW is held (WREADY low) until the AW is taken. AR (AW) stalls, VALID
//   low to both ports and ARREADY (AWREADY) low, while MAX_OUTSTANDING reads (writes) are in
//   flight.
// Timing (all synchronous, aclk rising edge; aresetn active low): no added latency, no register
//   on any data path: every output is combinational from the inputs of the same cycle and the
//   FIFOs' pointers and counts. A burst's AR / AW handshake happens in the same cycle as at the
//   selected port; R, W and B beats pass in the cycle they are offered. So a master whose
//   bursts all go to one port, with at most MAX_OUTSTANDING in flight per direction allowed by
//   that port, sees exactly that port's timing, cycle for cycle. No combinational path from a
//   port-side READY to a port-side VALID (the port VALIDs depend on the master's VALIDs,
//   AxADDR[SEL_BIT] and the FIFO state only), nor from s_axi_*ready to s_axi_*valid; the
//   READYs follow the selected port's in the same cycle, as AXI allows. While RVALID (BVALID)
//   is low, RDATA, RLAST, RRESP, RID (BRESP, BID) are the head port's and mean nothing.
// Reset: aresetn low at an edge empties the FIFOs (bursts in flight are forgotten: reset the
//   ports with it). The master must keep its VALIDs low in reset, as AXI requires.
//
// Parameters:
//   DATA_W           data bits, a multiple of 8, 8..1024; WSTRB DATA_W / 8 bits
//   ADDR_W           address bits (1..64)
//   ID_W             ID bits (1..32)
//   SEL_BIT          the address bit that selects port 1 (0 .. ADDR_W - 1; default the top bit)
//   MAX_OUTSTANDING  bursts in flight per direction at most (1..256): set it to at least the
//                    ports' own limits, or the router stalls before they do
`default_nettype none

module rubick_axi_route #(
  parameter integer DATA_W = 64,
  parameter integer ADDR_W = 32,
  parameter integer ID_W = 1,
  parameter integer SEL_BIT = ADDR_W - 1,
  parameter integer MAX_OUTSTANDING = 4
) (
  input  wire                aclk,
  input  wire                aresetn,
  // Slave side (the master): read address channel.
  input  wire                s_axi_arvalid,
  output wire                s_axi_arready,
  input  wire [  ADDR_W-1:0] s_axi_araddr,
  input  wire [         7:0] s_axi_arlen,
  input  wire [         2:0] s_axi_arsize,
  input  wire [         1:0] s_axi_arburst,
  input  wire [    ID_W-1:0] s_axi_arid,
  input  wire [         3:0] s_axi_arcache,
  input  wire [         2:0] s_axi_arprot,
  // Read data channel.
  output wire                s_axi_rvalid,
  input  wire                s_axi_rready,
  output wire [  DATA_W-1:0] s_axi_rdata,
  output wire                s_axi_rlast,
  output wire [         1:0] s_axi_rresp,
  output wire [    ID_W-1:0] s_axi_rid,
  // Write address channel.
  input  wire                s_axi_awvalid,
  output wire                s_axi_awready,
  input  wire [  ADDR_W-1:0] s_axi_awaddr,
  input  wire [         7:0] s_axi_awlen,
  input  wire [         2:0] s_axi_awsize,
  input  wire [         1:0] s_axi_awburst,
  input  wire [    ID_W-1:0] s_axi_awid,
  input  wire [         3:0] s_axi_awcache,
  input  wire [         2:0] s_axi_awprot,
  // Write data channel.
  input  wire                s_axi_wvalid,
  output wire                s_axi_wready,
  input  wire [  DATA_W-1:0] s_axi_wdata,
  input  wire [DATA_W/8-1:0] s_axi_wstrb,
  input  wire                s_axi_wlast,
  // Write response channel.
  output wire                s_axi_bvalid,
  input  wire                s_axi_bready,
  output wire [         1:0] s_axi_bresp,
  output wire [    ID_W-1:0] s_axi_bid,
  // Port 0 (AxADDR[SEL_BIT] = 0): read address channel.
  output wire                m0_axi_arvalid,
  input  wire                m0_axi_arready,
  output wire [  ADDR_W-1:0] m0_axi_araddr,
  output wire [         7:0] m0_axi_arlen,
  output wire [         2:0] m0_axi_arsize,
  output wire [         1:0] m0_axi_arburst,
  output wire [    ID_W-1:0] m0_axi_arid,
  output wire [         3:0] m0_axi_arcache,
  output wire [         2:0] m0_axi_arprot,
  // Read data channel.
  input  wire                m0_axi_rvalid,
  output wire                m0_axi_rready,
  input  wire [  DATA_W-1:0] m0_axi_rdata,
  input  wire                m0_axi_rlast,
  input  wire [         1:0] m0_axi_rresp,
  input  wire [    ID_W-1:0] m0_axi_rid,
  // Write address channel.
  output wire                m0_axi_awvalid,
  input  wire                m0_axi_awready,
  output wire [  ADDR_W-1:0] m0_axi_awaddr,
  output wire [         7:0] m0_axi_awlen,
  output wire [         2:0] m0_axi_awsize,
  output wire [         1:0] m0_axi_awburst,
  output wire [    ID_W-1:0] m0_axi_awid,
  output wire [         3:0] m0_axi_awcache,
  output wire [         2:0] m0_axi_awprot,
  // Write data channel.
  output wire                m0_axi_wvalid,
  input  wire                m0_axi_wready,
  output wire [  DATA_W-1:0] m0_axi_wdata,
  output wire [DATA_W/8-1:0] m0_axi_wstrb,
  output wire                m0_axi_wlast,
  // Write response channel.
  input  wire                m0_axi_bvalid,
  output wire                m0_axi_bready,
  input  wire [         1:0] m0_axi_bresp,
  input  wire [    ID_W-1:0] m0_axi_bid,
  // Port 1 (AxADDR[SEL_BIT] = 1): read address channel.
  output wire                m1_axi_arvalid,
  input  wire                m1_axi_arready,
  output wire [  ADDR_W-1:0] m1_axi_araddr,
  output wire [         7:0] m1_axi_arlen,
  output wire [         2:0] m1_axi_arsize,
  output wire [         1:0] m1_axi_arburst,
  output wire [    ID_W-1:0] m1_axi_arid,
  output wire [         3:0] m1_axi_arcache,
  output wire [         2:0] m1_axi_arprot,
  // Read data channel.
  input  wire                m1_axi_rvalid,
  output wire                m1_axi_rready,
  input  wire [  DATA_W-1:0] m1_axi_rdata,
  input  wire                m1_axi_rlast,
  input  wire [         1:0] m1_axi_rresp,
  input  wire [    ID_W-1:0] m1_axi_rid,
  // Write address channel.
  output wire                m1_axi_awvalid,
  input  wire                m1_axi_awready,
  output wire [  ADDR_W-1:0] m1_axi_awaddr,
  output wire [         7:0] m1_axi_awlen,
  output wire [         2:0] m1_axi_awsize,
  output wire [         1:0] m1_axi_awburst,
  output wire [    ID_W-1:0] m1_axi_awid,
  output wire [         3:0] m1_axi_awcache,
  output wire [         2:0] m1_axi_awprot,
  // Write data channel.
  output wire                m1_axi_wvalid,
  input  wire                m1_axi_wready,
  output wire [  DATA_W-1:0] m1_axi_wdata,
  output wire [DATA_W/8-1:0] m1_axi_wstrb,
  output wire                m1_axi_wlast,
  // Write response channel.
  input  wire                m1_axi_bvalid,
  output wire                m1_axi_bready,
  input  wire [         1:0] m1_axi_bresp,
  input  wire [    ID_W-1:0] m1_axi_bid
);

  localparam integer MO = MAX_OUTSTANDING;
  localparam integer PW = (MO > 1) ? $clog2(MO) : 1;  // FIFO pointers
  localparam integer CW = $clog2(MO + 1) + 1;  // counts 0..MO, at least 2 bits
  localparam integer PLAST_I = MO - 1;
  localparam [PW-1:0] PLAST = PLAST_I[PW-1:0];
  localparam [CW-1:0] FULL = MO[CW-1:0];

  // ---- Address fields: the same to both ports ----
  assign m0_axi_araddr  = s_axi_araddr;
  assign m0_axi_arlen   = s_axi_arlen;
  assign m0_axi_arsize  = s_axi_arsize;
  assign m0_axi_arburst = s_axi_arburst;
  assign m0_axi_arid    = s_axi_arid;
  assign m0_axi_arcache = s_axi_arcache;
  assign m0_axi_arprot  = s_axi_arprot;
  assign m1_axi_araddr  = s_axi_araddr;
  assign m1_axi_arlen   = s_axi_arlen;
  assign m1_axi_arsize  = s_axi_arsize;
  assign m1_axi_arburst = s_axi_arburst;
  assign m1_axi_arid    = s_axi_arid;
  assign m1_axi_arcache = s_axi_arcache;
  assign m1_axi_arprot  = s_axi_arprot;
  assign m0_axi_awaddr  = s_axi_awaddr;
  assign m0_axi_awlen   = s_axi_awlen;
  assign m0_axi_awsize  = s_axi_awsize;
  assign m0_axi_awburst = s_axi_awburst;
  assign m0_axi_awid    = s_axi_awid;
  assign m0_axi_awcache = s_axi_awcache;
  assign m0_axi_awprot  = s_axi_awprot;
  assign m1_axi_awaddr  = s_axi_awaddr;
  assign m1_axi_awlen   = s_axi_awlen;
  assign m1_axi_awsize  = s_axi_awsize;
  assign m1_axi_awburst = s_axi_awburst;
  assign m1_axi_awid    = s_axi_awid;
  assign m1_axi_awcache = s_axi_awcache;
  assign m1_axi_awprot  = s_axi_awprot;
  assign m0_axi_wdata   = s_axi_wdata;
  assign m0_axi_wstrb   = s_axi_wstrb;
  assign m0_axi_wlast   = s_axi_wlast;
  assign m1_axi_wdata   = s_axi_wdata;
  assign m1_axi_wstrb   = s_axi_wstrb;
  assign m1_axi_wlast   = s_axi_wlast;

  // ---- Reads: FIFO of the targets of the ARs in flight ----
  reg  [MO-1:0] r_tgt;
  reg  [PW-1:0] r_head;
  reg  [PW-1:0] r_tail;
  reg  [CW-1:0] r_cnt;

  wire          ar_sel = s_axi_araddr[SEL_BIT];
  wire          ar_room = (r_cnt != FULL);
  wire          r_have = (r_cnt != {CW{1'b0}});
  wire          r_t = r_tgt[r_head];  // the head burst's port

  assign m0_axi_arvalid = s_axi_arvalid & ar_room & ~ar_sel;
  assign m1_axi_arvalid = s_axi_arvalid & ar_room & ar_sel;
  assign s_axi_arready  = ar_room & (ar_sel ? m1_axi_arready : m0_axi_arready);
  assign s_axi_rvalid   = r_have & (r_t ? m1_axi_rvalid : m0_axi_rvalid);
  assign s_axi_rdata    = r_t ? m1_axi_rdata : m0_axi_rdata;
  assign s_axi_rlast    = r_t ? m1_axi_rlast : m0_axi_rlast;
  assign s_axi_rresp    = r_t ? m1_axi_rresp : m0_axi_rresp;
  assign s_axi_rid      = r_t ? m1_axi_rid : m0_axi_rid;
  assign m0_axi_rready  = s_axi_rready & r_have & ~r_t;
  assign m1_axi_rready  = s_axi_rready & r_have & r_t;

  wire ar_push = s_axi_arvalid & s_axi_arready;
  wire r_pop = s_axi_rvalid & s_axi_rready & s_axi_rlast;

  always @(posedge aclk) begin
    if (!aresetn) begin
      r_head <= {PW{1'b0}};
      r_tail <= {PW{1'b0}};
      r_cnt  <= {CW{1'b0}};
    end else begin
      if (ar_push) r_tail <= (r_tail == PLAST) ? {PW{1'b0}} : r_tail + 1;
      if (r_pop) r_head <= (r_head == PLAST) ? {PW{1'b0}} : r_head + 1;
      r_cnt <= r_cnt + {{(CW - 1) {1'b0}}, ar_push} - {{(CW - 1) {1'b0}}, r_pop};
    end
  end

  always @(posedge aclk) begin
    if (ar_push) r_tgt[r_tail] <= ar_sel;
  end

  // ---- Writes: FIFO of the targets of the AWs in flight; W from w_ptr, B from b_head ----
  reg  [MO-1:0] w_tgt;
  reg  [PW-1:0] b_head;
  reg  [PW-1:0] w_ptr;
  reg  [PW-1:0] w_tail;
  reg  [CW-1:0] b_cnt;  // AWs in flight
  reg  [CW-1:0] w_cnt;  // AWs whose W beats are not all sent

  wire          aw_sel = s_axi_awaddr[SEL_BIT];
  wire          aw_room = (b_cnt != FULL);
  wire          w_have = (w_cnt != {CW{1'b0}});
  wire          w_t = w_tgt[w_ptr];
  wire          b_have = (b_cnt != {CW{1'b0}});
  wire          b_t = w_tgt[b_head];

  assign m0_axi_awvalid = s_axi_awvalid & aw_room & ~aw_sel;
  assign m1_axi_awvalid = s_axi_awvalid & aw_room & aw_sel;
  assign s_axi_awready  = aw_room & (aw_sel ? m1_axi_awready : m0_axi_awready);
  assign m0_axi_wvalid  = s_axi_wvalid & w_have & ~w_t;
  assign m1_axi_wvalid  = s_axi_wvalid & w_have & w_t;
  assign s_axi_wready   = w_have & (w_t ? m1_axi_wready : m0_axi_wready);
  assign s_axi_bvalid   = b_have & (b_t ? m1_axi_bvalid : m0_axi_bvalid);
  assign s_axi_bresp    = b_t ? m1_axi_bresp : m0_axi_bresp;
  assign s_axi_bid      = b_t ? m1_axi_bid : m0_axi_bid;
  assign m0_axi_bready  = s_axi_bready & b_have & ~b_t;
  assign m1_axi_bready  = s_axi_bready & b_have & b_t;

  wire aw_push = s_axi_awvalid & s_axi_awready;
  wire w_pop = s_axi_wvalid & s_axi_wready & s_axi_wlast;
  wire b_pop = s_axi_bvalid & s_axi_bready;

  always @(posedge aclk) begin
    if (!aresetn) begin
      b_head <= {PW{1'b0}};
      w_ptr  <= {PW{1'b0}};
      w_tail <= {PW{1'b0}};
      b_cnt  <= {CW{1'b0}};
      w_cnt  <= {CW{1'b0}};
    end else begin
      if (aw_push) w_tail <= (w_tail == PLAST) ? {PW{1'b0}} : w_tail + 1;
      if (w_pop) w_ptr <= (w_ptr == PLAST) ? {PW{1'b0}} : w_ptr + 1;
      if (b_pop) b_head <= (b_head == PLAST) ? {PW{1'b0}} : b_head + 1;
      b_cnt <= b_cnt + {{(CW - 1) {1'b0}}, aw_push} - {{(CW - 1) {1'b0}}, b_pop};
      w_cnt <= w_cnt + {{(CW - 1) {1'b0}}, aw_push} - {{(CW - 1) {1'b0}}, w_pop};
    end
  end

  always @(posedge aclk) begin
    if (aw_push) w_tgt[w_tail] <= aw_sel;
  end

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (DATA_W < 8 || DATA_W > 1024 || DATA_W % 8 != 0) begin : g_bad_data_w
      rubick_axi_route_parameter_DATA_W_must_be_8_to_1024_in_steps_of_8 u_error ();
    end
    if (ADDR_W < 1 || ADDR_W > 64) begin : g_bad_addr_w
      rubick_axi_route_parameter_ADDR_W_must_be_1_to_64 u_error ();
    end
    if (ID_W < 1 || ID_W > 32) begin : g_bad_id_w
      rubick_axi_route_parameter_ID_W_must_be_1_to_32 u_error ();
    end
    if (SEL_BIT < 0 || SEL_BIT >= ADDR_W) begin : g_bad_sel_bit
      rubick_axi_route_parameter_SEL_BIT_must_be_0_to_ADDR_W_minus_1 u_error ();
    end
    if (MO < 1 || MO > 256) begin : g_bad_max_outstanding
      rubick_axi_route_parameter_MAX_OUTSTANDING_must_be_1_to_256 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
