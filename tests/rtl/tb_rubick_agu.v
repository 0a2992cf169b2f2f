// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_agu: one instance per configuration, each with its own ports, and a
// rubick_ctrl driving a rubick_agu the way a design connects them (pair p_*). The
// configurations are listed in test_rubick_agu.cpp.
`default_nettype none

module tb_rubick_agu (
  input  wire clk,
  input  wire a0_rst,
  input  wire a0_start,
  input  wire a0_step,
  output wire [7:0] a0_base,
  output wire [7:0] a0_base_prev,
  input  wire a1_rst,
  input  wire a1_start,
  input  wire a1_step,
  output wire [7:0] a1_base,
  output wire [7:0] a1_base_prev,
  input  wire a2_rst,
  input  wire a2_start,
  input  wire a2_step,
  output wire [9:0] a2_base,
  output wire [9:0] a2_base_prev,
  input  wire a3_rst,
  input  wire a3_start,
  input  wire a3_step,
  output wire [3:0] a3_base,
  output wire [3:0] a3_base_prev,
  input  wire a4_rst,
  input  wire a4_start,
  input  wire a4_step,
  output wire [39:0] a4_base,
  output wire [39:0] a4_base_prev,
  input  wire a5_rst,
  input  wire a5_start,
  input  wire a5_step,
  output wire [15:0] a5_base,
  output wire [15:0] a5_base_prev,
  input  wire p_rst,
  input  wire p_start,
  output wire p_busy,
  output wire [29:0] p_stamps,
  output wire [11:0] p_base,
  output wire [11:0] p_base_prev,
  output wire [29:0] p_stamps_prev
);

  // a0: the defaults: one tile, base always 0.
  rubick_agu u_a0 (
    .clk(clk), .rst(a0_rst), .start(a0_start), .step(a0_step), .base(a0_base),
    .base_prev(a0_base_prev)
  );
  // a1: one dimension.
  rubick_agu #(
    .AW(8), .NDIM(1), .EXTENTS({32'd5}),
    .STRIDES({32'd3})
  ) u_a1 (
    .clk(clk), .rst(a1_rst), .start(a1_start), .step(a1_step), .base(a1_base),
    .base_prev(a1_base_prev)
  );
  // a2: three dimensions, the middle one of extent 1.
  rubick_agu #(
    .AW(10), .NDIM(3), .EXTENTS({32'd3, 32'd1, 32'd4}),
    .STRIDES({32'd33, 32'd100, 32'd7})
  ) u_a2 (
    .clk(clk), .rst(a2_rst), .start(a2_start), .step(a2_step), .base(a2_base),
    .base_prev(a2_base_prev)
  );
  // a3: addresses wrap modulo 2**4.
  rubick_agu #(
    .AW(4), .NDIM(2), .EXTENTS({32'd5, 32'd3}),
    .STRIDES({32'd9, 32'd5})
  ) u_a3 (
    .clk(clk), .rst(a3_rst), .start(a3_start), .step(a3_step), .base(a3_base),
    .base_prev(a3_base_prev)
  );
  // a4: 40-bit addresses, strides near 2**32.
  rubick_agu #(
    .AW(40), .NDIM(2), .EXTENTS({32'd3, 32'd2}),
    .STRIDES({32'h8000_0001, 32'hFFFF_FFFF})
  ) u_a4 (
    .clk(clk), .rst(a4_rst), .start(a4_start), .step(a4_step), .base(a4_base),
    .base_prev(a4_base_prev)
  );
  // a5: four dimensions, arbitrary extents and strides.
  rubick_agu #(
    .AW(16), .NDIM(4), .EXTENTS({32'd3, 32'd1, 32'd2, 32'd7}),
    .STRIDES({32'd119, 32'd2497, 32'd42, 32'd499})
  ) u_a5 (
    .clk(clk), .rst(a5_rst), .start(a5_start), .step(a5_step), .base(a5_base),
    .base_prev(a5_base_prev)
  );

  // The controller and an address generator in step: the AGU's start is the controller's
  // accepted start (a start while busy is ignored by both), its step the controller's step.
  wire p_step;
  wire unused_p_done;
  wire [3:0] unused_p_tau, unused_p_tau_prev;
  wire unused_p_prev_on, unused_p_next, unused_p_run_done;
  rubick_ctrl #(
    .TW(4), .TAU_FIRST(-4'sd1), .TAU_LAST(4'sd1), .NDIM(3), .EXTENTS({32'd2, 32'd1, 32'd3}),
    .OW(10), .INTERVAL(2)
  ) u_p_ctrl (
    .clk(clk), .rst(p_rst), .start(p_start), .busy(p_busy), .done(unused_p_done),
    .tau(unused_p_tau), .step(p_step), .stamps(p_stamps),
    .prev_on(unused_p_prev_on), .tau_prev(unused_p_tau_prev), .stamps_prev(p_stamps_prev),
    .next(unused_p_next), .run_done(unused_p_run_done)
  );
  rubick_agu #(
    .AW(12), .NDIM(3), .EXTENTS({32'd2, 32'd1, 32'd3}), .STRIDES({32'd300, 32'd40, 32'd5})
  ) u_p_agu (
    .clk(clk), .rst(p_rst), .start(p_start & ~p_busy), .step(p_step), .base(p_base),
    .base_prev(p_base_prev)
  );

endmodule

`default_nettype wire
