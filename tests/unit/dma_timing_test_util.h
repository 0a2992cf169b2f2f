// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the DMA timing tests: an engine and a bus described by their few numbers.

#include "rubick/arch/DmaTiming.h"

#include <cstdint>

namespace rubick::arch::test {

inline DmaEngine engine(int64_t elemBytes, int64_t lanes, bool rowLanes, int64_t rows, int64_t cols,
                        int64_t blockBeats = DmaEngine{}.blockBeats) {
  DmaEngine e;
  e.elemBytes = elemBytes;
  e.lanes = lanes;
  e.rowLanes = rowLanes;
  e.rows = rows;
  e.cols = cols;
  e.blockBeats = blockBeats;
  return e;
}

inline BusTiming bus(int64_t bytes, int64_t latency, int64_t spacing = 1) {
  BusTiming b;
  b.busBytes = bytes;
  b.latency = latency;
  b.beatSpacing = spacing;
  b.burstBeats = 16;
  b.outstanding = latency + 2;
  return b;
}

} // namespace rubick::arch::test
