// SPDX-License-Identifier: Apache-2.0
#pragma once
// A chain's stages with their designs, as explore, emit and verify build them (docs/fusion.md,
// "Chains as hardware"): each stage's best design by the objective, an attention stage's best
// pipeline, with tiles of rows the stages designed for one tile; and what explore prints of
// them. The CLI gives the search flags as the options each stage is explored with.

#include "rubick/emit/Chain.h"
#include "rubick/frontend/Program.h"
#include "rubick/support/SourceFile.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rubick::workload {

/// The program at other sizes (the same source, every size given).
using Rebind = std::function<tc::Program(const std::vector<std::pair<std::string, int64_t>>&)>;

struct ChainSearch {
  /// The options a stage (a program of its own) is explored with for its statement `v`: the
  /// search flags and target. It throws for what a chain cannot take (PIM units).
  std::function<dse::ExploreOptions(const tc::Program& stage, const dataflow::StatementView& v)>
      options;
  Rebind rebind;
  int64_t rowTiles = 1;             // tiles of rows (dse::Constraints::rowTiles); 0: the best
                                    // of kTileChoices by the chain's exact cycles
  std::vector<int64_t> blockKeys;   // an attention stage's key-block sizes (empty: the default)
  std::vector<int64_t> vectorLanes; // and its vector unit widths
  /// Told about designs passed over because they cannot be built (the first reason and how
  /// many more).
  std::function<void(const std::string&)> note;
};

/// The tile counts `--row-tiles auto` tries (those that divide the rows).
inline constexpr int64_t kTileChoices[] = {1, 2, 4, 8, 16, 32};

/// A tile count tried, with the chain's exact cycles (tensors at 4 KiB boundaries) or why it
/// cannot be built.
struct TileChoice {
  int64_t tiles = 1;
  int64_t cycles = -1;
  std::string why;
};

/// Every stage of `prog` (workload::chainStages) with its design: a contraction's (with its
/// epilogue) the best buildable one by the objective, an attention stage's the best pipeline;
/// with s.rowTiles > 1 designed for one tile of rows (rowSize divided, rowTileProblem
/// checked); with 0, the tile count of kTileChoices whose chain takes the fewest cycles (the
/// fewer tiles on a tie), every count tried in `tried`. Throws Unsupported for what cannot be
/// built, rubick::Error naming a stage without a design or a row size the tiles do not divide.
std::vector<emit::ChainStageDesign> chainDesigns(const tc::Program& prog, const ChainSearch& s,
                                                 const std::shared_ptr<const SourceFile>& file,
                                                 std::vector<TileChoice>* tried = nullptr);

/// What explore prints for a chain it can build: the fusion analysis over its stages (each
/// alone as built, the groups that would keep intermediates on chip), then how emit and verify
/// build it: each stage, its design and cycles, the chain's; the tile counts tried, if any.
std::string chainBuildText(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
                           const std::vector<TileChoice>& tried = {});

} // namespace rubick::workload
