// SPDX-License-Identifier: Apache-2.0
// rubick_stream_port: the core side of a processing-in-memory (PIM) stream unit (docs/pim.md,
// "Units that read in place"): hands the words of rubick_bank_stream's column stream to the
// core's NP read ports of one tensor, in the order the core reads them, in place of the
// tensor's on-chip banks (rubick_bank), and tells the core's clock gate when it may step.
//
// Words: a column is WORDS words of W bits, word i in in_data[i*W +: W], word 0 first. The
//   tensor's words lie in port-time order (docs/ir.md), so in each core cycle the ports that
//   read (need[p] = 1) take the next words of the stream, in ascending port order: with k =
//   popcount(need), port p gets word number (words taken before) + popcount(need[p-1:0]).
//
// Core side: need[p] is port p's read enable for the coming core edge, from the core's
//   registers (held while the core is stopped, as they are). The core runs on a gated clock
//   (rubick_clock_gate); this module runs on the ungated clk.
//     go = (count >= popcount(need))
//   count being a register: the words in the buffer (accepted at earlier edges, not yet taken);
//   a column offered in this cycle does not count. go depends on count and need only: no path
//   from in_valid, in_data, step, start or rst, so it has the whole cycle to reach the clock
//   gate's latch. need = 0 (the core reads nothing, e.g. idle) gives go = 1.
//   step: the gate's enable, i.e. the core takes this edge: the AND of the go of every stream
//   port the core reads (and of anything else that stops it), | rst if the core's reset must
//   reach it while stopped; with one streamed tensor, go (| rst). The ports read at an edge
//   where step and go are both high (read = step & go), so a port whose words are there does
//   not move while another tensor's port stops the core.
//   rdata[p*W +: W]: at a clk edge where read and need[p] are high, port p's word (above) is
//   loaded; otherwise held. So the core sees what an on-chip rubick_bank's rd_data shows: the
//   word of a read in the core cycle after it, held while the core is stopped and until the
//   port's next read. No reset: undefined until the port's first read.
//
// Stream side: in_valid/in_ready/in_data (valid/ready rules, a column a cycle at most). A column
//   is taken when there is room for it after this cycle's reads:
//     in_ready = !rst && !start && count - (read ? popcount(need) : 0) + WORDS <= DEPTH
//   (so in_ready depends on need and step too, not on in_valid).
//
// Buffer size: DEPTH >= WORDS + NP - 1, the default and the least that works: with NP - 1 words
//   held and a read of NP words waiting, a column must fit beside them. With one place less the
//   port could hold NP - 1 words, refuse the column and wait for it forever (a core reading
//   single words leads there), so smaller values fail elaboration. With it:
//   - in_ready is high in every cycle in which go is low: the port never holds back a column the
//     core waits for (count < popcount(need) <= NP, so count + WORDS <= DEPTH);
//   - with a column offered in every cycle (in_valid high) and WORDS >= NP, go is high in every
//     cycle from the one after the first column was taken, whatever the needs and step:
//     popcount(need) words a cycle, NP with every port reading (after a read, count >= WORDS >=
//     NP if a column came in, count - popcount(need) >= NP if none fitted; without a read count
//     does not fall). WORDS < NP: the stream's WORDS words a cycle bind, and in_ready stays
//     high while every port reads.
//
// Runs: start (synchronous, any cycle) empties the buffer: count is 0 after the edge, the
//   column offered in the start cycle is not taken (in_ready is low), and a read in the start
//   cycle (read, need != 0) still takes the old buffer's words. Pulse it with the reader's start,
//   with the core idle (need = 0). rst (synchronous, active high) does the same.
//
// Parameters:
//   NP     read ports of the tensor (>= 1)
//   W      bits per word (>= 1)
//   WORDS  words per column (>= 1): the bank's column bits / W
//   DEPTH  buffer words (>= WORDS + NP - 1, the default; more lets a stream faster than the
//          core run further ahead, covering its later gaps such as row changes)
`default_nettype none

module rubick_stream_port #(
  parameter integer NP = 4,
  parameter integer W = 8,
  parameter integer WORDS = 4,
  parameter integer DEPTH = WORDS + NP - 1
) (
  input  wire                clk,
  input  wire                rst,
  input  wire                start,
  // Column stream from rubick_bank_stream.
  input  wire                in_valid,
  output wire                in_ready,
  input  wire [WORDS*W-1:0]  in_data,
  // Core side.
  input  wire [     NP-1:0]  need,
  output wire                go,
  input  wire                step,
  output reg  [   NP*W-1:0]  rdata
);

  localparam integer PW = DEPTH > 1 ? $clog2(DEPTH) : 1;   // buffer slot
  localparam integer CW0 = $clog2(DEPTH + WORDS + 1);
  localparam integer CW = CW0 > PW + 1 ? CW0 : PW + 1;     // count, and count + a column
  localparam integer KW = $clog2(NP + 1);                  // words read in a cycle, 0..NP
  localparam [CW-1:0] DEPTH_C = DEPTH[CW-1:0];
  localparam [CW-1:0] WORDS_C = WORDS[CW-1:0];
  localparam [PW:0] DEPTH_P = DEPTH[PW:0];
  localparam [PW:0] WORDS_P = WORDS[PW:0];

  reg  [       CW-1:0] count;   // words in the buffer, 0..DEPTH
  reg  [       PW-1:0] rd_ptr;  // slot of the next word to read
  reg  [       PW-1:0] wr_ptr;  // slot of the next word to write
  reg  [  DEPTH*W-1:0] words;   // the buffer, slot s in [s*W +: W]

  // Words the cycle's need reads, and each reading port's rank among them.
  reg  [       KW-1:0] k;
  reg  [    NP*KW-1:0] rank;
  integer i;
  always @* begin
    k = {KW{1'b0}};
    for (i = 0; i < NP; i = i + 1) begin
      rank[i*KW+:KW] = k;
      k = k + {{(KW - 1) {1'b0}}, need[i]};
    end
  end

  wire [CW-1:0] k_c = {{(CW - KW) {1'b0}}, k};
  assign go = count >= k_c;
  wire read = step & go;
  wire [CW-1:0] take = read ? k_c : {CW{1'b0}};
  wire [CW-1:0] after = count - take;  // words left after this cycle's reads
  assign in_ready = ~rst & ~start & (after + WORDS_C <= DEPTH_C);
  wire accept = in_valid & in_ready;

  // The next NP words, from rd_ptr on (window j = slot rd_ptr + j, wrapping at DEPTH).
  wire [NP*W-1:0] win;
  genvar g;
  generate
    for (g = 0; g < NP; g = g + 1) begin : g_win
      localparam integer JI = g;
      localparam [PW:0] J = JI[PW:0];
      wire [PW:0] sum = {1'b0, rd_ptr} + J;
      wire [PW:0] sw = sum >= DEPTH_P ? sum - DEPTH_P : sum;
      assign win[g*W+:W] = words[sw[PW-1:0]*W+:W];
      wire unused_sw = sw[PW];  // 0 once wrapped
    end
  endgenerate

  // Port p reads window word rank(p).
  integer p;
  always @(posedge clk) begin
    for (p = 0; p < NP; p = p + 1)
      if (read && need[p]) rdata[p*W+:W] <= win[rank[p*KW+:KW]*W+:W];
  end

  // A taken column goes to slots wr_ptr .. wr_ptr + WORDS - 1 (wrapping): slot s gets its word
  // (s - wr_ptr) mod DEPTH when that is below WORDS.
  wire [DEPTH*(PW+1)-1:0] off;
  generate
    for (g = 0; g < DEPTH; g = g + 1) begin : g_slot
      localparam integer SI = g;
      localparam [PW:0] S = SI[PW:0];
      wire [PW:0] wr = {1'b0, wr_ptr};
      assign off[g*(PW+1)+:PW+1] = S >= wr ? S - wr : S + DEPTH_P - wr;
    end
  endgenerate

  integer s;
  always @(posedge clk) begin
    for (s = 0; s < DEPTH; s = s + 1)
      if (accept && off[s*(PW+1)+:PW+1] < WORDS_P)
        words[s*W+:W] <= in_data[off[s*(PW+1)+:PW]*W+:W];
  end

  // Pointers wrap at DEPTH; a step is at most DEPTH (NP and WORDS are).
  wire [PW:0] rd_sum = {1'b0, rd_ptr} + take[PW:0];
  wire [PW:0] wr_sum = {1'b0, wr_ptr} + WORDS_P;
  wire [PW:0] rd_next = rd_sum >= DEPTH_P ? rd_sum - DEPTH_P : rd_sum;
  wire [PW:0] wr_next = wr_sum >= DEPTH_P ? wr_sum - DEPTH_P : wr_sum;
  wire unused_next = &{1'b0, rd_next[PW], wr_next[PW]};  // 0 once wrapped

  always @(posedge clk) begin
    if (rst || start) begin
      count  <= {CW{1'b0}};
      rd_ptr <= {PW{1'b0}};
      wr_ptr <= {PW{1'b0}};
    end else begin
      count <= after + (accept ? WORDS_C : {CW{1'b0}});
      rd_ptr <= rd_next[PW-1:0];
      if (accept) wr_ptr <= wr_next[PW-1:0];
    end
  end

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (NP < 1 || W < 1 || WORDS < 1) begin : g_bad_sizes
      rubick_stream_port_parameters_NP_W_WORDS_must_be_positive u_error ();
    end
    if (DEPTH < WORDS + NP - 1) begin : g_bad_depth
      rubick_stream_port_parameter_DEPTH_must_be_at_least_WORDS_plus_NP_minus_1 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
