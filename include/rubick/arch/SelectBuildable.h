// SPDX-License-Identifier: Apache-2.0
#pragma once
// Choosing a design that can be built: explore ranks designs without planning their DMA, so emit,
// verify and a chain's stages take the best design whose memory plan exists (the first of
// dse::kBuildTries in rank order), and explore names that design under its table.

#include "rubick/dse/Select.h"
#include "rubick/frontend/Program.h"

#include <string>
#include <vector>

namespace rubick::arch {

struct BuildableSelection {
  std::vector<dse::DesignPoint> designs; // as dse::selectDesigns selects them
  std::vector<std::string> passed;       // the ones passed over, each with its reason
  size_t selected = 0;                   // before --skip and --limit
};

/// dse::selectDesigns with the memory plan as its build check (designMemoryProblem). A problem
/// every design of the statement has (memoryBuildProblem) is thrown as Unsupported first,
/// before any design is tried; `command` names the command in errors.
BuildableSelection selectBuildable(const tc::Program& prog, const dataflow::StatementView& v,
                                   const dse::ExploreOptions& o, const dse::Selection& s,
                                   const std::string& command);

/// One line for explore, under its table of `ranked` designs: which rank emit and verify take
/// when rank 1 cannot be built (and why), or that none of the first ones can; "" when rank 1
/// can or there is no memory system.
std::string buildableNote(const tc::Program& prog, const dataflow::StatementView& v,
                          const dse::ExploreOptions& o,
                          const std::vector<dse::DesignPoint>& ranked);

} // namespace rubick::arch
