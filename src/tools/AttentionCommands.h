// SPDX-License-Identifier: Apache-2.0
#pragma once
// `rubick emit` and `rubick verify` of an attention program as one fused pipeline (the emit and
// verify commands hand multi-statement programs here, as explore does).

#include "InputOptions.h"
#include "PipelineOptions.h"
#include "SearchOptions.h"

#include "rubick/attn/Pipeline.h"
#include "rubick/dse/Select.h"
#include "rubick/support/OwnedOutput.h"
#include "rubick/verify/Verify.h"

#include <string>

namespace rubick::cli {

/// An attention program on a PIM target: the decode's two designs and its run (explore's text).
std::string pimDecodeText(const tc::Program& prog, const PipelineSetup& setup);

/// Emits the pipeline the selectors choose (attn::selectPipeline) into `output` (replaced as
/// `how` allows); `name` overrides the module prefix.
int emitPipeline(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                 const dse::Selection& selection, const std::string& output,
                 const std::string& name, Overwrite how);

struct PipelineVerifyOptions {
  dse::Selection selection;
  bool timing = false;
  verify::Options run; // work and runtime directories, seed, trials, waveform, build mode
};

/// One simulated design's report (a pipeline, a decode, a chain): `title`, the result line
/// (`kind` heads its last column), problems and runtime; 0 when it passed.
int report(const std::string& title, const char* kind, int idWidth, const verify::Result& res,
           const PipelineVerifyOptions& o, double runtimeSeconds);

/// Simulates the chosen pipeline; 0 when every trial passes, 1 otherwise.
int verifyPipeline(const tc::Program& prog, const InputOptions& input, const SearchOptions& search,
                   const PipelineVerifyOptions& o);

} // namespace rubick::cli
