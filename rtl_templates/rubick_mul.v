// SPDX-License-Identifier: Apache-2.0
// rubick_mul: the PE multiplier, a registered signed product of N operands (N in 1..4).
//
// Timing: one cycle. At every clock edge
//   prod <= valid ? op0 * op1 * ... * op(N-1) : INVALID fitted to PW bits
// The product is exact (computed at full width W0+...+W(N-1)) and then sign-extended or
// truncated (two's complement wrap) to PW bits. Operands op(N)..op3 are ignored.
// An invalid cycle outputs the constant INVALID: its low PW bits when PW <= 64, sign-extended
// from bit 63 to PW bits when PW > 64 (INVALID read as a signed 64-bit value). Pass a 64-bit
// literal (Verilator -Wall warns about a narrower one, such as a plain -1). The default 0 is the
// identity of a sum; a maximum wants the most negative value of the width it compares at, a
// minimum the most positive, written sign-extended to 64 bits (for 16 bits: -64'sd32768, that is
// 64'hffffffff_ffff8000, and 64'sd32767).
// No reset: prod is undefined until the first clock edge.
//
// Parameters:
//   N        number of operands multiplied, 1..4 (other values fail elaboration)
//   W0..W3   operand widths (>= 1; all operands are signed)
//   PW       product width (>= 1); PW = W0+...+W(N-1) gives the exact product
//   INVALID  the output of an invalid cycle, a 64-bit constant (default 0) used as above
`default_nettype none

module rubick_mul #(
  parameter N = 2,
  parameter W0 = 8,
  parameter W1 = 8,
  parameter W2 = 8,
  parameter W3 = 8,
  parameter PW = 16,
  parameter [63:0] INVALID = 64'd0
) (
  input  wire                 clk,
  input  wire                 valid,
  input  wire signed [W0-1:0] op0,
  input  wire signed [W1-1:0] op1,
  input  wire signed [W2-1:0] op2,
  input  wire signed [W3-1:0] op3,
  output reg  signed [PW-1:0] prod
);

  // Width of the exact product of the first N operands.
  localparam S2 = W0 + W1;
  localparam S3 = S2 + W2;
  localparam S4 = S3 + W3;
  localparam S23 = W2 + W3;
  localparam SN = (N == 1) ? W0 : (N == 2) ? S2 : (N == 3) ? S3 : S4;

  wire signed [SN-1:0] full;
  wire signed [PW-1:0] fitted;
  // INVALID fitted to PW bits (a constant).
  wire signed [PW-1:0] invalid_value;

  generate
    if (N == 1) begin : g_n1
      assign full = op0;
      wire unused_ops = &{1'b0, op1, op2, op3};
    end else if (N == 2) begin : g_n2
      assign full = op0 * op1;
      wire unused_ops = &{1'b0, op2, op3};
    end else if (N == 3) begin : g_n3
      wire signed [S2-1:0] p01 = op0 * op1;
      assign full = p01 * op2;
      wire unused_ops = &{1'b0, op3};
    end else if (N == 4) begin : g_n4
      wire signed [S2-1:0] p01 = op0 * op1;
      wire signed [S23-1:0] p23 = op2 * op3;
      assign full = p01 * p23;
    end else begin : g_bad_n
      // Elaboration error on purpose: N must be 1..4.
      rubick_mul_parameter_N_must_be_1_to_4 u_error ();
    end

    if (PW > SN) begin : g_extend
      assign fitted = {{(PW - SN) {full[SN-1]}}, full};
    end else if (PW == SN) begin : g_exact
      assign fitted = full;
    end else begin : g_truncate
      assign fitted = full[PW-1:0];
      wire unused_high = &{1'b0, full[SN-1:PW]};
    end

    if (PW > 64) begin : g_invalid_extend
      assign invalid_value = {{(PW - 64) {INVALID[63]}}, INVALID};
    end else begin : g_invalid_low
      assign invalid_value = INVALID[PW-1:0];
    end
  endgenerate

  always @(posedge clk) begin
    prod <= valid ? fitted : invalid_value;
  end

endmodule

`default_nettype wire
