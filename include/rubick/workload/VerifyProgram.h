// SPDX-License-Identifier: Apache-2.0
#pragma once
// The library's entry point for `rubick verify`: the designs the selection chooses, of whatever
// kind of program, emitted, built and simulated against the reference model. The CLI prints
// what it returns.

#include "rubick/verify/Verify.h"
#include "rubick/workload/Request.h"

#include <optional>
#include <string>
#include <vector>

namespace rubick::workload {

struct VerifiedDesign {
  std::string id;
  size_t rank = 0;     // its place in the selection, from 1 (--skip counted; a shard has gaps)
  std::string unbuilt; // why it was not simulated (a PIM design not built yet)
  int64_t explorerCycles = 0;           // a PIM design: the explorer's cycles of the units' run
  std::optional<verify::Result> result; // none when unbuilt
};

struct Verified {
  // Designs: a statement's designs; PimDesigns: its spreads over PIM units; One: a single
  // design of a program (an attention pipeline, an attention decode, a chain).
  enum class Shape { Designs, PimDesigns, One } shape = Shape::Designs;
  size_t statement = 0; // Designs and PimDesigns
  std::vector<VerifiedDesign> designs;
  size_t selected = 0;       // designs selected before --skip and --limit
  size_t window = 0;         // Designs: after --skip and --limit (before a shard's share)
  int64_t units = 0;         // PimDesigns: the units
  std::string title;         // One: what it is ("prog: chain of 3 stages")
  std::string what;          // One: "pipeline", "decode" or "chain"
  int idWidth = 16;          // One: the ID column's width
  double runtimeSeconds = 0; // the shared runtime's build (0: reused)
};

/// Verifies what r.selection chooses of `prog` (the best design when it chooses nothing) with
/// the run options `o` (with a shard, of a statement's designs only the shard's own): a statement's
/// designs (--all: many), a PIM target's spreads, the attention pipeline or decode, or a chain.
/// Throws rubick::Error for bad selections or options (--dram without a memory), Unsupported for
/// what is not built, and as verify::verifyDesigns for the tools and directories.
Verified verifyProgram(const tc::Program& prog, const Request& r, const verify::Options& o);

} // namespace rubick::workload
