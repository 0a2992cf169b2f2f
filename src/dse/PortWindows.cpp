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
  std::array<int64_t, 3> factor{1, 1, 1};
  for (size_t c = 0; c < d.k(); ++c)
    factor[c] = d.inner[c].factor;
  out.assign(static_cast<size_t>(d.p * d.q), Window{});
  for (int64_t x = 0; x < d.p; ++x)
    for (int64_t y = 0; y < d.q; ++y) {
      int64_t lo = 0, hi = INT64_MAX / 4;
      for (int c = 0; c < 3; ++c) {
        // u_c = a t1 + b must lie in [0, factor).
        const int64_t a = adj[c][2] * det;
        const int64_t b = det * (adj[c][0] * (x - off[0]) + adj[c][1] * (y - off[1])) - a * off[2];
        const int64_t top = factor[c] - 1;
        if (a == 0) {
          if (b < 0 || b > top) hi = -1, lo = 0;
          continue;
        }
        int64_t l, h;
        if (a == 1) // the common cases, without a division
          l = -b, h = top - b;
        else if (a == -1)
          l = b - top, h = b;
        else
          l = a > 0 ? ceilDiv(-b, a) : ceilDiv(top - b, a),
          h = a > 0 ? floorDiv(top - b, a) : floorDiv(-b, a);
        lo = std::max(lo, l);
        hi = std::min(hi, h);
      }
      if (lo <= hi) out[x * d.q + y] = {lo, hi};
    }
}

bool heldEntry(EntryKind k) {
  return k == EntryKind::Stationary || k == EntryKind::XMulticastStationary ||
         k == EntryKind::YMulticastStationary || k == EntryKind::DiagMulticastStationary ||
         k == EntryKind::XYMulticastStationary;
}

std::pair<int64_t, int64_t> systolicVector(EntryKind k) {
  switch (k) {
  case EntryKind::XSystolic:
  case EntryKind::XSystolicYMulticast:
    return {1, 0};
  case EntryKind::YSystolic:
  case EntryKind::YSystolicXMulticast:
    return {0, 1};
  case EntryKind::DiagSystolic:
    return {1, 1};
  default:
    return {0, 0};
  }
}

PortWindows portWindows(const Dataflow& d, const ir::OrientedEntry& e,
                        const std::vector<Window>& pe) {
  PortWindows w;
  portWindows(d, e, pe, w);
  return w;
}

void portWindows(const Dataflow& d, const ir::OrientedEntry& e, const std::vector<Window>& pe,
                 PortWindows& w) {
  const ir::EntryInfo& inf = ir::info(e.kind);
  const int64_t npe = d.p * d.q;
  w.positions.clear();
  // Port positions are Omega's first two slots on the mirrored PE coordinates; a flat table over
  // their bounding box numbers them in lexicographic order.
  auto position = [&](int64_t x, int64_t y) {
    const int64_t xm = e.mirrorX ? d.p - 1 - x : x, ym = e.mirrorY ? d.q - 1 - y : y;
    return std::pair<int64_t, int64_t>{inf.omega[0][0] * xm + inf.omega[0][1] * ym,
                                       inf.omega[1][0] * xm + inf.omega[1][1] * ym};
  };
  int64_t lo0 = INT64_MAX, hi0 = INT64_MIN, lo1 = INT64_MAX, hi1 = INT64_MIN;
  for (int64_t x : {int64_t(0), d.p - 1})
    for (int64_t y : {int64_t(0), d.q - 1}) {
      auto [a, b] = position(x, y);
      lo0 = std::min(lo0, a), hi0 = std::max(hi0, a);
      lo1 = std::min(lo1, b), hi1 = std::max(hi1, b);
    }
  const int64_t span1 = hi1 - lo1 + 1;
  thread_local std::vector<int> slot;
  slot.assign(static_cast<size_t>((hi0 - lo0 + 1) * span1), -1);
  w.portOf.resize(npe);
  for (int64_t x = 0; x < d.p; ++x)
    for (int64_t y = 0; y < d.q; ++y) {
      auto [a, b] = position(x, y);
      slot[(a - lo0) * span1 + (b - lo1)] = 0;
    }
  for (size_t s = 0; s < slot.size(); ++s)
    if (slot[s] >= 0) {
      slot[s] = static_cast<int>(w.positions.size());
      w.positions.push_back({lo0 + int64_t(s) / span1, lo1 + int64_t(s) % span1});
    }
  w.window.assign(w.positions.size(), {});
  w.chainLength.assign(w.positions.size(), 1);

  // Port time te = form . (x, y, t1) + constant, mirroring folded in: te - t1 at a PE.
  const ir::Vec3& f = inf.omega[2];
  const bool streaming = f != ir::Vec3{0, 0, 0};
  const int64_t fx = e.mirrorX ? -f[0] : f[0], fy = e.mirrorY ? -f[1] : f[1];
  const int64_t fc = (e.mirrorX ? f[0] * (d.p - 1) : 0) + (e.mirrorY ? f[1] * (d.q - 1) : 0);
  auto [vx, vy] = systolicVector(e.kind);
  const int64_t dx = e.mirrorX ? -vx : vx, dy = e.mirrorY ? -vy : vy;
  w.hop.resize(npe);
  w.teShift.resize(npe);
  for (int64_t x = 0; x < d.p; ++x)
    for (int64_t y = 0; y < d.q; ++y) {
      const int64_t i = x * d.q + y;
      auto [a, b] = position(x, y);
      const int port = slot[(a - lo0) * span1 + (b - lo1)];
      w.portOf[i] = port;
      // Steps back against the flow until the array's edge.
      int64_t h = INT64_MAX;
      if (dx) h = std::min(h, dx > 0 ? x : d.p - 1 - x);
      if (dy) h = std::min(h, dy > 0 ? y : d.q - 1 - y);
      w.hop[i] = static_cast<int>(dx || dy ? h : 0);
      w.chainLength[port] = std::max<int64_t>(w.chainLength[port], w.hop[i] + 1);
      w.teShift[i] = streaming ? fx * x + fy * y + fc : 0;
      if (!pe[i].empty()) w.window[port].add(pe[i].lo + w.teShift[i], pe[i].hi + w.teShift[i]);
    }
}

} // namespace rubick::dse
