// SPDX-License-Identifier: Apache-2.0
#pragma once
// The constraint and search flags `explore` and `emit` share, so that `emit --point ID` searches
// exactly the space `explore` listed.

#include "DataflowOptions.h"

#include "rubick/dse/Explore.h"
#include "rubick/dse/Pim.h"
#include "rubick/frontend/Program.h"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace rubick::cli {

struct SearchOptions {
  DataflowOptions df; // --stmt, --array
  std::string arrayRange;
  std::string maxFanout, maxPorts, bufferKib; // a number, "none", or empty: not given
  std::string chipKib;                        // a number (0 allowed), "none", or empty
  std::string rowTiles;                       // a chain's tiles of rows: N, "auto", or empty
  std::string memBandwidth;                   // bytes per cycle, "none", or empty: not given
  std::optional<int64_t> memLatency, memBurst;
  std::string entries, dtype, target, costTable, objective = "latency";
  unsigned threads = 0;
  std::vector<int64_t> blockKeys;   // attention pipelines: key-block sizes to consider
  std::vector<int64_t> vectorLanes; // attention pipelines: vector unit widths to consider
};

void addSearchOptions(CLI::App& cmd, SearchOptions& o);

/// --row-tiles: N (1 when not given), or 0 for "auto" (the flag's validator checked it).
int64_t rowTiles(const SearchOptions& o);

/// Defaults, then the target file, then flags. `targetName` receives the target's name. A
/// target with a PIM system (docs/pim.md) sets `*pim` and the unit's array and buffer; such a
/// target is refused (Unsupported) where `pim` is null, and so are the flags it fixes.
dse::ExploreOptions makeExploreOptions(const SearchOptions& o, const tc::Program& prog,
                                       const dataflow::StatementView& v, const std::string& file,
                                       std::string& targetName, dse::PimSystem* pim = nullptr);

} // namespace rubick::cli
