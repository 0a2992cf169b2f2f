// SPDX-License-Identifier: Apache-2.0
#pragma once
// The stimulus of one trial of a single statement (private to src/verify): random inputs of
// every access from the seed, each wrapped to the width the hardware stores it in, then the
// reference model's expected output from those inputs.

#include "rubick/attn/AttentionForm.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/dse/Epilogue.h"
#include "rubick/frontend/Program.h"
#include "rubick/ref/Interpreter.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace rubick::verify {

/// `elementBits`: per access, the stored width (--dtype or a target's may be narrower than
/// the declared type; empty: the declared types).
std::string stimulus(const tc::Program& prog, size_t stmt, const dataflow::StatementView& v,
                     uint64_t seed, const std::vector<int64_t>& elementBits);

/// One section of a stimulus: "KIND SELECT COUNT" (tensor, expect, initial), then the values.
void section(std::ostream& os, const char* kind, size_t select, const std::vector<int64_t>& xs);

/// Values for `e`'s operands in `data`: the type's extremes and small values besides the full
/// range. `tensorOf` maps the epilogue's program's tensors to `data`'s (empty: the same).
void epilogueOperandValues(ref::TensorData& data, const dse::Epilogue& e,
                           const std::vector<int>& tensorOf, uint64_t seed);

/// The stimulus of a contraction with an epilogue: random inputs of the whole program, every
/// statement run by the reference model; the select numbers are the memory design's base
/// registers (the output, the contraction's inputs, then the epilogue's operands).
std::string epilogueStimulus(const tc::Program& prog, const dataflow::StatementView& v,
                             const dse::Epilogue& e, uint64_t seed,
                             const std::vector<int64_t>& elementBits);

/// The output of attention form `f` (every head, saturated to O's type) from Q, K and V as the
/// pipeline with key blocks of `blockKeys` computes it (ref::attentionFixed).
std::vector<int64_t> attentionOutput(const tc::Program& prog, const attn::AttentionForm& f,
                                     const std::vector<int64_t>& q, const std::vector<int64_t>& k,
                                     const std::vector<int64_t>& v, int64_t blockKeys);

} // namespace rubick::verify
