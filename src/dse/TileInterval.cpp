// SPDX-License-Identifier: Apache-2.0
// How soon a tile may start after the previous one (docs/cost-model.md, "Overlapped tiles").
// Two consecutive tiles n and n+1 = n + I may share a cycle as long as every resource serves at
// most one of them: each is busy over a window of the tile (PortWindows.h), so I must be at
// least each window's length plus the cycles the resource needs between tiles.

#include "rubick/dse/PortWindows.h"
#include "rubick/dse/Schedule.h"

namespace rubick::dse {

TileIntervals tileIntervals(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                            const std::vector<ir::OrientedEntry>& entries, const Schedule& s) {
  thread_local std::vector<Window> pe, port;
  thread_local std::vector<int64_t> chain;
  peWindows(d, pe);
  if (pe.empty()) return {s.tileCycles, s.tileCycles};
  // At most two tiles in flight: the hardware keeps two tile contexts.
  int64_t plain = (s.tileCycles + 1) / 2;
  for (const Window& w : pe) // a PE computes one tile at a time
    plain = std::max(plain, w.length());
  int64_t carry = plain;
  for (size_t a = 0; a < v.accesses.size() && carry < s.tileCycles; ++a) {
    const ir::OrientedEntry& e = entries[a];
    const TensorTiming& t = s.tensors[a];
    const bool output = v.accesses[a].write, held = heldEntry(e.kind);
    const bool systolic = systolicVector(e.kind) != std::pair<int64_t, int64_t>{0, 0};
    const bool chained = output && !held && t.recurs && systolic;
    // Per port (a slot of portMap's box; unused slots stay empty): the hull of its PEs' windows
    // in port time, and its longest chain (portWindows, without its per-PE tables).
    const PortMap m = portMap(d, e);
    port.assign(size_t(m.slots()), Window{});
    if (chained) chain.assign(size_t(m.slots()), 1);
    for (int64_t x = 0; x < d.p; ++x)
      for (int64_t y = 0; y < d.q; ++y) {
        const size_t slot = size_t(m.slot(x, y));
        if (chained) chain[slot] = std::max(chain[slot], m.hop(x, y) + 1);
        const Window& w = pe[size_t(x * d.q + y)];
        if (w.empty()) continue;
        const int64_t shift = m.teShift(x, y);
        port[slot].add(w.lo + shift, w.hi + shift);
      }
    for (size_t p = 0; p < port.size(); ++p) {
      const Window& w = port[p];
      if (w.empty()) continue;
      int64_t need = w.length(), needCarry = need; // inputs: reads, or the held value's life
      if (output && held) {
        // Accumulator: reset at lo - 1, written at hi + 2 + depth (its last sum); the next
        // tile's reset may share the write's cycle. A sum that recurs in the next tile is read
        // at lo - 2, after this write (a bank read in the write's cycle sees the old word).
        need = w.length() + 2 + t.treeDepth;
        needCarry = need + (t.recurs ? 2 : 0);
      } else if (output && t.recurs) {
        // Read-modify-write of sums that recur in the next tile: read at te + depth (+ hop0),
        // written at te + 2 + depth (multicast) or te + chain + 1 + depth (systolic); the next
        // tile's first read comes after the last write.
        needCarry = w.length() + (systolic ? chain[p] + 1 : 2);
      }
      plain = std::max(plain, need);
      carry = std::max(carry, needCarry);
    }
  }
  return {std::min(plain, s.tileCycles), std::min(carry, s.tileCycles)};
}

} // namespace rubick::dse
