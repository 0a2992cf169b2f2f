// SPDX-License-Identifier: Apache-2.0
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

namespace {

// Whether bank p of t has an event in a context at `tau`, and its address offset (before the
// base). `write`: the output's write enable, else the input's read enable (VerilogTop.cpp).
struct Event {
  bool hit = false;
  int64_t off = 0;
};

Event eventAt(const Plan& pl, const TensorPlan& t, size_t p, int64_t tau, bool overlap,
              bool write) {
  const dse::Window& win = t.window[p];
  Event e;
  if (overlap && win.empty()) return e;
  if (t.held) {
    const int64_t at = !write ? (overlap ? win.lo - 2 : -2)
                              : (overlap ? win.hi + 2 : pl.schedule.t1Extent + 1) + t.treeDepth;
    e.hit = tau == at;
    return e;
  }
  int64_t shift = 2 - t.hop0[p]; // an input's read
  if (write)
    shift = t.systolic
                ? -(t.hop0[p] + static_cast<int64_t>(t.chainOfPort[p].size()) + 1 + t.treeDepth)
                : -(1 + t.treeDepth);
  const int64_t te = tau + shift;
  const int64_t lo = overlap ? win.lo : t.teMin, hi = overlap ? win.hi : t.teMax;
  e.hit = te >= lo && te <= hi;
  e.off = te - t.teMin;
  return e;
}

CoreReads walk(const Plan& pl, const std::vector<int>& tensors, bool write) {
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
      if (t.output != write)
        throw std::logic_error(std::string(write ? "coreWrites: " : "coreReads: ") + t.name +
                               (write ? " is an input" : " is an output"));
      if (write && t.recurs)
        throw std::logic_error("coreWrites: the partial sums of " + t.name + " recur");
      for (size_t p = 0; p < t.ports.size(); ++p) {
        int hits = 0;
        int64_t address = 0;
        for (int x = 0; x < (overlap ? 2 : 1); ++x) {
          const Context& cx = ctx[x];
          if (!cx.on) continue;
          const Event e = eventAt(pl, t, p, cx.tau, overlap, write);
          if (!e.hit) continue;
          ++hits;
          address = wrap(wrap(e.off, t.addressBits) + baseOf(pl, t, cx.tile), t.addressBits);
        }
        if (hits > 1)
          throw std::logic_error("core events: two tiles use bank " + std::to_string(p) + " of " +
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

} // namespace

CoreReads coreReads(const Plan& pl, const std::vector<int>& tensors) {
  return walk(pl, tensors, false);
}

CoreReads coreWrites(const Plan& pl, int tensor) {
  return walk(pl, {tensor}, true);
}

} // namespace rubick::arch
