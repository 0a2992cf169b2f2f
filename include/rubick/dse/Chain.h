// SPDX-License-Identifier: Apache-2.0
#pragma once
// A chain of statements explored as a whole (docs/fusion.md): every statement's best design
// with the memory system, then the fusion groups (dse/Fusion.h) that keep intermediates on
// chip.

#include "rubick/dse/Explore.h"
#include "rubick/dse/Fusion.h"
#include "rubick/frontend/Program.h"

#include <functional>
#include <string>
#include <vector>

namespace rubick::dse {

struct ChainStage {
  size_t statement = 0; // its (first) statement
  std::string label;    // "S0", or a stage's "S0..S1"
  std::string text;     // its statements as written, "; " between them
  DesignPoint alone;    // its design with the memory system (a statement's: fewest cycles)
};

struct ChainResult {
  bool built = false; // stages as the hardware builds them (stageChain), not statements
  std::vector<ChainStage> stages;
  FusionChain chain;
  FusionLimits limits;
  FusionPlan plan;
};

/// The fusion limits of a chain explored under `c`: its memory's bandwidth and latency, and
/// the on-chip RAM its intermediates may take (Constraints::chipBudget).
FusionLimits fusionLimits(const Constraints& c);

/// The options a statement is explored with (element widths, array, memory, buffer).
using ChainOptions =
    std::function<ExploreOptions(size_t statement, const dataflow::StatementView&)>;

/// Explores every statement of `prog` alone (each must have a design with the memory system the
/// options give) and picks the fusion groups. Throws rubick::Error naming a statement that has
/// no design, or when the options have no memory system.
ChainResult exploreChain(const tc::Program& prog, const ChainOptions& optionsFor);

/// A stage as the hardware builds it (workload/Stages.h): statements first..last of the
/// program, as a program of their own (`program`, its tensors mapped by `tensorOf`), with its
/// design and its exact cycles alone.
struct BuiltStage {
  size_t first = 0, last = 0;
  const tc::Program* program = nullptr;
  std::vector<int> tensorOf;
  DesignPoint design;
  int64_t cycles = 0;
};

/// The chain of `stages` (in order) and its fusion groups under `limits`: each stage alone is
/// its design (cycles: the exact ones, plus `handoffCycles` for every stage after the first;
/// bytes: the explorer's), reads by rows as for statements, widths from the program's types.
ChainResult stageChain(const tc::Program& prog, const std::vector<BuiltStage>& stages,
                       const FusionLimits& limits, int64_t handoffCycles);

/// The chain as explore prints it: each statement (or stage) alone, the chosen groups with what
/// they save, and every other group of two or more with its cost or why it cannot run.
std::string chainText(const ChainResult& r);

} // namespace rubick::dse
