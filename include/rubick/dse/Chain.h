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
  size_t statement = 0;
  DesignPoint alone; // its best design with the memory system (fewest cycles)
};

struct ChainResult {
  std::vector<ChainStage> stages;
  FusionChain chain;
  FusionLimits limits;
  FusionPlan plan;
};

/// The options a statement is explored with (element widths, array, memory, buffer).
using ChainOptions =
    std::function<ExploreOptions(size_t statement, const dataflow::StatementView&)>;

/// Explores every statement of `prog` alone (each must have a design with the memory system the
/// options give) and picks the fusion groups. Throws rubick::Error naming a statement that has
/// no design, or when the options have no memory system.
ChainResult exploreChain(const tc::Program& prog, const ChainOptions& optionsFor);

/// The chain as explore prints it: each statement alone, the chosen groups with what they save,
/// and every other group of two or more statements with its cost or why it cannot run.
std::string chainText(const tc::Program& prog, const ChainResult& r);

} // namespace rubick::dse
