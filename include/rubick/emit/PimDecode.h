// SPDX-License-Identifier: Apache-2.0
#pragma once
// Attention decode on PIM units (docs/pim.md, "Attention decode"): one query against a KV cache
// placed across the units' banks, a block of keys at a time (the online softmax of
// ref::attentionFixed). Per block the scores q.K^T are one PIM design of the score statement (K
// streamed from the banks, q on chip), the weighted sum of V one PIM design of the value
// statement (V streamed, the block's exponentials E written on chip), and a sequencer with a
// one-lane vector unit does the softmax between them: the running maximum over the block's
// scores, alpha = exp(old max - new max), E = exp(score - max) into the value units and their
// sum, U and the sum rescaled by alpha, the value units' run, their U added in; at the end
// O = U / sum. Bit-exact with ref::attentionFixed with blocks of the same size.

#include "rubick/attn/AttentionForm.h"
#include "rubick/dse/Pim.h"
#include "rubick/emit/Pim.h"

#include <cstdint>
#include <string>

namespace rubick::emit {

struct PimDecodePlan {
  dse::PimDesign scores; // of the score statement, on `block`
  dse::PimDesign values; // of the value statement, on `block`
  tc::Program block;     // the program with the score and value statements over one block
  dse::ExploreOptions scoreOptions, valueOptions; // the element widths each was found with
  int64_t blockKeys = 0, blocks = 0;
};

/// The block size and the two designs: the most keys a block can have (dividing S, U within
/// int32) such that the scores have a buildable design keeping each score on chip in one unit
/// with K in the banks and the values one taking E on chip (the broadcast buffer or the units'
/// buffers) with V in the banks; each the fastest such. `base`: the target's constraints (its
/// element widths are replaced: scores and U int32, E 16 bits). Throws Unsupported when the
/// form is not a single query of one head or no block has both, saying why.
/// `blockKeys`: the block sizes to consider (--block-keys), largest first; empty: every divisor
/// of S. Throws rubick::Error naming --block-keys for a size that does not divide S or lets U
/// leave int32.
PimDecodePlan planPimDecode(const tc::Program& prog, const attn::AttentionForm& f,
                            const dse::PimSystem& s, const dse::ExploreOptions& base,
                            const std::vector<int64_t>& blockKeys = {});

struct PimDecodeTiming {
  int64_t scores = 0, max = 0, exp = 0, values = 0, accumulate = 0, normalise = 0, total = 0;
};

struct PimDecodePackage {
  PimPackage files;       // predictedCycles: start to done of the whole decode, exact
  PimDecodeTiming timing; // its phases, summed over the blocks
  int64_t scoreCycles = 0, valueCycles = 0; // one run of each design's units
};

/// Everything emit writes for the decode: both designs' units and tops (module prefixes
/// `<name>_sc` and `<name>_u`), the decode top `<name>_decode`, filelist.f, design.json (a PIM
/// design: Q, K, V in, O out, each unit's stream K then V block by block) and README.md.
PimDecodePackage packagePimDecode(const tc::Program& prog, const attn::AttentionForm& f,
                                  const PimDecodePlan& plan, const dse::PimSystem& s,
                                  const std::string& name);

/// The lines explore and emit print about a plan and its timing.
std::string describePimDecode(const tc::Program& prog, const attn::AttentionForm& f,
                              const PimDecodePlan& plan, const PimDecodePackage& pkg,
                              const dse::PimSystem& s);

} // namespace rubick::emit
