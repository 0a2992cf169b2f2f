// SPDX-License-Identifier: Apache-2.0
// rubick_axil_regs: AXI4-Lite control slave of an accelerator: start, interrupt enable, done /
// busy / error status, interrupt status, a cycle counter and N_BASE 64-bit base addresses.
//
// Register map (byte offsets; 32-bit registers; address bits [1:0] are ignored):
//   0x00        CTRL       bit 0 START: writing 1 pulses start (ignored while busy_in); reads 0
//                          bit 1 IE: interrupt enable (read/write)
//   0x04        STATUS     bit 0 DONE: set by done_in, cleared by a start or by writing 1
//                          bit 1 BUSY: busy_in (read only)
//                          bit 2 ERROR: set by error_in, cleared by a start or by writing 1
//   0x08        ISR        bit 0 done interrupt, bit 1 error interrupt: set by done_in /
//                          error_in, cleared by writing 1 (a start leaves them alone)
//   0x10        CYCLES_LO  cycles with busy_in high since the last start, low half (read only);
//                          reading it also latches the high half into CYCLES_HI
//   0x14        CYCLES_HI  the high half latched by the last CYCLES_LO read (read only)
//   0x20 + 8*i  BASE_i_LO  base address i, bits 31..0 (read/write), i = 0 .. N_BASE-1
//   0x24 + 8*i  BASE_i_HI  base address i, bits 63..32 (read/write)
// Every other address, and writes to CYCLES_*, answer SLVERR: reads return 0, writes change
// nothing. Everything else answers OKAY. WSTRB selects the bytes written (for START, IE and
// the write-1-to-clear bits, byte 0). Reset clears every register. Undefined bits read 0.
// irq = IE && ISR != 0 (a level, from registers).
//
// Timing (all synchronous, aclk rising edge; aresetn active low):
//   Write: AW and W are taken independently (AWREADY / WREADY high while that half is not
//   held); in the cycle after both are held, the register is written and BVALID rises; the
//   next write is taken once B has been accepted. A START write accepted this way pulses start
//   for one cycle, together with BVALID; the same edge clears DONE, ERROR and CYCLES.
//   Read: ARREADY is high while no read response is pending; RVALID and the data come the
//   cycle after the AR handshake and stay until RREADY.
//   done_in and error_in are pulses (a level keeps the bit set); a set and a clear at the same
//   edge: the set wins. CYCLES counts every edge with busy_in high.
//
// Parameters:
//   ADDR_W  address bits, 3..32, at least enough for the map: clog2(0x20 + 8 * N_BASE)
//   N_BASE  number of base address registers (1..64); base_addr[64*i +: 64] is BASE_i
`default_nettype none

module rubick_axil_regs #(
  parameter integer ADDR_W = 8,
  parameter integer N_BASE = 4
) (
  input  wire                  aclk,
  input  wire                  aresetn,
  // AXI4-Lite write address, data and response channels.
  input  wire [    ADDR_W-1:0] s_axil_awaddr,
  input  wire                  s_axil_awvalid,
  output wire                  s_axil_awready,
  input  wire [          31:0] s_axil_wdata,
  input  wire [           3:0] s_axil_wstrb,
  input  wire                  s_axil_wvalid,
  output wire                  s_axil_wready,
  output reg  [           1:0] s_axil_bresp,
  output reg                   s_axil_bvalid,
  input  wire                  s_axil_bready,
  // AXI4-Lite read address and data channels.
  input  wire [    ADDR_W-1:0] s_axil_araddr,
  input  wire                  s_axil_arvalid,
  output wire                  s_axil_arready,
  output reg  [          31:0] s_axil_rdata,
  output reg  [           1:0] s_axil_rresp,
  output reg                   s_axil_rvalid,
  input  wire                  s_axil_rready,
  // The accelerator.
  output reg                   start,
  input  wire                  busy_in,
  input  wire                  done_in,
  input  wire                  error_in,
  output wire                  irq,
  output wire [64*N_BASE-1:0]  base_addr
);

  localparam integer IW = ADDR_W - 2;  // word index bits
  localparam [1:0] OKAY = 2'b00;
  localparam [1:0] SLVERR = 2'b10;
  localparam integer I_CTRL = 0;
  localparam integer I_STATUS = 1;
  localparam integer I_ISR = 2;
  localparam integer I_CYC_LO = 4;
  localparam integer I_CYC_HI = 5;
  localparam [IW-1:0] CTRL = I_CTRL[IW-1:0];
  localparam [IW-1:0] STATUS = I_STATUS[IW-1:0];
  localparam [IW-1:0] ISR = I_ISR[IW-1:0];
  localparam [IW-1:0] CYC_LO = I_CYC_LO[IW-1:0];
  localparam [IW-1:0] CYC_HI = I_CYC_HI[IW-1:0];

  reg ready_ok;  // out of reset: requests may be taken

  // ---- Write channel ----
  reg          aw_have;
  reg [IW-1:0] aw_idx;
  reg          w_have;
  reg [  31:0] w_data;
  reg [   3:0] w_strb;

  assign s_axil_awready = ready_ok & ~aw_have;
  assign s_axil_wready  = ready_ok & ~w_have;

  wire        do_write = aw_have & w_have & ~s_axil_bvalid;
  wire        w_byte0 = do_write & w_strb[0];
  wire        start_now = w_byte0 & (aw_idx == CTRL) & w_data[0] & ~busy_in;
  wire        clr_status = w_byte0 & (aw_idx == STATUS);
  wire        clr_isr = w_byte0 & (aw_idx == ISR);

  // ---- Control and status registers ----
  reg        ie;
  reg        st_done;
  reg        st_error;
  reg [ 1:0] isr;
  reg [63:0] cycles;
  reg [31:0] cycles_hi;  // latched by a CYCLES_LO read

  assign irq = ie & (isr != 2'b00);

  always @(posedge aclk) begin
    if (!aresetn) begin
      ready_ok <= 1'b0;
      aw_have  <= 1'b0;
      w_have   <= 1'b0;
      start    <= 1'b0;
      ie       <= 1'b0;
      st_done  <= 1'b0;
      st_error <= 1'b0;
      isr      <= 2'b00;
      cycles   <= 64'd0;
    end else begin
      ready_ok <= 1'b1;
      if (s_axil_awvalid && s_axil_awready) aw_have <= 1'b1;
      else if (do_write) aw_have <= 1'b0;
      if (s_axil_wvalid && s_axil_wready) w_have <= 1'b1;
      else if (do_write) w_have <= 1'b0;
      start <= start_now;
      if (w_byte0 && aw_idx == CTRL) ie <= w_data[1];
      st_done  <= (st_done & ~(start_now | (clr_status & w_data[0]))) | done_in;
      st_error <= (st_error & ~(start_now | (clr_status & w_data[2]))) | error_in;
      isr[0]   <= (isr[0] & ~(clr_isr & w_data[0])) | done_in;
      isr[1]   <= (isr[1] & ~(clr_isr & w_data[1])) | error_in;
      if (start_now) cycles <= 64'd0;
      else if (busy_in) cycles <= cycles + 1;
    end
  end

  // Request fields (no reset needed: only used while held).
  always @(posedge aclk) begin
    if (s_axil_awvalid && s_axil_awready) aw_idx <= s_axil_awaddr[ADDR_W-1:2];
    if (s_axil_wvalid && s_axil_wready) begin
      w_data <= s_axil_wdata;
      w_strb <= s_axil_wstrb;
    end
  end

  // ---- Base address registers ----
  // Word index i of the map is base register (i - 8) / 2, half (i - 8) mod 2, for 8 <= i <
  // 8 + 2 * N_BASE.
  localparam integer I_BASE = 8;
  localparam [IW-1:0] BASE0 = I_BASE[IW-1:0];
  localparam [IW-1:0] NB = N_BASE[IW-1:0];
  localparam integer SW = (N_BASE > 1) ? $clog2(N_BASE) : 1;  // bits of a register number

  wire [64*N_BASE-1:0] base_q;
  wire [IW-1:0] ar_idx = s_axil_araddr[ADDR_W-1:2];
  wire [IW-1:0] ar_rel = ar_idx - BASE0;
  wire [IW-1:0] aw_rel = aw_idx - BASE0;
  wire          ar_base = (ar_idx >= BASE0) & ({1'b0, ar_rel[IW-1:1]} < NB);
  wire          aw_base = (aw_idx >= BASE0) & ({1'b0, aw_rel[IW-1:1]} < NB);
  wire [  SW:0] ar_half = ar_rel[SW:0];  // 32-bit half: 2 * register + (high half)
  wire [  SW:0] aw_half = aw_rel[SW:0];
  wire [  31:0] base_word = base_q[ar_half*32+:32];

  assign base_addr = base_q;

  // One register per 32-bit half, written when the (registered) write index selects it.
  genvar h;
  generate
    for (h = 0; h < 2 * N_BASE; h = h + 1) begin : g_half
      localparam integer HI = h;
      localparam [SW:0] HALF = HI[SW:0];
      wire       hit = do_write & aw_base & (aw_half == HALF);
      reg  [31:0] q;
      integer b;
      always @(posedge aclk) begin
        if (!aresetn) q <= 32'd0;
        else
          for (b = 0; b < 4; b = b + 1) if (hit && w_strb[b]) q[8*b+:8] <= w_data[8*b+:8];
      end
      assign base_q[32*h+:32] = q;
    end
  endgenerate

  // Write response: OKAY for CTRL, STATUS, ISR and the base registers.
  wire w_ok = (aw_idx == CTRL) | (aw_idx == STATUS) | (aw_idx == ISR) | aw_base;

  always @(posedge aclk) begin
    if (!aresetn) s_axil_bvalid <= 1'b0;
    else if (do_write) s_axil_bvalid <= 1'b1;
    else if (s_axil_bready) s_axil_bvalid <= 1'b0;
  end
  always @(posedge aclk) if (do_write) s_axil_bresp <= w_ok ? OKAY : SLVERR;

  // ---- Read channel ----
  wire ar_hs = s_axil_arvalid & s_axil_arready;
  reg  [31:0] rd_word;
  reg         rd_hit;
  always @(*) begin
    rd_hit  = 1'b1;
    rd_word = 32'd0;
    if (ar_idx == CTRL) rd_word = {30'd0, ie, 1'b0};
    else if (ar_idx == STATUS) rd_word = {29'd0, st_error, busy_in, st_done};
    else if (ar_idx == ISR) rd_word = {30'd0, isr};
    else if (ar_idx == CYC_LO) rd_word = cycles[31:0];
    else if (ar_idx == CYC_HI) rd_word = cycles_hi;
    else if (ar_base) rd_word = base_word;
    else rd_hit = 1'b0;
  end

  assign s_axil_arready = ready_ok & ~s_axil_rvalid;

  always @(posedge aclk) begin
    if (!aresetn) begin
      s_axil_rvalid <= 1'b0;
      cycles_hi     <= 32'd0;
    end else begin
      if (ar_hs) s_axil_rvalid <= 1'b1;
      else if (s_axil_rready) s_axil_rvalid <= 1'b0;
      if (ar_hs && ar_idx == CYC_LO) cycles_hi <= cycles[63:32];
    end
  end
  always @(posedge aclk) begin
    if (ar_hs) begin
      s_axil_rdata <= rd_word;
      s_axil_rresp <= rd_hit ? OKAY : SLVERR;
    end
  end

  wire unused_low = &{1'b0, s_axil_awaddr[1:0], s_axil_araddr[1:0]};

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (N_BASE < 1 || N_BASE > 64) begin : g_bad_n_base
      rubick_axil_regs_parameter_N_BASE_must_be_1_to_64 u_error ();
    end
    if (ADDR_W > 32 || (ADDR_W < 10 && (1 << ADDR_W) < 32 + 8 * N_BASE)) begin : g_bad_addr_w
      rubick_axil_regs_parameter_ADDR_W_must_cover_the_map_and_be_at_most_32 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
