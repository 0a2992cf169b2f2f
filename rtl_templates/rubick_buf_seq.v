// SPDX-License-Identifier: Apache-2.0
// rubick_buf_seq: buffer-level sequencer of a design whose tensors live in external memory
// (docs/memory.md). It walks the buffer tiles, tells the core when to compute one, tells each
// tensor's DMA engines when to load or store which tile, and keeps each tensor's ping-pong half.
//
// Steps: the buffer tiles s = 0 .. N-1 are an odometer over the NL loops of the order, loop 0
// outermost, loop NL-1 innermost (EXT[i] tiles each; N = product of EXT). Per tensor t and step s:
//   run_start(t, s) = s == 0 or a loop i with DEP[t][i] has another index than at s-1
//   run_end(t, s)   = s == N-1 or a loop i with DEP[t][i] has another index at s+1
//   first_visit(t, s) = every loop i with RED[t][i] has index 0 at s
//   load(t, s)  = run_start && (!OUT[t] || ACC[t] || !first_visit)
//                 (inputs; outputs' partial sums; an ACC output's start values)
//   acc_zero(t, s) = OUT[t] && !ACC[t] && run_start && first_visit   (the core starts from 0)
//   store(t, s) = OUT[t] && run_end
// Phase k (k = -1 .. N): the core computes step k (0 <= k < N); the loads of step k+1 run one
// after the other in ascending t on one read channel; the stores of step k-1 likewise on one
// write channel, concurrently; a tensor stored and loaded in the same phase (an output
// revisited, or ACC, after a run of one step: the same bank half) is loaded only after its
// store's done, and the loads after it wait with it (ascending order). half[t] is 1 in phase -1
// and toggles at the start of phase k (0 <= k <= N) when run_start(t, k) (run_start(t, N) = 1);
// the DMA of tensor t uses ~half[t] (a late tensor's: half[t], below). acc_zero[t] is
// acc_zero(t, k) in phase k (0 outside 0..N-1).
// Late tensors (LATE[t] = 1; inputs only): an epilogue operand of an output's shape (e.g. a
// residual R(i,j) read while the output's tile is stored), with the output's DEP. Its load of
// step s (load(t, s) as for any input) runs in phase s, not s-1, with step s's ld_addr, ld_rows
// and ld_cols: phase -1 loads no late tensor, phase k (0 <= k < N) loads the late tensors of
// step k with the ordinary loads of step k+1, all in ascending t on the read channel, and phase
// N loads nothing. Its half toggles like any tensor's, but its DMA writes half[t], the half
// current in phase s, not ~half[t]: the reader (a gather started with the output's store of the
// run's last step s' >= s, in phase s'+1, after the toggle at run_start(t, s'+1)) reads
// ~half[t], and the next late load (step s'+1, in that same phase) writes the other half.
//
// Geometry: a tensor tile is a strided box of ROWS x COLS elements of a TROWS x TCOLS tensor
// whose rows lie PITCH elements apart in memory (the caller's view of an n-D tensor's tile; a
// rank-1 tensor: ROWS = TROWS = 1). With r the index of loop ROW_LOOP[t] (0 when none), c that of
// COL_LOOP[t], idx_i that of loop i, and RSTEP, CSTEP, PITCH the effective values (0 stands for
// ROWS, COLS, TCOLS):
//   addr = base[t] + (r * RSTEP * PITCH + c * CSTEP) * EBYTES + sum over i of idx_i * ASTEP[t][i]
//          (mod 2**ADDR_W)
//   rows = min(ROWS, TROWS - r * RSTEP), cols = min(COLS, TCOLS - c * CSTEP)
//   row0 = r * RSTEP, col0 = c * CSTEP   (the tile's first row and column in the tensor)
// A tile larger than its step overlaps the next one (a convolution input's halo); ASTEP moves the
// tile with other loops (e.g. a batch index) without changing its valid rows and columns. The
// defaults (RSTEP = ROWS, CSTEP = COLS, PITCH = TCOLS, ASTEP = 0) tile a row-major TROWS x TCOLS
// tensor. The addresses are running offsets that add constant strides (computed at elaboration)
// as the odometer steps (the row loop's, the column loop's, and one per other loop with a nonzero
// ASTEP), and row0, col0 running 32-bit indices (outputs only): no multiplier. The row pitch
// PITCH * EBYTES is for the emitter, not an output.
//
// Timing (all synchronous; "cycle c" is what is visible after edge c-1). start sampled at edge 0
// while !busy (ignored while busy or under rst) begins phase -1: P(-1) = 1. In phase k, which
// spans cycles P(k) .. E(k):
//   - half and acc_zero hold their phase-k values in cycles P(k) .. E(k);
//   - core_start is high in cycle P(k) (0 <= k < N);
//   - the first store starts in cycle P(k), every other store in the cycle after the previous
//     store's done;
//   - a load starts in the latest of: P(k), the cycle after the previous load's done, and (if
//     the same tensor is stored in this phase) the cycle after that store's done;
//   - E(k) = the cycle of the last done pulse of the phase's work (P(k) if it has none), and
//     P(k+1) = E(k) + 1: one cycle between phases.
// Chained core runs (CHAIN = 1, for a core built with rubick_ctrl's CHAIN): the core's part of
// a phase ends at its core_next pulse (its last array tile reached the point where another
// could start) instead of core_done, and its run goes on draining while the next phase's run
// fills the array; core_done then marks the end of that drain. Every load and store of a phase
// starts only after the core_done of the run before the phase's own (the drain still reads
// the inputs' halves the loads overwrite and writes the outputs the stores read): no earlier
// than the cycle after that pulse.
// busy is high in cycles 1 .. E(N); done is a one-cycle pulse in cycle E(N) + 1. So with start
// at edge 0, done comes in cycle 1 + sum over the N + 2 phases of (E(k) - P(k) + 1), and a
// phase without conflicts lasts 1 + max(core cycles, sum over its loads of (d + 1) - 1, the same
// over its stores), d = cycles from a transfer's start to its done (core cycles: to core_next
// with CHAIN). core_start, ld_start and
// st_start are logic of registers only (no path from an input). A done pulse (core_done,
// ld_done[t], st_done[t]) must come at least one cycle after its start (it is taken only while
// its work is in flight; others are ignored). ld_addr/ld_rows/ld_cols and st_* of a tensor are
// held through the phase (from start to done). base must be valid while start is high and held
// until done. rst (synchronous, active high) clears the control state (busy, done, pending work,
// acc_zero) and sets half to 1; a run needs a rst first. Geometry registers have no reset.
//
// Parameters (fields of packed vectors have field 0 in the low bits, like rubick_ctrl's EXTENTS):
//   NL        loops in the order (>= 1); NL = 1 with EXT = 1 runs a single buffer tile
//   NT        tensors (>= 1)
//   ADDR_W    address width (1..64)
//   DIM_W     width of the rows/cols fields (1..32); every ROWS and COLS < 2**DIM_W
//   EXT       NL x 32 bits: field i = tile count of loop i of the order (>= 1), i = 0 outermost
//   OUT       NT bits: bit t set for an output
//   DEP, RED  NT x NL bits: bit t*NL + i = DEP[t][i] (t's tile depends on loop i), RED[t][i]
//             (see above; 0 for inputs; never with DEP)
//   ROW_LOOP, COL_LOOP  NT x 32 bits: the loop (position in the order) indexing t's rows / cols,
//             or any value >= NL (e.g. 32'hFFFFFFFF) for none; a loop used must be in DEP[t]
//   ROWS, COLS, TROWS, TCOLS, EBYTES  NT x 32 bits, all >= 1: tile, tensor, bytes per element.
//             With a row loop of EXT e: (e - 1) * RSTEP < TROWS <= (e - 1) * RSTEP + ROWS, and
//             every tile but the last is whole: (e - 2) * RSTEP + ROWS <= TROWS if e >= 2 (so
//             rows = ROWS except at the last index); without one: TROWS <= ROWS (the same for
//             columns with CSTEP). Violations fail elaboration on purpose.
//   RSTEP, CSTEP  NT x 32 bits: tensor rows (columns) the tile advances per index of ROW_LOOP[t]
//             (COL_LOOP[t]); 0 (the default) means ROWS (COLS); below ROWS (COLS) tiles overlap
//   PITCH     NT x 32 bits: elements from one row of the tile to the next in memory; 0 (the
//             default) means TCOLS
//   ASTEP     NT*NL x 64 bits: field t*NL + i = bytes the tile's address moves per index of loop
//             i (position i of the order; added to the row and column loops' own moves; a
//             negative move is its two's complement), default 0; a loop with a nonzero field
//             must be in DEP[t]
//   LATE      NT bits: bit t set for a late tensor (above); set on an output: elaboration fails
//   ACC       NT bits: bit t set for an output computed with `+=` (its values in memory are its
//             start values): loaded at every run start, the first visit included, like a reload
//             (same ordering), never acc_zero; set on an input: elaboration fails
//   CHAIN     1: chained core runs (above); 0: core_next is ignored
// Ports, per tensor t: base[t*ADDR_W +: ADDR_W], ld_addr/st_addr the same, ld_rows, ld_cols,
// st_rows, st_cols [t*DIM_W +: DIM_W], st_row0, st_col0 [t*32 +: 32] (row0/col0 of the stored
// tile, held like st_addr), bit t of half, acc_zero, ld_start, ld_done, st_start, st_done.
// Inputs' st_* outputs are 0.
`default_nettype none

module rubick_buf_seq #(
  parameter integer NL = 1,
  parameter integer NT = 1,
  parameter integer ADDR_W = 32,
  parameter integer DIM_W = 16,
  parameter [NL*32-1:0] EXT = {NL{32'd1}},
  parameter [NT-1:0] OUT = {NT{1'b0}},
  parameter [NT*NL-1:0] DEP = {(NT*NL){1'b0}},
  parameter [NT*NL-1:0] RED = {(NT*NL){1'b0}},
  parameter [NT-1:0] LATE = {NT{1'b0}},
  parameter [NT-1:0] ACC = {NT{1'b0}},
  parameter [NT*32-1:0] ROW_LOOP = {NT{32'hFFFFFFFF}},
  parameter [NT*32-1:0] COL_LOOP = {NT{32'hFFFFFFFF}},
  parameter [NT*32-1:0] ROWS = {NT{32'd1}},
  parameter [NT*32-1:0] COLS = {NT{32'd1}},
  parameter [NT*32-1:0] TROWS = {NT{32'd1}},
  parameter [NT*32-1:0] TCOLS = {NT{32'd1}},
  parameter [NT*32-1:0] EBYTES = {NT{32'd1}},
  parameter [NT*32-1:0] RSTEP = {NT{32'd0}},
  parameter [NT*32-1:0] CSTEP = {NT{32'd0}},
  parameter [NT*32-1:0] PITCH = {NT{32'd0}},
  parameter [NT*NL*64-1:0] ASTEP = {(NT*NL){64'd0}},
  parameter integer CHAIN = 0
) (
  input  wire                 clk,
  input  wire                 rst,
  input  wire                 start,
  output reg                  busy,
  output reg                  done,
  input  wire [NT*ADDR_W-1:0] base,
  output reg                  core_start,
  input  wire                 core_done,
  input  wire                 core_next,
  output reg  [       NT-1:0] half,
  output reg  [       NT-1:0] acc_zero,
  output wire [       NT-1:0] ld_start,
  input  wire [       NT-1:0] ld_done,
  output wire [NT*ADDR_W-1:0] ld_addr,
  output wire [ NT*DIM_W-1:0] ld_rows,
  output wire [ NT*DIM_W-1:0] ld_cols,
  output wire [       NT-1:0] st_start,
  input  wire [       NT-1:0] st_done,
  output wire [NT*ADDR_W-1:0] st_addr,
  output wire [ NT*DIM_W-1:0] st_rows,
  output wire [ NT*DIM_W-1:0] st_cols,
  output wire [    NT*32-1:0] st_row0,
  output wire [    NT*32-1:0] st_col0
);

  localparam [NT-1:0] T_ZERO = {NT{1'b0}};
  localparam [NT-1:0] T_ONES = {NT{1'b1}};
  localparam [NT-1:0] T_ONE = 1;
  localparam [ADDR_W-1:0] A_ZERO = {ADDR_W{1'b0}};

  // The sum of NL address fields (the running offsets of the loops with an ASTEP).
  function [ADDR_W-1:0] add_fields(input [NL*ADDR_W-1:0] v);
    integer k;
    begin
      add_fields = A_ZERO;
      for (k = 0; k < NL; k = k + 1) add_fields = add_fields + v[k*ADDR_W+:ADDR_W];
    end
  endfunction

  // ---- Control. Stage L holds the record of step k+1 (what phase k loads; a late tensor's is
  // loaded in phase k+1), stage C the one of step k (computed), stage S the one of step k-1
  // (stored); they shift at each phase change.
  reg           h_valid;  // the head odometer is at a step < N (it is one step ahead of L)
  reg           l_valid, c_valid;
  reg  [NT-1:0] l_rs, l_az, l_st, c_st;
  reg  [NT-1:0] l_ld;  // L's loads of late tensors (phase k+1 runs them)
  reg  [NT-1:0] ld_pend, st_pend;  // transfers of this phase not started yet
  reg  [NT-1:0] ld_cur, st_cur;  // the transfer in flight (one-hot)
  reg           core_busy;
  // CHAIN: core runs started and not yet done (at most two), and whether the run before this
  // phase's own is still draining (the phase's transfers wait).
  reg  [   1:0] open;
  reg           tail;
  wire          core_fin = CHAIN != 0 ? core_next : core_done;
  wire          core_end = core_done && (open != 2'd0);
  wire [   1:0] open_after = open - {1'b0, core_end};
  wire          gate = CHAIN != 0 && tail;

  wire [NT-1:0] h_rs, h_load, h_az, h_st;  // the record of the head's step
  wire [NL-1:0] at_zero, at_last, inner_zero, inner_last, ext_many;
  wire          all_zero = &at_zero;
  wire          all_last = &at_last;  // the head is at step N-1

  wire          ld_fin = |(ld_done & ld_cur);
  wire          st_fin = |(st_done & st_cur);
  wire          work_left = core_start | (core_busy & ~core_fin) | (|ld_pend) |
                            ((|ld_cur) & ~ld_fin) | (|st_pend) | ((|st_cur) & ~st_fin);
  wire          phase_end = busy & ~work_left;
  wire          launch = start & ~busy;
  // Phase N is the only one with neither a step to load nor one to compute.
  wire          last_phase = ~l_valid & ~c_valid;
  wire          shift = launch | (phase_end & ~last_phase);

  // Loads and stores in ascending t, one at a time; a load waits for its tensor's store.
  wire [NT-1:0] ld_first = ld_pend & (~ld_pend + T_ONE);
  wire [NT-1:0] st_first = st_pend & (~st_pend + T_ONE);
  assign ld_start = (|ld_cur || gate) ? T_ZERO : ld_first & ~(st_pend | st_cur);
  assign st_start = (|st_cur || gate) ? T_ZERO : st_first;

  always @(posedge clk) begin
    if (rst) begin
      busy      <= 1'b0;
      done      <= 1'b0;
      h_valid   <= 1'b1;
      l_valid   <= 1'b0;
      c_valid   <= 1'b0;
      l_rs      <= T_ZERO;
      l_az      <= T_ZERO;
      l_st      <= T_ZERO;
      l_ld      <= T_ZERO;
      c_st      <= T_ZERO;
      acc_zero  <= T_ZERO;
      half      <= T_ONES;
      ld_pend   <= T_ZERO;
      st_pend   <= T_ZERO;
      ld_cur    <= T_ZERO;
      st_cur    <= T_ZERO;
      core_start <= 1'b0;
      core_busy <= 1'b0;
      open      <= 2'd0;
      tail      <= 1'b0;
    end else begin
      done       <= 1'b0;
      core_start <= 1'b0;
      core_busy  <= core_start | (core_busy & ~core_fin);
      open       <= open_after + {1'b0, core_start};
      tail       <= shift ? (open_after != 2'd0) && !launch : tail & ~core_end;
      ld_pend    <= ld_pend & ~ld_start;
      st_pend    <= st_pend & ~st_start;
      if (|ld_start) ld_cur <= ld_start;
      else if (ld_fin) ld_cur <= T_ZERO;
      if (|st_start) st_cur <= st_start;
      else if (st_fin) st_cur <= T_ZERO;

      if (shift) begin
        // Into phase -1 (launch) or phase k+1 (k < N).
        busy       <= 1'b1;
        l_valid    <= h_valid;
        l_rs       <= h_valid ? h_rs : T_ONES;
        l_az       <= h_valid ? h_az : T_ZERO;
        l_st       <= h_valid ? h_st : T_ZERO;
        l_ld       <= h_valid ? h_load & LATE : T_ZERO;
        // The ordinary loads of the head's step and the late loads of the step computed next.
        ld_pend    <= (h_valid ? h_load & ~LATE : T_ZERO) | (launch ? T_ZERO : l_ld);
        c_valid    <= ~launch & l_valid;
        core_start <= ~launch & l_valid;
        acc_zero   <= launch ? T_ZERO : l_az;
        c_st       <= launch ? T_ZERO : l_st;
        st_pend    <= launch ? T_ZERO : c_st;
        half       <= launch ? T_ONES : half ^ l_rs;
        if (h_valid && all_last) h_valid <= 1'b0;
      end else if (phase_end) begin
        // Phase N is over: the head has wrapped to step 0 and every record is empty.
        busy    <= 1'b0;
        done    <= 1'b1;
        h_valid <= 1'b1;
      end
    end
  end

  // ---- Head odometer (below): the step whose record goes into L at the next shift.
  // Loop i changed from s-1 to s iff every inner loop is back at 0 (and it has several tiles);
  // it changes from s to s+1 iff every inner loop is at its last index.
  wire [NL-1:0] chg_in = ext_many & inner_zero & {NL{~all_zero}};
  wire [NL-1:0] chg_out = ext_many & inner_last & {NL{~all_last}};
  wire [NL-1:0] carry = {NL{shift & h_valid}} & inner_last;
  wire [NL-1:0] inc = carry & ~at_last;
  wire [NL-1:0] wrap = carry & at_last;

  genvar i, t;
  generate
    if (NL < 1 || NT < 1) begin : g_bad_counts
      // Elaboration error on purpose.
      rubick_buf_seq_parameters_NL_and_NT_must_be_at_least_1 u_error ();
    end
    if (ADDR_W < 1 || ADDR_W > 64) begin : g_bad_addr_w
      rubick_buf_seq_parameter_ADDR_W_must_be_1_to_64 u_error ();
    end
    if (DIM_W < 1 || DIM_W > 32) begin : g_bad_dim_w
      rubick_buf_seq_parameter_DIM_W_must_be_1_to_32 u_error ();
    end

    for (i = 0; i < NL; i = i + 1) begin : g_loop
      localparam [31:0] E = EXT[i*32+:32];
      localparam integer IW = E > 32'd1 ? $clog2(E) : 1;
      localparam [31:0] LAST = E - 32'd1;
      localparam [IW-1:0] ONE = 1;

      if (E == 32'd0) begin : g_bad_ext
        rubick_buf_seq_parameter_EXT_must_be_at_least_1 u_error ();
      end

      reg [IW-1:0] idx;
      assign at_zero[i]  = idx == {IW{1'b0}};
      assign at_last[i]  = idx == LAST[IW-1:0];
      assign ext_many[i] = E > 32'd1;
      if (i == NL - 1) begin : g_innermost
        assign inner_zero[i] = 1'b1;
        assign inner_last[i] = 1'b1;
      end else begin : g_outer
        assign inner_zero[i] = &at_zero[NL-1:i+1];
        assign inner_last[i] = &at_last[NL-1:i+1];
      end

      always @(posedge clk) begin
        if (rst || wrap[i]) idx <= {IW{1'b0}};
        else if (inc[i]) idx <= idx + ONE;
      end
    end

    for (t = 0; t < NT; t = t + 1) begin : g_t
      localparam IS_OUT = OUT[t];
      localparam IS_LATE = LATE[t];
      localparam IS_ACC = ACC[t];
      localparam [NL-1:0] DEPV = DEP[t*NL+:NL];
      localparam [NL-1:0] REDV = RED[t*NL+:NL];
      localparam [31:0] RL = ROW_LOOP[t*32+:32];
      localparam [31:0] CL = COL_LOOP[t*32+:32];
      localparam [31:0] R = ROWS[t*32+:32];
      localparam [31:0] C = COLS[t*32+:32];
      localparam [31:0] TR = TROWS[t*32+:32];
      localparam [31:0] TC = TCOLS[t*32+:32];
      localparam [31:0] EB = EBYTES[t*32+:32];
      // The effective steps and pitch (0: the defaults).
      localparam [31:0] RSTEP_T = RSTEP[t*32+:32];
      localparam [31:0] CSTEP_T = CSTEP[t*32+:32];
      localparam [31:0] PITCH_T = PITCH[t*32+:32];
      localparam [31:0] RS = RSTEP_T != 32'd0 ? RSTEP_T : R;
      localparam [31:0] CS = CSTEP_T != 32'd0 ? CSTEP_T : C;
      localparam [31:0] PT = PITCH_T != 32'd0 ? PITCH_T : TC;
      localparam [NL*64-1:0] ASTEPV = ASTEP[t*NL*64+:NL*64];
      // Strides of one row / column step in bytes (mod 2**64, then 2**ADDR_W; the loop's ASTEP
      // is added in g_row / g_col).
      localparam [63:0] RSTRIDE64 = {32'd0, RS} * {32'd0, PT} * {32'd0, EB};
      localparam [63:0] CSTRIDE64 = {32'd0, CS} * {32'd0, EB};

      if (R == 32'd0 || C == 32'd0 || TR == 32'd0 || TC == 32'd0 || EB == 32'd0) begin : g_bad_size
        rubick_buf_seq_parameters_ROWS_COLS_TROWS_TCOLS_EBYTES_must_be_at_least_1 u_error ();
      end
      if (DIM_W < 32 && ((R >> DIM_W) != 32'd0 || (C >> DIM_W) != 32'd0)) begin : g_bad_dim
        rubick_buf_seq_parameters_ROWS_and_COLS_must_be_below_2_pow_DIM_W u_error ();
      end
      if ((DEPV & REDV) != {NL{1'b0}} || (!IS_OUT && REDV != {NL{1'b0}})) begin : g_bad_red
        rubick_buf_seq_parameter_RED_must_be_outside_DEP_and_0_for_inputs u_error ();
      end
      if (RL < NL && CL == RL) begin : g_bad_same
        rubick_buf_seq_parameters_ROW_LOOP_and_COL_LOOP_must_differ u_error ();
      end
      if (IS_OUT && IS_LATE) begin : g_bad_late
        rubick_buf_seq_parameter_LATE_must_be_0_for_outputs u_error ();
      end
      if (!IS_OUT && IS_ACC) begin : g_bad_acc
        rubick_buf_seq_parameter_ACC_must_be_0_for_inputs u_error ();
      end

      // The record of the head's step for tensor t.
      wire rs = all_zero | (|(chg_in & DEPV));
      wire re = all_last | (|(chg_out & DEPV));
      wire fv = &(at_zero | ~REDV);
      assign h_rs[t]   = rs;
      // ACC: the start values come from memory on the first visit too, and the core adds to them.
      assign h_load[t] = rs & (~IS_OUT | IS_ACC | ~fv);
      assign h_az[t]   = IS_OUT & ~IS_ACC & rs & fv;
      assign h_st[t]   = IS_OUT & re;

      // Running offsets of the head's tile and its valid rows and columns.
      wire [ADDR_W-1:0] roff, coff, aoff;
      wire [ DIM_W-1:0] rv, cv;
      if (RL < NL) begin : g_row
        localparam [63:0] RE = {32'd0, EXT[RL*32+:32]};
        // The first row of the last tile, and its valid rows.
        localparam [63:0] RFIRST = (RE - 64'd1) * {32'd0, RS};
        localparam [63:0] RLAST = {32'd0, TR} - RFIRST;
        localparam [63:0] RMOVE = RSTRIDE64 + ASTEPV[RL*64+:64];
        localparam [ADDR_W-1:0] RSTRIDE = RMOVE[ADDR_W-1:0];
        if (!DEPV[RL] || RFIRST >= {32'd0, TR} ||
            RFIRST + {32'd0, R} < {32'd0, TR}) begin : g_bad_rows
          rubick_buf_seq_parameters_row_loop_must_be_in_DEP_and_cover_TROWS u_error ();
        end
        if (RE >= 64'd2 && RFIRST - {32'd0, RS} + {32'd0, R} > {32'd0, TR}) begin : g_bad_whole
          rubick_buf_seq_parameters_row_tiles_but_the_last_must_be_whole u_error ();
        end
        reg [ADDR_W-1:0] off;
        always @(posedge clk) begin
          if (rst || wrap[RL]) off <= A_ZERO;
          else if (inc[RL]) off <= off + RSTRIDE;
        end
        assign roff = off;
        assign rv   = at_last[RL] ? RLAST[DIM_W-1:0] : R[DIM_W-1:0];
      end else begin : g_row_none
        if (TR > R) begin : g_bad_rows
          rubick_buf_seq_parameters_TROWS_above_ROWS_needs_a_ROW_LOOP u_error ();
        end
        assign roff = A_ZERO;
        assign rv   = TR[DIM_W-1:0];
      end
      if (CL < NL) begin : g_col
        localparam [63:0] CE = {32'd0, EXT[CL*32+:32]};
        localparam [63:0] CFIRST = (CE - 64'd1) * {32'd0, CS};
        localparam [63:0] CLAST = {32'd0, TC} - CFIRST;
        localparam [63:0] CMOVE = CSTRIDE64 + ASTEPV[CL*64+:64];
        localparam [ADDR_W-1:0] CSTRIDE = CMOVE[ADDR_W-1:0];
        if (!DEPV[CL] || CFIRST >= {32'd0, TC} ||
            CFIRST + {32'd0, C} < {32'd0, TC}) begin : g_bad_cols
          rubick_buf_seq_parameters_col_loop_must_be_in_DEP_and_cover_TCOLS u_error ();
        end
        if (CE >= 64'd2 && CFIRST - {32'd0, CS} + {32'd0, C} > {32'd0, TC}) begin : g_bad_whole
          rubick_buf_seq_parameters_col_tiles_but_the_last_must_be_whole u_error ();
        end
        reg [ADDR_W-1:0] off;
        always @(posedge clk) begin
          if (rst || wrap[CL]) off <= A_ZERO;
          else if (inc[CL]) off <= off + CSTRIDE;
        end
        assign coff = off;
        assign cv   = at_last[CL] ? CLAST[DIM_W-1:0] : C[DIM_W-1:0];
      end else begin : g_col_none
        if (TC > C) begin : g_bad_cols
          rubick_buf_seq_parameters_TCOLS_above_COLS_needs_a_COL_LOOP u_error ();
        end
        assign coff = A_ZERO;
        assign cv   = TC[DIM_W-1:0];
      end
      // The other loops' moves: a running offset per loop with a nonzero ASTEP (the row and
      // column loops' are in roff and coff).
      wire [NL*ADDR_W-1:0] aoffs;
      for (i = 0; i < NL; i = i + 1) begin : g_astep
        localparam [63:0] AS = ASTEPV[i*64+:64];
        if (AS != 64'd0 && !DEPV[i]) begin : g_bad_astep
          rubick_buf_seq_parameter_ASTEP_must_be_0_outside_DEP u_error ();
        end
        if (AS != 64'd0 && i != RL && i != CL) begin : g_move
          localparam [ADDR_W-1:0] STRIDE = AS[ADDR_W-1:0];
          reg [ADDR_W-1:0] off;
          always @(posedge clk) begin
            if (rst || wrap[i]) off <= A_ZERO;
            else if (inc[i]) off <= off + STRIDE;
          end
          assign aoffs[i*ADDR_W+:ADDR_W] = off;
        end else begin : g_still
          assign aoffs[i*ADDR_W+:ADDR_W] = A_ZERO;
        end
      end
      assign aoff = add_fields(aoffs);

      // Geometry of stages L, C and S (C for outputs and late tensors, S for outputs), shifting
      // with the records.
      reg [ADDR_W-1:0] l_addr;
      reg [ DIM_W-1:0] l_rows, l_cols;
      always @(posedge clk) begin
        if (shift) begin
          l_addr <= base[t*ADDR_W+:ADDR_W] + roff + coff + aoff;
          l_rows <= rv;
          l_cols <= cv;
        end
      end
      if (IS_LATE) begin : g_late
        // A late tensor loads the tile being computed: stage C's geometry.
        reg [ADDR_W-1:0] c_addr;
        reg [ DIM_W-1:0] c_rows, c_cols;
        always @(posedge clk) begin
          if (shift) begin
            c_addr <= l_addr;
            c_rows <= l_rows;
            c_cols <= l_cols;
          end
        end
        assign ld_addr[t*ADDR_W+:ADDR_W] = c_addr;
        assign ld_rows[t*DIM_W+:DIM_W]   = c_rows;
        assign ld_cols[t*DIM_W+:DIM_W]   = c_cols;
      end else begin : g_early
        assign ld_addr[t*ADDR_W+:ADDR_W] = l_addr;
        assign ld_rows[t*DIM_W+:DIM_W]   = l_rows;
        assign ld_cols[t*DIM_W+:DIM_W]   = l_cols;
      end

      if (IS_OUT) begin : g_out
        // Running element indices of the head's first row and column (like the offsets).
        wire [31:0] row0, col0;
        if (RL < NL) begin : g_row0
          reg [31:0] idx0;
          always @(posedge clk) begin
            if (rst || wrap[RL]) idx0 <= 32'd0;
            else if (inc[RL]) idx0 <= idx0 + RS;
          end
          assign row0 = idx0;
        end else begin : g_row0_none
          assign row0 = 32'd0;
        end
        if (CL < NL) begin : g_col0
          reg [31:0] idx0;
          always @(posedge clk) begin
            if (rst || wrap[CL]) idx0 <= 32'd0;
            else if (inc[CL]) idx0 <= idx0 + CS;
          end
          assign col0 = idx0;
        end else begin : g_col0_none
          assign col0 = 32'd0;
        end

        reg [ADDR_W-1:0] c_addr, s_addr;
        reg [ DIM_W-1:0] c_rows, c_cols, s_rows, s_cols;
        reg [      31:0] l_row0, l_col0, c_row0, c_col0, s_row0, s_col0;
        always @(posedge clk) begin
          if (shift) begin
            l_row0 <= row0;
            l_col0 <= col0;
            c_addr <= l_addr;
            c_rows <= l_rows;
            c_cols <= l_cols;
            c_row0 <= l_row0;
            c_col0 <= l_col0;
            s_addr <= c_addr;
            s_rows <= c_rows;
            s_cols <= c_cols;
            s_row0 <= c_row0;
            s_col0 <= c_col0;
          end
        end
        assign st_addr[t*ADDR_W+:ADDR_W] = s_addr;
        assign st_rows[t*DIM_W+:DIM_W]   = s_rows;
        assign st_cols[t*DIM_W+:DIM_W]   = s_cols;
        assign st_row0[t*32+:32]         = s_row0;
        assign st_col0[t*32+:32]         = s_col0;
      end else begin : g_in
        assign st_addr[t*ADDR_W+:ADDR_W] = A_ZERO;
        assign st_rows[t*DIM_W+:DIM_W]   = {DIM_W{1'b0}};
        assign st_cols[t*DIM_W+:DIM_W]   = {DIM_W{1'b0}};
        assign st_row0[t*32+:32]         = 32'd0;
        assign st_col0[t*32+:32]         = 32'd0;
      end
    end
  endgenerate

endmodule

`default_nettype wire
