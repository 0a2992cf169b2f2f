// SPDX-License-Identifier: Apache-2.0
#pragma once
// A PIM design's unit as numbers (private to src/emit): its plan, which tensors stream, the
// core's reads and writes, the stream's columns and its run replayed; what packagePim writes
// out and pimReplayCycles gives explore.

#include "PimTop.h"

#include "rubick/arch/CoreReads.h"
#include "rubick/arch/PimUnitTiming.h"
#include "rubick/arch/Plan.h"
#include "rubick/dse/Pim.h"
#include "rubick/emit/Pim.h"
#include "rubick/frontend/Program.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rubick::emit::detail {

/// Placements whose data the unit streams through its banks.
bool streamedPlacement(dse::PimPlacement p);

// What packagePim writes out, built once.
struct UnitBuild {
  arch::Plan plan;
  std::vector<char> streamed; // per tensor: 1 through the banks, 2 broadcast, 0 own buffer
  std::vector<int> streamedIds;
  int outId = -1; // the output, when it goes to the banks
  detail::PimShape sh;
  arch::CoreReads reads, writes;
  int64_t wordsPerColumn = 1, outWordsPerColumn = 1, words = 0;
  arch::StreamLayout layout;
  arch::PimUnitRun run;
};

/// Throws what arch::makePlan throws; call it on designs pimBuildProblem accepts.
UnitBuild buildUnit(const tc::Program& prog, const dse::PimDesign& d, const dse::PimSystem& s,
                    const dse::ExploreOptions& o, const std::string& name);

/// Stream words (tensor, element) as runs [t, e, n, stride]: n words t, e, e + stride, ...
nlohmann::ordered_json wordRunsOf(const std::vector<std::pair<int64_t, int64_t>>& words);

/// Every unit's words of a design.json "stream" (its "words" runs of unit 0, each unit's
/// "unit_offsets" per tensor, or its own "unit_words"), as the harness reads them.
std::vector<std::vector<std::pair<int64_t, int64_t>>>
unitStreams(const nlohmann::ordered_json& stream, int64_t units);

/// The files of a design of units with a DMA (one unit): its memory-system design on the
/// unit's banks (src/emit/PimDmaPackage.cpp).
PimPackage packagePimDma(const tc::Program& prog, const dataflow::StatementView& v,
                         const dse::PimDesign& d, const dse::PimSystem& s,
                         const dse::ExploreOptions& o, const std::string& name);

} // namespace rubick::emit::detail
