// SPDX-License-Identifier: Apache-2.0
// rubick_dma_rd: DMA input engine. Reads one tile (ROWS x COLS elements of ELEM_W bits, plain
// row-major in memory) over AXI4 and produces its write groups in group order (gr outer, gc
// inner): LANES consecutive columns of one row (ROW_LANES = 0, groups ROWS x ceil(COLS/LANES))
// or LANES consecutive rows of one column (ROW_LANES = 1, a corner turn, groups
// ceil(ROWS/LANES) x COLS). Lane l of the group is out_data[l*ELEM_W +: ELEM_W]; out_mask[l]
// says the lane is inside the tile (row < ROWS, column < COLS): only the last group of a row
// (column lanes) or of a column (row lanes) has lanes outside. Elements outside
// rows_valid x cols_valid (the part of the tile outside the tensor) come out as zeros and are
// never read.
//
// Run time (held from start to done): base = byte address of element (0, 0), pitch = bytes from
//   a row to the next (a multiple of ELEM_W/8, any alignment), rows_valid <= ROWS,
//   cols_valid <= COLS. start is taken while not busy (ignored while busy); busy from the next
//   cycle until done; done pulses the cycle after the last group's handshake; error pulses for
//   every R beat with an error (rubick_axi_rd's error: the data still flows).
// Memory side: rubick_axi_rd's ports m_axi_ar*/m_axi_r*; elements little-endian in the bus
//   word, rows read as aligned beats and realigned here.
//
// Column lanes (rubick_dma_rd_cols): one read command per row; contiguous rows (pitch =
//   cols_valid*ELEM_W/8) are one run, each beat read once. A shift buffer of BUF_ELEMS
//   elements turns beats into groups.
// Row lanes (rubick_dma_rd_rows): blocks of LANES rows x W = BLOCK_BEATS*DATA_W/ELEM_W columns,
//   one command per row of a block (BLOCK_BEATS beats; the first block of an unaligned row one
//   more, and the beat two blocks share is read once). Buffer: 2 halves x LANES x BLOCK_BEATS
//   beats, plus LANES beats for the shared beats.
//
// Timing (start sampled at edge 0, out_ready high, a memory that returns one beat per cycle
// with latency L = cycles from AR handshake to the first R beat; done is in cycle T):
//   column lanes: T = L + 7 + max over g of (N(g) + G - 1 - g), where G = groups of the tile,
//     N(g) = beats read up to the one holding the last element of groups 0..g (the beats in
//     the order read). A tile with nothing to read: T = G + 2. So with B beats in all the
//     bus-bound case is L + 7 + B + (groups after the one needing the last beat), and the
//     group-bound one L + 7 + G + (the lead the first groups need): reads overlap output.
//   row lanes: the recurrence in rubick_dma_rd_rows.v (block by block through the double
//     buffer; the same L + 5 to the first beat).
// The timing assumes the reads are never held up by the outstanding limits: MAX_OUTSTANDING
// (and the memory's own limit) >= L + 2 is enough even for one-beat commands. Rates (groups per
// cycle, steady state): column lanes min(1, beats' useful elements / LANES), i.e.
// min(1, DATA_W / (LANES*ELEM_W)) on long rows; row lanes the same while the bus binds or COLS
// is a multiple of W (otherwise the short last block of each block row costs up to
// LANES*BLOCK_BEATS - (COLS mod W) cycles per block row).
//
// Parameters:
//   ADDR_W, ID_W, AXI_ID, MAX_BURST, MAX_OUTSTANDING   as rubick_axi_rd
//   DATA_W       bus bits, 8 * a power of two, >= ELEM_W
//   ELEM_W       element bits: 8, 16 or 32
//   LANES        elements per group (>= 1; <= COLS for column lanes, <= ROWS for row lanes)
//   ROW_LANES    0: column lanes, 1: row lanes
//   ROWS, COLS   tile size in the banks (>= 1)
//   BUF_ELEMS    column lanes: buffer elements (default 2*EPB + 2*LANES, + COLS when LANES >
//                EPB = DATA_W/ELEM_W: what the timing above is measured with); >= EPB + LANES
//   BLOCK_BEATS  row lanes: beats per row per block (>= 1)
`default_nettype none

module rubick_dma_rd #(
  parameter integer ADDR_W = 32,
  parameter integer DATA_W = 32,
  parameter integer ELEM_W = 8,
  parameter integer LANES = 2,
  parameter integer ROW_LANES = 0,
  parameter integer ROWS = 2,
  parameter integer COLS = 8,
  parameter integer ID_W = 1,
  parameter integer AXI_ID = 0,
  parameter integer MAX_BURST = 16,
  parameter integer MAX_OUTSTANDING = 4,
  parameter integer BUF_ELEMS = 2 * (DATA_W / ELEM_W) + 2 * LANES +
                                ((LANES > DATA_W / ELEM_W) ? COLS : 0),
  parameter integer BLOCK_BEATS = 1
) (
  input  wire                          aclk,
  input  wire                          aresetn,
  input  wire                          start,
  input  wire [            ADDR_W-1:0] base,
  input  wire [            ADDR_W-1:0] pitch,
  input  wire [$clog2(ROWS + 1) - 1:0] rows_valid,
  input  wire [$clog2(COLS + 1) - 1:0] cols_valid,
  output wire                          busy,
  output reg                           done,
  output wire                          error,
  // Write groups.
  output wire                          out_valid,
  input  wire                          out_ready,
  output wire [      LANES*ELEM_W-1:0] out_data,
  output wire [             LANES-1:0] out_mask,
  // AXI4 read address channel.
  output wire [              ID_W-1:0] m_axi_arid,
  output wire [            ADDR_W-1:0] m_axi_araddr,
  output wire [                   7:0] m_axi_arlen,
  output wire [                   2:0] m_axi_arsize,
  output wire [                   1:0] m_axi_arburst,
  output wire [                   3:0] m_axi_arcache,
  output wire [                   2:0] m_axi_arprot,
  output wire                          m_axi_arvalid,
  input  wire                          m_axi_arready,
  // AXI4 read data channel.
  input  wire [              ID_W-1:0] m_axi_rid,
  input  wire [            DATA_W-1:0] m_axi_rdata,
  input  wire [                   1:0] m_axi_rresp,
  input  wire                          m_axi_rlast,
  input  wire                          m_axi_rvalid,
  output wire                          m_axi_rready
);

  localparam integer LEN_W = 20;

  wire              cmd_valid;
  wire              cmd_ready;
  wire [ADDR_W-1:0] cmd_addr;
  wire [ LEN_W-1:0] cmd_len;
  wire              beat_valid;
  wire              beat_ready;
  wire [DATA_W-1:0] beat_data;
  wire              beat_last;
  wire              rd_busy;
  wire              out_last;

  rubick_axi_rd #(
    .ADDR_W(ADDR_W), .DATA_W(DATA_W), .ID_W(ID_W), .AXI_ID(AXI_ID), .LEN_W(LEN_W),
    .MAX_BURST(MAX_BURST), .MAX_OUTSTANDING(MAX_OUTSTANDING)
  ) u_rd (
    .aclk(aclk), .aresetn(aresetn), .cmd_valid(cmd_valid), .cmd_ready(cmd_ready),
    .cmd_addr(cmd_addr), .cmd_len(cmd_len), .out_valid(beat_valid), .out_ready(beat_ready),
    .out_data(beat_data), .out_last(beat_last), .busy(rd_busy), .error(error),
    .m_axi_arid(m_axi_arid), .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen),
    .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst), .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot), .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid), .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp),
    .m_axi_rlast(m_axi_rlast), .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready)
  );

  generate
    if (ROW_LANES != 0) begin : g_rows
      rubick_dma_rd_rows #(
        .ADDR_W(ADDR_W), .DATA_W(DATA_W), .ELEM_W(ELEM_W), .LANES(LANES), .ROWS(ROWS),
        .COLS(COLS), .LEN_W(LEN_W), .BLOCK_BEATS(BLOCK_BEATS), .DESC_DEPTH(MAX_OUTSTANDING + 4)
      ) u_walk (
        .aclk(aclk), .aresetn(aresetn), .start(start), .base(base), .pitch(pitch),
        .rows_valid(rows_valid), .cols_valid(cols_valid), .busy(busy), .cmd_valid(cmd_valid),
        .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_len(cmd_len), .in_valid(beat_valid),
        .in_ready(beat_ready), .in_data(beat_data), .out_valid(out_valid),
        .out_ready(out_ready), .out_data(out_data), .out_mask(out_mask), .out_last(out_last)
      );
    end else begin : g_cols
      rubick_dma_rd_cols #(
        .ADDR_W(ADDR_W), .DATA_W(DATA_W), .ELEM_W(ELEM_W), .LANES(LANES), .ROWS(ROWS),
        .COLS(COLS), .LEN_W(LEN_W), .BUF_ELEMS(BUF_ELEMS)
      ) u_walk (
        .aclk(aclk), .aresetn(aresetn), .start(start), .base(base), .pitch(pitch),
        .rows_valid(rows_valid), .cols_valid(cols_valid), .busy(busy), .cmd_valid(cmd_valid),
        .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_len(cmd_len), .in_valid(beat_valid),
        .in_ready(beat_ready), .in_data(beat_data), .out_valid(out_valid),
        .out_ready(out_ready), .out_data(out_data), .out_mask(out_mask), .out_last(out_last)
      );
    end
  endgenerate

  always @(posedge aclk) begin
    if (!aresetn) done <= 1'b0;
    else done <= out_valid & out_ready & out_last;
  end

  // The beat count is the walker's own; rubick_axi_rd's end-of-command flag is not needed.
  wire unused_rd = &{1'b0, beat_last, rd_busy};

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (ELEM_W != 8 && ELEM_W != 16 && ELEM_W != 32) begin : g_bad_elem_w
      rubick_dma_rd_parameter_ELEM_W_must_be_8_16_or_32 u_error ();
    end
    if (DATA_W < ELEM_W) begin : g_bad_data_w
      rubick_dma_rd_parameter_DATA_W_must_be_at_least_ELEM_W u_error ();
    end
    if (ROWS < 1 || COLS < 1 || LANES < 1 || LANES > (ROW_LANES != 0 ? ROWS : COLS)) begin
      : g_bad_shape
      rubick_dma_rd_parameter_LANES_must_be_1_to_COLS_or_ROWS_for_row_lanes u_error ();
    end
    if (ROW_LANES == 0 && BUF_ELEMS < DATA_W / ELEM_W + LANES) begin : g_bad_buf
      rubick_dma_rd_parameter_BUF_ELEMS_must_be_at_least_EPB_plus_LANES u_error ();
    end
    if (BLOCK_BEATS < 1) begin : g_bad_block
      rubick_dma_rd_parameter_BLOCK_BEATS_must_be_at_least_1 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
