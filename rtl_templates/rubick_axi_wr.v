// SPDX-License-Identifier: Apache-2.0
// rubick_axi_wr: AXI4 write master engine. Takes commands (byte address, length in beats) and a
// data stream, splits each command into INCR bursts of at most MAX_BURST beats that never cross
// a 4 KiB boundary (the same rule as rubick_axi_rd), keeps up to MAX_OUTSTANDING bursts in
// flight and pulses done once every burst of a command has its write response.
//
// Commands:
//   cmd_valid/cmd_ready handshake (AXI rules: hold cmd_valid and the fields until cmd_ready).
//   cmd_addr is a byte address; its low log2(DATA_W/8) bits are ignored (aligned transfers
//   only). cmd_len is the number of DATA_W-bit beats; cmd_len = 0 is accepted and does nothing
//   (no data taken, no done). cmd_ready is high while no command is being split, and in the
//   cycle the last burst of the command being split is issued (so one-burst commands are taken
//   one per cycle); low in reset. Every burst has AWSIZE = log2(DATA_W/8) (its low 3 bits above
//   1024 bits: see DATA_W), AWBURST = INCR, AWID = AXI_ID, AWCACHE = 4'b0011, AWPROT = 0.
// Splitting: from the current address a, each burst has min(remaining, MAX_BURST,
//   (4096 - a mod 4096) / (DATA_W/8)) beats.
// Data: in_valid/in_ready, one beat per accepted command beat, in command order, with its byte
//   strobes in_strb (WSTRB; all ones for a plain copy); in_ready is high only while a burst has
//   been split and not yet filled, so data for a command is taken once its bursts exist. The
//   W channel is a two-entry skid buffer (m_axi_w* and in_ready are registers), one beat per
//   cycle with WREADY held high. W data does not wait for the AW handshake (AXI allows either
//   order).
// Timing (all synchronous, aclk rising edge; aresetn active low):
//   A command sampled at edge 0 presents its first AW in cycle 2, then one AW per cycle while
//   fewer than MAX_OUTSTANDING bursts are in flight (a burst counts from its AW being presented
//   until its B response is accepted). BREADY is always high out of reset.
//   done is a one-cycle pulse in the cycle after the B response of a command's last burst (B
//   responses come in order, one ID), so every write of the command has been answered.
// Errors: error is a one-cycle pulse for every B response with BRESP != OKAY, BID != AXI_ID or
//   with no burst in flight. done still follows.
// busy: a command is being split or a burst is in flight.
//
// Parameters:
//   ADDR_W           address bits (13..64)
//   DATA_W           data bits: 8 * a power of two, 8..4096. Above 1024 (AXI4's widest bus,
//                    and beyond what AWSIZE can express: m_axi_awsize then carries only the low
//                    3 bits of log2(DATA_W/8)) only for use behind rubick_axi_split, which
//                    sets its ports' AWSIZE itself; bursts are then at most 4096 / (DATA_W/8)
//                    beats (8 at 4096 bits)
//   ID_W, AXI_ID     ID width (1..32) and the AWID used (0 .. 2**ID_W - 1)
//   LEN_W            bits of cmd_len (1..32)
//   MAX_BURST        beats per burst at most (1..256); bursts are also capped at 4 KiB
//   MAX_OUTSTANDING  bursts in flight at most (1..256)
`default_nettype none

module rubick_axi_wr #(
  parameter integer ADDR_W = 32,
  parameter integer DATA_W = 64,
  parameter integer ID_W = 1,
  parameter integer AXI_ID = 0,
  parameter integer LEN_W = 32,
  parameter integer MAX_BURST = 16,
  parameter integer MAX_OUTSTANDING = 4
) (
  input  wire                  aclk,
  input  wire                  aresetn,
  // Commands.
  input  wire                  cmd_valid,
  output wire                  cmd_ready,
  input  wire [    ADDR_W-1:0] cmd_addr,
  input  wire [     LEN_W-1:0] cmd_len,
  // Data stream.
  input  wire                  in_valid,
  output wire                  in_ready,
  input  wire [    DATA_W-1:0] in_data,
  input  wire [  DATA_W/8-1:0] in_strb,
  // Status.
  output reg                   done,
  output wire                  busy,
  output reg                   error,
  // AXI4 write address channel.
  output wire [      ID_W-1:0] m_axi_awid,
  output reg  [    ADDR_W-1:0] m_axi_awaddr,
  output reg  [           7:0] m_axi_awlen,
  output wire [           2:0] m_axi_awsize,
  output wire [           1:0] m_axi_awburst,
  output wire [           3:0] m_axi_awcache,
  output wire [           2:0] m_axi_awprot,
  output reg                   m_axi_awvalid,
  input  wire                  m_axi_awready,
  // AXI4 write data channel.
  output reg  [    DATA_W-1:0] m_axi_wdata,
  output reg  [  DATA_W/8-1:0] m_axi_wstrb,
  output reg                   m_axi_wlast,
  output reg                   m_axi_wvalid,
  input  wire                  m_axi_wready,
  // AXI4 write response channel.
  input  wire [      ID_W-1:0] m_axi_bid,
  input  wire [           1:0] m_axi_bresp,
  input  wire                  m_axi_bvalid,
  output wire                  m_axi_bready
);

  localparam integer BYTES = DATA_W / 8;
  localparam integer ASZ = $clog2(BYTES);
  localparam integer PAGE_BEATS = 4096 / BYTES;
  localparam integer CAP = (MAX_BURST < PAGE_BEATS) ? MAX_BURST : PAGE_BEATS;
  // Remaining beats: at least 13 bits, so that burst lengths (<= 4096) compare without loss.
  localparam integer RW = (LEN_W > 13) ? LEN_W : 13;
  localparam integer PW = (MAX_OUTSTANDING > 1) ? $clog2(MAX_OUTSTANDING) : 1;
  localparam integer CW = $clog2(MAX_OUTSTANDING + 1);
  localparam integer PLAST_I = MAX_OUTSTANDING - 1;
  localparam [PW-1:0] PLAST = PLAST_I[PW-1:0];
  localparam [CW-1:0] DEPTH = MAX_OUTSTANDING[CW-1:0];
  localparam [12:0] PAGE13 = PAGE_BEATS[12:0];
  localparam [12:0] CAP13 = CAP[12:0];
  localparam [ADDR_W-1:0] ALIGN = {ADDR_W{1'b1}} << ASZ;

  assign m_axi_awid    = AXI_ID[ID_W-1:0];
  assign m_axi_awsize  = ASZ[2:0];
  assign m_axi_awburst = 2'b01;
  assign m_axi_awcache = 4'b0011;
  assign m_axi_awprot  = 3'b000;

  // ---- Splitter and AW channel ----
  reg              ready_ok;  // out of reset: commands and B responses may be taken
  reg              active;    // a command is being split
  reg [ADDR_W-1:0] addr;      // next burst's address
  reg [    RW-1:0] rem;       // beats not yet in a burst

  // The next burst: up to the 4 KiB boundary, MAX_BURST and what remains.
  wire [11-ASZ:0] page_off = addr[11:ASZ];
  wire [12:0] to_page = PAGE13 - {{(1 + ASZ) {1'b0}}, page_off};
  wire [12:0] lim = (to_page < CAP13) ? to_page : CAP13;
  wire        burst_last = (rem <= {{(RW - 13) {1'b0}}, lim});
  wire [12:0] burst = burst_last ? rem[12:0] : lim;
  wire [12:0] burst_m1 = burst - 1;
  wire [12:0] step = burst << ASZ;

  // Bursts awaiting their B response, in order: last burst of its command?
  reg           b_track [0:MAX_OUTSTANDING-1];
  reg  [PW-1:0] b_wr;
  reg  [PW-1:0] b_rd;
  reg  [CW-1:0] b_count;
  // Bursts whose W beats have not started, in order: AWLEN.
  reg  [   7:0] w_track [0:MAX_OUTSTANDING-1];
  reg  [PW-1:0] w_wr;
  reg  [PW-1:0] w_rd;
  reg  [CW-1:0] w_count;

  wire b_have = (b_count != 0);
  wire b_hs = m_axi_bvalid & m_axi_bready;
  wire b_pop = b_hs & b_have;
  wire w_have = (w_count != 0);
  wire w_pop;
  wire push = active & (~m_axi_awvalid | m_axi_awready) & ((b_count != DEPTH) | b_pop) &
              ((w_count != DEPTH) | w_pop);

  assign cmd_ready = ready_ok & (~active | (push & burst_last));
  assign m_axi_bready = ready_ok;
  assign busy = active | b_have;

  always @(posedge aclk) begin
    if (!aresetn) begin
      ready_ok      <= 1'b0;
      active        <= 1'b0;
      m_axi_awvalid <= 1'b0;
      b_wr          <= {PW{1'b0}};
      b_rd          <= {PW{1'b0}};
      b_count       <= {CW{1'b0}};
      w_wr          <= {PW{1'b0}};
      w_rd          <= {PW{1'b0}};
      w_count       <= {CW{1'b0}};
      done          <= 1'b0;
      error         <= 1'b0;
    end else begin
      ready_ok <= 1'b1;
      if (cmd_valid && cmd_ready && cmd_len != 0) active <= 1'b1;
      else if (push && burst_last) active <= 1'b0;
      if (push) m_axi_awvalid <= 1'b1;
      else if (m_axi_awready) m_axi_awvalid <= 1'b0;
      if (push) b_wr <= (b_wr == PLAST) ? {PW{1'b0}} : b_wr + 1;
      if (b_pop) b_rd <= (b_rd == PLAST) ? {PW{1'b0}} : b_rd + 1;
      if (push && !b_pop) b_count <= b_count + 1;
      else if (b_pop && !push) b_count <= b_count - 1;
      if (push) w_wr <= (w_wr == PLAST) ? {PW{1'b0}} : w_wr + 1;
      if (w_pop) w_rd <= (w_rd == PLAST) ? {PW{1'b0}} : w_rd + 1;
      if (push && !w_pop) w_count <= w_count + 1;
      else if (w_pop && !push) w_count <= w_count - 1;
      done  <= b_pop & b_track[b_rd];
      error <= b_hs & (~b_have | (m_axi_bresp != 2'b00) | (m_axi_bid != AXI_ID[ID_W-1:0]));
    end
  end

  // Datapath registers (no reset needed: written before they are used).
  always @(posedge aclk) begin
    if (cmd_valid && cmd_ready) begin
      addr <= cmd_addr & ALIGN;
      rem  <= {{(RW - LEN_W) {1'b0}}, cmd_len};
    end else if (push) begin
      addr <= addr + {{(ADDR_W - 13) {1'b0}}, step};
      rem  <= rem - {{(RW - 13) {1'b0}}, burst};
    end
    if (push) begin
      m_axi_awaddr  <= addr;
      m_axi_awlen   <= burst_m1[7:0];
      b_track[b_wr] <= burst_last;
      w_track[w_wr] <= burst_m1[7:0];
    end
  end

  // ---- W channel: input beats tagged with WLAST, through a two-entry skid buffer ----
  reg              cur_valid;  // a burst is being filled
  reg [       7:0] cur_len;    // its AWLEN
  reg [       7:0] cur_beat;   // beats of it already taken
  reg              sk_valid;
  reg [DATA_W-1:0] sk_data;
  reg [ BYTES-1:0] sk_strb;
  reg              sk_last;
  wire             take = in_valid & in_ready;
  wire             take_last = (cur_beat == cur_len);
  wire             w_hs = m_axi_wvalid & m_axi_wready;
  wire             w_from_sk = sk_valid & w_hs;
  wire             w_from_in = take & (~m_axi_wvalid | w_hs);
  wire             sk_from_in = take & m_axi_wvalid & ~w_hs;
  assign w_pop = w_have & (~cur_valid | (take & take_last));
  assign in_ready = cur_valid & ~sk_valid;

  always @(posedge aclk) begin
    if (!aresetn) begin
      cur_valid    <= 1'b0;
      cur_beat     <= 8'd0;
      m_axi_wvalid <= 1'b0;
      sk_valid     <= 1'b0;
    end else begin
      if (w_pop) cur_valid <= 1'b1;
      else if (take && take_last) cur_valid <= 1'b0;
      if (take) cur_beat <= take_last ? 8'd0 : cur_beat + 1;
      if (w_from_in) m_axi_wvalid <= 1'b1;
      else if (w_hs && !sk_valid) m_axi_wvalid <= 1'b0;
      if (sk_from_in) sk_valid <= 1'b1;
      else if (w_from_sk) sk_valid <= 1'b0;
    end
  end

  always @(posedge aclk) begin
    if (w_pop) cur_len <= w_track[w_rd];
    if (w_from_sk) begin
      m_axi_wdata <= sk_data;
      m_axi_wstrb <= sk_strb;
      m_axi_wlast <= sk_last;
    end else if (w_from_in) begin
      m_axi_wdata <= in_data;
      m_axi_wstrb <= in_strb;
      m_axi_wlast <= take_last;
    end
    if (sk_from_in) begin
      sk_data <= in_data;
      sk_strb <= in_strb;
      sk_last <= take_last;
    end
  end

  wire unused_bits = &{1'b0, burst_m1[12:8]};

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (DATA_W < 8 || DATA_W > 4096 || (8 << ASZ) != DATA_W) begin : g_bad_data_w
      rubick_axi_wr_parameter_DATA_W_must_be_8_times_a_power_of_2_up_to_4096 u_error ();
    end
    if (ADDR_W < 13 || ADDR_W > 64) begin : g_bad_addr_w
      rubick_axi_wr_parameter_ADDR_W_must_be_13_to_64 u_error ();
    end
    if (ID_W < 1 || ID_W > 32 || AXI_ID < 0 || (ID_W < 32 && AXI_ID >= (1 << ID_W))) begin
      : g_bad_id
      rubick_axi_wr_parameter_AXI_ID_must_fit_ID_W_1_to_32 u_error ();
    end
    if (LEN_W < 1 || LEN_W > 32) begin : g_bad_len_w
      rubick_axi_wr_parameter_LEN_W_must_be_1_to_32 u_error ();
    end
    if (MAX_BURST < 1 || MAX_BURST > 256) begin : g_bad_burst
      rubick_axi_wr_parameter_MAX_BURST_must_be_1_to_256 u_error ();
    end
    if (MAX_OUTSTANDING < 1 || MAX_OUTSTANDING > 256) begin : g_bad_outstanding
      rubick_axi_wr_parameter_MAX_OUTSTANDING_must_be_1_to_256 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
