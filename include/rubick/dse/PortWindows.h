// SPDX-License-Identifier: Apache-2.0
#pragma once
// When each PE and each bank port of a design is busy within one tile. The tile interval
// (Schedule.h: how soon the next tile may start) follows from these windows, and the hardware
// of a design whose tiles overlap times each port's events by them (arch/Plan.h).
//
// Windows are taken over a full tile; on a partial last tile the PEs do a subset of it.

#include "rubick/dataflow/Dataflow.h"
#include "rubick/ir/AccessEntry.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

namespace rubick::dse {

/// A closed interval of cycles (tau or port time); empty when lo > hi.
struct Window {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  bool empty() const { return lo > hi; }
  int64_t length() const { return empty() ? 0 : hi - lo + 1; }
  void add(int64_t l, int64_t h) {
    lo = std::min(lo, l);
    hi = std::max(hi, h);
  }
  friend bool operator==(const Window&, const Window&) = default;
};

/// Per PE (e = x * q + y): the t1 values of its valid iterations in a full tile. Each is an
/// interval: every inner coordinate is an affine function of t1 at a fixed PE. Empty vector when
/// the dataflow's S is not unimodular (no integral inverse).
std::vector<Window> peWindows(const dataflow::Dataflow& d);
/// The same into `out`, reusing its storage (the explorer asks for every candidate).
void peWindows(const dataflow::Dataflow& d, std::vector<Window>& out);

/// Stationary kinds: a value (or accumulator) held per port for a whole tile.
bool heldEntry(ir::EntryKind k);

/// The systolic direction (dx, dy) of an entry in its own (mirrored) frame, or (0, 0).
std::pair<int64_t, int64_t> systolicVector(ir::EntryKind k);

/// Entry `e`'s ports under dataflow `d` as affine maps of a PE (x, y), mirroring folded in: the
/// port's slot in the bounding box of the port positions (Omega's first two slots, row-major), its
/// port time's offset te - t1, and its steps back against the flow to the array's edge. The
/// schedule asks this of every candidate, so it holds no tables.
struct PortMap {
  int64_t p = 1, q = 1;
  int64_t lo0 = 0, lo1 = 0, span0 = 1, span1 = 1;         // the box of positions
  int64_t ax = 0, ay = 0, a0 = 0, bx = 0, by = 0, b0 = 0; // position = (ax x + ay y + a0, ...)
  int64_t fx = 0, fy = 0, fc = 0;                         // te - t1 (streaming entries), else 0
  int64_t dx = 0, dy = 0;                                 // the flow (systolic entries), else 0
  int64_t slots() const { return span0 * span1; }
  std::pair<int64_t, int64_t> position(int64_t x, int64_t y) const {
    return {ax * x + ay * y + a0, bx * x + by * y + b0};
  }
  int64_t slot(int64_t x, int64_t y) const {
    return (ax * x + ay * y + a0 - lo0) * span1 + (bx * x + by * y + b0 - lo1);
  }
  int64_t teShift(int64_t x, int64_t y) const { return fx * x + fy * y + fc; }
  int64_t hop(int64_t x, int64_t y) const {
    int64_t h = INT64_MAX;
    if (dx) h = std::min(h, dx > 0 ? x : p - 1 - x);
    if (dy) h = std::min(h, dy > 0 ? y : q - 1 - y);
    return dx || dy ? h : 0;
  }
};
PortMap portMap(const dataflow::Dataflow& d, const ir::OrientedEntry& e);

/// One tensor's ports on the array: which PE each serves and when.
struct PortWindows {
  std::vector<std::pair<int64_t, int64_t>> positions; // per port, in lexicographic order
  std::vector<int> portOf;                            // per PE
  std::vector<int> hop;             // per PE: steps from its chain's start (systolic), else 0
  std::vector<int64_t> teShift;     // per PE: te - t1 (streaming entries), else 0
  std::vector<Window> window;       // per port: te (streaming) or t1 (held) of its PEs' work
  std::vector<int64_t> chainLength; // per port: the longest hop + 1
};

/// The ports of entry `e` under dataflow `d`, with `pe` = peWindows(d).
PortWindows portWindows(const dataflow::Dataflow& d, const ir::OrientedEntry& e,
                        const std::vector<Window>& pe);
/// The same into `out`, reusing its storage.
void portWindows(const dataflow::Dataflow& d, const ir::OrientedEntry& e,
                 const std::vector<Window>& pe, PortWindows& out);

} // namespace rubick::dse
