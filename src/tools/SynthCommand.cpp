// SPDX-License-Identifier: Apache-2.0
// `rubick synth`: area and timing of an emitted design from Yosys and nextpnr.

#include "Commands.h"

#include "rubick/support/Diagnostic.h"
#include "rubick/synth/Ranked.h"

#include <iostream>
#include <memory>
#include <sstream>

namespace rubick::cli {
namespace {

struct SynthCli {
  std::string outdir;
  std::string flows = "generic,xilinx,ice40";
  int seeds = 3;
  std::string device = "hx8k", package;
  bool quiet = false;
  bool memoryMacros = false;
};

int runSynth(const SynthCli& o) {
  synth::Options so;
  so.flows = synth::parseFlows(o.flows, "--flows");
  so.seeds = o.seeds;
  so.device = o.device;
  so.package = o.package;
  so.memoryMacros = o.memoryMacros;
  if (!o.quiet)
    so.progress = [](const std::string& what) { std::cerr << "rubick synth: " << what << "\n"; };
  const synth::Report r = synth::synthesize(o.outdir, so);
  std::cout << synth::reportText(r) << "synth.json and synth/ (scripts, wrapper, logs) in "
            << o.outdir << "\n";
  return 0;
}

} // namespace

Action addSynthCommand(CLI::App& app) {
  auto o = std::make_shared<SynthCli>();
  CLI::App* cmd = app.add_subcommand(
      "synth", "Area and timing of an emitted design from Yosys and nextpnr (FPGA and gates)");
  cmd->footer(
      "Examples:\n"
      "  rubick emit examples/gemm.tc --size M=4,N=4,K=4 --array 2x2 -o out/gemm\n"
      "  rubick synth out/gemm --seeds 1\n"
      "      gate-level cells and logic depth (yosys synth), 7-series LUTs, FFs, DSPs and RAMs\n"
      "      (yosys synth_xilinx), and the maximum frequency on an iCE40 HX8K (yosys\n"
      "      synth_ice40, nextpnr-ice40; one seed here, the median of 3 by default)\n"
      "  rubick synth out/gemm --flows generic,xilinx     no place and route\n"
      "  rubick synth out/gemm --flows generic --memory-macros\n"
      "      logic cells apart from the memories (as SRAM macros); faster on large designs\n\n"
      "Place and route needs few pins: the design is wrapped in rubick_synth_wrap\n"
      "(synth/rubick_synth_wrap.v), which shifts every input in through one pin and folds every "
      "output\n"
      "into a register shifted out through another, so no logic is lost and the clock is the\n"
      "design's. A design too large for the device is reported (not placed), not an error.\n"
      "OUTDIR must be an unchanged `rubick emit` folder: synth.json and synth/ (the Yosys\n"
      "scripts, run from OUTDIR to repeat a flow; the wrapper; every log) are added to it and\n"
      "to its manifest. docs/synthesis.md explains the numbers.");
  cmd->add_option("outdir", o->outdir, "The design's folder (rubick emit -o)")
      ->required()
      ->type_name("OUTDIR");
  cmd->add_option("--flows", o->flows, "Which flows, comma-separated (default: all three)")
      ->type_name("generic,xilinx,ice40");
  cmd->add_option("--seeds", o->seeds, "Place-and-route runs for the median Fmax (default 3)")
      ->type_name("N");
  cmd->add_option("--device", o->device,
                  "nextpnr-ice40's device: hx8k (default; 7,680 logic cells), up5k, lp8k, ...")
      ->type_name("DEV");
  cmd->add_option("--package", o->package, "Its package (default: the device's largest)")
      ->type_name("PKG");
  cmd->add_flag("--memory-macros", o->memoryMacros,
                "Generic flow: keep each memory whole (an SRAM macro, counted in bits) instead "
                "of building it from flip-flops and multiplexers; the cells are then the logic "
                "alone");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress on stderr");
  return [o] { return runSynth(*o); };
}

} // namespace rubick::cli
