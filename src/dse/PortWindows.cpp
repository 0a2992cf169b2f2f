// SPDX-License-Identifier: Apache-2.0
#include "rubick/dse/PortWindows.h"

#include <array>

namespace rubick::dse {

using dataflow::Dataflow;
using ir::EntryKind;

namespace {

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t ceilDiv(int64_t a, int64_t b) {
  return -floorDiv(-a, b);
}

using Mat3 = std::array<std::array<int64_t, 3>, 3>;

// S completed to 3 x 3 as Dataflow::completedS does, in integers (no allocation of rationals:
// the explorer asks for every candidate).
Mat3 completedS(const Dataflow& d) {
  Mat3 m{};
  for (int r = 0; r < 3; ++r)
    for (size_t l = 0; l < d.k(); ++l)
      m[r][l] = d.s[r][l];
  size_t col = d.k();
  for (int r = 0; r < 3 && col < 3; ++r) {
    bool zero = true;
    for (size_t l = 0; l < d.k(); ++l)
      zero &= d.s[r][l] == 0;
    if (zero) m[r][col++] = 1;
  }
  return m;
}

} // namespace

std::vector<Window> peWindows(const Dataflow& d) {
  std::vector<Window> out;
  peWindows(d, out);
  return out;
}

void peWindows(const Dataflow& d, std::vector<Window>& out) {
  out.clear();
  const Mat3 m = completedS(d);
  // Inverse by the adjugate; only a determinant of +-1 gives an integral one.
  Mat3 adj{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      const int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
      adj[r][c] = m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1];
    }
  const int64_t det = m[0][0] * adj[0][0] + m[0][1] * adj[1][0] + m[0][2] * adj[2][0];
  if (det != 1 && det != -1) return;
  const IntVec off = d.offset();
  // Per coordinate c: u_c = a t1 + b must lie in [0, top], b = bx x + by y + b0.
  struct Coord {
    int64_t a, bx, by, b0, top;
  };
  std::array<Coord, 3> cs{};
  bool unit = true; // every a in {-1, 0, 1}: no division in the loop
  for (int c = 0; c < 3; ++c) {
    const int64_t a = adj[c][2] * det;
    cs[c] = {a, det * adj[c][0], det * adj[c][1],
             -det * (adj[c][0] * off[0] + adj[c][1] * off[1]) - a * off[2],
             (size_t(c) < d.k() ? d.inner[c].factor : 1) - 1};
    unit &= a >= -1 && a <= 1;
  }
  out.assign(static_cast<size_t>(d.p * d.q), Window{});
  for (int64_t x = 0; x < d.p; ++x)
    for (int64_t y = 0; y < d.q; ++y) {
      int64_t lo = 0, hi = INT64_MAX / 4;
      for (const Coord& c : cs) {
        const int64_t b = c.bx * x + c.by * y + c.b0;
        int64_t l, h;
        if (c.a == 0) {
          if (b < 0 || b > c.top) lo = 1, hi = 0;
          continue;
        }
        if (unit) // a = 1: t1 in [-b, top - b]; a = -1: [b - top, b]
          l = c.a > 0 ? -b : b - c.top, h = l + c.top;
        else
          l = c.a > 0 ? ceilDiv(-b, c.a) : ceilDiv(c.top - b, c.a),
          h = c.a > 0 ? floorDiv(c.top - b, c.a) : floorDiv(-b, c.a);
        lo = std::max(lo, l);
        hi = std::min(hi, h);
      }
      if (lo <= hi) out[size_t(x * d.q + y)] = {lo, hi};
    }
}

bool heldEntry(EntryKind k) {
  return ir::info(k).held;
}

std::pair<int64_t, int64_t> systolicVector(EntryKind k) {
  const ir::PeStep s = ir::info(k).systolic;
  return {s.dx, s.dy};
}

PortWindows portWindows(const Dataflow& d, const ir::OrientedEntry& e,
                        const std::vector<Window>& pe) {
  PortWindows w;
  portWindows(d, e, pe, w);
  return w;
}

PortMap portMap(const Dataflow& d, const ir::OrientedEntry& e) {
  const ir::EntryInfo& inf = ir::info(e.kind);
  PortMap m;
  m.p = d.p, m.q = d.q;
  // x_mirrored = sx x + cx, likewise y.
  const int64_t sx = e.mirrorX ? -1 : 1, cx = e.mirrorX ? d.p - 1 : 0;
  const int64_t sy = e.mirrorY ? -1 : 1, cy = e.mirrorY ? d.q - 1 : 0;
  m.ax = inf.omega[0][0] * sx, m.ay = inf.omega[0][1] * sy;
  m.a0 = inf.omega[0][0] * cx + inf.omega[0][1] * cy;
  m.bx = inf.omega[1][0] * sx, m.by = inf.omega[1][1] * sy;
  m.b0 = inf.omega[1][0] * cx + inf.omega[1][1] * cy;
  // Affine: the box's corners are among the array's.
  int64_t hi0 = INT64_MIN, hi1 = INT64_MIN;
  m.lo0 = m.lo1 = INT64_MAX;
  for (int64_t x : {int64_t(0), d.p - 1})
    for (int64_t y : {int64_t(0), d.q - 1}) {
      auto [a, b] = m.position(x, y);
      m.lo0 = std::min(m.lo0, a), hi0 = std::max(hi0, a);
      m.lo1 = std::min(m.lo1, b), hi1 = std::max(hi1, b);
    }
  m.span0 = hi0 - m.lo0 + 1, m.span1 = hi1 - m.lo1 + 1;
  const ir::Vec3& f = inf.omega[2];
  if (f != ir::Vec3{0, 0, 0}) m.fx = f[0] * sx, m.fy = f[1] * sy, m.fc = f[0] * cx + f[1] * cy;
  m.dx = inf.systolic.dx * sx, m.dy = inf.systolic.dy * sy;
  return m;
}

void portWindows(const Dataflow& d, const ir::OrientedEntry& e, const std::vector<Window>& pe,
                 PortWindows& w) {
  const PortMap m = portMap(d, e);
  const int64_t npe = d.p * d.q;
  // Ports are numbered in the lexicographic order of their positions: the box's slots in order.
  thread_local std::vector<int> slot;
  slot.assign(static_cast<size_t>(m.slots()), -1);
  for (int64_t x = 0; x < d.p; ++x)
    for (int64_t y = 0; y < d.q; ++y)
      slot[size_t(m.slot(x, y))] = 0;
  w.positions.clear();
  for (size_t s = 0; s < slot.size(); ++s)
    if (slot[s] >= 0) {
      slot[s] = static_cast<int>(w.positions.size());
      w.positions.push_back({m.lo0 + int64_t(s) / m.span1, m.lo1 + int64_t(s) % m.span1});
    }
  w.window.assign(w.positions.size(), {});
  w.chainLength.assign(w.positions.size(), 1);
  w.portOf.resize(npe);
  w.hop.resize(npe);
  w.teShift.resize(npe);
  for (int64_t x = 0; x < d.p; ++x)
    for (int64_t y = 0; y < d.q; ++y) {
      const int64_t i = x * d.q + y;
      const int port = slot[size_t(m.slot(x, y))];
      w.portOf[i] = port;
      w.hop[i] = static_cast<int>(m.hop(x, y));
      w.chainLength[port] = std::max<int64_t>(w.chainLength[port], w.hop[i] + 1);
      w.teShift[i] = m.teShift(x, y);
      if (!pe[i].empty()) w.window[port].add(pe[i].lo + w.teShift[i], pe[i].hi + w.teShift[i]);
    }
}

} // namespace rubick::dse
