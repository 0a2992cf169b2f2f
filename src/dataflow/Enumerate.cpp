// SPDX-License-Identifier: Apache-2.0
// Shared parts of the dataflow-space searches: inner loop choices, tilings, bookkeeping.

#include "rubick/dataflow/Enumerate.h"

#include "SpaceCommon.h"

#include <algorithm>

namespace rubick::dataflow {
namespace detail {

std::vector<std::vector<int>> constantAxisPatterns(size_t k) {
  if (k == 3) return {{}};
  if (k == 2) return {{0}, {1}, {2}};
  return {{1, 2}, {0, 2}, {0, 1}};
}

bool isConstantAxis(const std::vector<int>& axes, int r) {
  return std::find(axes.begin(), axes.end(), r) != axes.end();
}

Dataflow skeleton(const StatementView& v, int64_t p, int64_t q, const std::vector<int>& loops) {
  Dataflow d;
  d.p = p;
  d.q = q;
  for (int l : loops)
    d.inner.push_back({l, v.extent[l]});
  d.s.assign(3, IntVec(loops.size(), 0));
  return d;
}

std::vector<ir::EntryKind> kindsOf(const std::vector<ir::OrientedEntry>& es) {
  std::vector<ir::EntryKind> k;
  for (const auto& e : es)
    k.push_back(e.kind);
  return k;
}

void Recorder::add(const Dataflow& tiled, const std::vector<ir::OrientedEntry>& entries,
                   EnumerationStats& stats) {
  Dataflow c = canonicalMirror(tiled);
  bool fx = c.s[0] != tiled.s[0], fy = c.s[1] != tiled.s[1];
  FoundDataflow f;
  f.dataflow = c;
  for (const ir::OrientedEntry& e : entries)
    f.entries.push_back(ir::mirrored(e, fx, fy));
  Dataflow untiled = c;
  for (InnerDim& in : untiled.inner)
    in.factor = 0;
  untiled.outer.clear();
  if (counted_.insert(untiled).second) ++stats.perCombination[kindsOf(f.entries)];
  found_.insert(std::move(f));
}

void Recorder::finish(EnumerationResult& res) {
  res.dataflows.assign(found_.begin(), found_.end());
  res.stats.realisable = res.dataflows.size();
}

} // namespace detail

size_t arraySpan(int64_t p, int64_t q) {
  return 1 + (p >= 2 ? 1 : 0) + (q >= 2 ? 1 : 0);
}

std::vector<std::vector<int>> innerLoopSets(const StatementView& v, size_t maxLoops) {
  std::vector<int> usable;
  for (size_t l = 0; l < v.loops.size(); ++l)
    if (v.extent[l] >= 2) usable.push_back(static_cast<int>(l));
  size_t k = std::min<size_t>(std::min<size_t>(3, maxLoops), usable.size());
  std::vector<std::vector<int>> out;
  if (k == 0) return out;
  std::vector<bool> pick(usable.size(), false);
  std::fill(pick.begin(), pick.begin() + k, true);
  do {
    std::vector<int> set;
    for (size_t i = 0; i < usable.size(); ++i)
      if (pick[i]) set.push_back(usable[i]);
    out.push_back(set);
  } while (std::prev_permutation(pick.begin(), pick.end()));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Dataflow> tilings(const StatementView& v, const Dataflow& d, Tiling t) {
  std::vector<Dataflow> out;
  Dataflow cur = d;
  if (t == Tiling::Full || t == Tiling::Min || t == Tiling::None) {
    for (InnerDim& in : cur.inner)
      in.factor = t == Tiling::Min ? 2 : v.extent[in.loop];
    cur.outer = canonicalOuter(cur.inner, v.extent);
    if (t == Tiling::None || cur.fitsArray()) out.push_back(cur);
    return out;
  }
  // Odometer over factors 2..extent.
  for (InnerDim& in : cur.inner)
    in.factor = 2;
  while (true) {
    cur.outer = canonicalOuter(cur.inner, v.extent);
    if (cur.fitsArray()) out.push_back(cur);
    size_t i = 0;
    while (i < cur.k()) {
      if (++cur.inner[i].factor <= v.extent[cur.inner[i].loop]) break;
      cur.inner[i].factor = 2;
      ++i;
    }
    if (i == cur.k()) break;
  }
  return out;
}

} // namespace rubick::dataflow
