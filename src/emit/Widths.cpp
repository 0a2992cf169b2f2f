// SPDX-License-Identifier: Apache-2.0
#include "Widths.h"

#include <algorithm>
#include <cstdlib>

namespace rubick::emit::detail {

int64_t validWidth(const arch::Plan& pl) {
  int64_t tauMax = std::max(-pl.schedule.first, pl.schedule.last);
  int64_t bound = 1;
  for (const arch::Coordinate& c : pl.coords) {
    int64_t bmax = 0;
    for (int64_t b : c.b)
      bmax = std::max(bmax, std::abs(b));
    bound = std::max({bound, std::abs(c.a) * tauMax + bmax, c.factor});
  }
  return arch::bitsFor(bound + 1) + 2;
}

int64_t timeWidth(const arch::Plan& pl) {
  int64_t bound = std::max(-pl.schedule.first, pl.schedule.last);
  int64_t extra = 0;
  for (const arch::TensorPlan& t : pl.tensors) {
    int64_t hop = 0;
    for (int64_t h : t.hop0)
      hop = std::max(hop, std::abs(h));
    extra = std::max(extra,
                     std::abs(t.teMin) + std::abs(t.teMax) + hop + pl.p + pl.q + t.treeDepth + 4);
  }
  return arch::bitsFor(bound + extra + 1) + 2;
}

bool limitVaries(const arch::Coordinate& c) {
  return c.outerDim >= 0 && c.lastLimit != c.factor;
}

} // namespace rubick::emit::detail
