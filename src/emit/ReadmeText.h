// SPDX-License-Identifier: Apache-2.0
#pragma once
// Text the READMEs of emitted designs and pipelines share (private to src/emit).

#include <string>
#include <vector>

namespace rubick::emit::detail {

/// The interface table's head: clocking, the table header, and the control signals every
/// emitted top has (start, busy, done). The host port rows follow.
inline std::string readmeControlRows() {
  return "All signals are synchronous to `clk`; `rst` is synchronous and active high.\n\n"
         "| signal | dir | meaning |\n|---|---|---|\n"
         "| `start` | in | a pulse while `busy` is low starts a run |\n"
         "| `busy` | out | high from the edge that samples `start` until the run ends |\n"
         "| `done` | out | high from the end of a run until the next `start` |\n";
}

/// The protocol of a design whose tensors are in external memory; `outputs` says where the
/// host puts what the design writes.
inline std::string readmeMemoryProtocol(const std::string& outputs) {
  return "## Protocol\n\n"
         "1. Put every input tensor in memory, row-major with no padding, at any address that is "
         "a multiple of its element size; " +
         outputs +
         "\n"
         "2. Write the BASE registers, then CTRL = 1 (or 3 for an interrupt).\n"
         "3. Wait for STATUS.DONE (or `irq`); CYCLES holds the run's cycles. STATUS.ERROR says "
         "an AXI response was not OKAY.\n\n";
}

/// Under which terms the folder may be used (docs/license.md), before its list of files.
inline std::string readmeTerms() {
  return "## Terms\n\n"
         "Every file here is under the Apache License 2.0 (`SPDX-License-Identifier: Apache-2.0` "
         "in each Verilog file): the generated modules and the rubick_* templates copied from "
         "rubick alike. You may use, change and ship them, in open or closed designs, on FPGAs "
         "and in silicon; keep the licence notices in the files you pass on.\n\n";
}

/// The README's last sections: every file, then how to lint, compile and synthesize `top`.
inline std::string readmeFilesAndChecking(const std::vector<std::string>& files,
                                          const std::string& top) {
  std::string s = readmeTerms() + "## Files\n\n";
  for (const std::string& f : files)
    s += "- `" + f + "`\n";
  return s + "\n## Checking\n\n    verilator --lint-only -Wall -f filelist.f --top-module " + top +
         "\n    iverilog -g2005 -o sim.vvp -f filelist.f\n    yosys -p \"read_verilog " +
         "$(tr '\\n' ' ' < filelist.f); synth -top " + top +
         "\"\n\n`rubick synth .` here adds area (gates, 7-series LUTs and DSPs) and an iCE40 "
         "maximum frequency: synth.json, with the scripts under synth/.\n";
}

} // namespace rubick::emit::detail
