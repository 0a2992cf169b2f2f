// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Pareto.h"

#include "rubick/dse/Metrics.h"

#include <algorithm>
#include <numeric>

namespace rubick::dse {

static_assert(kParetoAxes == 3, "ParetoKey holds three axes");

ParetoKey paretoKey(const Metrics& m, bool useArea) {
  // The axes come from kMetrics; `useArea` says which of the rows sharing an axis the objective
  // picks (area, or wires for every other objective).
  static const auto area = paretoAxes(Objective::Area), wires = paretoAxes(Objective::Wires);
  const auto& axes = useArea ? area : wires;
  return {axes[0]->read(m).asDouble(), axes[1]->read(m).asDouble(), axes[2]->read(m).asDouble()};
}

bool dominates(const ParetoKey& x, const ParetoKey& y) {
  return x.a <= y.a && x.b <= y.b && x.c <= y.c && (x.a < y.a || x.b < y.b || x.c < y.c);
}

void markPareto(std::vector<DesignPoint>& points, bool useArea) {
  std::vector<ParetoKey> keys;
  for (const DesignPoint& d : points)
    keys.push_back(paretoKey(d.metrics, useArea));
  // Sweep in order of the first metric; a point is dominated only by points not after it.
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return keys[x] < keys[y]; });
  std::vector<ParetoKey> front;
  for (size_t i : order) {
    const ParetoKey& k = keys[i];
    bool dominated = std::any_of(front.begin(), front.end(),
                                 [&](const ParetoKey& f) { return dominates(f, k); });
    // Equal keys are all on the front (none dominates the other).
    points[i].pareto = !dominated;
    if (!dominated) front.push_back(k);
  }
}

} // namespace rubick::dse
