// SPDX-License-Identifier: Apache-2.0
#pragma once
// `rubick verify` of a fused attention pipeline: the pipeline is emitted into WORK/<id>/, built
// in Verilator with rubick's testbench (the same harness as single designs: the pipeline top
// has the same host port, and its design.json the same per-element places), and run per trial.
// A trial passes when every element of O equals ref::attentionFixed (saturated to O's type)
// and the cycles from start to done equal the pipeline's latency (attn::pipelineTiming).

#include "rubick/attn/Pipeline.h"
#include "rubick/emit/PimDecode.h"
#include "rubick/verify/Verify.h"

#include <string>

namespace rubick::verify {

/// One trial's stimulus in the harness's format: seeded random Q, K, V over their whole type
/// range (extremes included), then the expected O from ref::attentionFixed per head.
std::string attentionStimulus(const tc::Program& prog, const attn::AttentionForm& f,
                              int64_t blockKeys, uint64_t seed);

/// Verifies one pipeline with o.workDir, o.runtimeDir, o.seed, o.trials and o.wave (o.jobs:
/// parallel compile jobs). Throws rubick::Error when Verilator is missing or the work directory
/// or shared runtime cannot be made; emit and build failures are reported in Result::error.
Result verifyAttention(const tc::Program& prog, const attn::AttentionForm& f,
                       const attn::PipelinePoint& p, const Options& o,
                       double* runtimeSeconds = nullptr);

/// Verifies an attention decode on PIM units (emit::packagePimDecode) like a PIM design: every
/// unit's banks modelled and preloaded with its K and V, Q written, O read back. A trial passes
/// when O equals ref::attentionFixed, no bank rule is broken and the cycles equal the decode's
/// prediction. Throws as verifyAttention.
Result verifyPimDecode(const tc::Program& prog, const attn::AttentionForm& f,
                       const emit::PimDecodePlan& plan, const dse::PimSystem& s, const Options& o,
                       double* runtimeSeconds = nullptr);

} // namespace rubick::verify
