// SPDX-License-Identifier: Apache-2.0
// rubick_axi_rd: AXI4 read master engine. Takes commands (byte address, length in beats), splits
// each into INCR bursts of at most MAX_BURST beats that never cross a 4 KiB boundary, keeps up
// to MAX_OUTSTANDING bursts in flight and returns the data in order on a valid/ready stream,
// with out_last on the command's final beat.
//
// Commands:
//   cmd_valid/cmd_ready handshake (AXI rules: hold cmd_valid and the fields until cmd_ready).
//   cmd_addr is a byte address; its low log2(DATA_W/8) bits are ignored (aligned transfers
//   only). cmd_len is the number of DATA_W-bit beats; cmd_len = 0 is accepted and does nothing
//   (no data, no out_last). cmd_ready is high while no command is being split (low in reset)
//   and in the cycle the command being split issues its last burst, so a command is taken as
//   the previous one issues its last burst (one-burst commands: one per cycle), while that
//   one's data may still be arriving. Every burst has ARSIZE = log2(DATA_W/8) (its low 3 bits
//   above 1024 bits: see DATA_W), ARBURST = INCR, ARID = AXI_ID, ARCACHE = 4'b0011 (normal,
//   non-cacheable, bufferable), ARPROT = 0.
// Splitting: from the current address a, each burst has min(remaining, MAX_BURST,
//   (4096 - a mod 4096) / (DATA_W/8)) beats: the first burst of a command ends at a 4 KiB
//   boundary when the command crosses one, later bursts start on MAX_BURST-beat strides.
// Timing (all synchronous, aclk rising edge; aresetn active low):
//   A command sampled at edge 0 presents its first AR in cycle 2 (the AR channel is a
//   register stage), then one AR per cycle while fewer than MAX_OUTSTANDING bursts are in flight (a burst counts from
//   its AR being presented until its last R beat is accepted).
//   An R beat accepted at edge k appears on out_* in cycle k + 1. The output is a two-entry
//   skid buffer: m_axi_rready and the out_* signals are registers, and with out_ready held high
//   the engine accepts one beat per cycle.
// Errors: error is a one-cycle pulse for every R beat accepted with RRESP != OKAY, RID !=
//   AXI_ID, RLAST not where the burst's ARLEN puts it, or with no burst in flight. The beat is
//   still forwarded (so the stream keeps its length), except a beat with no burst in flight,
//   which is dropped. out_last follows the engine's own beat count, not RLAST.
// busy: a command is being split, a burst is in flight or the output holds data.
//
// Parameters:
//   ADDR_W           address bits (13..64)
//   DATA_W           data bits: 8 * a power of two, 8..4096. Above 1024 (AXI4's widest bus,
//                    and beyond what ARSIZE can express: m_axi_arsize then carries only the low
//                    3 bits of log2(DATA_W/8)) only for use behind rubick_axi_split, which
//                    sets its ports' ARSIZE itself; bursts are then at most 4096 / (DATA_W/8)
//                    beats (8 at 4096 bits)
//   ID_W, AXI_ID     ID width (1..32) and the ARID used (0 .. 2**ID_W - 1)
//   LEN_W            bits of cmd_len (1..32)
//   MAX_BURST        beats per burst at most (1..256); bursts are also capped at 4 KiB
//   MAX_OUTSTANDING  bursts in flight at most (1..256)
`default_nettype none

module rubick_axi_rd #(
  parameter integer ADDR_W = 32,
  parameter integer DATA_W = 64,
  parameter integer ID_W = 1,
  parameter integer AXI_ID = 0,
  parameter integer LEN_W = 32,
  parameter integer MAX_BURST = 16,
  parameter integer MAX_OUTSTANDING = 4
) (
  input  wire              aclk,
  input  wire              aresetn,
  // Commands.
  input  wire              cmd_valid,
  output wire              cmd_ready,
  input  wire [ADDR_W-1:0] cmd_addr,
  input  wire [ LEN_W-1:0] cmd_len,
  // Data stream.
  output reg               out_valid,
  input  wire              out_ready,
  output reg  [DATA_W-1:0] out_data,
  output reg               out_last,
  // Status.
  output wire              busy,
  output reg               error,
  // AXI4 read address channel.
  output wire [  ID_W-1:0] m_axi_arid,
  output reg  [ADDR_W-1:0] m_axi_araddr,
  output reg  [       7:0] m_axi_arlen,
  output wire [       2:0] m_axi_arsize,
  output wire [       1:0] m_axi_arburst,
  output wire [       3:0] m_axi_arcache,
  output wire [       2:0] m_axi_arprot,
  output reg               m_axi_arvalid,
  input  wire              m_axi_arready,
  // AXI4 read data channel.
  input  wire [  ID_W-1:0] m_axi_rid,
  input  wire [DATA_W-1:0] m_axi_rdata,
  input  wire [       1:0] m_axi_rresp,
  input  wire              m_axi_rlast,
  input  wire              m_axi_rvalid,
  output wire              m_axi_rready
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

  assign m_axi_arid    = AXI_ID[ID_W-1:0];
  assign m_axi_arsize  = ASZ[2:0];
  assign m_axi_arburst = 2'b01;
  assign m_axi_arcache = 4'b0011;
  assign m_axi_arprot  = 3'b000;

  // ---- Splitter and AR channel ----
  reg              ready_ok;  // out of reset: commands and R beats may be taken
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

  // Bursts in flight, in order: {last burst of its command, ARLEN}.
  reg  [   8:0] track [0:MAX_OUTSTANDING-1];
  reg  [PW-1:0] wr_ptr;
  reg  [PW-1:0] rd_ptr;
  reg  [CW-1:0] count;
  reg  [   7:0] beat;  // beats of the head burst already received
  wire [   8:0] head = track[rd_ptr];
  wire          have = (count != 0);
  wire          r_hs = m_axi_rvalid & m_axi_rready;
  wire          beat_last = (beat == head[7:0]);
  wire          pop = r_hs & have & beat_last;
  wire          push = active & (~m_axi_arvalid | m_axi_arready) & ((count != DEPTH) | pop);

  // Taking the next command as the last burst goes out keeps one-burst commands at one per cycle.
  assign cmd_ready = ready_ok & (~active | (push & burst_last));

  always @(posedge aclk) begin
    if (!aresetn) begin
      ready_ok      <= 1'b0;
      active        <= 1'b0;
      m_axi_arvalid <= 1'b0;
      wr_ptr        <= {PW{1'b0}};
      rd_ptr        <= {PW{1'b0}};
      count         <= {CW{1'b0}};
      beat          <= 8'd0;
    end else begin
      ready_ok <= 1'b1;
      if (cmd_valid && cmd_ready && cmd_len != 0) active <= 1'b1;
      else if (push && burst_last) active <= 1'b0;
      if (push) m_axi_arvalid <= 1'b1;
      else if (m_axi_arready) m_axi_arvalid <= 1'b0;
      if (push) wr_ptr <= (wr_ptr == PLAST) ? {PW{1'b0}} : wr_ptr + 1;
      if (pop) rd_ptr <= (rd_ptr == PLAST) ? {PW{1'b0}} : rd_ptr + 1;
      if (push && !pop) count <= count + 1;
      else if (pop && !push) count <= count - 1;
      if (r_hs && have) beat <= beat_last ? 8'd0 : beat + 1;
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
      m_axi_araddr   <= addr;
      m_axi_arlen    <= burst_m1[7:0];
      track[wr_ptr] <= {burst_last, burst_m1[7:0]};
    end
  end

  // ---- R channel into a two-entry skid buffer ----
  reg              sk_valid;
  reg [DATA_W-1:0] sk_data;
  reg              sk_last;
  wire             fwd = r_hs & have;
  wire             fwd_last = beat_last & head[8];
  wire             out_take = out_valid & out_ready;
  wire             out_from_sk = sk_valid & out_take;
  wire             out_from_r = ~sk_valid & fwd & (~out_valid | out_take);
  wire             sk_from_r = ~sk_valid & fwd & out_valid & ~out_take;

  assign m_axi_rready = ready_ok & ~sk_valid;
  assign busy = active | have | out_valid | sk_valid;

  always @(posedge aclk) begin
    if (!aresetn) begin
      out_valid <= 1'b0;
      sk_valid  <= 1'b0;
      error     <= 1'b0;
    end else begin
      if (out_from_r) out_valid <= 1'b1;
      else if (out_take && !sk_valid) out_valid <= 1'b0;
      if (sk_from_r) sk_valid <= 1'b1;
      else if (out_from_sk) sk_valid <= 1'b0;
      error <= r_hs & (~have | (m_axi_rresp != 2'b00) | (m_axi_rid != AXI_ID[ID_W-1:0]) |
                       (m_axi_rlast != beat_last));
    end
  end

  always @(posedge aclk) begin
    if (out_from_sk) begin
      out_data <= sk_data;
      out_last <= sk_last;
    end else if (out_from_r) begin
      out_data <= m_axi_rdata;
      out_last <= fwd_last;
    end
    if (sk_from_r) begin
      sk_data <= m_axi_rdata;
      sk_last <= fwd_last;
    end
  end

  wire unused_bits = &{1'b0, burst_m1[12:8]};

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (DATA_W < 8 || DATA_W > 4096 || (8 << ASZ) != DATA_W) begin : g_bad_data_w
      rubick_axi_rd_parameter_DATA_W_must_be_8_times_a_power_of_2_up_to_4096 u_error ();
    end
    if (ADDR_W < 13 || ADDR_W > 64) begin : g_bad_addr_w
      rubick_axi_rd_parameter_ADDR_W_must_be_13_to_64 u_error ();
    end
    if (ID_W < 1 || ID_W > 32 || AXI_ID < 0 || (ID_W < 32 && AXI_ID >= (1 << ID_W))) begin
      : g_bad_id
      rubick_axi_rd_parameter_AXI_ID_must_fit_ID_W_1_to_32 u_error ();
    end
    if (LEN_W < 1 || LEN_W > 32) begin : g_bad_len_w
      rubick_axi_rd_parameter_LEN_W_must_be_1_to_32 u_error ();
    end
    if (MAX_BURST < 1 || MAX_BURST > 256) begin : g_bad_burst
      rubick_axi_rd_parameter_MAX_BURST_must_be_1_to_256 u_error ();
    end
    if (MAX_OUTSTANDING < 1 || MAX_OUTSTANDING > 256) begin : g_bad_outstanding
      rubick_axi_rd_parameter_MAX_OUTSTANDING_must_be_1_to_256 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
