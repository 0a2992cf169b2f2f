// SPDX-License-Identifier: Apache-2.0
// The reference for the explorer: per array shape, every space-time matrix with coefficients in
// [-1, 1] is analysed on its own (nonsingular? each tensor's movement, reuse space and entry by
// decomposition) before the same tilings, metrics and constraints. No pruning in IR space.

#include "rubick/dse/Explore.h"

#include "ExploreCommon.h"

#include <algorithm>
#include <set>

namespace rubick::dse {

using namespace detail;
using dataflow::Dataflow;

namespace {

std::vector<std::vector<int>> constantAxisPatterns(size_t k) {
  if (k == 3) return {{}};
  if (k == 2) return {{0}, {1}, {2}};
  return {{1, 2}, {0, 2}, {0, 1}};
}

// Every realisable matrix, analysed one by one.
std::vector<dataflow::FoundDataflow> analyseAll(const dataflow::StatementView& v) {
  std::vector<dataflow::FoundDataflow> out;
  std::set<Dataflow> seen;
  for (const std::vector<int>& loops : dataflow::innerLoopSets(v)) {
    const size_t k = loops.size();
    for (const std::vector<int>& constAxes : constantAxisPatterns(k)) {
      std::vector<std::pair<int, size_t>> cells;
      for (int r = 0; r < 3; ++r)
        if (std::find(constAxes.begin(), constAxes.end(), r) == constAxes.end())
          for (size_t c = 0; c < k; ++c)
            cells.emplace_back(r, c);
      std::vector<int64_t> val(cells.size(), -1);
      while (true) {
        Dataflow d;
        for (int l : loops)
          d.inner.push_back({l, v.extent[l]});
        d.s.assign(3, IntVec(k, 0));
        for (size_t i = 0; i < cells.size(); ++i)
          d.s[cells[i].first][cells[i].second] = val[i];
        d.outer = dataflow::canonicalOuter(d.inner, v.extent);
        d.p = d.q = int64_t(1) << 30;
        if (dataflow::checkWellFormed(d, v).empty()) {
          dataflow::Decomposition dec = dataflow::decompose(v, d);
          if (dec.ok()) {
            dataflow::FoundDataflow f;
            f.dataflow = d;
            for (const auto& t : dec.tensors)
              f.entries.push_back(*t.entry);
            dataflow::FoundDataflow g = canonicalTimeAndMirror(f);
            if (seen.insert(g.dataflow).second) out.push_back(std::move(g));
          }
        }
        size_t i = 0;
        while (i < val.size() && ++val[i] > 1)
          val[i++] = -1;
        if (i == val.size()) break;
      }
    }
  }
  return out;
}

} // namespace

ExploreResult exploreBruteForce(const dataflow::StatementView& v, const ExploreOptions& o) {
  ExploreOptions unpruned = o;
  unpruned.prune = false;
  const Constraints& c = o.constraints;
  ExploreResult res;
  std::vector<size_t> matrices(c.arrays.size());
  Collector collect(v, unpruned);
  runParallel(
      c.arrays.size(), unpruned,
      [&](size_t i) {
        std::vector<dataflow::FoundDataflow> all = analyseAll(v); // per shape: no reuse across
        matrices[i] = all.size();
        Batch b;
        for (const dataflow::FoundDataflow& f : all)
          costMatrix(v, unpruned, c.arrays[i], f, b);
        collect.add(i, std::move(b));
      },
      &collect.found());
  collect.finish(res);
  res.stats.spaceTimeMatrices = matrices.empty() ? 0 : matrices.front();
  return res;
}

} // namespace rubick::dse
