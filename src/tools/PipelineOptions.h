// SPDX-License-Identifier: Apache-2.0
#pragma once
// Multi-statement programs of the attention form: the pipeline search the explore, emit and
// verify commands share.

#include "InputOptions.h"
#include "SearchOptions.h"

#include "rubick/attn/Pipeline.h"
#include "rubick/dse/Epilogue.h"
#include "rubick/dse/Pim.h"
#include "rubick/workload/Workload.h"

#include <functional>

#include <memory>

#include <string>

namespace rubick::cli {

/// What the program is (workload::recogniseWorkload) under --stmt, errors pointing into the
/// input file; a chain only when `chains` says so (explore, with a memory system).
workload::Workload programWorkload(const tc::Program& prog, const InputOptions& input,
                                   const SearchOptions& search,
                                   const std::function<bool()>& chains = nullptr);

/// Puts `epilogue` (if any) on the options: it is built on the output's way to external memory,
/// so it needs a memory system and no PIM target (Unsupported otherwise).
void setEpilogue(dse::ExploreOptions& eo, std::shared_ptr<const dse::Epilogue> epilogue,
                 const dse::PimSystem& pim);

/// The input program at other sizes (every size given): the file loaded again.
std::function<tc::Program(const std::vector<std::pair<std::string, int64_t>>&)>
rebindInput(const InputOptions& input);

/// The attention form of the program and the pipeline options the search flags give.
struct PipelineSetup {
  attn::AttentionForm form;
  attn::PipelineOptions options; // refers to `input`, which must outlive it
  dse::PimSystem pim;            // a PIM target's system: the attention decode (docs/pim.md)
};
PipelineSetup pipelineSetup(const tc::Program& prog, const InputOptions& input,
                            const SearchOptions& search);

/// Recognises the attention form and explores its pipelines under the search flags.
attn::PipelineResult explorePipelines(const tc::Program& prog, const InputOptions& input,
                                      const SearchOptions& search);

/// The ranked table of pipelines `explore` prints.
std::string pipelineTable(const tc::Program& prog, const attn::PipelineResult& r, size_t top);

} // namespace rubick::cli
