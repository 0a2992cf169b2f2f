// SPDX-License-Identifier: Apache-2.0
#pragma once
// Chains built as hardware (docs/fusion.md, "Chains as hardware"): the stages' designs the
// search flags give, and what explore, emit and verify do with them.

#include "AttentionCommands.h"
#include "InputOptions.h"
#include "SearchOptions.h"

#include "rubick/dse/Select.h"
#include "rubick/emit/Chain.h"
#include "rubick/support/OwnedOutput.h"
#include "rubick/workload/ChainDesigns.h"

#include <functional>
#include <string>
#include <vector>

namespace rubick::cli {

/// Whether a multi-statement program may be taken as a chain: when the flags give a memory.
std::function<bool()> chainsWithMemory(const tc::Program& prog, const InputOptions& input,
                                       const SearchOptions& search);

/// Every stage's rank-1 design under the search flags (workload::chainDesigns; --objective and
/// the allowed entries; the selectors of one design are refused: rubick::Error naming the flag).
std::vector<emit::ChainStageDesign>
chainStageDesigns(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                  const dse::Selection& selection,
                  std::vector<workload::TileChoice>* tried = nullptr);

/// emit of a chain into `output`; 0.
int emitChain(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
              const std::string& output, const std::string& name, Overwrite how);

/// verify of a chain; 0 when every trial passes.
int verifyChainCommand(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
                       const PipelineVerifyOptions& o);

} // namespace rubick::cli
