// SPDX-License-Identifier: Apache-2.0
// rubick_bank: simple dual-port synchronous RAM, one read port and one write port, written so
// that FPGA tools infer block RAM (Yosys: a $mem with one synchronous read port with enable).
//
// Timing:
//   write: mem[wr_addr] <= wr_data at the clock edge where wr_en is high.
//   read:  rd_data <= mem[rd_addr] at the clock edge where rd_en is high, so the data is valid
//          the cycle after the address; rd_data holds its value while rd_en is low.
//   Read-during-write to the same address returns the OLD data.
//   Addresses >= DEPTH (possible when DEPTH < 2**AW): the write is ignored and the read leaves
//   rd_data unchanged, in every simulator and in hardware.
//   No reset: the memory contents and rd_data are undefined until written (simulators may
//   start them at 0 or X; do not rely on it).
//
// Parameters:
//   WIDTH  bits per word (>= 1)
//   DEPTH  number of words (>= 1, any integer, not only powers of two)
//   AW     address bits (>= 1); normally $clog2(DEPTH). With fewer bits only the first 2**AW
//          words are reachable.
`default_nettype none

module rubick_bank #(
  parameter WIDTH = 8,
  parameter DEPTH = 16,
  parameter AW = 4
) (
  input  wire             clk,
  input  wire             rd_en,
  input  wire [   AW-1:0] rd_addr,
  output reg  [WIDTH-1:0] rd_data,
  input  wire             wr_en,
  input  wire [   AW-1:0] wr_addr,
  input  wire [WIDTH-1:0] wr_data
);

  // Index width the memory needs, and whether some AW-bit addresses lie beyond DEPTH.
  localparam IW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam GUARD = (AW >= 31) ? 1 : (DEPTH < (1 << AW));

  // DEPTH as an AW-bit constant (only used when DEPTH < 2**AW, so it fits).
  function [AW-1:0] depth_aw;
    input integer unused_arg;
    integer b;
    begin
      depth_aw = {AW{1'b0}};
      for (b = 0; b < AW && b < 32; b = b + 1) depth_aw[b] = DEPTH[b];
    end
  endfunction

  reg  [WIDTH-1:0] mem [DEPTH-1:0];

  wire [   IW-1:0] rd_idx;
  wire [   IW-1:0] wr_idx;
  wire             rd_ok;
  wire             wr_ok;

  generate
    if (AW >= IW) begin : g_idx_trunc
      assign rd_idx = rd_addr[IW-1:0];
      assign wr_idx = wr_addr[IW-1:0];
    end else begin : g_idx_extend
      assign rd_idx = {{(IW - AW) {1'b0}}, rd_addr};
      assign wr_idx = {{(IW - AW) {1'b0}}, wr_addr};
    end

    if (GUARD) begin : g_guard
      localparam [AW-1:0] LIMIT = depth_aw(0);
      assign rd_ok = rd_addr < LIMIT;
      assign wr_ok = wr_addr < LIMIT;
    end else begin : g_no_guard
      assign rd_ok = 1'b1;
      assign wr_ok = 1'b1;
    end
  endgenerate

  always @(posedge clk) begin
    if (wr_en && wr_ok) mem[wr_idx] <= wr_data;
    if (rd_en && rd_ok) rd_data <= mem[rd_idx];
  end

endmodule

`default_nettype wire
