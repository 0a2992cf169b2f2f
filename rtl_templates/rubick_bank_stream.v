// SPDX-License-Identifier: Apache-2.0
// rubick_bank_stream: the DRAM side of a processing-in-memory (PIM) stream unit (docs/pim.md,
// "Units that read in place"): walks a contiguous region of the unit's own banks column by
// column in row order, reading its read columns into a FIFO the unit's array takes them from and
// writing its write columns from a stream of the unit's outputs, and issues the banks' commands
// (ACT, RD, WR, PRE) itself under their timings.
//
// Address map: a column address is (row, bank, col); consecutive rows of a region lie in
//   consecutive banks: after column ROW_COLS - 1 of row r in bank b comes column 0 of row r in
//   bank b + 1, and after bank BANKS - 1 row r + 1 in bank 0. With the linear column address
//   a = (row * BANKS + bank) * ROW_COLS + col, region row j (j = 0, 1, ...) is in bank
//   (start_bank + j) mod BANKS: a region takes its banks in turn, so one bank can open its row
//   while another is read. When BANKS and ROW_COLS are powers of two, {row, bank, col} are the
//   bit fields of a. The region must not run past row 2**ROW_W - 1 (the row wraps).
//
// Column kinds: run i of RUNS (bits [i*64 +: 64]) is R_i, its low 32 bits, and W_i, its high 32
//   bits (unsigned). Counted from the region's first column (start_col of start_row in
//   start_bank), the region's columns are R_0 read columns, then W_0 write columns, then R_1
//   reads, W_1 writes, ... and every column after the last run is a read; counts may be 0 (R_0 =
//   0: the region starts with writes). NRUNS = 0: every column is a read. Each start begins
//   again at R_0.
//
// Run: start (sampled while not busy; ignored while busy) with start_bank (< BANKS), start_row,
//   start_col (< ROW_COLS) and start_len (columns, 0 allowed). busy is high from the next cycle
//   until the cycle after the last column has been read and taken or written and every bank the
//   run opened is precharged; done pulses in that cycle, so a run leaves every bank closed. rst
//   (synchronous, active high) clears the control state and takes every bank as closed and
//   rested (precharged TRP or more cycles ago): assert it only when that is true.
//
// Command port (one row command and one column command a cycle at most: a unit cycle spans two
//   or more DRAM clocks in the presets, aim 2, hbm-pim 4; in one cycle the row command comes
//   first). row_valid with row_act = 1: ACT of row_addr in row_bank; row_act = 0: PRE of
//   row_bank (row_addr is then meaningless). col_valid with col_write = 0: RD of column col_addr
//   of the row open in col_bank; col_write = 1: WR of that column with wr_data (col_write is 0
//   whenever col_valid is). The read data comes back on rd_valid/rd_data, in the order of the
//   RDs, CL cycles after its RD (CL = 0: in the RD's cycle); rd_valid must be high for nothing
//   else (a WR returns nothing). The command outputs are logic of registers only, with one
//   exception: col_valid and col_write depend on win_valid when the next column is a write
//   column, and wr_data is win_data; in a unit win_valid comes from rubick_stream_wport's
//   registers (its out_valid).
//
// Policy (open page, rows in order; timings in unit cycles: a command may come T cycles after
//   the one it waits for, T = 0 meaning the same cycle where that is possible):
//   ACT of region row j: its bank closed, TRP or more cycles after the bank's PRE (and at least
//     one: PRE and ACT are both row commands), and cnt(j - 1) cycles or more after the ACT of
//     row j - 1 (cnt = the row's columns in the region), so that its first column command,
//     TRCD later, follows row j - 1's last: the next row is opened just in time while the
//     current one is read or written. ACTs have priority on the row command slot.
//   RD: the next column of the region is a read column, its row open TRCD or more cycles ago
//     (TRCD = 0: in the ACT's cycle), and a free FIFO place for it: every RD holds a place from
//     its cycle until its column is taken from out_*, so the FIFO never overruns whatever the
//     consumer does.
//   WR: the next column of the region is a write column, its row open TRCD or more cycles ago
//     (TRCD = 0: in the ACT's cycle), and win_valid. It needs no FIFO place; win_ready is high
//     exactly in its cycle (win_ready = the WR fires), so the write stream's column is taken by
//     the WR that stores it. A WR otherwise moves through the region exactly as an RD does.
//   PRE: a bank whose row has had all its columns read or written (the last in an earlier cycle)
//     and was activated TRAS or more cycles ago, when no ACT takes the slot; of several such
//     banks the lowest-numbered. tWR (write recovery before a PRE) is not modelled: a PRE may
//     follow a row's last WR by one cycle.
//
// Streams: out_valid/out_ready/out_data (valid/ready rules): out_data is the FIFO's head, a
//   column read in cycle t is on out_* from cycle t + CL + 1, the read columns in region order.
//   win_valid/win_ready/win_data: the write columns' data, in region order, each taken in the
//   cycle of its WR.
//
// Timing (start sampled at edge 0, out_ready and win_valid always high, DEPTH >= CL + 2, the
//   banks rested): region rows j = 0 .. n-1 with cnt(j) columns of either kind (the first and
//   last may be partial), TRP1 = max(TRP, 1), busy(j) = max(TRCD + cnt(j), TRAS) + TRP1:
//     A(0) = 1,  A(j) = max(A(j-1) + cnt(j-1), A(j-BANKS) + busy(j-BANKS))   (ACT of row j;
//                                                     the second term only for j >= BANKS)
//     column k of row j: RD or WR in cycle A(j) + TRCD + k; a read column on out_* in
//       A(j) + TRCD + k + CL + 1
//     PRE of row j in cycle A(j) + max(TRCD + cnt(j), TRAS)
//     done in cycle  T = A(n-1) + 1 + max(TRCD + cnt(n-1) + CL, TRAS)   (T = 2 when n = 0)
//       when the region's last column is a read; otherwise T = max(A(n-1) + 1 + max(TRCD +
//       cnt(n-1), TRAS), r + CL + 2), r the cycle of the last RD (none: the first term only)
//   exactly, as long as no PRE has to wait for the row command slot (a PRE due in an ACT's
//   cycle, or in another PRE's, waits for the next free cycle; that delays the run only where
//   the bank's next ACT then waits for its TRP). Write columns take one cycle each, as reads do,
//   when their data is there; a write column whose data is not there (win_valid low) stops the
//   region, reads after it included, until it is: every such cycle may delay the run by one.
//   For whole rows (cnt = c = ROW_COLS, start_col = 0, busy = max(TRCD + c, TRAS) + TRP1):
//     A(n-1) = 1 + max((n-1) * c, floor((n-1) / BANKS) * busy + ((n-1) mod BANKS) * c)
//   a row every max(c, busy / BANKS) cycles on average. Against docs/pim.md's streamRun,
//   S = TRCD + CL + n * c + (n-1) * max(0, ceil(busy / BANKS) - c) (TRP >= 1): the last column
//   is on out_* in cycle S + 1 (the FIFO's register) when BANKS = 1 or busy <= BANKS * c; a
//   bank-bound run with BANKS >= 2 reads BANKS rows back to back, then waits, where the model
//   spreads them evenly at ceil(busy / BANKS) a row, so it ends floor((n-1) / BANKS) *
//   (BANKS * ceil(busy / BANKS) - busy) + ((n-1) mod BANKS) * (ceil(busy / BANKS) - c) cycles
//   earlier than that. TRP = 0 costs the cycle of TRP1 per row of a bank (the model: none).
//   With DEPTH < CL + 2 the reads wait for places: DEPTH columns every CL + 2 cycles at most
//   (writes hold no place). Every cycle with out_valid high and out_ready low may delay the
//   stream by one cycle.
//
// Parameters:
//   BANKS      banks the unit reads (>= 1)
//   COL_W      bits of one column: the bank's bytes_per_cycle x 8 (>= 1)
//   ROW_COLS   columns per row: row_bytes / bytes_per_cycle (>= 1; 1 makes the row command
//              slot the limit, two row commands a column)
//   ROW_W      bits of a row address in a bank (>= 1)
//   LEN_W      bits of start_len (1 .. 32)
//   TRCD, TRP, TRAS   the bank's timings in unit cycles (>= 0)
//   CL         the bank's read latency in unit cycles (>= 0); the reader does not depend on it
//              (a read holds its FIFO place until taken), it only sets DEPTH's default
//   DEPTH      FIFO columns (>= 1); CL + 2 (the default) lets a column through every cycle
//   NRUNS      runs of read and write columns in RUNS (>= 0; 0: reads only)
//   RUNS       NRUNS x 64 bits (64 when NRUNS = 0, unused): run i in [i*64 +: 64], R_i in its
//              low 32 bits, W_i in its high 32 bits; write it as a concatenation, last run
//              first, {32'd1, 32'd4, 32'd2, 32'd8}: 8 reads, 2 writes, 4 reads, 1 write
`default_nettype none

module rubick_bank_stream #(
  parameter integer BANKS = 2,
  parameter integer COL_W = 32,
  parameter integer ROW_COLS = 8,
  parameter integer ROW_W = 8,
  parameter integer LEN_W = 16,
  parameter integer TRCD = 2,
  parameter integer TRP = 2,
  parameter integer TRAS = 5,
  parameter integer CL = 2,
  parameter integer DEPTH = CL + 2,
  parameter integer NRUNS = 0,
  parameter [(NRUNS > 0 ? NRUNS * 64 : 64)-1:0] RUNS = {(NRUNS > 0 ? NRUNS * 64 : 64){1'b0}}
) (
  input  wire                                       clk,
  input  wire                                       rst,
  input  wire                                       start,
  input  wire [(BANKS > 1 ? $clog2(BANKS) : 1)-1:0] start_bank,
  input  wire [                          ROW_W-1:0] start_row,
  input  wire [   (ROW_COLS > 1 ? $clog2(ROW_COLS) : 1)-1:0] start_col,
  input  wire [                          LEN_W-1:0] start_len,
  output reg                                        busy,
  output reg                                        done,
  // Column stream to the unit.
  output wire                                       out_valid,
  input  wire                                       out_ready,
  output wire [                          COL_W-1:0] out_data,
  // Bank commands.
  output wire                                       row_valid,
  output wire                                       row_act,
  output wire [(BANKS > 1 ? $clog2(BANKS) : 1)-1:0] row_bank,
  output wire [                          ROW_W-1:0] row_addr,
  output wire                                       col_valid,
  output wire                                       col_write,
  output wire [(BANKS > 1 ? $clog2(BANKS) : 1)-1:0] col_bank,
  output wire [   (ROW_COLS > 1 ? $clog2(ROW_COLS) : 1)-1:0] col_addr,
  output wire [                          COL_W-1:0] wr_data,
  // Read data, CL cycles after each RD.
  input  wire                                       rd_valid,
  input  wire [                          COL_W-1:0] rd_data,
  // Write columns' data, each taken by its WR.
  input  wire                                       win_valid,
  output wire                                       win_ready,
  input  wire [                          COL_W-1:0] win_data
);

  localparam integer BW = BANKS > 1 ? $clog2(BANKS) : 1;           // bank number
  localparam integer CAW = ROW_COLS > 1 ? $clog2(ROW_COLS) : 1;    // column address
  localparam integer CCW = $clog2(ROW_COLS + 1);                   // column count 0..ROW_COLS
  localparam integer TA_MAX = TRCD > TRAS ? TRCD : TRAS;           // since-ACT counter's top
  localparam integer TAW = TA_MAX > 0 ? $clog2(TA_MAX + 1) : 1;
  localparam integer TPW = TRP > 0 ? $clog2(TRP + 1) : 1;
  localparam integer DW = $clog2(DEPTH + 1);                       // FIFO places 0..DEPTH
  localparam integer PW = DEPTH > 1 ? $clog2(DEPTH) : 1;
  localparam integer WW = (LEN_W > CCW ? LEN_W : CCW) + 1;         // row sizes, compared
  localparam integer BANK_LAST_I = BANKS - 1;
  localparam integer COL_LAST_I = ROW_COLS - 1;
  localparam integer DEPTH_LAST_I = DEPTH - 1;
  localparam [BW-1:0] BANK_LAST = BANK_LAST_I[BW-1:0];
  localparam [CAW-1:0] COL_LAST = COL_LAST_I[CAW-1:0];
  localparam [CCW-1:0] ROW_COLS_C = ROW_COLS[CCW-1:0];
  localparam [WW-1:0] ROW_COLS_W = {{(WW - CCW) {1'b0}}, ROW_COLS_C};
  localparam [TAW-1:0] TA_TOP = TA_MAX[TAW-1:0];
  localparam [TAW-1:0] TRCD_T = TRCD[TAW-1:0];
  localparam [TAW-1:0] TRAS_T = TRAS[TAW-1:0];
  localparam [TPW-1:0] TRP_T = TRP[TPW-1:0];
  localparam integer TP_TOP_I = TRP > 0 ? TRP : 1;
  localparam [TPW-1:0] TP_TOP = TP_TOP_I[TPW-1:0];
  localparam [DW-1:0] DEPTH_D = DEPTH[DW-1:0];
  localparam [PW-1:0] PTR_LAST = DEPTH_LAST_I[PW-1:0];
  localparam integer NSEG = NRUNS > 0 ? 2 * NRUNS : 1;             // R_0, W_0, R_1, W_1, ...
  localparam integer SGW = $clog2(NSEG + 1);                       // segment number 0..NSEG
  localparam integer NT = 1 << SGW;                                // table entries (padded)

  // The region's non-empty segments in order (segment 2i is R_i, 2i + 1 is W_i: the 32-bit
  // fields of RUNS), so that the walk never stops on an empty one; zeros after the last.
  function [NT*32-1:0] seg_lens;
    input [NSEG*32-1:0] runs;
    integer k, n;
    begin
      // Field by field: a design's table may pass Verilator's 8k-bit limit on a replication.
      for (k = 0; k < NT; k = k + 1) seg_lens[k*32+:32] = 32'd0;
      n = 0;
      for (k = 0; k < NSEG; k = k + 1)
        if (runs[k*32+:32] != 32'd0) begin
          seg_lens[n*32+:32] = runs[k*32+:32];
          n = n + 1;
        end
    end
  endfunction
  function [NT-1:0] seg_writes;  // 1: that segment is write columns
    input [NSEG*32-1:0] runs;
    integer k, n;
    begin
      for (k = 0; k < NT; k = k + 1) seg_writes[k] = 1'b0;
      n = 0;
      for (k = 0; k < NSEG; k = k + 1)
        if (runs[k*32+:32] != 32'd0) begin
          seg_writes[n] = k % 2 == 1;
          n = n + 1;
        end
    end
  endfunction
  localparam [NT*32-1:0] SEG_LENS = seg_lens(RUNS[NSEG*32-1:0]);
  localparam [NT-1:0] SEG_WRITES = seg_writes(RUNS[NSEG*32-1:0]);

  // ---- Banks: open, all columns read or written, cycles since the ACT and the PRE ----
  reg  [  BANKS-1:0] open;
  reg  [  BANKS-1:0] rdone;
  reg  [BANKS*TAW-1:0] t_act;  // saturates at max(TRCD, TRAS)
  reg  [BANKS*TPW-1:0] t_pre;  // saturates at TRP (at least 1)

  // ---- The run: rows still to open, columns still to read or write, places held ----
  reg  [  LEN_W-1:0] act_left;   // columns of the rows not activated yet
  reg                act_first;  // the next ACT is the run's first
  reg  [     BW-1:0] act_bank;
  reg  [  ROW_W-1:0] act_row;
  reg  [    CAW-1:0] col0;       // start_col: the first row begins there
  reg  [    CCW-1:0] gap;        // cycles since the run's last ACT, saturates at ROW_COLS
  reg  [    CCW-1:0] gap_need;   // columns of the row that ACT opened
  reg  [  LEN_W-1:0] rd_left;    // the column pointer: the next column to read or write
  reg  [     BW-1:0] rd_bank;
  reg  [    CAW-1:0] rd_col;
  wire               rd_write;   // the next column is a write column
  reg  [     DW-1:0] held;       // RDs whose column has not been taken yet
  reg  [     DW-1:0] count;      // columns in the FIFO
  reg  [     PW-1:0] wr_ptr;
  reg  [     PW-1:0] rd_ptr;
  reg  [  COL_W-1:0] fifo[0:DEPTH-1];

  // The columns of the row the next ACT opens: to the row's end or the region's.
  wire [     WW-1:0] left_w = {{(WW - LEN_W) {1'b0}}, act_left};
  wire [     WW-1:0] room = ROW_COLS_W - (act_first ? {{(WW - CAW) {1'b0}}, col0} : {WW{1'b0}});
  wire [     WW-1:0] act_cnt = left_w < room ? left_w : room;

  // Per bank: the timings met (a timing of 0 always is).
  wire [  BANKS-1:0] rcd_ok;  // TRCD since the ACT
  wire [  BANKS-1:0] ras_ok;  // TRAS since the ACT
  wire [  BANKS-1:0] rp_ok;   // TRP since the PRE
  genvar g;
  generate
    for (g = 0; g < BANKS; g = g + 1) begin : g_bank
      if (TRCD > 0) begin : g_rcd
        assign rcd_ok[g] = t_act[g*TAW+:TAW] >= TRCD_T;
      end else begin : g_rcd0
        assign rcd_ok[g] = 1'b1;
      end
      if (TRAS > 0) begin : g_ras
        assign ras_ok[g] = t_act[g*TAW+:TAW] >= TRAS_T;
      end else begin : g_ras0
        assign ras_ok[g] = 1'b1;
      end
      if (TRP > 0) begin : g_rp
        assign rp_ok[g] = t_pre[g*TPW+:TPW] >= TRP_T;
      end else begin : g_rp0
        assign rp_ok[g] = 1'b1;
      end
    end
  endgenerate

  // Selected by the run's banks.
  reg                act_bank_ok;  // act_bank closed and rested
  reg                rd_bank_ok;   // rd_bank's row open TRCD ago, not all done
  reg                pre_any;
  reg  [     BW-1:0] pre_bank;     // lowest bank that may precharge
  integer b;
  always @* begin
    act_bank_ok = 1'b0;
    rd_bank_ok = 1'b0;
    pre_any = 1'b0;
    pre_bank = {BW{1'b0}};
    for (b = BANKS - 1; b >= 0; b = b - 1) begin
      if (open[b] && rdone[b] && ras_ok[b]) begin
        pre_any = 1'b1;
        pre_bank = b[BW-1:0];
      end
      if (act_bank == b[BW-1:0]) act_bank_ok = ~open[b] & rp_ok[b];
      if (rd_bank == b[BW-1:0]) rd_bank_ok = open[b] & ~rdone[b] & rcd_ok[b];
    end
  end

  wire act_fire = busy & (act_left != {LEN_W{1'b0}}) & act_bank_ok &
                  (act_first | (gap >= gap_need));
  wire pre_fire = pre_any & ~act_fire;
  // TRCD = 0: the row opened in this cycle is the one to read when rd_bank is closed (every
  // row between the one read and the one opened is open, each in its own bank).
  wire rd_now_open = (TRCD == 0) & act_fire & (act_bank == rd_bank);
  wire col_ready = busy & (rd_left != {LEN_W{1'b0}}) & (rd_bank_ok | rd_now_open);
  wire rd_fire = col_ready & ~rd_write & (held < DEPTH_D);
  wire wr_fire = col_ready & rd_write & win_valid;
  wire col_fire = rd_fire | wr_fire;
  wire rd_row_end = (rd_col == COL_LAST) | (rd_left == {{(LEN_W - 1) {1'b0}}, 1'b1});
  wire pop = out_valid & out_ready;

  // The kind of the column at the pointer: the segment it is in (seg), the columns left in it
  // (seg_left; 0 after the last segment: reads from there on).
  generate
    if (NRUNS > 0) begin : g_runs
      reg [SGW-1:0] seg;
      reg [   31:0] seg_left;
      reg           seg_write;
      wire [SGW-1:0] seg_next = seg + 1'b1;
      assign rd_write = seg_write;
      always @(posedge clk) begin
        if (start && !busy) begin
          seg       <= {SGW{1'b0}};
          seg_left  <= SEG_LENS[31:0];
          seg_write <= SEG_WRITES[0];
        end else if (col_fire && seg_left == 32'd1) begin
          seg       <= seg_next;
          seg_left  <= SEG_LENS[seg_next*32+:32];
          seg_write <= SEG_WRITES[seg_next];
        end else if (col_fire && seg_left != 32'd0) begin
          seg_left <= seg_left - 32'd1;
        end
      end
    end else begin : g_reads
      assign rd_write = 1'b0;
    end
  endgenerate

  assign row_valid = act_fire | pre_fire;
  assign row_act = act_fire;
  assign row_bank = act_fire ? act_bank : pre_bank;
  assign row_addr = act_row;
  assign col_valid = col_fire;
  assign col_write = wr_fire;
  assign col_bank = rd_bank;
  assign col_addr = rd_col;
  assign wr_data = win_data;
  assign win_ready = wr_fire;
  assign out_valid = count != {DW{1'b0}};
  assign out_data = fifo[rd_ptr];

  // Finished after this edge: every column read and taken or written, no bank left open.
  reg still_open;
  integer o;
  always @* begin
    still_open = 1'b0;
    for (o = 0; o < BANKS; o = o + 1)
      if (open[o] && !(pre_fire && pre_bank == o[BW-1:0])) still_open = 1'b1;
  end
  wire finish = busy & (rd_left == {LEN_W{1'b0}}) & ~still_open &
                (held == {DW{1'b0}} | (held == {{(DW - 1) {1'b0}}, 1'b1} & pop));

  integer k;
  always @(posedge clk) begin
    if (rst) begin
      open  <= {BANKS{1'b0}};
      rdone <= {BANKS{1'b0}};
      for (k = 0; k < BANKS; k = k + 1) begin
        t_act[k*TAW+:TAW] <= {TAW{1'b0}};
        t_pre[k*TPW+:TPW] <= TP_TOP;
      end
    end else begin
      for (k = 0; k < BANKS; k = k + 1) begin
        if (act_fire && act_bank == k[BW-1:0]) begin
          open[k] <= 1'b1;
          t_act[k*TAW+:TAW] <= {{(TAW - 1) {1'b0}}, 1'b1};
        end else if (t_act[k*TAW+:TAW] != TA_TOP) begin
          t_act[k*TAW+:TAW] <= t_act[k*TAW+:TAW] + 1'b1;
        end
        if (pre_fire && pre_bank == k[BW-1:0]) begin
          open[k]  <= 1'b0;
          rdone[k] <= 1'b0;
          t_pre[k*TPW+:TPW] <= {{(TPW - 1) {1'b0}}, 1'b1};
        end else if (t_pre[k*TPW+:TPW] != TP_TOP) begin
          t_pre[k*TPW+:TPW] <= t_pre[k*TPW+:TPW] + 1'b1;
        end
        if (col_fire && rd_row_end && rd_bank == k[BW-1:0]) rdone[k] <= 1'b1;
      end
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      busy     <= 1'b0;
      done     <= 1'b0;
      act_left <= {LEN_W{1'b0}};
      rd_left  <= {LEN_W{1'b0}};
      held     <= {DW{1'b0}};
      count    <= {DW{1'b0}};
      wr_ptr   <= {PW{1'b0}};
      rd_ptr   <= {PW{1'b0}};
    end else begin
      done <= finish;
      if (start && !busy) begin
        busy      <= 1'b1;
        act_left  <= start_len;
        act_first <= 1'b1;
        act_bank  <= start_bank;
        act_row   <= start_row;
        col0      <= start_col;
        rd_left   <= start_len;
        rd_bank   <= start_bank;
        rd_col    <= start_col;
      end else begin
        if (finish) busy <= 1'b0;
        if (act_fire) begin
          act_left  <= act_left - act_cnt[LEN_W-1:0];
          act_first <= 1'b0;
          gap_need  <= act_cnt[CCW-1:0];
          if (act_bank == BANK_LAST) begin
            act_bank <= {BW{1'b0}};
            act_row  <= act_row + 1'b1;
          end else begin
            act_bank <= act_bank + 1'b1;
          end
        end
        if (col_fire) begin
          rd_left <= rd_left - 1'b1;
          if (rd_row_end) begin
            rd_col  <= {CAW{1'b0}};
            rd_bank <= rd_bank == BANK_LAST ? {BW{1'b0}} : rd_bank + 1'b1;
          end else begin
            rd_col <= rd_col + 1'b1;
          end
        end
      end
      // The gap runs across runs too: a run's first ACT does not look at it.
      if (act_fire) gap <= {{(CCW - 1) {1'b0}}, 1'b1};
      else if (gap != ROW_COLS_C) gap <= gap + 1'b1;
      held  <= held + {{(DW - 1) {1'b0}}, rd_fire} - {{(DW - 1) {1'b0}}, pop};
      count <= count + {{(DW - 1) {1'b0}}, rd_valid} - {{(DW - 1) {1'b0}}, pop};
      if (rd_valid) wr_ptr <= wr_ptr == PTR_LAST ? {PW{1'b0}} : wr_ptr + 1'b1;
      if (pop) rd_ptr <= rd_ptr == PTR_LAST ? {PW{1'b0}} : rd_ptr + 1'b1;
    end
  end

  always @(posedge clk) begin
    if (rd_valid) fifo[wr_ptr] <= rd_data;
  end

  // The top bit of the row-size arithmetic only keeps the comparison from wrapping.
  wire unused_cnt = &{1'b0, act_cnt[WW-1]};

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (BANKS < 1 || COL_W < 1 || ROW_COLS < 1 || ROW_W < 1 || DEPTH < 1) begin : g_bad_sizes
      rubick_bank_stream_parameters_BANKS_COL_W_ROW_COLS_ROW_W_DEPTH_must_be_positive u_error ();
    end
    if (LEN_W < 1 || LEN_W > 32) begin : g_bad_len_w
      rubick_bank_stream_parameter_LEN_W_must_be_1_to_32 u_error ();
    end
    if (TRCD < 0 || TRP < 0 || TRAS < 0 || CL < 0) begin : g_bad_timing
      rubick_bank_stream_parameters_TRCD_TRP_TRAS_CL_must_be_at_least_0 u_error ();
    end
    if (NRUNS < 0) begin : g_bad_runs
      rubick_bank_stream_parameter_NRUNS_must_be_at_least_0 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
