// SPDX-License-Identifier: Apache-2.0
// rubick_axi_split: splits one wide AXI4 slave port into WAYS AXI4 master ports of PORT_W bits
// that work in lock-step, so that a memory system wider than AXI4's widest data bus (1024 bits)
// can be built of several ports side by side (like the pseudo-channels of an HBM stack) behind
// rubick's engines (rubick_axi_rd, rubick_axi_wr at DATA_W = WAYS * PORT_W). Every wide burst
// becomes one burst of the same length in every way; every wide beat is one beat in every way.
//
// Mapping (PORT_BYTES = PORT_W / 8): byte b of the wide address space lies in way
//   (b / PORT_BYTES) mod WAYS at the way's byte address
//   (b / (PORT_BYTES * WAYS)) * PORT_BYTES + b mod PORT_BYTES.
//   So a wide beat at wide address a (aligned to WAYS * PORT_BYTES) is one beat at address
//   a / WAYS in every way, way w carrying the wide data bits [w*PORT_W +: PORT_W] and strobes
//   [w*PORT_BYTES +: PORT_BYTES]: WDATA, WSTRB and RDATA are the same vectors on both sides.
//   The low log2(WAYS * PORT_BYTES) bits of the wide AxADDR are ignored (full-width, aligned
//   beats only, as the engines make them): every way gets (a / (WAYS * PORT_BYTES)) *
//   PORT_BYTES. A wide burst that does not cross a 4 KiB boundary of the wide address space
//   maps to way bursts that do not cross one of the ways' (a wide 4 KiB page is 4096 / WAYS
//   bytes of each way, inside one 4 KiB page of the way).
// Address channels (AR, AW): every way gets the same AxLEN, AxBURST (passed through: INCR
//   from the engines), AxID, AxCACHE and AxPROT, and AxSIZE = log2(PORT_BYTES); the wide
//   AxSIZE is ignored (it cannot express beats above 128 bytes). Each way has a sent flag:
//   m_axi_arvalid[w] = s_axi_arvalid & ~sent[w], s_axi_arready = &(sent | m_axi_arready). A
//   way that takes the address before the others sets its flag (and so drops its VALID, as
//   AXI allows after the handshake); the flags clear when the wide handshake completes.
// W channel: the same scheme per beat (its own flags); WLAST goes to every way.
// R channel: s_axi_rvalid = &m_axi_rvalid, m_axi_rready[w] = s_axi_rready & (&m_axi_rvalid): a
//   way holds its beat until every way has one, and all are taken together. s_axi_rdata is the
//   ways' RDATA side by side, s_axi_rlast and s_axi_rid are way 0's, s_axi_rresp is SLVERR
//   (2'b10) when the ways' RLAST or RID disagree, else the worst (numerically largest) RRESP.
// B channel: likewise, s_axi_bvalid = &m_axi_bvalid, m_axi_bready[w] = s_axi_bready &
//   (&m_axi_bvalid); s_axi_bid is way 0's, s_axi_bresp SLVERR when the BIDs disagree, else the
//   worst BRESP.
//
// Timing (all synchronous, aclk rising edge; aresetn active low): no added latency, no
//   registers on any path: every output is combinational from the inputs of the same cycle and
//   the 3 * WAYS sent flags. So ways that answer in lock-step (the same READY and VALID in the
//   same cycle, e.g. identical memories given the same bursts) make the split behave exactly
//   like one wide memory, cycle for cycle; ways out of step cost only the wait for the slowest
//   one. There is no combinational path from a master-side READY to a master-side VALID (the
//   valids depend on the slave-side VALIDs and the flags only), nor from a slave-side READY to
//   a slave-side VALID; the slave-side READYs and the master-side RREADY/BREADY follow the
//   master-side READYs and VALIDs in the same cycle, as AXI allows.
// Reset: aresetn low at an edge clears the sent flags (a wide address or W beat half taken is
//   forgotten: reset the ways with it). The VALIDs pass through in reset: the wide master must
//   hold its VALIDs low in reset, as AXI requires (rubick's engines do).
//
// Parameters:
//   WAYS    master ports: a power of two, 2..32
//   PORT_W  data bits of each port: 8 * a power of two, 32..1024 (the wide side has WAYS *
//           PORT_W bits and WAYS * PORT_W / 8 strobes)
//   ADDR_W  address bits of both sides (13..64); a way uses the low ADDR_W - log2(WAYS)
//   ID_W    ID bits (1..32)
// Resources: 3 * WAYS flip-flops (the sent flags) and, per channel, a WAYS-input AND of the
//   readies or valids; on the R and B channels an ID comparator per way and a WAYS-input
//   maximum of 2-bit responses. The data, strobes and address fields are wires.
`default_nettype none

module rubick_axi_split #(
  parameter integer WAYS = 4,
  parameter integer PORT_W = 512,
  parameter integer ADDR_W = 32,
  parameter integer ID_W = 1
) (
  input  wire                        aclk,
  input  wire                        aresetn,
  // Slave side (the wide engines): read address channel.
  input  wire                        s_axi_arvalid,
  output wire                        s_axi_arready,
  input  wire [          ADDR_W-1:0] s_axi_araddr,
  input  wire [                 7:0] s_axi_arlen,
  input  wire [                 2:0] s_axi_arsize,
  input  wire [                 1:0] s_axi_arburst,
  input  wire [            ID_W-1:0] s_axi_arid,
  input  wire [                 3:0] s_axi_arcache,
  input  wire [                 2:0] s_axi_arprot,
  // Read data channel.
  output wire                        s_axi_rvalid,
  input  wire                        s_axi_rready,
  output wire [     WAYS*PORT_W-1:0] s_axi_rdata,
  output wire                        s_axi_rlast,
  output wire [                 1:0] s_axi_rresp,
  output wire [            ID_W-1:0] s_axi_rid,
  // Write address channel.
  input  wire                        s_axi_awvalid,
  output wire                        s_axi_awready,
  input  wire [          ADDR_W-1:0] s_axi_awaddr,
  input  wire [                 7:0] s_axi_awlen,
  input  wire [                 2:0] s_axi_awsize,
  input  wire [                 1:0] s_axi_awburst,
  input  wire [            ID_W-1:0] s_axi_awid,
  input  wire [                 3:0] s_axi_awcache,
  input  wire [                 2:0] s_axi_awprot,
  // Write data channel.
  input  wire                        s_axi_wvalid,
  output wire                        s_axi_wready,
  input  wire [     WAYS*PORT_W-1:0] s_axi_wdata,
  input  wire [   WAYS*PORT_W/8-1:0] s_axi_wstrb,
  input  wire                        s_axi_wlast,
  // Write response channel.
  output wire                        s_axi_bvalid,
  input  wire                        s_axi_bready,
  output wire [                 1:0] s_axi_bresp,
  output wire [            ID_W-1:0] s_axi_bid,
  // Master side (the ways; way w in bits [w*W +: W] of each vector): read address channel.
  output wire [            WAYS-1:0] m_axi_arvalid,
  input  wire [            WAYS-1:0] m_axi_arready,
  output wire [     WAYS*ADDR_W-1:0] m_axi_araddr,
  output wire [          WAYS*8-1:0] m_axi_arlen,
  output wire [          WAYS*3-1:0] m_axi_arsize,
  output wire [          WAYS*2-1:0] m_axi_arburst,
  output wire [       WAYS*ID_W-1:0] m_axi_arid,
  output wire [          WAYS*4-1:0] m_axi_arcache,
  output wire [          WAYS*3-1:0] m_axi_arprot,
  // Read data channel.
  input  wire [            WAYS-1:0] m_axi_rvalid,
  output wire [            WAYS-1:0] m_axi_rready,
  input  wire [     WAYS*PORT_W-1:0] m_axi_rdata,
  input  wire [            WAYS-1:0] m_axi_rlast,
  input  wire [          WAYS*2-1:0] m_axi_rresp,
  input  wire [       WAYS*ID_W-1:0] m_axi_rid,
  // Write address channel.
  output wire [            WAYS-1:0] m_axi_awvalid,
  input  wire [            WAYS-1:0] m_axi_awready,
  output wire [     WAYS*ADDR_W-1:0] m_axi_awaddr,
  output wire [          WAYS*8-1:0] m_axi_awlen,
  output wire [          WAYS*3-1:0] m_axi_awsize,
  output wire [          WAYS*2-1:0] m_axi_awburst,
  output wire [       WAYS*ID_W-1:0] m_axi_awid,
  output wire [          WAYS*4-1:0] m_axi_awcache,
  output wire [          WAYS*3-1:0] m_axi_awprot,
  // Write data channel.
  output wire [            WAYS-1:0] m_axi_wvalid,
  input  wire [            WAYS-1:0] m_axi_wready,
  output wire [     WAYS*PORT_W-1:0] m_axi_wdata,
  output wire [   WAYS*PORT_W/8-1:0] m_axi_wstrb,
  output wire [            WAYS-1:0] m_axi_wlast,
  // Write response channel.
  input  wire [            WAYS-1:0] m_axi_bvalid,
  output wire [            WAYS-1:0] m_axi_bready,
  input  wire [          WAYS*2-1:0] m_axi_bresp,
  input  wire [       WAYS*ID_W-1:0] m_axi_bid
);

  localparam integer PORT_BYTES = PORT_W / 8;
  localparam integer LPB = $clog2(PORT_BYTES);  // AxSIZE of a way
  localparam integer LWAYS = $clog2(WAYS);
  localparam integer LWIDE = LPB + LWAYS;  // log2 of a wide beat's bytes
  localparam [1:0] SLVERR = 2'b10;

  // ---- Address channels: one sent flag per way ----
  reg  [WAYS-1:0] ar_sent;
  reg  [WAYS-1:0] aw_sent;
  reg  [WAYS-1:0] w_sent;

  assign m_axi_arvalid = {WAYS{s_axi_arvalid}} & ~ar_sent;
  assign s_axi_arready = &(ar_sent | m_axi_arready);
  assign m_axi_awvalid = {WAYS{s_axi_awvalid}} & ~aw_sent;
  assign s_axi_awready = &(aw_sent | m_axi_awready);
  assign m_axi_wvalid  = {WAYS{s_axi_wvalid}} & ~w_sent;
  assign s_axi_wready  = &(w_sent | m_axi_wready);

  always @(posedge aclk) begin
    if (!aresetn) begin
      ar_sent <= {WAYS{1'b0}};
      aw_sent <= {WAYS{1'b0}};
      w_sent  <= {WAYS{1'b0}};
    end else begin
      if (s_axi_arvalid && s_axi_arready) ar_sent <= {WAYS{1'b0}};
      else ar_sent <= ar_sent | (m_axi_arvalid & m_axi_arready);
      if (s_axi_awvalid && s_axi_awready) aw_sent <= {WAYS{1'b0}};
      else aw_sent <= aw_sent | (m_axi_awvalid & m_axi_awready);
      if (s_axi_wvalid && s_axi_wready) w_sent <= {WAYS{1'b0}};
      else w_sent <= w_sent | (m_axi_wvalid & m_axi_wready);
    end
  end

  // A way's address: the wide beat's index times PORT_BYTES.
  wire [ADDR_W-1:0] ar_addr = (s_axi_araddr >> LWIDE) << LPB;
  wire [ADDR_W-1:0] aw_addr = (s_axi_awaddr >> LWIDE) << LPB;
  wire [       2:0] size = LPB[2:0];

  // ---- Data: the same vectors on both sides ----
  assign m_axi_wdata  = s_axi_wdata;
  assign m_axi_wstrb  = s_axi_wstrb;
  assign m_axi_wlast  = {WAYS{s_axi_wlast}};
  assign s_axi_rdata  = m_axi_rdata;

  // ---- R and B: all ways together ----
  wire r_all = &m_axi_rvalid;
  wire b_all = &m_axi_bvalid;
  assign s_axi_rvalid = r_all;
  assign m_axi_rready = {WAYS{s_axi_rready & r_all}};
  assign s_axi_bvalid = b_all;
  assign m_axi_bready = {WAYS{s_axi_bready & b_all}};
  assign s_axi_rlast  = m_axi_rlast[0];
  assign s_axi_rid    = m_axi_rid[ID_W-1:0];
  assign s_axi_bid    = m_axi_bid[ID_W-1:0];

  // Responses by bit: hi[w] / lo[w] are bits 1 / 0 of way w's. The largest has bit 1 if any
  // does, and bit 0 if any of those with the largest bit 1 has it.
  wire [WAYS-1:0] r_hi;
  wire [WAYS-1:0] r_lo;
  wire [WAYS-1:0] b_hi;
  wire [WAYS-1:0] b_lo;
  wire [WAYS-1:0] rid_ne;  // way w's RID differs from way 0's
  wire [WAYS-1:0] bid_ne;

  genvar w;
  generate
    for (w = 0; w < WAYS; w = w + 1) begin : g_way
      assign m_axi_araddr[w*ADDR_W+:ADDR_W] = ar_addr;
      assign m_axi_arlen[w*8+:8]            = s_axi_arlen;
      assign m_axi_arsize[w*3+:3]           = size;
      assign m_axi_arburst[w*2+:2]          = s_axi_arburst;
      assign m_axi_arid[w*ID_W+:ID_W]       = s_axi_arid;
      assign m_axi_arcache[w*4+:4]          = s_axi_arcache;
      assign m_axi_arprot[w*3+:3]           = s_axi_arprot;
      assign m_axi_awaddr[w*ADDR_W+:ADDR_W] = aw_addr;
      assign m_axi_awlen[w*8+:8]            = s_axi_awlen;
      assign m_axi_awsize[w*3+:3]           = size;
      assign m_axi_awburst[w*2+:2]          = s_axi_awburst;
      assign m_axi_awid[w*ID_W+:ID_W]       = s_axi_awid;
      assign m_axi_awcache[w*4+:4]          = s_axi_awcache;
      assign m_axi_awprot[w*3+:3]           = s_axi_awprot;
      assign r_hi[w]   = m_axi_rresp[2*w+1];
      assign r_lo[w]   = m_axi_rresp[2*w];
      assign b_hi[w]   = m_axi_bresp[2*w+1];
      assign b_lo[w]   = m_axi_bresp[2*w];
      assign rid_ne[w] = (m_axi_rid[w*ID_W+:ID_W] != m_axi_rid[ID_W-1:0]);
      assign bid_ne[w] = (m_axi_bid[w*ID_W+:ID_W] != m_axi_bid[ID_W-1:0]);
    end
  endgenerate

  wire       r_worst_hi = |r_hi;
  wire       b_worst_hi = |b_hi;
  wire [1:0] r_worst = {r_worst_hi, r_worst_hi ? |(r_hi & r_lo) : |r_lo};
  wire [1:0] b_worst = {b_worst_hi, b_worst_hi ? |(b_hi & b_lo) : |b_lo};
  wire       r_disagree = (|rid_ne) | ~((&m_axi_rlast) | ~(|m_axi_rlast));
  assign s_axi_rresp = r_disagree ? SLVERR : r_worst;
  assign s_axi_bresp = (|bid_ne) ? SLVERR : b_worst;

  // The wide AxSIZE cannot express the wide beat (above 128 bytes): every way's is set here.
  wire unused_bits = &{1'b0, s_axi_arsize, s_axi_awsize};

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (WAYS < 2 || WAYS > 32 || (1 << LWAYS) != WAYS) begin : g_bad_ways
      rubick_axi_split_parameter_WAYS_must_be_a_power_of_2_from_2_to_32 u_error ();
    end
    if (PORT_W < 32 || PORT_W > 1024 || (8 << LPB) != PORT_W) begin : g_bad_port_w
      rubick_axi_split_parameter_PORT_W_must_be_8_times_a_power_of_2_from_32_to_1024 u_error ();
    end
    if (ADDR_W < 13 || ADDR_W > 64) begin : g_bad_addr_w
      rubick_axi_split_parameter_ADDR_W_must_be_13_to_64 u_error ();
    end
    if (ID_W < 1 || ID_W > 32) begin : g_bad_id_w
      rubick_axi_split_parameter_ID_W_must_be_1_to_32 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
