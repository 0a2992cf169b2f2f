// SPDX-License-Identifier: Apache-2.0
// rubick_dma_scatter: write groups -> bank writes, following a DMA map (include/rubick/arch/
// DmaMap.h). Group (gr, gc) is taken in group order (gr outer, gc inner); lane l, copy c goes to
//
//   phase   = (gr mod ROW_PERIOD) * COL_PERIOD + (gc mod COL_PERIOD)
//   bank    = CELL_BANK[phase][l*COPIES + c]           (all ones: no place)
//   address = CELL_ADDR[phase][l*COPIES + c] + ROW_STEP*(gr / ROW_PERIOD)
//                                            + COL_STEP*(gc / COL_PERIOD)   (mod 2**ADDR_BITS)
//
// when in_mask[l] is set (lanes past the tile's edge are not written). The walker keeps gr, gc,
// both phases and both step sums with adders and comparisons only. The elements of a group go to
// distinct banks (the map guarantees it), so every bank takes at most one write per cycle.
//
// Tables: cell k = phase*LANES*COPIES + l*COPIES + c is CELL_BANK[k*BANK_W +: BANK_W] and
//   CELL_ADDR[k*ADDR_BITS +: ADDR_BITS] (cell 0 in the low bits; write them as a concatenation,
//   last cell first), BANK_W = clog2(BANKS + 1), so a no-place cell (all ones) is no bank.
//   Addresses and steps are two's complement, taken modulo 2**ADDR_BITS.
// Banks: bank b's write is bank_we[b], bank_addr[b*(ADDR_BITS+1) +: ADDR_BITS+1] = {half,
//   address}, bank_data[b*ELEM_W +: ELEM_W]; each bank is a ping-pong pair and `half`, sampled
//   with start, picks the one written.
// Timing: start (taken while not busy) resets the walker to group (0, 0); busy from the next
//   cycle until the last group is taken. in_ready = busy. A group taken at edge k is written by
//   the bank outputs in cycle k + 1 (registers; bank_we is low in cycles without a write); done
//   pulses in cycle k + 2 after the last group (its writes have happened at edge k + 1).
//
// Parameters: LANES, COPIES, BANKS (>= 1, LANES*COPIES <= BANKS), ELEM_W (>= 1), ADDR_BITS
//   (1..31), ROW_PERIOD, COL_PERIOD (>= 1), ROW_STEP, COL_STEP (signed), GROUP_ROWS,
//   GROUP_COLS (>= 1), CELL_BANK, CELL_ADDR.
`default_nettype none

module rubick_dma_scatter #(
  parameter integer LANES = 1,
  parameter integer COPIES = 1,
  parameter integer BANKS = 1,
  parameter integer ELEM_W = 8,
  parameter integer ADDR_BITS = 4,
  parameter integer ROW_PERIOD = 1,
  parameter integer COL_PERIOD = 1,
  parameter integer ROW_STEP = 0,
  parameter integer COL_STEP = 0,
  parameter integer GROUP_ROWS = 1,
  parameter integer GROUP_COLS = 1,
  parameter [ROW_PERIOD*COL_PERIOD*LANES*COPIES*$clog2(BANKS+1)-1:0] CELL_BANK = 0,
  parameter [ROW_PERIOD*COL_PERIOD*LANES*COPIES*ADDR_BITS-1:0] CELL_ADDR = 0
) (
  input  wire                             aclk,
  input  wire                             aresetn,
  input  wire                             start,
  input  wire                             half,
  output reg                              busy,
  output reg                              done,
  // Write groups.
  input  wire                             in_valid,
  output wire                             in_ready,
  input  wire [         LANES*ELEM_W-1:0] in_data,
  input  wire [                LANES-1:0] in_mask,
  // Bank writes.
  output reg  [                BANKS-1:0] bank_we,
  output reg  [BANKS*(ADDR_BITS+1)-1:0] bank_addr,
  output reg  [         BANKS*ELEM_W-1:0] bank_data
);

  localparam integer CELLS = LANES * COPIES;
  localparam integer PHASES = ROW_PERIOD * COL_PERIOD;
  localparam integer BANK_W = $clog2(BANKS + 1);
  localparam integer A = ADDR_BITS;
  localparam integer PH_W = (PHASES > 1) ? $clog2(PHASES) : 1;
  localparam integer RP_W = (ROW_PERIOD > 1) ? $clog2(ROW_PERIOD) : 1;
  localparam integer CP_W = (COL_PERIOD > 1) ? $clog2(COL_PERIOD) : 1;
  localparam integer GR_W = (GROUP_ROWS > 1) ? $clog2(GROUP_ROWS) : 1;
  localparam integer GC_W = (GROUP_COLS > 1) ? $clog2(GROUP_COLS) : 1;
  localparam [RP_W-1:0] RP_LAST = ROW_PERIOD[RP_W-1:0] - 1'b1;
  localparam [CP_W-1:0] CP_LAST = COL_PERIOD[CP_W-1:0] - 1'b1;
  localparam [GR_W-1:0] GR_LAST = GROUP_ROWS[GR_W-1:0] - 1'b1;
  localparam [GC_W-1:0] GC_LAST = GROUP_COLS[GC_W-1:0] - 1'b1;
  localparam [PH_W-1:0] CP_PH = COL_PERIOD[PH_W-1:0];
  localparam [A-1:0] RSTEP = ROW_STEP[A-1:0];
  localparam [A-1:0] CSTEP = COL_STEP[A-1:0];

  // The tables, one entry per phase.
  wire [CELLS*BANK_W-1:0] tab_bank[0:PHASES-1];
  wire [   CELLS*A-1:0] tab_addr[0:PHASES-1];
  genvar p;
  generate
    for (p = 0; p < PHASES; p = p + 1) begin : g_phase
      assign tab_bank[p] = CELL_BANK[p*CELLS*BANK_W+:CELLS*BANK_W];
      assign tab_addr[p] = CELL_ADDR[p*CELLS*A+:CELLS*A];
    end
  endgenerate

  // ---- Walker ----
  reg  [GR_W-1:0] gr;
  reg  [GC_W-1:0] gc;
  reg  [RP_W-1:0] rp;  // gr mod ROW_PERIOD
  reg  [CP_W-1:0] cp;  // gc mod COL_PERIOD
  reg  [PH_W-1:0] row_phase;  // rp * COL_PERIOD
  reg  [PH_W-1:0] phase;  // row_phase + cp
  reg  [   A-1:0] row_sum;  // ROW_STEP * (gr / ROW_PERIOD)
  reg  [   A-1:0] col_sum;  // COL_STEP * (gc / COL_PERIOD)
  reg             half_q;  // the half of this tile
  wire            take = in_valid & busy;
  wire            row_end = (gc == GC_LAST);
  wire [PH_W-1:0] next_row_phase = (rp == RP_LAST) ? {PH_W{1'b0}} : row_phase + CP_PH;

  assign in_ready = busy;

  wire            last = take & row_end & (gr == GR_LAST);
  reg             wrote_last;  // the last group's writes are on the bank outputs

  always @(posedge aclk) begin
    if (!aresetn) begin
      busy       <= 1'b0;
      wrote_last <= 1'b0;
      done       <= 1'b0;
    end else begin
      if (start && !busy) busy <= 1'b1;
      else if (last) busy <= 1'b0;
      wrote_last <= last;
      done       <= wrote_last;
    end
  end

  always @(posedge aclk) begin
    if (start && !busy) begin
      gr        <= {GR_W{1'b0}};
      gc        <= {GC_W{1'b0}};
      rp        <= {RP_W{1'b0}};
      cp        <= {CP_W{1'b0}};
      row_phase <= {PH_W{1'b0}};
      phase     <= {PH_W{1'b0}};
      row_sum   <= {A{1'b0}};
      col_sum   <= {A{1'b0}};
      half_q    <= half;
    end else if (take) begin
      if (row_end) begin
        gr        <= gr + 1'b1;
        gc        <= {GC_W{1'b0}};
        cp        <= {CP_W{1'b0}};
        col_sum   <= {A{1'b0}};
        rp        <= (rp == RP_LAST) ? {RP_W{1'b0}} : rp + 1'b1;
        row_phase <= next_row_phase;
        phase     <= next_row_phase;
        if (rp == RP_LAST) row_sum <= row_sum + RSTEP;
      end else begin
        gc    <= gc + 1'b1;
        cp    <= (cp == CP_LAST) ? {CP_W{1'b0}} : cp + 1'b1;
        phase <= (cp == CP_LAST) ? row_phase : phase + 1'b1;
        if (cp == CP_LAST) col_sum <= col_sum + CSTEP;
      end
    end
  end

  // ---- Bank writes: each bank takes the one cell of this phase that names it ----
  wire [CELLS*BANK_W-1:0] cur_bank = tab_bank[phase];
  wire [   CELLS*A-1:0] cur_addr = tab_addr[phase];
  wire [         A-1:0] base = row_sum + col_sum;
  genvar b;
  generate
    for (b = 0; b < BANKS; b = b + 1) begin : g_bank
      localparam integer BI = b;
      localparam [BANK_W-1:0] ID = BI[BANK_W-1:0];
      reg              hit;
      reg [     A-1:0] addr;
      reg [ELEM_W-1:0] data;
      integer k;
      always @* begin
        hit  = 1'b0;
        addr = {A{1'b0}};
        data = {ELEM_W{1'b0}};
        for (k = 0; k < CELLS; k = k + 1)
          if (in_mask[k/COPIES] && cur_bank[k*BANK_W+:BANK_W] == ID) begin
            hit  = 1'b1;
            addr = cur_addr[k*A+:A];
            data = in_data[(k/COPIES)*ELEM_W+:ELEM_W];
          end
      end
      always @(posedge aclk) begin
        if (!aresetn) bank_we[b] <= 1'b0;
        else bank_we[b] <= take & hit;
        bank_addr[b*(A+1)+:A+1] <= {half_q, addr + base};
        bank_data[b*ELEM_W+:ELEM_W] <= data;
      end
    end
  endgenerate

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (LANES < 1 || COPIES < 1 || BANKS < 1 || CELLS > BANKS) begin : g_bad_cells
      rubick_dma_scatter_parameter_LANES_times_COPIES_must_be_1_to_BANKS u_error ();
    end
    if (ADDR_BITS < 1 || ADDR_BITS > 31) begin : g_bad_addr
      rubick_dma_scatter_parameter_ADDR_BITS_must_be_1_to_31 u_error ();
    end
    if (ROW_PERIOD < 1 || COL_PERIOD < 1 || GROUP_ROWS < 1 || GROUP_COLS < 1) begin : g_bad_walk
      rubick_dma_scatter_parameter_periods_and_group_counts_must_be_at_least_1 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
