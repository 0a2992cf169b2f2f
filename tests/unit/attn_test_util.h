// SPDX-License-Identifier: Apache-2.0
#pragma once
// The single-head attention program the attention unit tests share, and the options of their
// small pipeline searches.

#include "rubick/attn/Pipeline.h"

#include "tc_test_util.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rubick::test {

/// Six statements of softmax attention; sizes L, S, D and Dv left to the test.
inline const char* kAttentionSingleHead = R"(
def attention(int8(L,D) Q, int8(S,D) K, int8(S,Dv) V) -> (O) {
    Sc(i,j) +=! Q(i,d) * K(j,d)
    mx(i) max=! Sc(i,j)
    E(i,j) = exp(Sc(i,j) - mx(i))
    sm(i) +=! E(i,j)
    U(i,e) +=! E(i,j) * V(j,e)
    O(i,e) = U(i,e) / sm(i)
})";

/// A small, single-threaded pipeline search on `array` x `array` arrays: the given key-block
/// sizes, designs per GEMM and vector widths; a block size rebinds `program` (its text) to it.
inline attn::PipelineOptions smallPipeline(const char* program, int64_t array,
                                           std::vector<int64_t> blockKeys, size_t perGemm,
                                           std::vector<int64_t> lanes) {
  attn::PipelineOptions o;
  o.explore.constraints.arrays = {{array, array}};
  o.explore.threads = 1;
  o.blockKeys = std::move(blockKeys);
  o.perGemm = perGemm;
  o.lanes = std::move(lanes);
  o.rebind = [program](const std::vector<std::pair<std::string, int64_t>>& sizes) {
    tc::SemaOptions so;
    for (const auto& [n, v] : sizes)
      so.sizes.push_back({n, v, {}});
    return analyzeText(program, so);
  };
  return o;
}

} // namespace rubick::test
