// SPDX-License-Identifier: Apache-2.0
#pragma once
// Naming and choosing an attention pipeline, for `emit` and `verify`.
//
// A pipeline is named either by its ID (`--point ID`: found among the explored pipelines, so
// the whole pipeline search runs) or by its spec, which names every choice the explorer makes:
//
//   block=16,lanes=4,gemm1=<GEMM 1 design ID>,gemm2=<GEMM 2 design ID>
//
// (`--pipeline SPEC`: no pipeline search; `explore` prints rank 1's spec). From a spec, each
// GEMM's design is found by its ID (dse::findDesign) on the program rebound to the block size,
// and only that one pipeline is costed and checked against the vector unit (widthProblem) and
// the buffer budget; it has the ID, latency and buffer `explore` lists for it. A spec may also
// combine GEMM designs the explorer does not pair (it keeps the best few of each GEMM).

#include "rubick/attn/Pipeline.h"
#include "rubick/dse/Select.h"

#include <string>

namespace rubick::attn {

struct PipelineSpec {
  int64_t blockKeys = 0;
  int64_t lanes = 0;
  std::string gemm1, gemm2; // design IDs
};

/// Parses `block=N,lanes=W,gemm1=ID,gemm2=ID` (keys in any order, each exactly once). Throws
/// rubick::Error (origin `origin`) naming what is wrong and showing the expected form.
PipelineSpec parsePipelineSpec(const std::string& text, const std::string& origin = "--pipeline");

/// The spec of a pipeline, keys in the order above.
std::string pipelineSpec(const PipelinePoint& p);

/// The pipeline `spec` names, built without the pipeline search (only the two named GEMM designs
/// and the one pipeline are costed). The block must suit the program (and be
/// among --block-keys when they are given), the lanes 1 to 64 (among --vector-lanes when given);
/// each GEMM ID must be a design the constraints allow for that block. Throws rubick::Error
/// (origin --pipeline) otherwise, or when the vector unit cannot take the pipeline or it
/// exceeds the buffer budget.
PipelinePoint findPipeline(const tc::Program& prog, const AttentionForm& form,
                           const PipelineOptions& o, const PipelineSpec& spec);

/// The pipeline the selectors choose: --pipeline SPEC (findPipeline), --point ID (searched) or
/// the best. Single-statement selectors (--dataflow, --entries T=..., --layout, --all, --cover,
/// --skip, --limit) are refused. `form` of the result is the program's.
PipelinePoint selectPipeline(const tc::Program& prog, const AttentionForm& form,
                             const PipelineOptions& o, const dse::Selection& s);

} // namespace rubick::attn
