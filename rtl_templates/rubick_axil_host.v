// SPDX-License-Identifier: Apache-2.0
// rubick_axil_host: AXI4-Lite slave (32-bit data) that is a memory-mapped window onto the
// word-addressed host port of a processing-in-memory (PIM) top (host_we / host_wunit /
// host_wall / host_wtensor / host_wbank / host_waddr / host_wdata, host_re / host_runit /
// host_rtensor / host_rbank / host_raddr / host_rdata): software reads and writes the words of
// the units' on-chip banks with plain loads and stores.
//
// Address map (byte address a of the window; every host word takes 8 bytes):
//   a[1:0]                               ignored
//   a[2]                                 half: 0 = bits 31..0 of the word, 1 = bits 63..32
//   a[3 +: AW]                           bank address (host_waddr / host_raddr)
//   a[3+AW +: BANK_W]                    bank (host_wbank / host_rbank)
//   a[3+AW+BANK_W +: TENSOR_W]           tensor (host_wtensor / host_rtensor)
//   a[3+AW+BANK_W+TENSOR_W +: UNIT_W]    unit (host_wunit / host_runit)
//   a[3+AW+BANK_W+TENSOR_W+UNIT_W]       ALL: a write goes to every unit (host_wall = 1);
//                                        reads ignore it
//   the bits above, up to ADDR_W-1       ignored
//
// Writes:
//   DATA_W <= 32: a write to half 0 writes the word s_axil_wdata[DATA_W-1:0] (the bits above
//     are ignored); a write to half 1 answers SLVERR and writes nothing.
//   DATA_W > 32: a write to half 0 only stores s_axil_wdata in the staging register (OKAY,
//     nothing reaches the host port, whatever busy_in); a write to half 1 writes the word
//     {s_axil_wdata[DATA_W-33:0], staging} (the bits above are ignored). There is one staging
//     register for all addresses: write half 0, then half 1 of the same word.
//   WSTRB other than 4'hF answers SLVERR and does nothing (the staging register is unchanged).
//   A write that would reach the host port while busy_in is high (sampled at the edge that
//   performs it, see below) answers SLVERR and writes nothing.
// Reads: half 0 returns host_rdata[31:0] (zero-extended when DATA_W < 32), half 1 (DATA_W > 32)
//   host_rdata[DATA_W-1:32] zero-extended. They answer SLVERR with RDATA 0, and make no host
//   read, when busy_in is high at the AR handshake edge or, with DATA_W <= 32, for half 1. A
//   read of a unit, tensor, bank or address the design does not have returns whatever
//   host_rdata gives.
// Everything else answers OKAY.
//
// Timing (all synchronous to the rising edge of aclk; a handshake "in cycle c" has VALID and
//   READY high in cycle c and is taken at the edge ending it):
//   Write: AW and W are taken independently: AWREADY / WREADY are high while that half is not
//   held and no B response is pending (so the next write is taken once B has been accepted).
//   With the later of the AW and W handshakes in cycle c, both are held in cycle c + 1 and the
//   edge ending c + 1 performs the write (and samples busy_in for it): BVALID rises and, for a
//   write that reaches the host port, host_we is high in cycle c + 2 only, with host_wunit,
//   host_wall, host_wtensor, host_wbank, host_waddr and host_wdata. BVALID from cycle c + 2 is
//   rubick_axil_regs's timing. host_we is 0 in every other cycle; the host_w* fields are
//   meaningful only while host_we is high.
//   Read: ARREADY is high while no read is in progress (from the AR handshake until R is
//   accepted; low in the cycle R is accepted). With the AR handshake in cycle c (taken at the
//   edge ending it): host_re is high in cycle c + 1 only, with host_runit, host_rtensor,
//   host_rbank and host_raddr; host_rdata, the design's answer, is valid in cycle c + 2 and
//   captured at the edge ending it, where RVALID rises: RVALID, RRESP and RDATA from cycle
//   c + 3, until RREADY. A read answering SLVERR has the same timing, without host_re.
//   Reads and writes are independent: a read may be in progress while a write is taken or
//   performed. A host read and a host write in the same cycle both reach the host port (what
//   the read returns then is the design's business).
//   busy_in is the design's busy: while it runs, its host port takes nothing. A write performed
//   at the edge where the design starts (busy_in still low) reaches the host port in the next
//   cycle anyway: software must not write while it starts the design.
//
// Reset: aresetn low at an edge (synchronous, active low) clears every valid, ready and pending
//   state and host_we / host_re: the transactions in progress are dropped. AWREADY, WREADY and
//   ARREADY are low in the first cycle with aresetn high again (as rubick_axil_regs). The
//   staging register and the data and field registers have no reset: after a reset, write half
//   0 of a word before its half 1.
//
// Parameters:
//   ADDR_W    address bits, at least 3 + AW + BANK_W + TENSOR_W + UNIT_W + 1, at most 64
//   UNIT_W    unit field bits (>= 1)
//   TENSOR_W  tensor field bits (>= 1)
//   BANK_W    bank field bits (>= 1)
//   AW        a bank's word address bits (>= 1)
//   DATA_W    host word bits, 1..64
`default_nettype none

module rubick_axil_host #(
  parameter integer ADDR_W = 16,
  parameter integer UNIT_W = 1,
  parameter integer TENSOR_W = 1,
  parameter integer BANK_W = 1,
  parameter integer AW = 1,
  parameter integer DATA_W = 32
) (
  input  wire                aclk,
  input  wire                aresetn,
  // AXI4-Lite write address, data and response channels.
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
  // AXI4-Lite read address and data channels.
  input  wire [  ADDR_W-1:0] s_axil_araddr,
  input  wire                s_axil_arvalid,
  output wire                s_axil_arready,
  output reg  [        31:0] s_axil_rdata,
  output reg  [         1:0] s_axil_rresp,
  output reg                 s_axil_rvalid,
  input  wire                s_axil_rready,
  // The host port of the design.
  input  wire                busy_in,
  output reg                 host_we,
  output reg  [  UNIT_W-1:0] host_wunit,
  output reg                 host_wall,
  output reg  [TENSOR_W-1:0] host_wtensor,
  output reg  [  BANK_W-1:0] host_wbank,
  output reg  [      AW-1:0] host_waddr,
  output reg  [  DATA_W-1:0] host_wdata,
  output reg                 host_re,
  output reg  [  UNIT_W-1:0] host_runit,
  output reg  [TENSOR_W-1:0] host_rtensor,
  output reg  [  BANK_W-1:0] host_rbank,
  output reg  [      AW-1:0] host_raddr,
  input  wire [  DATA_W-1:0] host_rdata
);

  localparam [1:0] OKAY = 2'b00;
  localparam [1:0] SLVERR = 2'b10;
  localparam [0:0] WIDE = (DATA_W > 32) ? 1'b1 : 1'b0;  // two halves per word
  // Field offsets of the word index (address bit 3 up).
  localparam integer O_BANK = AW;
  localparam integer O_TENSOR = O_BANK + BANK_W;
  localparam integer O_UNIT = O_TENSOR + TENSOR_W;
  localparam integer O_ALL = O_UNIT + UNIT_W;
  localparam integer FW = O_ALL + 1;  // word index bits
  localparam integer TOP = 3 + FW;  // address bits used

  reg ready_ok;  // out of reset: requests may be taken

  // ---- Write channel ----
  reg          aw_have;
  reg          aw_half;
  reg [FW-1:0] aw_word;
  reg          w_have;
  reg [  31:0] w_data;
  reg [   3:0] w_strb;

  assign s_axil_awready = ready_ok & ~aw_have & ~s_axil_bvalid;
  assign s_axil_wready  = ready_ok & ~w_have & ~s_axil_bvalid;

  wire do_write = aw_have & w_have & ~s_axil_bvalid;
  wire strb_ok = (w_strb == 4'hf);
  // The half that reaches the host port: 0 when narrow, 1 (with the staged half 0) when wide.
  wire to_host = WIDE ? aw_half : ~aw_half;
  wire we_now = do_write & strb_ok & to_host & ~busy_in;
  wire w_ok = strb_ok & (WIDE | ~aw_half) & ~(to_host & busy_in);
  wire [DATA_W-1:0] w_word;  // the word written: wdata, with the staged half when wide

  always @(posedge aclk) begin
    if (!aresetn) begin
      ready_ok      <= 1'b0;
      aw_have       <= 1'b0;
      w_have        <= 1'b0;
      s_axil_bvalid <= 1'b0;
      host_we       <= 1'b0;
    end else begin
      ready_ok <= 1'b1;
      if (s_axil_awvalid && s_axil_awready) aw_have <= 1'b1;
      else if (do_write) aw_have <= 1'b0;
      if (s_axil_wvalid && s_axil_wready) w_have <= 1'b1;
      else if (do_write) w_have <= 1'b0;
      if (do_write) s_axil_bvalid <= 1'b1;
      else if (s_axil_bready) s_axil_bvalid <= 1'b0;
      host_we <= we_now;
    end
  end

  // Request fields and the host write fields (no reset needed: only used while held / valid).
  always @(posedge aclk) begin
    if (s_axil_awvalid && s_axil_awready) begin
      aw_half <= s_axil_awaddr[2];
      aw_word <= s_axil_awaddr[3+:FW];
    end
    if (s_axil_wvalid && s_axil_wready) begin
      w_data <= s_axil_wdata;
      w_strb <= s_axil_wstrb;
    end
    if (do_write) begin
      s_axil_bresp <= w_ok ? OKAY : SLVERR;
      host_waddr   <= aw_word[0+:AW];
      host_wbank   <= aw_word[O_BANK+:BANK_W];
      host_wtensor <= aw_word[O_TENSOR+:TENSOR_W];
      host_wunit   <= aw_word[O_UNIT+:UNIT_W];
      host_wall    <= aw_word[O_ALL];
      host_wdata   <= w_word;
    end
  end

  // ---- Read channel ----
  wire ar_hs = s_axil_arvalid & s_axil_arready;
  wire ar_half = s_axil_araddr[2];
  wire [FW-1:0] ar_word = s_axil_araddr[3+:FW];
  wire ar_err = busy_in | (~WIDE & ar_half);
  reg  rd_act;  // a read is in progress: AR taken, R not yet accepted
  reg  rd_s1;  // the cycle after the AR handshake (host_re, unless an error)
  reg  rd_s2;  // the cycle after that: host_rdata valid, captured at its end
  reg  rd_err;
  reg  rd_half;
  wire [31:0] rd_word;  // the half of host_rdata the read asked for

  assign s_axil_arready = ready_ok & ~rd_act;

  always @(posedge aclk) begin
    if (!aresetn) begin
      rd_act        <= 1'b0;
      rd_s1         <= 1'b0;
      rd_s2         <= 1'b0;
      host_re       <= 1'b0;
      s_axil_rvalid <= 1'b0;
    end else begin
      if (ar_hs) rd_act <= 1'b1;
      else if (s_axil_rvalid && s_axil_rready) rd_act <= 1'b0;
      rd_s1   <= ar_hs;
      rd_s2   <= rd_s1;
      host_re <= ar_hs & ~ar_err;
      if (rd_s2) s_axil_rvalid <= 1'b1;
      else if (s_axil_rready) s_axil_rvalid <= 1'b0;
    end
  end

  always @(posedge aclk) begin
    if (ar_hs) begin
      rd_err       <= ar_err;
      rd_half      <= ar_half;
      host_raddr   <= ar_word[0+:AW];
      host_rbank   <= ar_word[O_BANK+:BANK_W];
      host_rtensor <= ar_word[O_TENSOR+:TENSOR_W];
      host_runit   <= ar_word[O_UNIT+:UNIT_W];
    end
    if (rd_s2) begin
      s_axil_rdata <= rd_err ? 32'd0 : rd_word;
      s_axil_rresp <= rd_err ? SLVERR : OKAY;
    end
  end

  // ---- Data widths ----
  generate
    if (DATA_W > 32) begin : g_wide
      // Staging register for half 0 (no reset: software writes half 0 first).
      reg  [31:0] stage;
      wire [31:0] rd_hi;  // bits 63..32 of the word, zero-extended
      always @(posedge aclk) if (do_write && strb_ok && !aw_half) stage <= w_data;
      assign w_word  = {w_data[DATA_W-33:0], stage};
      assign rd_word = rd_half ? rd_hi : host_rdata[31:0];
      if (DATA_W == 64) begin : g_full
        assign rd_hi = host_rdata[63:32];
      end else begin : g_part
        assign rd_hi = {{(64 - DATA_W) {1'b0}}, host_rdata[DATA_W-1:32]};
        wire unused_wdata = &{1'b0, w_data[31:DATA_W-32]};
      end
    end else if (DATA_W == 32) begin : g_word
      assign w_word  = w_data;
      assign rd_word = host_rdata;
      wire unused_half = &{1'b0, rd_half};
    end else begin : g_narrow
      assign w_word  = w_data[DATA_W-1:0];
      assign rd_word = {{(32 - DATA_W) {1'b0}}, host_rdata};
      wire unused_wdata = &{1'b0, w_data[31:DATA_W], rd_half};
    end
  endgenerate

  // Address bits that select nothing: [1:0], reads' ALL bit, and the bits above the map.
  wire unused_addr = &{1'b0, s_axil_awaddr[1:0], s_axil_araddr[1:0], ar_word[O_ALL]};
  generate
    if (ADDR_W > TOP) begin : g_high
      wire unused_high = &{1'b0, s_axil_awaddr[ADDR_W-1:TOP], s_axil_araddr[ADDR_W-1:TOP]};
    end
  endgenerate

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (UNIT_W < 1 || TENSOR_W < 1 || BANK_W < 1 || AW < 1) begin : g_bad_field
      rubick_axil_host_parameters_UNIT_W_TENSOR_W_BANK_W_AW_must_be_at_least_1 u_error ();
    end
    if (DATA_W < 1 || DATA_W > 64) begin : g_bad_data_w
      rubick_axil_host_parameter_DATA_W_must_be_1_to_64 u_error ();
    end
    if (ADDR_W < TOP || ADDR_W > 64) begin : g_bad_addr_w
      rubick_axil_host_parameter_ADDR_W_must_cover_the_map_and_be_at_most_64 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
