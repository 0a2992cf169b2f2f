// SPDX-License-Identifier: Apache-2.0
#pragma once
// Softmax attention of one head, O = softmax(Q K^T) V, in the fixed-point arithmetic of the
// attention hardware (bit-exact target of its simulation) and in double precision (the yardstick
// for its error). Multi-head attention is one call per head. docs/attention-numerics.md defines
// the arithmetic and reports the error.
//
// Matrices are row-major: Q[L][D], K[S][D], V[S][D], O[L][D] (L queries, S keys, head
// dimension D). Inputs are int8 values held in
// int64 (wider values work as long as the scores Q K^T and the sums below fit in 64 bits).

#include <cstdint>
#include <vector>

namespace rubick::ref {

/// The online (flash) algorithm over blocks of `blockKeys` keys, the last block possibly shorter.
/// Per query row i, with m = -infinity, l = 0, U = 0 at the start, each block does
///   m' = max(m, max_j Sc(i,j));  alpha = exp(m - m') (0 for the first block);
///   E(i,j) = exp(Sc(i,j) - m');  l = rescaleQ15(l, alpha) + sum_j E(i,j);
///   U(i,d) = rescaleQ15(U(i,d), alpha) + sum_j E(i,j) V(j,d);  m = m'
/// and at the end O(i,d) = U(i,d) / l(i), with exp and / from rubick/ref/Fixed.h (argument
/// format exp_frac = expFrac). Sums are exact. With blockKeys >= S this is exactly the
/// six-statement examples/attention.tc under interpret() (up to the final saturation).
/// Returns O unsaturated (see saturateValues). Throws std::invalid_argument on bad sizes.
std::vector<int64_t> attentionFixed(const std::vector<int64_t>& q, const std::vector<int64_t>& k,
                                    const std::vector<int64_t>& v, int64_t L, int64_t S, int64_t D,
                                    int expFrac, int64_t blockKeys);

/// The same with a value dimension Dv that may differ from D: V[S][Dv], O[L][Dv].
std::vector<int64_t> attentionFixed(const std::vector<int64_t>& q, const std::vector<int64_t>& k,
                                    const std::vector<int64_t>& v, int64_t L, int64_t S, int64_t D,
                                    int64_t Dv, int expFrac, int64_t blockKeys);

/// O = softmax_j((Q K^T)(i,j) / 2^expFrac) V in double precision, from the same integers.
std::vector<double> attentionFloat(const std::vector<int64_t>& q, const std::vector<int64_t>& k,
                                   const std::vector<int64_t>& v, int64_t L, int64_t S, int64_t D,
                                   int expFrac);

/// Every value clamped to the signed `bits`-bit range (8 for an int8 output, 32 for int32).
std::vector<int64_t> saturateValues(const std::vector<int64_t>& values, int bits);

} // namespace rubick::ref
