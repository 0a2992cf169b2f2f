// SPDX-License-Identifier: Apache-2.0
// rubick_dma_gather: reads one output tile out of its banks, one write group per cycle, as a
// stream of groups (the mirror of the input path's scatter). The groups follow the tensor's DMA
// map (include/rubick/arch/DmaMap.h): the tile is ROWS x COLS, row-major; a group is LANES
// consecutive columns of one row (ROW_LANES = 0) or LANES consecutive rows of one column
// (ROW_LANES = 1); groups are walked gr outer, gc inner. Lane l of group (gr, gc) is read from
//
//   phase   = (gr mod ROW_PERIOD) * COL_PERIOD + (gc mod COL_PERIOD)
//   bank    = CELL_BANK[phase][l * COPIES]
//   address = CELL_ADDR[phase][l * COPIES] + ROW_STEP * (gr / ROW_PERIOD)
//                                          + COL_STEP * (gc / COL_PERIOD)   (mod 2**ADDR_BITS)
//
// in half `half` of the bank (address bit ADDR_BITS). The walker keeps the phase and the base
// address in registers and only adds (no multiplier, no division). Copy 0 is read when a lane
// has several copies.
//
// Tables: cell j of phase p (j = lane * COPIES + copy) is field p * LANES * COPIES + j, field 0
// in the low bits: CELL_BANK has BANK_W = clog2(BANKS + 1) bits per field (all ones: no place,
// so all ones is never a bank number), CELL_ADDR has ADDR_BITS bits per field (two's
// complement). Write them as a concatenation, last field first.
//
// Ports: bank_rd_en[b], bank_rd_addr[b * (ADDR_BITS + 1) +: ADDR_BITS + 1] and
//   bank_rd_data[b * ELEM_W +: ELEM_W] connect to rubick_bank b's read port (data the cycle
//   after the read). out_data lane l in [l * ELEM_W +: ELEM_W]; out_mask[l] is high for lanes
//   inside the tile (lanes past its edge in the last group along the lanes read 0).
// Stream: out_valid/out_ready (AXI rules). out_* are registers (a two-entry buffer); a read is
//   issued only when its group is sure to find room, so a stall loses nothing and the banks
//   see no read while the buffer is full.
// Timing: start (with half) sampled while not busy at edge 0: reads in cycles 1.., the first
//   group on out_* in cycle 3; with out_ready high one group per cycle, the last of N =
//   groupRows * groupCols groups in cycle N + 2, busy in cycles 1 .. N + 2 and done (a one-cycle
//   pulse) in cycle N + 3. Each cycle with out_valid high and out_ready low adds one cycle.
//   start while busy is ignored. aresetn (synchronous, active low) clears the control state.
//
// Parameters:
//   LANES (>= 1), COPIES (>= 1), BANKS (>= 1), ELEM_W (>= 1), ADDR_BITS (1..32)
//   ROW_LANES (0/1), ROWS, COLS (>= 1): the tile and the group shape
//   ROW_PERIOD, COL_PERIOD (>= 1), ROW_STEP, COL_STEP (signed), CELL_BANK, CELL_ADDR: the map
`default_nettype none

module rubick_dma_gather #(
  parameter integer LANES = 2,
  parameter integer COPIES = 1,
  parameter integer BANKS = 2,
  parameter integer ELEM_W = 8,
  parameter integer ADDR_BITS = 4,
  parameter integer ROW_LANES = 0,
  parameter integer ROWS = 2,
  parameter integer COLS = 4,
  parameter integer ROW_PERIOD = 1,
  parameter integer COL_PERIOD = 1,
  parameter integer ROW_STEP = 2,
  parameter integer COL_STEP = 1,
  parameter [ROW_PERIOD*COL_PERIOD*LANES*COPIES*$clog2(BANKS+1)-1:0] CELL_BANK = 4'b0100,
  parameter [ROW_PERIOD*COL_PERIOD*LANES*COPIES*ADDR_BITS-1:0] CELL_ADDR = 8'h00
) (
  input  wire                           aclk,
  input  wire                           aresetn,
  input  wire                           start,
  input  wire                           half,
  output wire                           busy,
  output reg                            done,
  // Bank read ports.
  output reg  [              BANKS-1:0] bank_rd_en,
  output reg  [BANKS*(ADDR_BITS+1)-1:0] bank_rd_addr,
  input  wire [       BANKS*ELEM_W-1:0] bank_rd_data,
  // Group stream.
  output reg                            out_valid,
  input  wire                           out_ready,
  output reg  [       LANES*ELEM_W-1:0] out_data,
  output reg  [              LANES-1:0] out_mask
);

  localparam integer BW = $clog2(BANKS + 1);
  localparam integer AW = ADDR_BITS;
  localparam integer CELLS = LANES * COPIES;
  localparam integer PHASES = ROW_PERIOD * COL_PERIOD;
  localparam integer GR = (ROW_LANES != 0) ? (ROWS + LANES - 1) / LANES : ROWS;
  localparam integer GC = (ROW_LANES != 0) ? COLS : (COLS + LANES - 1) / LANES;
  // Lanes inside the tile in the last group along the lanes.
  localparam integer EDGE = (ROW_LANES != 0) ? ROWS - (GR - 1) * LANES : COLS - (GC - 1) * LANES;
  localparam integer GRW = GR > 1 ? $clog2(GR) : 1;
  localparam integer GCW = GC > 1 ? $clog2(GC) : 1;
  localparam integer RPW = ROW_PERIOD > 1 ? $clog2(ROW_PERIOD) : 1;
  localparam integer CPW = COL_PERIOD > 1 ? $clog2(COL_PERIOD) : 1;
  localparam integer PHW = PHASES > 1 ? $clog2(PHASES) : 1;
  localparam integer GR_LAST_I = GR - 1;
  localparam integer GC_LAST_I = GC - 1;
  localparam integer RP_LAST_I = ROW_PERIOD - 1;
  localparam integer CP_LAST_I = COL_PERIOD - 1;
  localparam [GRW-1:0] GR_LAST = GR_LAST_I[GRW-1:0];
  localparam [GCW-1:0] GC_LAST = GC_LAST_I[GCW-1:0];
  localparam [RPW-1:0] RP_LAST = RP_LAST_I[RPW-1:0];
  localparam [CPW-1:0] CP_LAST = CP_LAST_I[CPW-1:0];
  localparam [PHW-1:0] PH_ROW = COL_PERIOD[PHW-1:0];  // phase distance of consecutive gr
  localparam [LANES-1:0] FULL_MASK = {LANES{1'b1}};
  localparam [LANES-1:0] EDGE_MASK = FULL_MASK >> (LANES - EDGE);
  localparam [BW-1:0] NO_BANK = {BW{1'b1}};

  // A signed integer as an AW-bit two's complement constant (modulo 2**AW).
  function [AW-1:0] to_aw;
    input integer v;
    integer i;
    begin
      for (i = 0; i < AW; i = i + 1) to_aw[i] = v[i];
    end
  endfunction
  localparam [AW-1:0] RSTEP = to_aw(ROW_STEP);
  localparam [AW-1:0] CSTEP = to_aw(COL_STEP);

  // ---- Walker: group counters, phase and base address ----
  reg           active;
  reg           half_q;
  reg [GRW-1:0] gr;
  reg [GCW-1:0] gc;
  reg [RPW-1:0] rph;    // gr mod ROW_PERIOD
  reg [CPW-1:0] cph;    // gc mod COL_PERIOD
  reg [PHW-1:0] prow;   // rph * COL_PERIOD
  reg [PHW-1:0] phase;  // prow + cph
  reg [ AW-1:0] rbase;  // ROW_STEP * (gr / ROW_PERIOD)
  reg [ AW-1:0] base;   // rbase + COL_STEP * (gc / COL_PERIOD)

  // Output buffer: out_* is the head, sk_* the second entry; s1_valid: a read in flight.
  reg                    sk_valid;
  reg [LANES*ELEM_W-1:0] sk_data;
  reg [       LANES-1:0] sk_mask;
  reg                    s1_valid;
  reg [    LANES*BW-1:0] s1_bank;
  reg [       LANES-1:0] s1_mask;

  wire pop = out_valid & out_ready;
  // Entries after this edge: at most one, so the group read now finds room next edge.
  wire [1:0] held = {1'b0, out_valid} + {1'b0, sk_valid} + {1'b0, s1_valid} - {1'b0, pop};
  wire issue = active & (held < 2'd2);
  wire row_end = (gc == GC_LAST);
  wire at_edge = (ROW_LANES != 0) ? (gr == GR_LAST) : row_end;
  wire [LANES-1:0] lane_in = at_edge ? EDGE_MASK : FULL_MASK;

  assign busy = active | s1_valid | out_valid;

  always @(posedge aclk) begin
    if (!aresetn) begin
      active <= 1'b0;
      done   <= 1'b0;
    end else begin
      if (start && !busy) active <= 1'b1;
      else if (issue && row_end && gr == GR_LAST) active <= 1'b0;
      done <= pop & ~sk_valid & ~s1_valid & ~active;
    end
  end

  always @(posedge aclk) begin
    if (start && !busy) begin
      half_q <= half;
      gr     <= {GRW{1'b0}};
      gc     <= {GCW{1'b0}};
      rph    <= {RPW{1'b0}};
      cph    <= {CPW{1'b0}};
      prow   <= {PHW{1'b0}};
      phase  <= {PHW{1'b0}};
      rbase  <= {AW{1'b0}};
      base   <= {AW{1'b0}};
    end else if (issue) begin
      if (row_end) begin
        gc  <= {GCW{1'b0}};
        cph <= {CPW{1'b0}};
        gr  <= gr + 1;
        if (rph == RP_LAST) begin
          rph   <= {RPW{1'b0}};
          prow  <= {PHW{1'b0}};
          phase <= {PHW{1'b0}};
          rbase <= rbase + RSTEP;
          base  <= rbase + RSTEP;
        end else begin
          rph   <= rph + 1;
          prow  <= prow + PH_ROW;
          phase <= prow + PH_ROW;
          base  <= rbase;
        end
      end else begin
        gc <= gc + 1;
        if (cph == CP_LAST) begin
          cph   <= {CPW{1'b0}};
          phase <= prow;
          base  <= base + CSTEP;
        end else begin
          cph   <= cph + 1;
          phase <= phase + 1;
        end
      end
    end
  end

  // ---- This group's cells: the phase's table row, plus the base address ----
  reg [LANES*BW-1:0] lane_bank;
  reg [LANES*AW-1:0] lane_addr;
  reg [   LANES-1:0] lane_ok;
  integer p, l, b;
  always @* begin
    lane_bank = {(LANES * BW) {1'b0}};
    lane_addr = {(LANES * AW) {1'b0}};
    for (p = 0; p < PHASES; p = p + 1)
      if (phase == p[PHW-1:0])
        for (l = 0; l < LANES; l = l + 1) begin
          lane_bank[l*BW+:BW] = CELL_BANK[(p*CELLS+l*COPIES)*BW+:BW];
          lane_addr[l*AW+:AW] = CELL_ADDR[(p*CELLS+l*COPIES)*AW+:AW];
        end
    for (l = 0; l < LANES; l = l + 1) begin
      lane_addr[l*AW+:AW] = lane_addr[l*AW+:AW] + base;
      lane_ok[l] = lane_in[l] & (lane_bank[l*BW+:BW] != NO_BANK);
    end
  end

  // Each bank serves at most one lane of a group (the map guarantees it): AND-OR selection.
  always @* begin
    bank_rd_en   = {BANKS{1'b0}};
    bank_rd_addr = {(BANKS * (AW + 1)) {1'b0}};
    for (b = 0; b < BANKS; b = b + 1) begin
      for (l = 0; l < LANES; l = l + 1)
        if (issue && lane_ok[l] && lane_bank[l*BW+:BW] == b[BW-1:0]) begin
          bank_rd_en[b] = 1'b1;
          bank_rd_addr[b*(AW+1)+:AW] = bank_rd_addr[b*(AW+1)+:AW] | lane_addr[l*AW+:AW];
        end
      bank_rd_addr[b*(AW+1)+AW] = half_q;
    end
  end

  // ---- Read data: lane l from its bank, the cycle after the read ----
  reg [LANES*ELEM_W-1:0] s1_data;
  always @* begin
    s1_data = {(LANES * ELEM_W) {1'b0}};
    for (l = 0; l < LANES; l = l + 1)
      for (b = 0; b < BANKS; b = b + 1)
        if (s1_mask[l] && s1_bank[l*BW+:BW] == b[BW-1:0])
          s1_data[l*ELEM_W+:ELEM_W] = bank_rd_data[b*ELEM_W+:ELEM_W];
  end

  always @(posedge aclk) begin
    if (!aresetn) begin
      s1_valid  <= 1'b0;
      out_valid <= 1'b0;
      sk_valid  <= 1'b0;
    end else begin
      s1_valid <= issue;
      if (s1_valid && (!out_valid || (pop && !sk_valid))) out_valid <= 1'b1;
      else if (pop && !sk_valid) out_valid <= 1'b0;
      if (s1_valid && out_valid && !pop) sk_valid <= 1'b1;
      else if (pop && !s1_valid) sk_valid <= 1'b0;
    end
  end

  always @(posedge aclk) begin
    if (issue) begin
      s1_bank <= lane_bank;
      s1_mask <= lane_ok;
    end
    if (pop && sk_valid) begin
      out_data <= sk_data;
      out_mask <= sk_mask;
    end else if (s1_valid && (!out_valid || pop)) begin
      out_data <= s1_data;
      out_mask <= s1_mask;
    end
    if (s1_valid && (sk_valid ? pop : (out_valid && !pop))) begin
      sk_data <= s1_data;
      sk_mask <= s1_mask;
    end
  end

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (LANES < 1 || COPIES < 1 || BANKS < 1 || ELEM_W < 1) begin : g_bad_sizes
      rubick_dma_gather_parameters_LANES_COPIES_BANKS_ELEM_W_must_be_positive u_error ();
    end
    if (ADDR_BITS < 1 || ADDR_BITS > 32) begin : g_bad_addr_bits
      rubick_dma_gather_parameter_ADDR_BITS_must_be_1_to_32 u_error ();
    end
    if (ROWS < 1 || COLS < 1 || ROW_PERIOD < 1 || COL_PERIOD < 1) begin : g_bad_shape
      rubick_dma_gather_parameters_ROWS_COLS_PERIODS_must_be_positive u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
