// rubick_accum: in-place accumulator (the output-stationary PE register).
//
// Timing: one cycle. At every clock edge
//   acc <= init ? init_val : acc + in
// The addition wraps modulo 2**W (two's complement). There is no reset: load the first value
// with init (init_val = 0 to start from zero, or the old partial sum to continue one).
//
// Parameters:
//   W  width of init_val, in and acc (signed)
`default_nettype none

module rubick_accum #(
  parameter W = 20
) (
  input  wire                clk,
  input  wire                init,
  input  wire signed [W-1:0] init_val,
  input  wire signed [W-1:0] in,
  output reg  signed [W-1:0] acc
);

  always @(posedge clk) begin
    acc <= init ? init_val : acc + in;
  end

endmodule

`default_nettype wire
