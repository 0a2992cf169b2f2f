// SPDX-License-Identifier: Apache-2.0
#pragma once
// `explore --synth-top N`: the N best designs of a statement emitted (in memory) and
// synthesised, their measured area and timing beside the explorer's proxy (docs/synthesis.md).

#include "rubick/dse/Explore.h"
#include "rubick/frontend/Program.h"
#include "rubick/synth/Synth.h"

#include <string>
#include <vector>

namespace rubick::synth {

/// The flows a comma-separated list names (generic, xilinx, ice40), each once. Throws
/// rubick::Error with origin `origin` otherwise.
std::vector<Flow> parseFlows(const std::string& text, const std::string& origin);

struct RankedSynthesis {
  size_t rank = 0; // 1-based, in explore's table
  dse::DesignPoint design;
  Report report;
  std::string unbuilt; // why emit cannot build it (then not synthesised)
};

/// The first `n` of `ranked` (designs of statement `v` under `o`) emitted and synthesised with
/// `so` (synthesizeFiles: nothing is written but the scratch directory); one emit cannot build
/// is listed with the reason.
std::vector<RankedSynthesis> synthesizeRanked(const tc::Program& prog,
                                              const dataflow::StatementView& v,
                                              const dse::ExploreOptions& o,
                                              const std::vector<dse::DesignPoint>& ranked, size_t n,
                                              const Options& so);

/// Their table: rank, ID, the explorer's latency, area and wires, then each flow's numbers.
std::string rankedTable(const std::vector<RankedSynthesis>& r, const Options& so);

} // namespace rubick::synth
