// SPDX-License-Identifier: Apache-2.0
#pragma once
// `rubick verify` of a chain built as hardware (docs/fusion.md, "Chains as hardware"): the
// chain's top in the memory harness, every output and intermediate compared with the
// reference model running the whole program, and the cycles with arch::chainTiming's.

#include "rubick/arch/ChainPlan.h"
#include "rubick/emit/Chain.h"
#include "rubick/verify/Verify.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::verify {

/// One trial's stimulus: random program inputs (epilogue operands as the epilogue's stimulus
/// draws them), each wrapped to the width the chain moves it at, every statement run by the
/// reference model; sections numbered by the chain's base registers.
std::string chainStimulus(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
                          const arch::ChainPlan& c, uint64_t seed);

/// Builds and simulates the chain `name` of `prog` (o.trials trials, tensors placed anew in
/// each; with --dram, the prediction within kDramTolerance). Throws rubick::Error as
/// verifyDesigns does.
Result verifyChain(const tc::Program& prog, const std::vector<emit::ChainStageDesign>& s,
                   const std::string& name, const Options& o, double* runtimeSeconds = nullptr);

} // namespace rubick::verify
