// SPDX-License-Identifier: Apache-2.0
// rubick_axil_fan: one AXI4-Lite slave port fanned out to N AXI4-Lite master ports, so that one
// host control interface drives N identical units (e.g. N rubick_axil_regs register files) that
// must all get the same register writes and then run in lock-step. Every write goes to every
// port; every read goes to every port, and the answers are checked to agree.
//
// Requests (AW, W, AR): each goes to every port, with a sent flag per port and channel:
//   m_axil_awvalid[k] = s_axil_awvalid & ~aw_held & ~aw_sent[k],
//   s_axil_awready    = ~aw_held & &(aw_sent | m_axil_awready).
//   A port that takes the request before the others sets its flag (and so drops its VALID, as
//   AXI allows after the handshake); the flags clear when the slave-side handshake completes,
//   which is in the cycle the last port takes the request. W and AR: the same, with their own
//   flags (w_sent, w_held; ar_sent, ar_held). AWADDR, WDATA, WSTRB and ARADDR go to every port
//   unchanged (port k in bits [k*W +: W] of each m_axil_* vector).
// One write and one read at a time: aw_held / w_held are set by the slave-side AW / W
//   handshake and cleared by the B handshake, so the next write's AW and W are taken only once
//   the previous write's response has been accepted; ar_held likewise from the AR handshake to
//   the R handshake. That is enough here: the hosts of rubick's control registers wait for each
//   response before the next access (and rubick_axil_regs itself takes one write at a time).
//   Reads and writes are independent of each other.
// B: m_axil_bready[k] = ~b_got[k]: each port's response is taken as it comes (also before the
//   other ports have taken AW and W) and remembered in b_got[k]; s_axil_bvalid rises (a
//   register) in the cycle after every port has answered, with s_axil_bresp the worst
//   (numerically largest) of the N BRESPs. The B handshake clears b_got, the response and the
//   held flags.
// R: m_axil_rready[k] = ~r_got[k], the same way; s_axil_rvalid rises in the cycle after every
//   port has answered. s_axil_rdata is port 0's RDATA. s_axil_rresp is SLVERR (2'b10) if any
//   port's RDATA differs from port 0's (the units are meant to hold identical registers, so a
//   difference is an error the host must see; kept as the bitwise OR and AND of the RDATAs
//   received: all equal iff OR == AND), else the worst of the N RRESPs. The R handshake clears
//   r_got and the response.
//
// Timing (all synchronous, aclk rising edge; aresetn active low): no added latency on
//   requests, one cycle on responses. With every port ready, a request is taken by every port
//   and by the fan in the same cycle. With the later of the slave-side AW and W handshakes in
//   cycle c and every port answering B in the cycle after its own AW / W handshakes (c + 1 when
//   every port was ready), s_axil_bvalid is high from cycle c + 2; likewise, AR handshake in
//   cycle c and every R in c + 1: s_axil_rvalid from c + 2. In general a response is visible
//   the cycle after the last port's response handshake. Behind rubick_axil_regs (R one cycle
//   after AR, B two cycles after the later of AW and W): RVALID in c + 2, BVALID in c + 3. The
//   next write's AW and W are taken from the cycle after the B handshake, the next AR from the
//   cycle after the R handshake: behind rubick_axil_regs with the host always ready, a write
//   every 4 cycles and a read every 3.
//   There is no combinational path from a master-side READY to a master-side VALID (the VALIDs
//   depend on the slave-side VALIDs and registers only), nor to any slave-side output other than
//   the slave-side READYs (which follow the ports' READYs in the same cycle, as AXI allows);
//   m_axil_bready, m_axil_rready and the slave-side B and R outputs come from registers.
// Reset: aresetn low at an edge clears every sent, held and got flag and any pending response
//   (reset the units with it). The request VALIDs pass through in reset: the host must hold its
//   VALIDs low in reset, as AXI requires. RDATA has no reset (undefined until the first read).
//
// Parameters:
//   N       master ports, 1..64
//   ADDR_W  address bits of both sides, 1..32
// Resources: 5 * N + 107 flip-flops (3 * N sent and 2 * N got flags, 3 held flags, the B and
//   R valids and responses, RDATA of port 0, the OR and AND of the RDATAs); per channel an
//   N-input AND of the readies; per response an N-input maximum of 2-bit responses; for R,
//   32 N-input ORs and ANDs and a 32-bit comparator. Addresses and write data are wires.
//   Yosys synth, generic cells: 873 cells with the defaults, 11,073 with N = 64.
`default_nettype none

module rubick_axil_fan #(
  parameter integer N = 4,
  parameter integer ADDR_W = 8
) (
  input  wire                aclk,
  input  wire                aresetn,
  // Slave side (the host): write address, data and response channels.
  input  wire [  ADDR_W-1:0] s_axil_awaddr,
  input  wire                s_axil_awvalid,
  output wire                s_axil_awready,
  input  wire [        31:0] s_axil_wdata,
  input  wire [         3:0] s_axil_wstrb,
  input  wire                s_axil_wvalid,
  output wire                s_axil_wready,
  output reg  [         1:0] s_axil_bresp,
  output reg                 s_axil_bvalid,
  input  wire                s_axil_bready,
  // Read address and data channels.
  input  wire [  ADDR_W-1:0] s_axil_araddr,
  input  wire                s_axil_arvalid,
  output wire                s_axil_arready,
  output reg  [        31:0] s_axil_rdata,
  output reg  [         1:0] s_axil_rresp,
  output reg                 s_axil_rvalid,
  input  wire                s_axil_rready,
  // Master side (the units; port k in bits [k*W +: W] of each vector): write channels.
  output wire [N*ADDR_W-1:0] m_axil_awaddr,
  output wire [       N-1:0] m_axil_awvalid,
  input  wire [       N-1:0] m_axil_awready,
  output wire [    N*32-1:0] m_axil_wdata,
  output wire [     N*4-1:0] m_axil_wstrb,
  output wire [       N-1:0] m_axil_wvalid,
  input  wire [       N-1:0] m_axil_wready,
  input  wire [     N*2-1:0] m_axil_bresp,
  input  wire [       N-1:0] m_axil_bvalid,
  output wire [       N-1:0] m_axil_bready,
  // Read channels.
  output wire [N*ADDR_W-1:0] m_axil_araddr,
  output wire [       N-1:0] m_axil_arvalid,
  input  wire [       N-1:0] m_axil_arready,
  input  wire [    N*32-1:0] m_axil_rdata,
  input  wire [     N*2-1:0] m_axil_rresp,
  input  wire [       N-1:0] m_axil_rvalid,
  output wire [       N-1:0] m_axil_rready
);

  localparam [1:0] OKAY = 2'b00;
  localparam [1:0] SLVERR = 2'b10;

  // ---- Requests: sent flags per port, held flags per channel ----
  reg [N-1:0] aw_sent;
  reg [N-1:0] w_sent;
  reg [N-1:0] ar_sent;
  reg         aw_held;  // the current write's AW has been taken (until its B is accepted)
  reg         w_held;
  reg         ar_held;  // the current read's AR has been taken (until its R is accepted)

  assign m_axil_awvalid = {N{s_axil_awvalid & ~aw_held}} & ~aw_sent;
  assign s_axil_awready = ~aw_held & (&(aw_sent | m_axil_awready));
  assign m_axil_wvalid  = {N{s_axil_wvalid & ~w_held}} & ~w_sent;
  assign s_axil_wready  = ~w_held & (&(w_sent | m_axil_wready));
  assign m_axil_arvalid = {N{s_axil_arvalid & ~ar_held}} & ~ar_sent;
  assign s_axil_arready = ~ar_held & (&(ar_sent | m_axil_arready));

  wire aw_hs = s_axil_awvalid & s_axil_awready;
  wire w_hs = s_axil_wvalid & s_axil_wready;
  wire ar_hs = s_axil_arvalid & s_axil_arready;
  wire b_hs = s_axil_bvalid & s_axil_bready;
  wire r_hs = s_axil_rvalid & s_axil_rready;

  // ---- Responses: got flags per port ----
  reg  [N-1:0] b_got;
  reg  [N-1:0] r_got;
  wire [N-1:0] b_new = m_axil_bvalid & ~b_got;  // ports answering in this cycle
  wire [N-1:0] r_new = m_axil_rvalid & ~r_got;

  assign m_axil_bready = ~b_got;
  assign m_axil_rready = ~r_got;

  // Responses by bit: hi[k] / lo[k] are bits 1 / 0 of the response of port k if it answers now.
  // The largest has bit 1 if any has, and bit 0 if any of those with the largest bit 1 has.
  wire [N-1:0] b_hi;
  wire [N-1:0] b_lo;
  wire [N-1:0] r_hi;
  wire [N-1:0] r_lo;
  wire [32*N-1:0] r_t;  // RDATA transposed: bit i of port k's in r_t[i*N + k]

  genvar k;
  genvar i;
  generate
    for (k = 0; k < N; k = k + 1) begin : g_port
      assign m_axil_awaddr[k*ADDR_W+:ADDR_W] = s_axil_awaddr;
      assign m_axil_araddr[k*ADDR_W+:ADDR_W] = s_axil_araddr;
      assign m_axil_wdata[k*32+:32]          = s_axil_wdata;
      assign m_axil_wstrb[k*4+:4]            = s_axil_wstrb;
      assign b_hi[k] = b_new[k] & m_axil_bresp[2*k+1];
      assign b_lo[k] = b_new[k] & m_axil_bresp[2*k];
      assign r_hi[k] = r_new[k] & m_axil_rresp[2*k+1];
      assign r_lo[k] = r_new[k] & m_axil_rresp[2*k];
      for (i = 0; i < 32; i = i + 1) begin : g_bit
        assign r_t[i*N+k] = m_axil_rdata[32*k+i];
      end
    end
  endgenerate

  // The worst response so far, with this cycle's answers.
  wire       b_worst_hi = s_axil_bresp[1] | (|b_hi);
  wire       b_worst_lo = b_worst_hi ? ((s_axil_bresp[1] & s_axil_bresp[0]) | (|(b_hi & b_lo)))
                                     : (s_axil_bresp[0] | (|b_lo));
  reg  [1:0] r_worst;
  wire       r_worst_hi = r_worst[1] | (|r_hi);
  wire       r_worst_lo = r_worst_hi ? ((r_worst[1] & r_worst[0]) | (|(r_hi & r_lo)))
                                     : (r_worst[0] | (|r_lo));

  // The bitwise OR and AND of the RDATAs received so far, with this cycle's.
  reg  [31:0] r_or;
  reg  [31:0] r_and;
  wire [31:0] r_or_next;
  wire [31:0] r_and_next;
  generate
    for (i = 0; i < 32; i = i + 1) begin : g_rbit
      assign r_or_next[i]  = r_or[i] | (|(r_new & r_t[i*N+:N]));
      assign r_and_next[i] = r_and[i] & ~(|(r_new & ~r_t[i*N+:N]));
    end
  endgenerate

  always @(posedge aclk) begin
    if (!aresetn) begin
      aw_sent       <= {N{1'b0}};
      w_sent        <= {N{1'b0}};
      ar_sent       <= {N{1'b0}};
      aw_held       <= 1'b0;
      w_held        <= 1'b0;
      ar_held       <= 1'b0;
      b_got         <= {N{1'b0}};
      r_got         <= {N{1'b0}};
      s_axil_bvalid <= 1'b0;
      s_axil_bresp  <= OKAY;
      s_axil_rvalid <= 1'b0;
      s_axil_rresp  <= OKAY;
      r_worst       <= OKAY;
      r_or          <= 32'd0;
      r_and         <= 32'hffffffff;
    end else begin
      if (aw_hs) aw_sent <= {N{1'b0}};
      else aw_sent <= aw_sent | (m_axil_awvalid & m_axil_awready);
      if (w_hs) w_sent <= {N{1'b0}};
      else w_sent <= w_sent | (m_axil_wvalid & m_axil_wready);
      if (ar_hs) ar_sent <= {N{1'b0}};
      else ar_sent <= ar_sent | (m_axil_arvalid & m_axil_arready);
      aw_held <= aw_hs | (aw_held & ~b_hs);
      w_held  <= w_hs | (w_held & ~b_hs);
      ar_held <= ar_hs | (ar_held & ~r_hs);
      if (b_hs) begin
        b_got         <= {N{1'b0}};
        s_axil_bvalid <= 1'b0;
        s_axil_bresp  <= OKAY;
      end else begin
        b_got         <= b_got | b_new;
        s_axil_bvalid <= &(b_got | b_new);
        s_axil_bresp  <= {b_worst_hi, b_worst_lo};
      end
      if (r_hs) begin
        r_got         <= {N{1'b0}};
        s_axil_rvalid <= 1'b0;
        s_axil_rresp  <= OKAY;
        r_worst       <= OKAY;
        r_or          <= 32'd0;
        r_and         <= 32'hffffffff;
      end else begin
        r_got         <= r_got | r_new;
        s_axil_rvalid <= &(r_got | r_new);
        s_axil_rresp  <= (r_or_next != r_and_next) ? SLVERR : {r_worst_hi, r_worst_lo};
        r_worst       <= {r_worst_hi, r_worst_lo};
        r_or          <= r_or_next;
        r_and         <= r_and_next;
      end
    end
  end

  // Port 0's RDATA (no reset: data).
  always @(posedge aclk) if (r_new[0]) s_axil_rdata <= m_axil_rdata[31:0];

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (N < 1 || N > 64) begin : g_bad_n
      rubick_axil_fan_parameter_N_must_be_1_to_64 u_error ();
    end
    if (ADDR_W < 1 || ADDR_W > 32) begin : g_bad_addr_w
      rubick_axil_fan_parameter_ADDR_W_must_be_1_to_32 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
