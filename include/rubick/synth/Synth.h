// SPDX-License-Identifier: Apache-2.0
#pragma once
// `rubick synth OUTDIR`: area and timing of an emitted design from real tools (docs/
// synthesis.md). Yosys generic synthesis (gate-level cells and logic depth), Yosys
// synth_xilinx (LUTs, flip-flops, DSPs, block and LUT RAM) and Yosys synth_ice40 with
// nextpnr-ice40 place and route behind a pin-light wrapper (synth/Wrapper.h), whose maximum
// frequency is the median over seeds. The results go into OUTDIR as synth.json, with the
// scripts, the wrapper and the tools' logs under synth/, so that each run can be repeated
// from the folder alone.

#include "rubick/support/OwnedOutput.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rubick::synth {

enum class Flow { Generic, Xilinx, Ice40 };
const char* toString(Flow f);

struct Options {
  std::vector<Flow> flows = {Flow::Generic, Flow::Xilinx, Flow::Ice40};
  int seeds = 3;               // place and route runs (their median Fmax)
  std::string device = "hx8k"; // nextpnr-ice40's device (hx8k, up5k, lp8k, ...)
  std::string package;         // and package (empty: the device's largest, see Synth.cpp)
  // The generic flow builds every memory from flip-flops and multiplexers (the default, which
  // the proxy calibration uses), or keeps it whole as a macro, as an ASIC flow takes SRAMs
  // from a memory compiler: then `cells` is the logic alone and the memories are counted apart.
  bool memoryMacros = false;
  std::function<void(const std::string&)> progress; // one line per step (may be empty)
};

struct Generic {
  int64_t cells = 0;
  int64_t flipFlops = 0;
  int64_t depth = 0;         // the longest path of cells between flip-flops and ports (yosys ltp)
  bool memoryMacros = false; // Options::memoryMacros
  int64_t memories = 0, memoryBits = 0; // the macros (0 when built from flip-flops)
  std::map<std::string, int64_t> cellTypes;
};

struct Xilinx {
  int64_t luts = 0, flipFlops = 0, dsps = 0, carries = 0;
  int64_t bram18 = 0, bram36 = 0; // RAMB18E1, RAMB36E1
  int64_t lutRams = 0, shiftRegisters = 0;
  std::map<std::string, int64_t> cellTypes;
};

struct Ice40 {
  std::string device, package;
  int64_t luts = 0, flipFlops = 0, rams = 0, carries = 0, dsps = 0; // synth_ice40's cells
  int64_t logicCells = 0, logicCellsAvailable = 0; // after placement (0: not placed)
  bool placed = false;
  std::string why;             // why place and route failed (the tool's first error)
  std::vector<double> fmaxMhz; // per seed
  double medianFmaxMhz = 0;
};

struct Report {
  std::string top;
  std::optional<Generic> generic;
  std::optional<Xilinx> xilinx;
  std::optional<Ice40> ice40;
};

/// Synthesises the design in `outdir` (an `emit` output: design.json names its top,
/// filelist.f its files) with the flows of `o`, and adds synth.json and synth/ to the folder
/// (which must be rubick's own, unchanged: support/OwnedOutput.h). Throws rubick::Error
/// naming a missing tool (yosys, nextpnr-ice40), an unreadable folder or a failing synthesis
/// (with the log's tail); a design that does not fit the FPGA is a result (Ice40::why), not an
/// error.
Report synthesize(const std::string& outdir, const Options& o);

/// The same for a design held in memory (`design`: an emitted package's files, design.json
/// and filelist.f among them), nothing written but the scratch directory; `kept` (if given)
/// receives the scripts, the wrapper and the logs as synthesize adds them under synth/.
Report synthesizeFiles(const std::vector<OutputEntry>& design, const Options& o,
                       std::vector<OutputEntry>* kept = nullptr);

/// synth.json's text for `r`.
std::string reportJson(const Report& r);

/// The summary `rubick synth` prints.
std::string reportText(const Report& r);

} // namespace rubick::synth
