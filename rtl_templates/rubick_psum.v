// rubick_psum: one stage of a systolic partial-sum chain.
//
// Timing: one cycle. At every clock edge
//   sum_out <= sum_in + add
// The addition wraps modulo 2**W (two's complement). No reset: sum_out is undefined until the
// first clock edge.
//
// Parameters:
//   W  width of sum_in, add and sum_out (signed)
`default_nettype none

module rubick_psum #(
  parameter W = 20
) (
  input  wire                clk,
  input  wire signed [W-1:0] sum_in,
  input  wire signed [W-1:0] add,
  output reg  signed [W-1:0] sum_out
);

  always @(posedge clk) begin
    sum_out <= sum_in + add;
  end

endmodule

`default_nettype wire
