// SPDX-License-Identifier: Apache-2.0
// rubick_ctrl: controller of the tile schedule (docs/cost-model.md): a cycle counter tau that
// runs TAU_FIRST..TAU_LAST inside a tile, and an odometer of outer time stamps that steps from
// tile to tile. A tile starts INTERVAL cycles after the previous one; with INTERVAL below the
// tile's length T = TAU_LAST - TAU_FIRST + 1 two tiles overlap, and the previous tile's context
// (tau_prev, stamps_prev) is given beside the current one's while it is still running.
//
// Timing (all synchronous):
//   rst: busy = 0, done = 0, tau = TAU_FIRST, stamps = 0 (rst wins over start).
//   start sampled while !busy: busy = 1, done = 0, tau = TAU_FIRST, stamps = 0, so the first
//     busy cycle is tau = TAU_FIRST of tile 0. start while busy is ignored.
//   step (combinational from the registers) is high in the current tile's cycle
//     tau = TAU_FIRST + INTERVAL - 1, or tau = TAU_LAST on the last tile (every counter at its
//     extent - 1). While busy, each edge: without step tau = tau + 1; with step the odometer
//     steps (counter 0 increments, wraps at EXTENTS[0] and carries into counter 1, ...), the
//     stamps so far become stamps_prev and tau = TAU_FIRST; after the last tile the counters
//     wrap to 0, busy = 0 and done = 1.
//   done stays 1 until the next start (or rst). While !busy, tau = TAU_FIRST and stamps = 0.
//   prev_on: busy, a tile before the current one exists and it is still running
//     (tau <= TAU_LAST - INTERVAL); then tau_prev = tau + INTERVAL is that tile's tau. Never
//     high when INTERVAL = T.
//   With N = product of EXTENTS, start sampled at edge 0 gives busy in cycles
//   1 .. (N-1)*INTERVAL + T and done from the cycle after.
//   Connect step to every rubick_agu's step.
//   next: busy, the last tile, tau = TAU_FIRST + INTERVAL - 1 (where a following tile would
//     start): from here a chained run could take over (CHAIN below).
//   run_done: a one-cycle pulse in the cycle after a run's last tile has passed TAU_LAST
//     (whether it was the current tile then or, after a chain, the previous one); without a
//     chain it rises with done.
//
// Chained runs (CHAIN = 1): start sampled while busy in the last tile at tau >= TAU_FIRST +
//   INTERVAL - 1 steps into a new run instead of being ignored: the counters wrap to 0 as after
//   the last tile, busy stays 1, done stays 0, and the last tile goes on as the previous tile
//   (prev_on, tau_prev, stamps_prev) until its TAU_LAST, so the fill of the new run overlaps the
//   drain of the old one. The new run's tile 0 starts in the cycle after the edge that sampled
//   start, as after a start while idle; the previous tile is then INTERVAL cycles or more
//   ahead, so tau_prev is a counter of its own here (tau + INTERVAL otherwise). step is then
//   also high in the cycle of such a start (combinational from start).
//
// Parameters:
//   TW         width of tau (signed)
//   TAU_FIRST  first tau of a tile (signed, may be negative)
//   TAU_LAST   last tau of a tile (signed, >= TAU_FIRST)
//   NDIM       number of outer dimensions (>= 1), counter 0 innermost
//   EXTENTS    NDIM unsigned 32-bit fields, field i in bits [i*32 +: 32]; every extent >= 1 and
//              extent - 1 < 2**OW
//   OW         width of each stamp counter; counter i is stamps[i*OW +: OW]
//   INTERVAL   cycles between the starts of consecutive tiles, 1 .. T (and 2*INTERVAL >= T: at
//              most two tiles in flight)
//   CHAIN      1: chained runs (above); 0: start while busy is ignored
`default_nettype none

module rubick_ctrl #(
  parameter TW = 16,
  parameter signed [TW-1:0] TAU_FIRST = -2,
  parameter signed [TW-1:0] TAU_LAST = 5,
  parameter NDIM = 1,
  parameter [NDIM*32-1:0] EXTENTS = 1,
  parameter OW = 16,
  parameter INTERVAL = TAU_LAST - TAU_FIRST + 1,
  parameter CHAIN = 0
) (
  input  wire                 clk,
  input  wire                 rst,
  input  wire                 start,
  output reg                  busy,
  output reg                  done,
  output reg  signed [TW-1:0] tau,
  output wire                 step,
  output wire [ NDIM*OW-1:0]  stamps,
  output wire                 prev_on,
  output wire signed [TW-1:0] tau_prev,
  output reg  [ NDIM*OW-1:0]  stamps_prev,
  output wire                 next,
  output reg                  run_done
);

  localparam signed [TW-1:0] TAU_ONE = 1;

  // A TW-bit signed value sign-extended to 32 bits (bit by bit: no width change to warn about).
  function integer sext32;
    input [TW-1:0] v;
    integer b;
    begin
      sext32 = 0;
      for (b = 0; b < 32; b = b + 1) sext32[b] = v[(b < TW) ? b : TW-1];
    end
  endfunction

  localparam integer FIRST_I = sext32(TAU_FIRST);
  localparam integer LAST_I = sext32(TAU_LAST);
  localparam integer TILE = LAST_I - FIRST_I + 1;
  // In 32 bits first, then cut to TW: tau + INTERVAL is only used while it is a tau of the
  // tile (<= TAU_LAST), where the wrap-around of the cut constant gives the right sum.
  localparam integer TAU_NEXT_I = FIRST_I + INTERVAL - 1;
  localparam integer PREV_LAST_I = LAST_I - INTERVAL;
  localparam integer INTERVAL_I = INTERVAL;
  localparam signed [TW-1:0] TAU_NEXT = TAU_NEXT_I[TW-1:0];
  localparam signed [TW-1:0] PREV_LAST = PREV_LAST_I[TW-1:0];
  localparam signed [TW-1:0] TAU_INTERVAL = INTERVAL_I[TW-1:0];
  localparam [OW-1:0] CNT_ONE = 1;

  // Field i of a packed parameter vector, modulo 2**OW.
  function [OW-1:0] field_ow;
    input [NDIM*32-1:0] fields;
    input integer i;
    integer b;
    begin
      field_ow = {OW{1'b0}};
      for (b = 0; b < OW && b < 32; b = b + 1) field_ow[b] = fields[i*32+b];
    end
  endfunction

  // wraps[i]: counter i is at its last value.
  wire [NDIM-1:0] wraps;
  wire            last_tile = &wraps;
  wire            launch = start & ~busy;

  // has_prev: the current tile is not tile 0.
  reg has_prev;
  // chain: a start that continues into a new run (CHAIN only).
  wire chain;
  // The previous tile is the last one of a run (only after a chain).
  wire prev_last;

  assign next = busy && last_tile && (tau == TAU_NEXT);
  assign step = busy && (last_tile ? (tau == TAU_LAST || chain) : (tau == TAU_NEXT));

  genvar i;
  generate
    if (TAU_LAST < TAU_FIRST) begin : g_bad_tau
      // Elaboration error on purpose: TAU_LAST must be >= TAU_FIRST.
      rubick_ctrl_parameter_TAU_LAST_must_not_be_below_TAU_FIRST u_error ();
    end
    if (INTERVAL < 1 || INTERVAL > TILE || 2 * INTERVAL < TILE) begin : g_bad_interval
      // Elaboration error on purpose: INTERVAL must be in ceil(T/2) .. T.
      rubick_ctrl_parameter_INTERVAL_must_be_half_to_whole_tile u_error ();
    end

    if (CHAIN != 0 && INTERVAL < TILE) begin : g_chain
      // The previous tile's own tau, and whether it is still running.
      reg signed [TW-1:0] tau_p;
      reg live, last_p;
      assign chain = last_tile && start && (tau >= TAU_NEXT);
      assign prev_on = busy && live;
      assign tau_prev = tau_p;
      assign prev_last = last_p;
      always @(posedge clk) begin
        if (rst || launch) begin
          live   <= 1'b0;
          last_p <= 1'b0;
          tau_p  <= TAU_FIRST;
        end else if (step) begin
          live   <= tau != TAU_LAST;
          last_p <= last_tile;
          tau_p  <= tau + TAU_ONE;
        end else begin
          live  <= live && (tau_p != TAU_LAST);
          tau_p <= tau_p + TAU_ONE;
        end
      end
      wire unused_chain_ok = &{1'b0, has_prev, TAU_INTERVAL, PREV_LAST};
    end else if (INTERVAL < TILE) begin : g_overlap
      assign chain = 1'b0;
      assign prev_last = 1'b0;
      assign prev_on = busy && has_prev && (tau <= PREV_LAST);
      assign tau_prev = tau + TAU_INTERVAL;
    end else begin : g_no_overlap
      assign chain = 1'b0;
      assign prev_last = 1'b0;
      assign prev_on = 1'b0;
      assign tau_prev = tau + TAU_INTERVAL;
      wire unused_has_prev = has_prev;  // exempt from UNUSED warnings by its name
    end

    for (i = 0; i < NDIM; i = i + 1) begin : g_dim
      localparam [31:0] EXT = EXTENTS[i*32+:32];
      localparam [OW-1:0] LAST = field_ow(EXTENTS, i) - CNT_ONE;

      if (EXT == 0 || (OW < 32 && ((EXT - 1) >> OW) != 0)) begin : g_bad_extent
        // Elaboration error on purpose: every extent must be in 1 .. 2**OW.
        rubick_ctrl_parameter_EXTENTS_must_be_1_to_2_pow_OW u_error ();
      end

      // advance: counter i increments (or wraps) at this edge.
      wire advance;
      if (i == 0) begin : g_first
        assign advance = step;
      end else begin : g_carry
        assign advance = step & (&wraps[i-1:0]);
      end

      reg [OW-1:0] cnt;
      assign wraps[i] = (cnt == LAST);
      assign stamps[i*OW+:OW] = cnt;

      always @(posedge clk) begin
        if (rst || launch) cnt <= {OW{1'b0}};
        else if (advance) cnt <= wraps[i] ? {OW{1'b0}} : cnt + CNT_ONE;
      end
    end
  endgenerate

  always @(posedge clk) begin
    if (rst || launch) stamps_prev <= {NDIM * OW{1'b0}};
    else if (step) stamps_prev <= stamps;
  end

  // The run whose last tile passes TAU_LAST now, as the current tile or the previous one.
  always @(posedge clk) begin
    if (rst) run_done <= 1'b0;
    else run_done <= busy && ((last_tile && tau == TAU_LAST) || (prev_on && prev_last &&
                                                                  tau_prev == TAU_LAST));
  end

  always @(posedge clk) begin
    if (rst) begin
      busy     <= 1'b0;
      done     <= 1'b0;
      has_prev <= 1'b0;
      tau      <= TAU_FIRST;
    end else if (!busy) begin
      if (start) begin
        busy     <= 1'b1;
        done     <= 1'b0;
        has_prev <= 1'b0;
        tau      <= TAU_FIRST;
      end
    end else if (!step) begin
      tau <= tau + TAU_ONE;
    end else begin
      tau      <= TAU_FIRST;
      has_prev <= 1'b1;
      if (last_tile && !chain) begin
        busy <= 1'b0;
        done <= 1'b1;
      end
    end
  end

endmodule

`default_nettype wire
