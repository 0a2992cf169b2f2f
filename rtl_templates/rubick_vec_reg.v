// SPDX-License-Identifier: Apache-2.0
// rubick_vec_reg: a register file holding a small vector of N elements (an epilogue operand such
// as a bias b(j)), written by a DMA write-group stream and read by NR combinational read ports.
// It stands in for rubick_dma_scatter and banks where a vector is small enough for registers: its
// write side has exactly rubick_dma_scatter's handshake and timing for a tile of 1 row and N
// columns with column lanes (GROUP_ROWS = 1, GROUP_COLS = ceil(N / LANES)), so it takes the same
// stream from rubick_dma_rd (column lanes).
//
// Write side: group g (g = 0 .. GROUPS-1, GROUPS = ceil(N / LANES)) carries elements
//   g*LANES .. g*LANES + LANES-1, lane l in in_data[l*W +: W]; lane l is written to element
//   g*LANES + l when in_mask[l] is set and g*LANES + l < N (lanes past N, in the last group,
//   write nothing whatever their mask).
// Read side: rd_data[p*W +: W] = element rd_idx[p*IDX_W +: IDX_W] of the registers, as logic (no
//   clock, no enable): 0 for an index >= N. A multiplexer over the N registers per port.
//
// Timing: start (taken while not busy) resets the group counter to 0; busy from the next cycle
//   until the last group is taken; in_ready = busy. A group taken at edge k (in_valid and busy in
//   cycle k) is in the registers, and on the read ports, from cycle k + 1 (reads in cycle k still
//   return the old values); done pulses in cycle k + 2 after the last group, the cycle after its
//   writes are visible. start while busy is ignored. aresetn (synchronous, active low) clears
//   busy, done and the group counter, and a group offered in a cycle with aresetn low is not
//   written; the registers themselves have no reset (undefined until first written).
//
// Parameters: N (elements, >= 1), W (element bits, 1..64), LANES (elements per write group,
//   >= 1), NR (read ports, >= 1), IDX_W (read index bits, 1..32; indices >= 2**IDX_W cannot be
//   named, so with N > 2**IDX_W the elements from 2**IDX_W up are written but never read).
`default_nettype none

module rubick_vec_reg #(
  parameter integer N = 1,
  parameter integer W = 8,
  parameter integer LANES = 1,
  parameter integer NR = 1,
  parameter integer IDX_W = 4
) (
  input  wire                aclk,
  input  wire                aresetn,
  input  wire                start,
  output reg                 busy,
  output reg                 done,
  // Write groups.
  input  wire                in_valid,
  output wire                in_ready,
  input  wire [ LANES*W-1:0] in_data,
  input  wire [   LANES-1:0] in_mask,
  // Read ports.
  input  wire [NR*IDX_W-1:0] rd_idx,
  output wire [    NR*W-1:0] rd_data
);

  localparam integer GROUPS = (LANES >= 1 && N >= 1) ? (N + LANES - 1) / LANES : 1;
  localparam integer G_W = (GROUPS > 1) ? $clog2(GROUPS) : 1;
  localparam [G_W-1:0] G_LAST = GROUPS[G_W-1:0] - 1'b1;
  localparam integer IW = (IDX_W >= 1) ? IDX_W : 1;  // (IDX_W out of range fails below)
  // The elements an IDX_W-bit index can name.
  localparam integer NREAD = (IW >= 31) ? N : ((N < (1 << IW)) ? N : (1 << IW));

  // ---- Group counter, busy and done (as rubick_dma_scatter's) ----
  reg  [G_W-1:0] grp;
  reg            wrote_last;  // the last group's writes are in the registers
  wire           take = in_valid & busy & aresetn;
  wire           last = take & (grp == G_LAST);

  assign in_ready = busy;

  always @(posedge aclk) begin
    if (!aresetn) begin
      busy       <= 1'b0;
      wrote_last <= 1'b0;
      done       <= 1'b0;
      grp        <= {G_W{1'b0}};
    end else begin
      if (start && !busy) begin
        busy <= 1'b1;
        grp  <= {G_W{1'b0}};
      end else if (take) begin
        grp <= grp + 1'b1;
        if (last) busy <= 1'b0;
      end
      wrote_last <= last;
      done       <= wrote_last;
    end
  end

  // ---- The registers: element e is lane e mod LANES of group e / LANES ----
  wire [GROUPS-1:0] grp_sel;  // group g is taken this cycle
  wire [   N*W-1:0] vec;
  genvar g, e, p;
  generate
    for (g = 0; g < GROUPS; g = g + 1) begin : g_group
      localparam integer GI = g;
      localparam [G_W-1:0] GID = GI[G_W-1:0];
      assign grp_sel[g] = take & (grp == GID);
    end
    for (e = 0; e < N; e = e + 1) begin : g_elem
      localparam integer GI = e / LANES;
      localparam integer LI = e % LANES;
      reg [W-1:0] q;
      always @(posedge aclk) if (grp_sel[GI] && in_mask[LI]) q <= in_data[LI*W+:W];
      assign vec[e*W+:W] = q;
    end
    if (N < LANES) begin : g_short
      // Lanes past N never hold an element.
      wire unused_lanes = &{1'b0, in_data[LANES*W-1:N*W], in_mask[LANES-1:N]};
    end
  endgenerate

  // ---- Read ports: a multiplexer over the registers each, 0 for an index >= N ----
  generate
    for (p = 0; p < NR; p = p + 1) begin : g_port
      wire    [   IW-1:0] idx = rd_idx[p*IDX_W+:IW];
      reg     [    W-1:0] data;
      integer             k;
      always @* begin
        data = {W{1'b0}};
        for (k = 0; k < NREAD; k = k + 1) if (idx == k[IW-1:0]) data = vec[k*W+:W];
      end
      assign rd_data[p*W+:W] = data;
    end
  endgenerate

  // Elaboration errors on purpose for parameters out of range.
  generate
    if (N < 1) begin : g_bad_n
      rubick_vec_reg_parameter_N_must_be_at_least_1 u_error ();
    end
    if (W < 1 || W > 64) begin : g_bad_w
      rubick_vec_reg_parameter_W_must_be_1_to_64 u_error ();
    end
    if (LANES < 1) begin : g_bad_lanes
      rubick_vec_reg_parameter_LANES_must_be_at_least_1 u_error ();
    end
    if (NR < 1) begin : g_bad_nr
      rubick_vec_reg_parameter_NR_must_be_at_least_1 u_error ();
    end
    if (IDX_W < 1 || IDX_W > 32) begin : g_bad_idx
      rubick_vec_reg_parameter_IDX_W_must_be_1_to_32 u_error ();
    end
  endgenerate

endmodule

`default_nettype wire
