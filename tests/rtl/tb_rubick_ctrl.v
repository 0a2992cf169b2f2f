// SPDX-License-Identifier: Apache-2.0
// Test top for rubick_ctrl: one instance per configuration, each with its own ports. The
// configurations are listed in test_rubick_ctrl.cpp.
`default_nettype none

module tb_rubick_ctrl (
  input  wire clk,
  input  wire k0_rst,
  input  wire k0_start,
  output wire k0_busy,
  output wire k0_done,
  output wire [15:0] k0_tau,
  output wire k0_step,
  output wire [15:0] k0_stamps,
  output wire k0_prev_on,
  output wire [15:0] k0_tau_prev,
  output wire [15:0] k0_stamps_prev,
  output wire k0_next,
  output wire k0_run_done,
  input  wire k1_rst,
  input  wire k1_start,
  output wire k1_busy,
  output wire k1_done,
  output wire [15:0] k1_tau,
  output wire k1_step,
  output wire [3:0] k1_stamps,
  output wire k1_prev_on,
  output wire [15:0] k1_tau_prev,
  output wire [3:0] k1_stamps_prev,
  output wire k1_next,
  output wire k1_run_done,
  input  wire k2_rst,
  input  wire k2_start,
  output wire k2_busy,
  output wire k2_done,
  output wire [7:0] k2_tau,
  output wire k2_step,
  output wire [8:0] k2_stamps,
  output wire k2_prev_on,
  output wire [7:0] k2_tau_prev,
  output wire [8:0] k2_stamps_prev,
  output wire k2_next,
  output wire k2_run_done,
  input  wire k3_rst,
  input  wire k3_start,
  output wire k3_busy,
  output wire k3_done,
  output wire [15:0] k3_tau,
  output wire k3_step,
  output wire [1:0] k3_stamps,
  output wire k3_prev_on,
  output wire [15:0] k3_tau_prev,
  output wire [1:0] k3_stamps_prev,
  output wire k3_next,
  output wire k3_run_done,
  input  wire k4_rst,
  input  wire k4_start,
  output wire k4_busy,
  output wire k4_done,
  output wire [15:0] k4_tau,
  output wire k4_step,
  output wire [3:0] k4_stamps,
  output wire k4_prev_on,
  output wire [15:0] k4_tau_prev,
  output wire [3:0] k4_stamps_prev,
  output wire k4_next,
  output wire k4_run_done,
  input  wire k5_rst,
  input  wire k5_start,
  output wire k5_busy,
  output wire k5_done,
  output wire [3:0] k5_tau,
  output wire k5_step,
  output wire [1:0] k5_stamps,
  output wire k5_prev_on,
  output wire [3:0] k5_tau_prev,
  output wire [1:0] k5_stamps_prev,
  output wire k5_next,
  output wire k5_run_done,
  input  wire k6_rst,
  input  wire k6_start,
  output wire k6_busy,
  output wire k6_done,
  output wire [4:0] k6_tau,
  output wire k6_step,
  output wire [15:0] k6_stamps,
  output wire k6_prev_on,
  output wire [4:0] k6_tau_prev,
  output wire [15:0] k6_stamps_prev,
  output wire k6_next,
  output wire k6_run_done,
  input  wire k7_rst,
  input  wire k7_start,
  output wire k7_busy,
  output wire k7_done,
  output wire [7:0] k7_tau,
  output wire k7_step,
  output wire [3:0] k7_stamps,
  output wire k7_prev_on,
  output wire [7:0] k7_tau_prev,
  output wire [3:0] k7_stamps_prev,
  output wire k7_next,
  output wire k7_run_done,
  input  wire k8_rst,
  input  wire k8_start,
  output wire k8_busy,
  output wire k8_done,
  output wire [3:0] k8_tau,
  output wire k8_step,
  output wire [1:0] k8_stamps,
  output wire k8_prev_on,
  output wire [3:0] k8_tau_prev,
  output wire [1:0] k8_stamps_prev,
  output wire k8_next,
  output wire k8_run_done,
  input  wire k9_rst,
  input  wire k9_start,
  output wire k9_busy,
  output wire k9_done,
  output wire [7:0] k9_tau,
  output wire k9_step,
  output wire [3:0] k9_stamps,
  output wire k9_prev_on,
  output wire [7:0] k9_tau_prev,
  output wire [3:0] k9_stamps_prev,
  output wire k9_next,
  output wire k9_run_done,
  input  wire k10_rst,
  input  wire k10_start,
  output wire k10_busy,
  output wire k10_done,
  output wire [3:0] k10_tau,
  output wire k10_step,
  output wire [1:0] k10_stamps,
  output wire k10_prev_on,
  output wire [3:0] k10_tau_prev,
  output wire [1:0] k10_stamps_prev,
  output wire k10_next,
  output wire k10_run_done,
  input  wire k11_rst,
  input  wire k11_start,
  output wire k11_busy,
  output wire k11_done,
  output wire [7:0] k11_tau,
  output wire k11_step,
  output wire [3:0] k11_stamps,
  output wire k11_prev_on,
  output wire [7:0] k11_tau_prev,
  output wire [3:0] k11_stamps_prev,
  output wire k11_next,
  output wire k11_run_done
);

  // k0: the defaults: one tile of 8 cycles.
  rubick_ctrl u_k0 (
    .clk(clk), .rst(k0_rst), .start(k0_start), .busy(k0_busy), .done(k0_done),
    .tau(k0_tau), .step(k0_step), .stamps(k0_stamps),
    .prev_on(k0_prev_on), .tau_prev(k0_tau_prev), .stamps_prev(k0_stamps_prev),
    .next(k0_next), .run_done(k0_run_done)
  );
  // k1: three tiles.
  rubick_ctrl #(
    .TW(16), .TAU_FIRST(-16'sd2), .TAU_LAST(16'sd5), .NDIM(1),
    .EXTENTS({32'd3}), .OW(4)
  ) u_k1 (
    .clk(clk), .rst(k1_rst), .start(k1_start), .busy(k1_busy), .done(k1_done),
    .tau(k1_tau), .step(k1_step), .stamps(k1_stamps),
    .prev_on(k1_prev_on), .tau_prev(k1_tau_prev), .stamps_prev(k1_stamps_prev),
    .next(k1_next), .run_done(k1_run_done)
  );
  // k2: three dimensions, the middle one of extent 1.
  rubick_ctrl #(
    .TW(8), .TAU_FIRST(-8'sd3), .TAU_LAST(8'sd2), .NDIM(3),
    .EXTENTS({32'd3, 32'd1, 32'd2}), .OW(3)
  ) u_k2 (
    .clk(clk), .rst(k2_rst), .start(k2_start), .busy(k2_busy), .done(k2_done),
    .tau(k2_tau), .step(k2_step), .stamps(k2_stamps),
    .prev_on(k2_prev_on), .tau_prev(k2_tau_prev), .stamps_prev(k2_stamps_prev),
    .next(k2_next), .run_done(k2_run_done)
  );
  // k3: a single tile in two dimensions.
  rubick_ctrl #(
    .TW(16), .TAU_FIRST(-16'sd2), .TAU_LAST(16'sd4), .NDIM(2),
    .EXTENTS({32'd1, 32'd1}), .OW(1)
  ) u_k3 (
    .clk(clk), .rst(k3_rst), .start(k3_start), .busy(k3_busy), .done(k3_done),
    .tau(k3_tau), .step(k3_step), .stamps(k3_stamps),
    .prev_on(k3_prev_on), .tau_prev(k3_tau_prev), .stamps_prev(k3_stamps_prev),
    .next(k3_next), .run_done(k3_run_done)
  );
  // k4: one-cycle tiles (step every busy cycle).
  rubick_ctrl #(
    .TW(16), .TAU_FIRST(16'sd0), .TAU_LAST(16'sd0), .NDIM(2),
    .EXTENTS({32'd2, 32'd3}), .OW(2)
  ) u_k4 (
    .clk(clk), .rst(k4_rst), .start(k4_start), .busy(k4_busy), .done(k4_done),
    .tau(k4_tau), .step(k4_step), .stamps(k4_stamps),
    .prev_on(k4_prev_on), .tau_prev(k4_tau_prev), .stamps_prev(k4_stamps_prev),
    .next(k4_next), .run_done(k4_run_done)
  );
  // k5: tau over the whole 4-bit range, extent 2**OW.
  rubick_ctrl #(
    .TW(4), .TAU_FIRST(-4'sd8), .TAU_LAST(4'sd7), .NDIM(1),
    .EXTENTS({32'd4}), .OW(2)
  ) u_k5 (
    .clk(clk), .rst(k5_rst), .start(k5_start), .busy(k5_busy), .done(k5_done),
    .tau(k5_tau), .step(k5_step), .stamps(k5_stamps),
    .prev_on(k5_prev_on), .tau_prev(k5_tau_prev), .stamps_prev(k5_stamps_prev),
    .next(k5_next), .run_done(k5_run_done)
  );
  // k6: positive TAU_FIRST.
  rubick_ctrl #(
    .TW(5), .TAU_FIRST(5'sd3), .TAU_LAST(5'sd6), .NDIM(2),
    .EXTENTS({32'd2, 32'd2}), .OW(8)
  ) u_k6 (
    .clk(clk), .rst(k6_rst), .start(k6_start), .busy(k6_busy), .done(k6_done),
    .tau(k6_tau), .step(k6_step), .stamps(k6_stamps),
    .prev_on(k6_prev_on), .tau_prev(k6_tau_prev), .stamps_prev(k6_stamps_prev),
    .next(k6_next), .run_done(k6_run_done)
  );
  // k7: overlapped tiles, 8 cycles each, one starting every 5.
  rubick_ctrl #(
    .TW(8), .TAU_FIRST(-8'sd2), .TAU_LAST(8'sd5), .NDIM(2),
    .EXTENTS({32'd2, 32'd3}), .OW(2), .INTERVAL(5)
  ) u_k7 (
    .clk(clk), .rst(k7_rst), .start(k7_start), .busy(k7_busy), .done(k7_done),
    .tau(k7_tau), .step(k7_step), .stamps(k7_stamps),
    .prev_on(k7_prev_on), .tau_prev(k7_tau_prev), .stamps_prev(k7_stamps_prev),
    .next(k7_next), .run_done(k7_run_done)
  );
  // k8: overlapped tiles over the whole 4-bit tau range (tau + INTERVAL wraps in 4 bits).
  rubick_ctrl #(
    .TW(4), .TAU_FIRST(-4'sd8), .TAU_LAST(4'sd7), .NDIM(1),
    .EXTENTS({32'd3}), .OW(2), .INTERVAL(9)
  ) u_k8 (
    .clk(clk), .rst(k8_rst), .start(k8_start), .busy(k8_busy), .done(k8_done),
    .tau(k8_tau), .step(k8_step), .stamps(k8_stamps),
    .prev_on(k8_prev_on), .tau_prev(k8_tau_prev), .stamps_prev(k8_stamps_prev),
    .next(k8_next), .run_done(k8_run_done)
  );

  // k9: k7 with chained runs.
  rubick_ctrl #(
    .TW(8), .TAU_FIRST(-8'sd2), .TAU_LAST(8'sd5), .NDIM(2),
    .EXTENTS({32'd2, 32'd3}), .OW(2), .INTERVAL(5), .CHAIN(1)
  ) u_k9 (
    .clk(clk), .rst(k9_rst), .start(k9_start), .busy(k9_busy), .done(k9_done),
    .tau(k9_tau), .step(k9_step), .stamps(k9_stamps),
    .prev_on(k9_prev_on), .tau_prev(k9_tau_prev), .stamps_prev(k9_stamps_prev),
    .next(k9_next), .run_done(k9_run_done)
  );
  // k10: k8 with chained runs (tau over the whole 4-bit range).
  rubick_ctrl #(
    .TW(4), .TAU_FIRST(-4'sd8), .TAU_LAST(4'sd7), .NDIM(1),
    .EXTENTS({32'd3}), .OW(2), .INTERVAL(9), .CHAIN(1)
  ) u_k10 (
    .clk(clk), .rst(k10_rst), .start(k10_start), .busy(k10_busy), .done(k10_done),
    .tau(k10_tau), .step(k10_step), .stamps(k10_stamps),
    .prev_on(k10_prev_on), .tau_prev(k10_tau_prev), .stamps_prev(k10_stamps_prev),
    .next(k10_next), .run_done(k10_run_done)
  );
  // k11: CHAIN without overlapped tiles (no effect), a single tile.
  rubick_ctrl #(
    .TW(8), .TAU_FIRST(-8'sd1), .TAU_LAST(8'sd3), .NDIM(2),
    .EXTENTS({32'd1, 32'd1}), .OW(2), .CHAIN(1)
  ) u_k11 (
    .clk(clk), .rst(k11_rst), .start(k11_start), .busy(k11_busy), .done(k11_done),
    .tau(k11_tau), .step(k11_step), .stamps(k11_stamps),
    .prev_on(k11_prev_on), .tau_prev(k11_tau_prev), .stamps_prev(k11_stamps_prev),
    .next(k11_next), .run_done(k11_run_done)
  );

endmodule

`default_nettype wire
