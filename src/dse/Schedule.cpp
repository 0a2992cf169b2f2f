// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/Schedule.h"

#include "rubick/dse/PortWindows.h"

#include <algorithm>
#include <climits>

namespace rubick::dse {

using dataflow::Dataflow;

int64_t treeDepth(int64_t n) {
  int64_t d = 0;
  while ((int64_t(1) << d) < n)
    ++d;
  return d;
}

std::pair<int64_t, int64_t> rangeOverTile(const Dataflow& d, const std::array<int64_t, 3>& form,
                                          int64_t constant) {
  int64_t lo = constant, hi = constant;
  for (size_t c = 0; c < d.k(); ++c) {
    int64_t coef = 0;
    for (int r = 0; r < 3; ++r)
      coef += form[r] * d.s[r][c];
    // The offset shifts every coordinate to start at 0: its own lower end.
    int64_t base = 0;
    for (int r = 0; r < 3; ++r)
      if (d.s[r][c] < 0) base -= form[r] * d.s[r][c] * (d.inner[c].factor - 1);
    lo += base;
    hi += base;
    int64_t span = coef * (d.inner[c].factor - 1);
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}

namespace {

// Largest min(A(u), B(u)) over the box 0 <= u_c < f[c], A and B affine in u. Coordinates on
// which A and B agree in direction sit at the better end; of those that trade A against B, all
// but the longest are enumerated and the longest is solved at the crossing point. Dataflows have
// at most 3 inner coordinates, so at most two are enumerated, the shortest ones.
int64_t maxMinOverBox(int64_t a0, int64_t b0, std::vector<int64_t> a, std::vector<int64_t> b,
                      const std::vector<int64_t>& f) {
  std::vector<size_t> trade;
  for (size_t c = 0; c < f.size(); ++c) {
    const int64_t top = f[c] - 1;
    if ((a[c] >= 0 && b[c] >= 0) || (a[c] <= 0 && b[c] <= 0)) {
      if (a[c] + b[c] > 0) a0 += a[c] * top, b0 += b[c] * top;
      continue;
    }
    if (a[c] < 0) { // u -> top - u: A rises and B falls along the coordinate
      a0 += a[c] * top, b0 += b[c] * top;
      a[c] = -a[c], b[c] = -b[c];
    }
    trade.push_back(c);
  }
  if (trade.empty()) return std::min(a0, b0);
  std::sort(trade.begin(), trade.end(), [&](size_t x, size_t y) { return f[x] < f[y]; });
  const size_t last = trade.back();
  trade.pop_back();
  // min(A0 + al u, B0 - be u) peaks where the two lines cross: try the integers either side.
  auto solveLast = [&](int64_t A0, int64_t B0) {
    const int64_t al = a[last], be = -b[last], top = f[last] - 1;
    const int64_t num = B0 - A0, den = al + be;
    int64_t fl = num >= 0 ? num / den : -((-num + den - 1) / den);
    int64_t best = INT64_MIN;
    for (int64_t u : {fl, fl + 1}) {
      u = std::clamp<int64_t>(u, 0, top);
      best = std::max(best, std::min(A0 + al * u, B0 - be * u));
    }
    return best;
  };
  int64_t best = INT64_MIN;
  std::vector<int64_t> u(trade.size(), 0);
  while (true) {
    int64_t A0 = a0, B0 = b0;
    for (size_t i = 0; i < trade.size(); ++i)
      A0 += a[trade[i]] * u[i], B0 += b[trade[i]] * u[i];
    best = std::max(best, solveLast(A0, B0));
    size_t i = 0;
    while (i < u.size() && ++u[i] == f[trade[i]])
      u[i++] = 0;
    if (i == u.size()) break;
  }
  return best;
}

} // namespace

int64_t chainEndMax(const Dataflow& d, const ir::OrientedEntry& e) {
  const ir::Vec3& f = ir::info(e.kind).omega[2];
  std::array<int64_t, 3> teForm{e.mirrorX ? -f[0] : f[0], e.mirrorY ? -f[1] : f[1], f[2]};
  int64_t teConst = (e.mirrorX ? f[0] * (d.p - 1) : 0) + (e.mirrorY ? f[1] * (d.q - 1) : 0);
  // Along one axis: a value at port time te reaches the far edge P-1 cycles later.
  const ir::PeStep step = ir::info(e.kind).systolic;
  if (step.dx && !step.dy) return rangeOverTile(d, teForm, teConst).second + d.p - 1;
  if (!step.dx && step.dy) return rangeOverTile(d, teForm, teConst).second + d.q - 1;
  // Diagonal: te = t1 - x and the chain ends min(P-1-x, Q-1-y) steps on (mirrored frame), so
  // te + x_end = min(t1 + P-1 - x, t1 + Q-1 - y): a max-min of two affine forms over the tile.
  // Unmirrored x = off + S_x u; mirrored x = P-1 - that, so P-1 - x becomes off + S_x u.
  IntVec off = d.offset();
  const size_t k3 = d.k();
  std::vector<int64_t> a(k3), b(k3), fac(k3);
  const int64_t sx = e.mirrorX ? 1 : -1, sy = e.mirrorY ? 1 : -1;
  int64_t a0 = off[2] + (e.mirrorX ? off[0] : d.p - 1 - off[0]);
  int64_t b0 = off[2] + (e.mirrorY ? off[1] : d.q - 1 - off[1]);
  for (size_t c = 0; c < k3; ++c) {
    a[c] = d.s[2][c] + sx * d.s[0][c];
    b[c] = d.s[2][c] + sy * d.s[1][c];
    fac[c] = d.inner[c].factor;
  }
  return maxMinOverBox(a0, b0, std::move(a), std::move(b), fac);
}

Schedule schedule(const dataflow::StatementView& v, const Dataflow& d,
                  const std::vector<ir::OrientedEntry>& entries,
                  const std::vector<char>& bufferRecurs) {
  Schedule s;
  IntVec ext = d.extent();
  s.t1Extent = ext[2];
  for (size_t o = 0; o < d.outer.size(); ++o)
    s.tiles *= d.outerExtent(o, v.extent);
  s.first = 0;             // first product
  s.last = s.t1Extent - 1; // last product
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    const ir::OrientedEntry& e = entries[a];
    TensorTiming t;
    // The port-time slot of Omega, seen through the entry's mirroring (no allocation: this runs
    // for every candidate design).
    const ir::EntryInfo& inf = ir::info(e.kind);
    const ir::Vec3& f = inf.omega[2];
    t.streaming = f != ir::Vec3{0, 0, 0};
    std::array<int64_t, 3> teForm{e.mirrorX ? -f[0] : f[0], e.mirrorY ? -f[1] : f[1], f[2]};
    int64_t teConst = (e.mirrorX ? f[0] * (d.p - 1) : 0) + (e.mirrorY ? f[1] * (d.q - 1) : 0);
    if (t.streaming) std::tie(t.teMin, t.teMax) = rangeOverTile(d, teForm, teConst);
    if (!av.write) {
      t.first = t.streaming ? t.teMin - kReadLead : -kReadLead;
      t.last = t.streaming ? t.teMax - kReadLead : -kReadLead;
    } else {
      // The element recurs when an outer stamp does not move it (a tiled reduction), and in
      // the next tile when the innermost stamp that changes does not.
      bool innermost = true;
      for (size_t o = 0; o < d.outer.size(); ++o) {
        bool moves = false;
        for (const IntVec& row : av.coeffs)
          moves |= row[d.outer[o].loop] != 0;
        t.recurs |= !moves;
        if (innermost && d.outerExtent(o, v.extent) > 1) {
          t.recursNext = !moves;
          innermost = false;
        }
      }
      t.recurs |= a < bufferRecurs.size() && bufferRecurs[a];
      // `+=`: every element's first visit adds to the value already in the bank.
      t.recurs |= v.accumulates;
      t.treeDepth = treeDepth(inf.fanout(d.p, d.q));
      const int64_t dd = t.treeDepth;
      if (inf.held) {
        t.first = t.recurs ? -kReadLead : 0;
        t.last = s.t1Extent + 1 + dd;
      } else if (!inf.systolic.none()) {
        t.first = t.recurs ? t.teMin + dd : 0;
        t.last = chainEndMax(d, e) + 2 + dd;
      } else { // multicast
        t.first = t.recurs ? t.teMin + dd : 0;
        t.last = t.teMax + 1 + dd + (t.recurs ? 1 : 0);
      }
    }
    s.first = std::min(s.first, t.first);
    s.last = std::max(s.last, t.last);
    s.tensors.push_back(t);
  }
  s.tileCycles = s.last - s.first + 1;
  s.interval = s.intervalPlain = s.intervalCarry = s.tileCycles;
  if (s.tiles > 1) {
    const TileIntervals ti = tileIntervals(v, d, entries, s);
    s.intervalPlain = ti.plain;
    s.intervalCarry = ti.carry;
    bool next = false;
    for (const TensorTiming& t : s.tensors)
      next |= t.recursNext;
    s.interval = next ? ti.carry : ti.plain;
  }
  s.latency = kStartCycles + (s.tiles - 1) * s.interval + s.tileCycles + kDoneCycles;
  return s;
}

} // namespace rubick::dse
