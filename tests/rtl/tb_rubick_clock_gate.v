// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_clock_gate: a gate on clk, a counter on the gated clock, and a register on
// clk feeding a register on the gated clock (does the gated domain see the value from before
// the shared edge, as in hardware?), checked by test_rubick_clock_gate.cpp.
`default_nettype none

module tb_rubick_clock_gate (
  input  wire        clk,
  input  wire        en,
  input  wire        test_en,
  input  wire [ 7:0] d,
  output wire        gclk,
  output reg  [15:0] count,
  output reg  [ 7:0] q_clk,
  output reg  [ 7:0] q_gated
);

  rubick_clock_gate u_gate (
    .clk(clk), .en(en), .test_en(test_en), .gclk(gclk)
  );

  // No reset: the test compares differences.
  always @(posedge gclk) begin
    count   <= count + 16'd1;
    q_gated <= q_clk;
  end

  always @(posedge clk) begin
    q_clk <= d;
  end

endmodule

`default_nettype wire
