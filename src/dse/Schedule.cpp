#include "rubick/dse/Schedule.h"

#include <algorithm>

namespace rubick::dse {

using dataflow::Dataflow;
using ir::EntryKind;

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

bool held(EntryKind k) {
  return k == EntryKind::Stationary || k == EntryKind::XMulticastStationary ||
         k == EntryKind::YMulticastStationary || k == EntryKind::DiagMulticastStationary ||
         k == EntryKind::XYMulticastStationary;
}

bool systolic(EntryKind k) {
  return k == EntryKind::XSystolic || k == EntryKind::YSystolic || k == EntryKind::DiagSystolic ||
         k == EntryKind::XSystolicYMulticast || k == EntryKind::YSystolicXMulticast;
}

// Largest (te + x_end) over the tile for a systolic output, x_end being the last PE of the
// element's chain along the flow direction (in the entry's mirrored frame).
int64_t chainEndMax(const Dataflow& d, const ir::OrientedEntry& e, const std::array<int64_t, 3>& teForm,
                    int64_t teConst) {
  EntryKind k = e.kind;
  if (k == EntryKind::XSystolic || k == EntryKind::XSystolicYMulticast)
    return rangeOverTile(d, teForm, teConst).second + d.p - 1;
  if (k == EntryKind::YSystolic || k == EntryKind::YSystolicXMulticast)
    return rangeOverTile(d, teForm, teConst).second + d.q - 1;
  // Diagonal chains end at different PEs: walk the tile's points (x, y, t1).
  int64_t best = INT64_MIN;
  IntVec off = d.offset();
  std::vector<int64_t> u(d.k(), 0);
  while (true) {
    int64_t pt[3];
    for (int r = 0; r < 3; ++r) {
      pt[r] = off[r];
      for (size_t c = 0; c < d.k(); ++c)
        pt[r] += d.s[r][c] * u[c];
    }
    int64_t x = e.mirrorX ? d.p - 1 - pt[0] : pt[0];
    int64_t y = e.mirrorY ? d.q - 1 - pt[1] : pt[1];
    int64_t te = pt[2] - x;
    int64_t steps = std::min(d.p - 1 - x, d.q - 1 - y); // to the array edge along (1,1)
    best = std::max(best, te + x + steps);
    size_t c = 0;
    while (c < u.size() && ++u[c] == d.inner[c].factor)
      u[c++] = 0;
    if (c == u.size()) break;
  }
  return best;
}

} // namespace

Schedule schedule(const dataflow::StatementView& v, const Dataflow& d,
                  const std::vector<ir::OrientedEntry>& entries) {
  Schedule s;
  IntVec ext = d.extent();
  s.t1Extent = ext[2];
  for (size_t o = 0; o < d.outer.size(); ++o)
    s.tiles *= d.outerExtent(o, v.extent);
  s.first = 0;            // first product
  s.last = s.t1Extent - 1; // last product
  for (size_t a = 0; a < v.accesses.size(); ++a) {
    const dataflow::AccessView& av = v.accesses[a];
    const ir::OrientedEntry& e = entries[a];
    TensorTiming t;
    // The port-time slot of Omega, seen through the entry's mirroring (no allocation: this runs
    // for every candidate design).
    const ir::Vec3& f = ir::info(e.kind).omega[2];
    t.streaming = f != ir::Vec3{0, 0, 0};
    std::array<int64_t, 3> teForm{e.mirrorX ? -f[0] : f[0], e.mirrorY ? -f[1] : f[1], f[2]};
    int64_t teConst = (e.mirrorX ? f[0] * (d.p - 1) : 0) + (e.mirrorY ? f[1] * (d.q - 1) : 0);
    if (t.streaming) std::tie(t.teMin, t.teMax) = rangeOverTile(d, teForm, teConst);
    if (!av.write) {
      t.first = t.streaming ? t.teMin - kReadLead : -kReadLead;
      t.last = t.streaming ? t.teMax - kReadLead : -kReadLead;
    } else {
      // The element recurs when an outer stamp does not move it (a tiled reduction).
      for (const dataflow::OuterDim& o : d.outer) {
        bool moves = false;
        for (const IntVec& row : av.coeffs)
          moves |= row[o.loop] != 0;
        t.recurs |= !moves;
      }
      t.treeDepth = treeDepth(ir::fanout(e.kind, d.p, d.q));
      const int64_t dd = t.treeDepth;
      if (held(e.kind)) {
        t.first = t.recurs ? -kReadLead : 0;
        t.last = s.t1Extent + 1 + dd;
      } else if (systolic(e.kind)) {
        t.first = t.recurs ? t.teMin + dd : 0;
        t.last = chainEndMax(d, e, teForm, teConst) + 2 + dd;
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
  s.latency = kStartCycles + s.tiles * s.tileCycles + kDoneCycles;
  return s;
}

} // namespace rubick::dse
