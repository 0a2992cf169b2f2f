// SPDX-License-Identifier: Apache-2.0
// rubick_recip: the reciprocal floor(2^32 / b) of the softmax row sum, by sequential restoring
// division, one quotient bit per cycle.
//
// Timing (all synchronous):
//   rst: busy = 0, done = 0 (rst wins over start).
//   start sampled while !busy: b is captured, busy = 1, done = 0. start while busy is ignored.
//   The divider then takes exactly 33 cycles: a start sampled at edge 0 gives busy in cycles
//   1..33 and done from cycle 34, when recip holds the result; done and recip stay until the
//   next start (or rst). recip is meaningless while busy.
// Result (bit-exact with reciprocal in include/rubick/ref/Fixed.h, which
// tests/rtl/test_rubick_recip.cpp checks): recip = floor(2^32 / b), 33 bits (2^32 for b = 1),
// for any b in 1..2^32-1; b = 0 gives recip = 0, so that a / 0 through rubick_scale is 0.
// Each cycle shifts the next bit of the dividend 2^32 (a 1, then 32 zeros) into the
// remainder and subtracts b where it fits; the remainder stays below b, so 32 bits hold it.
`default_nettype none

module rubick_recip (
  input  wire        clk,
  input  wire        rst,
  input  wire        start,
  input  wire [31:0] b,
  output reg         busy,
  output reg         done,
  output wire [32:0] recip
);

  localparam [5:0] STEPS = 6'd33;
  localparam [5:0] ONE = 6'd1;

  reg  [31:0] divisor;
  reg         zero;      // b was 0
  reg  [31:0] rem;
  reg  [32:0] quo;
  reg  [ 5:0] left;      // quotient bits still to compute

  // The dividend's bits, most significant first: 1 in the first step, then 0.
  wire        next_bit = (left == STEPS);
  wire [32:0] shifted = {rem, next_bit};
  wire [33:0] diff = {1'b0, shifted} - {2'b00, divisor};
  wire        fits = ~diff[33];
  // When b fits, the new remainder is below b, so diff[32] is 0.
  wire        unused_diff = &{1'b0, diff[32]};

  assign recip = zero ? 33'd0 : quo;

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      done <= 1'b0;
    end else if (!busy) begin
      if (start) begin
        busy <= 1'b1;
        done <= 1'b0;
      end
    end else if (left == ONE) begin
      busy <= 1'b0;
      done <= 1'b1;
    end
  end

  // Datapath (no reset needed: start initialises it).
  always @(posedge clk) begin
    if (!busy && start) begin
      divisor <= b;
      zero    <= (b == 32'd0);
      rem     <= 32'd0;
      quo     <= 33'd0;
      left    <= STEPS;
    end else if (busy) begin
      rem  <= fits ? diff[31:0] : shifted[31:0];
      quo  <= {quo[31:0], fits};
      left <= left - ONE;
    end
  end

endmodule

`default_nettype wire
