// SPDX-License-Identifier: Apache-2.0
// Brute force over space-time matrices: every S with coefficients in [-bound, bound], legality
// checked point by point on the domain, then decomposed. The reference the IR search is
// compared against; it shares only the bookkeeping (Recorder) and the tiling odometer.

#include "rubick/dataflow/Enumerate.h"

#include "SpaceCommon.h"

#include <algorithm>

namespace rubick::dataflow {

using namespace detail;

EnumerationResult bruteForceDataflows(const StatementView& v, int64_t p, int64_t q,
                                      const EnumerationOptions& o) {
  EnumerationResult res;
  Recorder rec;
  const int b = o.coefficientBound;
  for (const std::vector<int>& loops : innerLoopSets(v, arraySpan(p, q))) {
    const size_t k = loops.size();
    for (const std::vector<int>& constAxes : constantAxisPatterns(k)) {
      ++res.stats.innerChoices;
      std::vector<std::pair<int, size_t>> cells;
      for (int r = 0; r < 3; ++r)
        if (!isConstantAxis(constAxes, r))
          for (size_t c = 0; c < k; ++c)
            cells.emplace_back(r, c);
      std::vector<int64_t> val(cells.size(), -b);
      while (true) {
        ++res.stats.candidates;
        Dataflow d = skeleton(v, p, q, loops);
        for (size_t i = 0; i < cells.size(); ++i)
          d.s[cells[i].first][cells[i].second] = val[i];
        d.outer = canonicalOuter(d.inner, v.extent);
        if (d.constantAxes().size() == 3 - k && !d.completedS().det().isZero()) {
          for (const Dataflow& t : tilings(v, d, o.tiling)) {
            // Legality point by point: distinct (PE, time), non-negative, inside the array.
            std::set<IntVec> seen;
            bool legal = true;
            IntVec n(v.loops.size(), 0);
            while (legal) {
              IntVec st = t.apply(n);
              legal = seen.insert(st).second && st[0] >= 0 && st[0] < p && st[1] >= 0 &&
                      st[1] < q &&
                      std::all_of(st.begin() + 2, st.end(), [](int64_t x) { return x >= 0; });
              size_t l = 0;
              while (l < n.size() && ++n[l] == v.extent[l])
                n[l++] = 0;
              if (l == n.size()) break;
            }
            if (!legal) continue;
            Decomposition dec = decompose(v, t);
            if (!dec.ok()) continue;
            std::vector<ir::OrientedEntry> es;
            for (const TensorDecomposition& td : dec.tensors)
              es.push_back(*td.entry);
            if (o.allowEntry) {
              bool allowed = true;
              for (size_t a = 0; a < es.size(); ++a)
                allowed &= o.allowEntry(a, es[a]);
              if (!allowed) continue;
            }
            rec.add(t, es, res.stats);
          }
        }
        size_t i = 0;
        while (i < val.size() && ++val[i] > b)
          val[i++] = -b;
        if (i == val.size()) break;
      }
    }
  }
  rec.finish(res);
  return res;
}

} // namespace rubick::dataflow
