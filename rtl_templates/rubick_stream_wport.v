// SPDX-License-Identifier: Apache-2.0
// rubick_stream_wport: the output side of a processing-in-memory (PIM) stream unit (docs/pim.md,
// "Units that read in place"): collects the words the core's NP output ports write, in the order
// it writes them, into the columns of rubick_bank_stream's write stream (its write columns, in
// region order), and tells the core's clock gate when it may step.
//
// Core side: valid[p] = 1: port p writes a word at the coming core edge, data[p*W +: W]; both
//   from the core's registers (held while the core is stopped). The core runs on a gated clock
//   (rubick_clock_gate); this module runs on the ungated clk.
//     go = (count + popcount(valid) <= DEPTH)
//   count being a register: the words held (appended at earlier edges, not yet sent). go depends
//   on count and valid only: no path from out_ready, step, start or rst, so it has the whole
//   cycle to reach the clock gate's latch; words sent in this cycle do not count as room.
//   step: the gate's enable, i.e. the core takes this edge: the AND of the go of every stream
//   port of the core (read ports' too), | rst; so step implies go outside reset. At a clk edge
//   where step is high, the words of the ports with valid set are appended in ascending port
//   order: port p's word is number (words appended before) + popcount(valid[p-1:0]) of the run.
//   (The port appends only where go is high too, so a step against the rules cannot overrun it.)
//
// Stream side: left = the run's words not yet sent (TOTAL after start), n = min(WORDS, left):
//     out_valid = (left != 0) && (count >= n)
//     out_data  = the first n words held, in order, word i in [i*W +: W]; the rest zero (the
//                 run's last column, of TOTAL mod WORDS words if that is not 0, padded with zeros)
//   both from registers only. At an edge with out_valid and out_ready, those n words leave:
//   count and left drop by n. Appending and sending at one edge both happen (the words appended
//   at that edge stay). In a unit, out_* is rubick_bank_stream's win_*: a column is taken when
//   its write column's WR fires.
//
// Runs: start (synchronous, with the core idle: valid = 0) empties the buffer and sets left =
//   TOTAL; rst (synchronous, active high) empties it and sets left = 0 (out_valid low until a
//   start). The buffer has no reset: out_data words not yet written are undefined.
//
// Buffer size: DEPTH >= WORDS + NP - 1, the default and the least that cannot deadlock: go low
//   means count > DEPTH - popcount(valid) >= WORDS - 1, so a whole column (or the run's last
//   one) is held and offered, and once it is taken there is room again (count falls by WORDS).
//   With one place less the port could hold WORDS - 1 words, refuse a write of NP words and wait
//   forever, so smaller values fail elaboration. This assumes the write stream takes an offered
//   column without waiting for words the core writes later: in a unit, each write column must
//   come after the read columns holding every word the core reads up to the edge that writes
//   the column's last word (then a held column's write column is always the next one).
//   Rate: go does not count the words leaving at the same edge, so with the least DEPTH a core
//   writing NP words every cycle may stop every other cycle even with out_ready always high;
//   with NP <= WORDS, DEPTH >= WORDS + 2 NP - 1 keeps it going (count stays <= WORDS + NP - 1).
//
// Parameters:
//   NP     output ports of the core writing the stream (>= 1)
//   W      bits per word (>= 1)
//   WORDS  words per column (>= 1): WORDS * W bits of out_data (at most the bank's column)
//   TOTAL  words over one run (>= 1)
//   DEPTH  buffer words (>= WORDS + NP - 1, the default)
`default_nettype none

module rubick_stream_wport #(
  parameter integer NP = 4,
  parameter integer W = 8,
  parameter integer WORDS = 4,
  parameter integer TOTAL = 16,
  parameter integer DEPTH = WORDS + NP - 1
) (
  input  wire               clk,
  input  wire               rst,
  input  wire               start,
  // Core side.
  input  wire [     NP-1:0] valid,
  input  wire [   NP*W-1:0] data,
  output wire               go,
  input  wire               step,
  // Column stream to rubick_bank_stream's write columns.
  output wire               out_valid,
  input  wire               out_ready,
  output wire [WORDS*W-1:0] out_data
);

  localparam integer CW = $clog2(DEPTH + NP + 1);  // count, and count + a cycle's words
  localparam integer KW = $clog2(NP + 1);          // words written in a cycle, 0..NP
  localparam integer NW = $clog2(WORDS + 1);       // words sent in a column, 0..WORDS
  localparam integer TW0 = $clog2(TOTAL + 1);
  localparam integer TW = TW0 > NW ? TW0 : NW;     // left, compared with WORDS
  localparam [CW-1:0] DEPTH_C = DEPTH[CW-1:0];
  localparam [NW-1:0] WORDS_N = WORDS[NW-1:0];
  localparam [TW-1:0] WORDS_T = {{(TW - NW) {1'b0}}, WORDS_N};
  localparam [TW-1:0] TOTAL_T = TOTAL[TW-1:0];

  reg  [     CW-1:0] count;  // words held, 0..DEPTH
  reg  [     TW-1:0] left;   // words of the run not sent yet
  reg  [DEPTH*W-1:0] slots;  // the words held, the oldest in slot 0: slot s in [s*W +: W]

  // Words the cycle's valid writes, each writing port's rank among them, and the words in
  // port order (inw word j: the word of the port of rank j).
  reg  [     KW-1:0] k;
  reg  [  NP*KW-1:0] rank;
  reg  [   NP*W-1:0] inw;
  integer i, j;
  always @* begin
    k = {KW{1'b0}};
    for (i = 0; i < NP; i = i + 1) begin
      rank[i*KW+:KW] = k;
      k = k + {{(KW - 1) {1'b0}}, valid[i]};
    end
    inw = {(NP * W) {1'b0}};
    for (j = 0; j < NP; j = j + 1)
      for (i = 0; i < NP; i = i + 1)
        if (valid[i] && rank[i*KW+:KW] == j[KW-1:0]) inw[j*W+:W] = data[i*W+:W];
  end

  wire [CW-1:0] k_c = {{(CW - KW) {1'b0}}, k};
  assign go = count + k_c <= DEPTH_C;
  wire app = step & go;

  // The column to send: n = min(WORDS, left) words.
  wire [NW-1:0] n = left < WORDS_T ? left[NW-1:0] : WORDS_N;
  wire [CW-1:0] n_c = {{(CW - NW) {1'b0}}, n};
  assign out_valid = (left != {TW{1'b0}}) & (count >= n_c);
  wire send = out_valid & out_ready;
  genvar g;
  generate
    for (g = 0; g < WORDS; g = g + 1) begin : g_out
      localparam integer OI = g;
      localparam [NW-1:0] O = OI[NW-1:0];
      assign out_data[g*W+:W] = O < n ? slots[g*W+:W] : {W{1'b0}};
    end
  endgenerate

  // After this edge's sending the held words move down by a column (the run's last column can
  // be shorter, but then nothing of the run is left behind it); this edge's words go in from
  // slot base on.
  wire [CW-1:0] base = count - (send ? n_c : {CW{1'b0}});
  generate
    for (g = 0; g < DEPTH; g = g + 1) begin : g_slot
      localparam integer SI = g;
      localparam [CW-1:0] S = SI[CW-1:0];
      wire [CW-1:0] off = S - base;  // this edge's word number for the slot, when S >= base
      wire fill = app && S >= base && off < k_c;
      if (g + WORDS < DEPTH) begin : g_shift
        always @(posedge clk)
          if (fill) slots[g*W+:W] <= inw[off[KW-1:0]*W+:W];
          else if (send) slots[g*W+:W] <= slots[(g+WORDS)*W+:W];
      end else begin : g_top
        always @(posedge clk) if (fill) slots[g*W+:W] <= inw[off[KW-1:0]*W+:W];
      end
    end
  endgenerate

  always @(posedge clk) begin
    if (rst || start) begin
      count <= {CW{1'b0}};
      left  <= rst ? {TW{1'b0}} : TOTAL_T;
    end else begin
      count <= base + (app ? k_c : {CW{1'b0}});
      if (send) left <= left - {{(TW - NW) {1'b0}}, n};
    end
  end

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (NP < 1 || W < 1 || WORDS < 1 || TOTAL < 1) begin : g_bad_sizes
      rubick_stream_wport_parameters_NP_W_WORDS_TOTAL_must_be_positive u_error ();
    end
    if (DEPTH < WORDS + NP - 1) begin : g_bad_depth
      rubick_stream_wport_parameter_DEPTH_must_be_at_least_WORDS_plus_NP_minus_1 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
