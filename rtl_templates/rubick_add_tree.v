// SPDX-License-Identifier: Apache-2.0
// rubick_add_tree: pipelined reduction tree of N signed inputs: their sum (an adder tree), their
// maximum or their minimum.
//
// Timing: latency exactly DEPTH = ceil(log2(N)) cycles; sum at cycle c is the reduction of the
// inputs presented at cycle c - DEPTH. Every level is registered; at a level with an odd number
// of elements the last one passes through a register, so all paths have the same latency.
// N = 1: DEPTH = 0 and sum is the combinational sign extension (or truncation) of in.
// Arithmetic: each input is first brought to WO bits, sign-extended when WO > WI, truncated to
// its low WO bits when WO < WI; the tree then reduces these signed WO-bit values by OP:
//   OP = 0  their sum modulo 2**WO (two's complement wrap); WO >= WI + ceil(log2(N))
//           guarantees no overflow
//   OP = 1  their maximum (signed compare; exact, one of the values)
//   OP = 2  their minimum (signed compare; exact, one of the values)
// No reset: the pipeline registers are undefined until DEPTH clock edges have passed.
//
// Parameters:
//   N   number of inputs (>= 1, any integer)
//   WI  width of each input (signed); value i is in[i*WI +: WI]
//   WO  width of sum, the result (signed)
//   OP  reduction: 0 sum (the default), 1 maximum, 2 minimum (other values fail elaboration)
`default_nettype none

module rubick_add_tree #(
  parameter N = 4,
  parameter WI = 16,
  parameter WO = 20,
  parameter OP = 0
) (
  input  wire                 clk,
  input  wire [   N*WI-1:0]   in,
  output wire signed [WO-1:0] sum
);

  // Number of elements at level l (level 0: the N inputs; level DEPTH: the sum).
  function integer level_count;
    input integer l;
    begin
      level_count = (N + (1 << l) - 1) >> l;
    end
  endfunction

  // Position of the first element of level l in the flat node vector.
  function integer level_offset;
    input integer l;
    integer j;
    begin
      level_offset = 0;
      for (j = 0; j < l; j = j + 1) level_offset = level_offset + level_count(j);
    end
  endfunction

  localparam DEPTH = (N > 1) ? $clog2(N) : 0;
  localparam NODES = level_offset(DEPTH + 1);
  // A parameter, not a call in the assign below: Verilator 5.006 would evaluate the function
  // (a loop) in every cycle instead of folding it.
  localparam SUM_AT = level_offset(DEPTH);

  // Every element of every level, WO bits each.
  wire [NODES*WO-1:0] node;

  genvar i, l;
  generate
    if (N < 1) begin : g_bad_n
      // Elaboration error on purpose: N must be >= 1.
      rubick_add_tree_parameter_N_must_be_positive u_error ();
    end

    if (OP < 0 || OP > 2) begin : g_bad_op
      // Elaboration error on purpose: OP must be 0, 1 or 2.
      rubick_add_tree_parameter_OP_must_be_0_to_2 u_error ();
    end

    if (DEPTH == 0) begin : g_comb
      wire unused_clk = clk;
    end

    for (i = 0; i < N; i = i + 1) begin : g_in
      if (WO > WI) begin : g_extend
        assign node[i*WO+:WO] = {{(WO - WI) {in[i*WI+WI-1]}}, in[i*WI+:WI]};
      end else if (WO == WI) begin : g_exact
        assign node[i*WO+:WO] = in[i*WI+:WI];
      end else begin : g_truncate
        assign node[i*WO+:WO] = in[i*WI+:WO];
        wire unused_high = &{1'b0, in[i*WI+WO+:WI-WO]};
      end
    end

    for (l = 1; l <= DEPTH; l = l + 1) begin : g_level
      localparam PREV = level_offset(l - 1);
      localparam PREV_COUNT = level_count(l - 1);
      localparam HERE = level_offset(l);
      for (i = 0; i < level_count(l); i = i + 1) begin : g_node
        reg [WO-1:0] r;
        if (2 * i + 1 < PREV_COUNT && OP == 0) begin : g_add
          always @(posedge clk) r <= node[(PREV+2*i)*WO+:WO] + node[(PREV+2*i+1)*WO+:WO];
        end else if (2 * i + 1 < PREV_COUNT) begin : g_pick
          // Maximum (OP = 1) or minimum (OP = 2) of the two, compared signed.
          wire signed [WO-1:0] x = node[(PREV+2*i)*WO+:WO];
          wire signed [WO-1:0] y = node[(PREV+2*i+1)*WO+:WO];
          wire y_wins = (OP == 1) ? (y > x) : (y < x);
          always @(posedge clk) r <= y_wins ? y : x;
        end else begin : g_pass
          always @(posedge clk) r <= node[(PREV+2*i)*WO+:WO];
        end
        assign node[(HERE+i)*WO+:WO] = r;
      end
    end
  endgenerate

  assign sum = node[SUM_AT*WO+:WO];

endmodule

`default_nettype wire
