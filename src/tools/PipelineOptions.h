#pragma once
// Multi-statement programs of the attention form: the pipeline search the explore, emit and
// verify commands share.

#include "InputOptions.h"
#include "SearchOptions.h"

#include "rubick/attn/Pipeline.h"
#include "rubick/dse/Pim.h"

#include <string>

namespace rubick::cli {

/// True when the command should work on the whole pipeline: several statements and no --stmt.
bool wantsPipeline(const tc::Program& prog, const SearchOptions& search);

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
