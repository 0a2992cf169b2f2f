// SPDX-License-Identifier: Apache-2.0
#pragma once
// The attention pipeline's vector unit: the per-row state (running max m, alpha, running sum
// l, U_acc) and its arithmetic, W lanes (elements) per cycle in the row max, exp and accumulate
// passes, min(W, L) rows at a time in normalise (private to src/emit).

#include <cstdint>
#include <string>

namespace rubick::emit::detail {

struct VectorParams {
  std::string name;        // module prefix: the module is <name>_vector
  int64_t rows = 1;        // L
  int64_t cols = 1;        // Dv
  int64_t rowBits = 1;     // row index width: bitsFor(L)
  int64_t elemBits = 1;    // U_acc index width: bitsFor(L * Dv)
  int64_t scoreBits = 32;  // scores as GEMM 1 stores them (signed)
  int64_t resultBits = 32; // U as GEMM 2 stores it (signed)
  int64_t sumBits = 32;    // running sum l (signed, always >= 0)
  int64_t accBits = 40;    // U_acc (signed)
  int64_t outBits = 8;     // O (signed, saturated)
  int expFrac = 12;
  int64_t lanes = 1;     // W
  int64_t normLanes = 1; // rows normalised at once: attn::normaliseLanes(W, L)
};

/// Verilog of `<name>_vector`. Ports and timing are described in the generated text.
std::string vectorModule(const VectorParams& v);

} // namespace rubick::emit::detail
