// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shared by the DMA map tests: a map expanded group by group must give the host map.

#include "rubick/arch/DmaMap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace rubick::arch::test {

// Expands the map group by group and compares with the host map.
inline void expectReproduces(const DmaMap& d, const TensorMap& m, const std::string& what) {
  std::vector<std::vector<Location>> got(m.elements.size());
  for (int64_t gr = 0; gr < d.groupRows(); ++gr)
    for (int64_t gc = 0; gc < d.groupCols(); ++gc)
      for (int64_t l = 0; l < d.lanes; ++l) {
        auto [r, c] = d.element(gr, gc, l);
        for (int64_t k = 0; k < d.copies; ++k) {
          Location p = d.place(gr, gc, l, k);
          if (r >= d.rows || c >= d.cols) {
            EXPECT_EQ(p.bank, -1) << what;
            continue;
          }
          // A copy the element does not have (fewer PEs read it): a cell of no place.
          if (p.bank >= 0) got[static_cast<size_t>(r * d.cols + c)].push_back(p);
        }
      }
  for (auto& g : got)
    std::sort(g.begin(), g.end());
  EXPECT_EQ(got, m.elements) << what;
}

} // namespace rubick::arch::test
