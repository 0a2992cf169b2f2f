// rubick_add_tree: pipelined adder tree, the sum of N signed inputs.
//
// Timing: latency exactly DEPTH = ceil(log2(N)) cycles; sum at cycle c is the sum of the inputs
// presented at cycle c - DEPTH. Every level is registered; at a level with an odd number of
// elements the last one passes through a register, so all paths have the same latency.
// N = 1: DEPTH = 0 and sum is the combinational sign extension of in.
// Arithmetic: the inputs are sign-extended to WO bits and added modulo 2**WO (two's
// complement wrap); WO >= WI + ceil(log2(N)) guarantees no overflow. With WO < WI the inputs are
// truncated to WO bits first.
// No reset: the pipeline registers are undefined until DEPTH clock edges have passed.
//
// Parameters:
//   N   number of inputs (>= 1, any integer)
//   WI  width of each input (signed); value i is in[i*WI +: WI]
//   WO  width of sum (signed)
`default_nettype none

module rubick_add_tree #(
  parameter N = 4,
  parameter WI = 16,
  parameter WO = 20
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
        if (2 * i + 1 < PREV_COUNT) begin : g_add
          always @(posedge clk) r <= node[(PREV+2*i)*WO+:WO] + node[(PREV+2*i+1)*WO+:WO];
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
