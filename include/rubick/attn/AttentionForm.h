// SPDX-License-Identifier: Apache-2.0
#pragma once
// Recognises the attention form in a multi-statement TC program, so the statements can be
// mapped onto one fused pipeline (two GEMM arrays and a vector unit):
//
//   S0  Sc(i, j) +=! Q(i, d) * K(j, d)      scores            (GEMM 1, on an array)
//   S1  mx(i)    max=! Sc(i, j)             row maximum       (vector unit)
//   S2  E(i, j)  = exp(Sc(i, j) - mx(i))    exponentials      (vector unit)
//   S3  sm(i)    +=! E(i, j)                row sum           (vector unit)
//   S4  U(i, e)  +=! E(i, j) * V(j, e)      weighted values   (GEMM 2, on an array)
//   S5  O(i, e)  = U(i, e) / sm(i)          normalisation     (vector unit)
//
// Names are free; what is matched is the structure: which tensor each statement reads, which
// loops index it, the operators. Q, K and V may be indexed in either order in their two
// dimensions (K(j, d) or K(d, j): a transposed K is a data layout, not a pass). Sc, mx, E, sm
// and U must be locals and O the only output. An optional leading head loop h indexing every
// tensor first (Q(h, i, d), ...) makes it multi-head: the heads run one after another.

#include "rubick/frontend/Program.h"
#include "rubick/support/SourceFile.h"

#include <memory>
#include <string>

namespace rubick::attn {

struct AttentionForm {
  // Statements, in the order above.
  size_t score = 0, rowMax = 1, exp = 2, rowSum = 3, values = 4, normalise = 5;
  // Tensors (indices into Program::tensors).
  int q = -1, k = -1, v = -1, o = -1, scores = -1, max = -1, e = -1, sum = -1, u = -1;
  bool multiHead = false;
  int64_t heads = 1;
  int64_t l = 0, s = 0, d = 0, dv = 0; // queries, keys, head dimension, value dimension
  std::string keySize;                 // the size symbol of the key dimension ("S"), if any
  std::string headSize;                // multi-head: the size symbol of the heads ("H"), if any
  // Which dimension of each input (counting the head dimension) is indexed by the query row
  // (Q) or the key (K, V): Q(i, d) has queryDim 0, Kt(d, j) keyDimK 1, with heads one more.
  int queryDim = 0, keyDimK = 0, keyDimV = 0;
};

/// Matches the attention form; throws rubick::Error at the first statement that does not fit,
/// saying what was expected there.
AttentionForm recogniseAttention(const tc::Program& prog,
                                 const std::shared_ptr<const SourceFile>& file);

/// Why `prog` is not the attention form, without the advice recogniseAttention adds ("": it is).
std::string attentionMismatch(const tc::Program& prog);

} // namespace rubick::attn
