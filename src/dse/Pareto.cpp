#include "rubick/dse/Pareto.h"

#include <algorithm>
#include <numeric>

namespace rubick::dse {

ParetoKey paretoKey(const Metrics& m, bool useArea) {
  return {double(m.latency), useArea ? m.area : double(m.wires), double(m.bufferBytes)};
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
