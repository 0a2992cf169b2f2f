#include "rubick/arch/CoreReads.h"

#include <stdexcept>
#include <string>

namespace rubick::arch {

namespace {

// One tile in flight: its tau and the address generators' base for one tensor.
struct Context {
  bool on = false;
  int64_t tau = 0;
  int64_t tile = 0;
};

int64_t baseOf(const Plan& pl, const TensorPlan& t, int64_t tile) {
  int64_t base = 0, rest = tile;
  for (size_t o = 0; o < pl.outer.size(); ++o) {
    const int64_t stamp = rest % pl.outer[o].extent;
    rest /= pl.outer[o].extent;
    if (o < t.strides.size()) base += stamp * t.strides[o];
  }
  return base;
}

int64_t wrap(int64_t v, int64_t bits) {
  if (bits >= 63) return v;
  const int64_t m = int64_t(1) << bits;
  return ((v % m) + m) % m;
}

} // namespace

CoreReads coreReads(const Plan& pl, const std::vector<int>& tensors) {
  const dse::Schedule& s = pl.schedule;
  const int64_t tiles = s.tiles, interval = s.interval, length = s.tileCycles;
  const bool overlap = interval < length;
  const int64_t busy = (tiles - 1) * interval + length;
  CoreReads r;
  r.perCycle.reserve(static_cast<size_t>(busy));
  for (int64_t c = 0; c < busy; ++c) {
    Context ctx[2];
    const int64_t k = std::min(c / interval, tiles - 1);
    ctx[0] = {true, s.first + c - k * interval, k};
    if (overlap && k > 0 && ctx[0].tau + interval <= s.last)
      ctx[1] = {true, ctx[0].tau + interval, k - 1};
    int32_t n = 0;
    for (int ti : tensors) {
      const TensorPlan& t = pl.tensors[static_cast<size_t>(ti)];
      if (t.output) throw std::logic_error("coreReads: " + t.name + " is an output");
      for (size_t p = 0; p < t.ports.size(); ++p) {
        const dse::Window& win = t.window[p];
        int hits = 0;
        int64_t address = 0;
        for (int x = 0; x < (overlap ? 2 : 1); ++x) {
          const Context& cx = ctx[x];
          if (!cx.on) continue;
          bool rd = false;
          int64_t off = 0;
          if (!overlap) {
            if (t.held) {
              rd = cx.tau == -2;
            } else {
              const int64_t te = cx.tau + 2 - t.hop0[p];
              rd = te >= t.teMin && te <= t.teMax;
              off = te - t.teMin;
            }
          } else if (!win.empty()) {
            if (t.held) {
              rd = cx.tau == win.lo - 2;
            } else {
              const int64_t te = cx.tau + 2 - t.hop0[p];
              rd = te >= win.lo && te <= win.hi;
              off = te - t.teMin;
            }
          }
          if (!rd) continue;
          ++hits;
          address = wrap(wrap(off, t.addressBits) + baseOf(pl, t, cx.tile), t.addressBits);
        }
        if (hits > 1)
          throw std::logic_error("coreReads: two tiles read bank " + std::to_string(p) + " of " +
                                 t.name + " in busy cycle " + std::to_string(c + 1));
        if (!hits) continue;
        r.reads.push_back({ti, static_cast<int>(p), address});
        ++n;
      }
    }
    r.perCycle.push_back(n);
  }
  return r;
}

} // namespace rubick::arch
