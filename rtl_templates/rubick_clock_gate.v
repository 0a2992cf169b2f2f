// SPDX-License-Identifier: Apache-2.0
// rubick_clock_gate: a latch-based integrated clock gate (ICG), the cell an ASIC library offers
// under names like CKLNQD or dlclkp: gclk = clk & en_l, en_l = en | test_en latched while clk
// is low. A PIM stream unit stops its core with it in the cycles whose words have not arrived
// (en = the step of rubick_stream_port; rtl_templates/README.md, "PIM stream port and clock
// gate").
//
// Timing: gclk has a rising edge at the rising edge of clk that ends a cycle in which en (or
//   test_en) was high, and is low through every cycle that follows one with en low. en is
//   looked at only while clk is low (the latch is transparent) and its value at the rising edge
//   counts: en may change freely while clk is high (the latch is closed, gclk follows clk
//   whatever en does) and must settle before the rising edge (the latch's setup), so a whole
//   cycle from the registers en is computed from. While clk is low gclk is low, so the latch
//   opening cannot glitch it either.
// test_en: the scan-test bypass of library cells (TE), forcing gclk = clk during scan shift;
//   tie it to 0 in use.
// No reset: en_l is undefined until clk is first low (start simulations with clk low).
//
// In an ASIC flow replace this module by the library's ICG cell (a wrapper of these ports), so that
// timing analysis checks the latch's setup and hold against clk. Yosys (generic synth) makes
// of it one $_DLATCH_N_ (a latch transparent while its enable, clk, is low), one $_OR_ and one
// $_AND_. On an FPGA do not gate clocks in logic: see rtl_templates/README.md.
`default_nettype none

module rubick_clock_gate (
  input  wire clk,
  input  wire en,
  input  wire test_en,
  output wire gclk
);

  reg en_l;

  // The Verilog-2005 latch idiom (a level-sensitive list, a nonblocking assignment): Verilator
  // -Wall reads it as a latch without a warning (always @* with an incomplete if is its LATCH
  // warning, which points to SystemVerilog's always_latch), Icarus and Yosys as a latch too.
  always @(clk or en or test_en) begin
    if (!clk) en_l <= en | test_en;
  end

  assign gclk = clk & en_l;

endmodule

`default_nettype wire
