// SPDX-License-Identifier: Apache-2.0
#pragma once
// Helpers for the memory model's tests: two metrics are the same in every field.

#include "rubick/dse/Memory.h"

#include <gtest/gtest.h>

namespace rubick::dse::test {

inline void expectSameMetrics(const MemoryMetrics& a, const MemoryMetrics& b) {
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.computeCycles, b.computeCycles);
  EXPECT_EQ(a.busBytes, b.busBytes);
  EXPECT_EQ(a.bankBytes, b.bankBytes);
  EXPECT_EQ(a.compulsoryBytes, b.compulsoryBytes);
  EXPECT_EQ(a.bufferTiles, b.bufferTiles);
  EXPECT_EQ(a.memoryBound, b.memoryBound);
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    EXPECT_EQ(a.tensors[i].name, b.tensors[i].name);
    EXPECT_EQ(a.tensors[i].readBytes, b.tensors[i].readBytes) << a.tensors[i].name;
    EXPECT_EQ(a.tensors[i].writeBytes, b.tensors[i].writeBytes) << a.tensors[i].name;
    EXPECT_EQ(a.tensors[i].bankBytes, b.tensors[i].bankBytes) << a.tensors[i].name;
  }
}

} // namespace rubick::dse::test
