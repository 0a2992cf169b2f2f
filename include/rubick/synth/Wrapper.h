// SPDX-License-Identifier: Apache-2.0
#pragma once
// A pin-light wrapper for place and route (docs/synthesis.md): a design's top has hundreds of
// ports (host port, AXI buses), more than any FPGA package has pins, so place and route of the
// top alone fails. The wrapper keeps every port of the design driven and observed with three
// pins: a clock, a serial input that shifts into a register holding every input of the design,
// and a serial output from a register into which every output of the design is folded each
// cycle (so synthesis can remove none of the design's logic).

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::synth {

struct Port {
  std::string name;
  bool output = false;
  int64_t width = 1;
};

/// The ports of module `module` in `verilog` (an ANSI header as rubick writes it: one
/// `input|output [wire|reg] [[H:L]] name` per line). Throws rubick::Error naming the module
/// when it is missing or a port line cannot be read.
std::vector<Port> modulePorts(const std::string& verilog, const std::string& module);

/// The name of the wrapper module.
inline constexpr const char* kWrapperName = "rubick_synth_wrap";

/// The wrapper of `module` with `ports`: pins `clk`, `sin` and `sout`. The design's clock is
/// the input named `clk` or `aclk` (exactly one must exist; rubick::Error otherwise).
std::string wrapperModule(const std::string& module, const std::vector<Port>& ports);

} // namespace rubick::synth
