// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Tilings.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace rubick::dse {

using dataflow::Dataflow;

namespace {

struct Fit {
  const Dataflow& d;
  std::vector<size_t> spatial; // inner coordinates that feed x or y
  int64_t p, q;

  // x and y extents for factors `f` (over all inner coordinates).
  bool fits(const std::vector<int64_t>& f) const {
    int64_t ext[2] = {1, 1};
    for (int r = 0; r < 2; ++r)
      for (size_t c = 0; c < f.size(); ++c)
        ext[r] += std::abs(d.s[r][c]) * (f[c] - 1);
    return ext[0] <= p && ext[1] <= q;
  }

  // Largest factor in [2, hi] for coordinate c that fits with the others at `f` (0: none), in
  // closed form: the array extents are linear in each factor (the cost must not grow with P).
  int64_t largest(const std::vector<int64_t>& f, size_t c, int64_t hi) const {
    const int64_t lim[2] = {p, q};
    int64_t best = hi;
    for (int r = 0; r < 2; ++r) {
      int64_t rest = 1; // the extent with factor 1 for c
      for (size_t o = 0; o < f.size(); ++o)
        if (o != c) rest += std::abs(d.s[r][o]) * (f[o] - 1);
      const int64_t room = lim[r] - rest;
      if (room < 0) return 0;
      if (d.s[r][c] != 0) best = std::min(best, room / std::abs(d.s[r][c]) + 1);
    }
    return best >= 2 ? best : 0;
  }
};

} // namespace

std::vector<Dataflow> exploreTilings(const dataflow::StatementView& v, const Dataflow& untiled,
                                     int64_t p, int64_t q) {
  Dataflow d = untiled;
  d.p = p;
  d.q = q;
  const size_t k = d.k();
  std::vector<int64_t> f(k), ext(k);
  Fit fit{d, {}, p, q};
  for (size_t c = 0; c < k; ++c) {
    ext[c] = v.extent[d.inner[c].loop];
    f[c] = ext[c];
    if (d.s[0][c] != 0 || d.s[1][c] != 0) {
      fit.spatial.push_back(c);
      f[c] = 2;
    }
  }
  std::set<std::vector<int64_t>> combos;
  if (fit.fits(f)) {
    // Depth-first over the spatial coordinates; the last one takes its largest fitting value.
    std::vector<int64_t> cur = f;
    auto maximal = [&](const std::vector<int64_t>& g) {
      for (size_t c : fit.spatial) {
        if (g[c] == ext[c]) continue;
        std::vector<int64_t> h = g;
        ++h[c];
        if (fit.fits(h)) return false;
      }
      return true;
    };
    auto rec = [&](auto&& self, size_t i) -> void {
      size_t c = fit.spatial[i];
      if (i + 1 == fit.spatial.size()) {
        const int64_t best = fit.largest(cur, c, ext[c]);
        if (best) {
          cur[c] = best;
          if (maximal(cur)) combos.insert(cur);
        }
        cur[c] = 2;
        return;
      }
      for (int64_t x = 2; x <= ext[c]; ++x) {
        cur[c] = x;
        if (!fit.fits(cur)) break;
        self(self, i + 1);
      }
      cur[c] = 2;
    };
    if (fit.spatial.empty())
      combos.insert(cur);
    else
      rec(rec, 0);
  }
  std::set<std::vector<int64_t>> withBalanced = combos;
  for (const auto& g : combos) {
    std::vector<int64_t> b = g;
    for (size_t c : fit.spatial) {
      int64_t tiles = (ext[c] + g[c] - 1) / g[c];
      b[c] = (ext[c] + tiles - 1) / tiles;
      if (b[c] < 2) b[c] = g[c];
    }
    if (fit.fits(b)) withBalanced.insert(b);
  }
  std::vector<Dataflow> out;
  for (const auto& g : withBalanced) {
    Dataflow t = d;
    for (size_t c = 0; c < k; ++c)
      t.inner[c].factor = g[c];
    t.outer = dataflow::canonicalOuter(t.inner, v.extent);
    out.push_back(t);
  }
  return out;
}

} // namespace rubick::dse
