// SPDX-License-Identifier: Apache-2.0
// rubick_scale: rounding, saturating fixed-point scale, sat((a * b + 2^(SHIFT-1)) >>> SHIFT).
//
// Timing: one cycle. At every clock edge
//   out_valid <= in_valid
//   out       <= saturate_OUT_W((a * b + 2^(SHIFT-1)) >>> SHIFT) if in_valid, else out is held
// with a signed, b unsigned, the product and sum exact, >>> a floor shift (so the result is
// a * b / 2^SHIFT rounded half up), no rounding term for SHIFT = 0, and the result clamped to
// the signed OUT_W-bit range. Bit-exact with saturate(mulShiftRound(a, b, SHIFT), OUT_W) in
// include/rubick/ref/Fixed.h (tests/rtl/test_rubick_scale.cpp checks it).
// The attention datapath uses it twice (docs/attention-numerics.md):
//   rescale by alpha   a = a running sum, b = alpha (Q0.15, B_W = 15), SHIFT = 15
//   division U / l     a = U, b = rubick_recip's floor(2^32 / l) (B_W = 33), SHIFT = 32
// No reset: out and out_valid are undefined until the first clock edge.
//
// Parameters:
//   A_W    width of a (signed), >= 1
//   B_W    width of b (unsigned), >= 1
//   SHIFT  right shift, >= 0
//   OUT_W  width of out (signed), >= 1
`default_nettype none

module rubick_scale #(
  parameter A_W = 32,
  parameter B_W = 33,
  parameter SHIFT = 32,
  parameter OUT_W = 32
) (
  input  wire                    clk,
  input  wire                    in_valid,
  input  wire signed [  A_W-1:0] a,
  input  wire        [  B_W-1:0] b,
  output reg                     out_valid,
  output reg  signed [OUT_W-1:0] out
);

  // The exact product takes A_W + B_W + 1 bits (b gains a zero sign bit); the sum with the
  // rounding term one more than the wider of it and 2^(SHIFT-1), so neither can overflow.
  localparam MW = A_W + B_W + 1;
  localparam PW = (MW > SHIFT + 1 ? MW : SHIFT + 1) + 1;
  // The shifted sum, >= 2 bits.
  localparam SW = PW - SHIFT;

  wire signed [   B_W:0] b_signed = {1'b0, b};
  wire signed [  MW-1:0] prod = a * b_signed;
  wire signed [  PW-1:0] prod_ext;
  wire signed [  PW-1:0] sum;
  wire signed [  SW-1:0] shifted = sum[PW-1:SHIFT];
  wire signed [OUT_W-1:0] value;

  generate
    if (A_W < 1 || B_W < 1 || SHIFT < 0 || OUT_W < 1) begin : g_bad_width
      // Elaboration error on purpose: widths must be >= 1 and SHIFT >= 0.
      rubick_scale_parameter_widths_must_be_positive u_error ();
    end

    if (PW > MW) begin : g_prod_extend
      assign prod_ext = {{(PW - MW) {prod[MW-1]}}, prod};
    end else begin : g_prod_exact
      assign prod_ext = prod;
    end

    if (SHIFT == 0) begin : g_no_round
      assign sum = prod_ext;
    end else begin : g_round
      localparam [PW-1:0] ROUND = {{(PW - 1) {1'b0}}, 1'b1} << (SHIFT - 1);
      assign sum = prod_ext + ROUND;
      wire unused_low = &{1'b0, sum[SHIFT-1:0]};
    end

    if (SW < OUT_W) begin : g_extend
      assign value = {{(OUT_W - SW) {shifted[SW-1]}}, shifted};
    end else if (SW == OUT_W) begin : g_exact
      assign value = shifted;
    end else begin : g_saturate
      // In range when the bits from OUT_W - 1 up are all copies of the sign.
      wire [SW-OUT_W:0] top = shifted[SW-1:OUT_W-1];
      wire in_range = (&top) | ~(|top);
      wire [OUT_W-1:0] max_val = {OUT_W{1'b1}} >> 1;
      assign value = in_range ? shifted[OUT_W-1:0] : shifted[SW-1] ? ~max_val : max_val;
    end
  endgenerate

  always @(posedge clk) begin
    out_valid <= in_valid;
    if (in_valid) out <= value;
  end

endmodule

`default_nettype wire
