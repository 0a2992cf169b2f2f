#include "rubick/dse/Pareto.h"

#include <algorithm>
#include <numeric>

namespace rubick::dse {

void markPareto(std::vector<DesignPoint>& points, bool useArea) {
  struct Key {
    double a, b, c;
  };
  std::vector<Key> keys;
  for (const DesignPoint& d : points)
    keys.push_back({double(d.metrics.latency), useArea ? d.metrics.area : double(d.metrics.wires),
                    double(d.metrics.bufferBytes)});
  // Sweep in order of the first metric; a point is dominated only by points not after it.
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return std::tie(keys[x].a, keys[x].b, keys[x].c) < std::tie(keys[y].a, keys[y].b, keys[y].c);
  });
  std::vector<Key> front;
  for (size_t i : order) {
    const Key& k = keys[i];
    bool dominated = false;
    for (const Key& f : front)
      if (f.a <= k.a && f.b <= k.b && f.c <= k.c && (f.a < k.a || f.b < k.b || f.c < k.c)) {
        dominated = true;
        break;
      }
    // Equal keys are all on the front (none dominates the other).
    points[i].pareto = !dominated;
    if (!dominated) front.push_back(k);
  }
}

} // namespace rubick::dse
