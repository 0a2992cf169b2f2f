// SPDX-License-Identifier: Apache-2.0
#pragma once
// What makes an emitted folder drop into an FPGA or ASIC project (docs/integration.md): a
// FuseSoC CAPI2 core, the clock constraint (SDC and XDC), the standalone testbench `rubick
// verify` would run (under tb/), the header of every generated module naming the design and the
// command, and a README section whose commands run in the folder alone.

#include "rubick/emit/Package.h"

#include <string>
#include <vector>

namespace rubick::emit {

struct Integration {
  std::string top;         // the top module (its file is rtl/<top>.v)
  std::string id;          // the design's ID
  std::string commandLine; // how it was emitted, without paths outside the folder ("" if unknown)
  double clockMhz = 100;   // the constraint files' clock
  /// The standalone testbench's files (under tb/; empty: none, for `noBench`) and what its
  /// program takes after `design.json tb/stimulus.txt`.
  std::vector<File> bench;
  std::vector<std::string> benchArgs;
  std::string noBench; // why there is no testbench (when `bench` is empty)
};

/// Adds the integration files to `files` (which must hold filelist.f, README.md and
/// rtl/<top>.v) and appends the README's "Standalone use" and "Integrating" sections.
void addIntegration(std::vector<File>& files, const Integration& in);

/// The clock input of `top` in `files`: `aclk` for designs with AXI ports, else `clk`.
std::string clockPort(const std::vector<File>& files, const std::string& top);

/// The testbench's program after a plain `verilator --build` of the folder: tb/obj/V<top>.
std::string benchProgram(const std::string& top);

/// The README's one-line build-and-run command of the standalone testbench.
std::string benchCommand(const Integration& in);

} // namespace rubick::emit
