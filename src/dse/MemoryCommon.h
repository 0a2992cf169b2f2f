// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pieces shared by the closed-form memory model and its tile-by-tile reference (private).

#include "rubick/dse/Memory.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace rubick::dse::detail {

/// ceil(a / b) for a >= 0, b > 0.
inline int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

/// A level of the buffer-tile walk: one loop of the order.
struct Level {
  int loop = 0;
  int64_t tiles = 1, full = 0, last = 0; // tile count, full and last tile sizes
};

/// The tiling checked against the problem: levels in order, and every loop's full size
/// (capped at its extent). Throws std::invalid_argument on a malformed tiling.
struct Walk {
  std::vector<Level> levels;
  std::vector<int64_t> full;          // per loop
  std::vector<int64_t> last;          // per loop: size of its last tile
  std::vector<int> deepest;           // per access: innermost level of a loop it depends on, or -1
  std::vector<std::vector<char>> dep; // per access, per loop
  int64_t tiles = 1;
};

/// A tensor's declared sizes, or (for hand-built views) the index range the loops reach.
std::vector<int64_t> tensorDims(const dataflow::StatementView& v, size_t a);

Walk makeWalk(const MemoryProblem& p, const BufferTiling& t);

/// Array tiles in a buffer tile with these loop sizes.
int64_t arrayTiles(const MemoryProblem& p, const std::vector<int64_t>& size);

/// The core's run over `fullTiles` array tiles, one starting every `interval` cycles
/// (dse/Schedule.h).
inline int64_t coreRun(int64_t fullTiles, int64_t tileCycles, int64_t interval) {
  return (fullTiles - 1) * interval + tileCycles;
}

/// The core's interval for buffer tiles of `size`: with a carry when its innermost outer stamp
/// with more than one array tile does not move the output.
int64_t coreInterval(const MemoryProblem& p, const std::vector<int64_t>& size);
/// Whether an output of `v` stays in place along `loop` (MemoryProblem::outerCarries).
bool outerCarries(const dataflow::StatementView& v, int loop);

/// The core's part of a phase: C + 1 (include/rubick/dse/Memory.h) for `fullTiles` array tiles.
inline int64_t corePhase(int64_t fullTiles, int64_t tileCycles, int64_t interval) {
  return coreRun(fullTiles, tileCycles, interval) + 2;
}

/// The same with chained runs: to the point where the next run may start, n I + 1.
inline int64_t chainedCorePhase(int64_t fullTiles, int64_t interval) {
  return fullTiles * interval + 1;
}

/// How far into a phase its transfers wait for the previous run's drain: g = T - I + 1.
inline int64_t chainGate(int64_t tileCycles, int64_t interval) {
  return tileCycles - interval + 1;
}

/// The shorter of the two core phases, for lower bounds.
inline int64_t corePhaseLow(int64_t fullTiles, int64_t tileCycles, int64_t interval) {
  const int64_t plain = corePhase(fullTiles, tileCycles, interval);
  return interval < tileCycles ? std::min(plain, chainedCorePhase(fullTiles, interval)) : plain;
}

/// Whether a buffer tile of these sizes holds several array tiles along the loops `dep` names:
/// then its first and last array tiles touch different elements of a tensor indexed by them.
template <class Dep>
bool severalArrayTiles(const MemoryProblem& p, const std::vector<int64_t>& size, Dep dep) {
  for (size_t l = 0; l < size.size(); ++l)
    if (dep(int(l)) && ceilDiv(std::min(size[l], p.view->extent[l]), p.arrayTile[l]) > 1)
      return true;
  return false;
}

/// Whether chained runs are allowed (include/rubick/dse/Memory.h): several buffer tiles of
/// several overlapping array tiles, and no output read back before its last write.
inline bool mayChain(int64_t phases, int64_t fullTiles, int64_t tileCycles, int64_t interval,
                     int64_t intervalCarry, bool outputsMove) {
  return phases > 1 && fullTiles > 1 && interval < tileCycles &&
         (interval + 1 >= intervalCarry || outputsMove);
}

/// The cycle sum of one order of one set of buffer tile sizes, in closed form, without the array
/// tile's cycles: the terms (count, load chain, store chain) of its tile classes, merged when
/// equal. Every design with the same sizes, array tile and DMA lanes shares it
/// (BufferSearchCache).
struct OrderProfile {
  struct Term {
    int64_t count = 0, load = 0, store = 0; // phases; their load and store chains in cycles
    friend auto operator<=>(const Term&, const Term&) = default;
  };
  std::vector<int> order;
  int64_t fullTiles = 0;        // array tiles in a full buffer tile
  int64_t phases = 0;           // buffer tiles
  int64_t in0 = 0, outLast = 0; // cycles of the first tile's loads, the last tile's stores
  int64_t load0 = 0;            // the load chain of the first tile's phase (step 0)
  // Every output's tile changes at every step, or its first array tile in a buffer tile is
  // apart from the last: no run reads back what the run before still writes.
  bool outputsMove = false;
  int64_t busBeats = 0;                       // read + written
  std::vector<int64_t> readBeats, writeBeats; // per access, over the whole run
  std::vector<Term> terms;

  struct Sum {
    int64_t cycles = 0, computeCycles = 0, transferCycles = 0;
    bool chained = false;
  };
  /// The cycles with `tileCycles` per array tile, one starting every `interval` cycles (and
  /// `intervalCarry` with an output carried into the next array tile), runs chained when that
  /// is allowed and faster.
  Sum sum(int64_t tileCycles, int64_t interval, int64_t intervalCarry) const;
  /// Only the cycles (the search's hot loop), and whether they are chained.
  int64_t cycles(int64_t tileCycles, int64_t interval, int64_t intervalCarry,
                 bool* chained = nullptr) const;
};

/// Every order the search tries for one set of sizes, with its profile.
struct SizeProfiles {
  std::vector<OrderProfile> orders;
};

/// The closed form (docs/memory.md) for one set of buffer tile sizes, any order of its levels:
/// the orders share every tile's transfer beats and array tiles, memoised here per access and
/// per set of loops at their last tile. evaluateMemory is this plus the per-tensor details.
class ClosedForm {
public:
  /// `size`: per loop, the buffer tile's size (capped at the extent here).
  ClosedForm(const MemoryProblem& p, const std::vector<int64_t>& size) { reset(p, size); }
  ClosedForm() = default;
  /// Starts over with other sizes (or another problem of the same statement), keeping the
  /// allocations.
  void reset(const MemoryProblem& p, const std::vector<int64_t>& size);

  /// The profile of levels in `order` (outermost first; every loop with several tiles must be in
  /// it, which the caller checks).
  OrderProfile profile(const std::vector<int>& order);

private:
  // Bit j of a mask: the j-th loop with several tiles is at its last tile.
  int64_t beats(size_t a, uint64_t mask);
  int64_t transfer(size_t a, uint64_t mask, bool load); // tileTransferCycles
  const std::vector<int64_t>& sizeAt(uint64_t mask);    // in size_

  struct Class {
    bool first, penult, last;
    int64_t count;
  };
  const MemoryProblem* p_ = nullptr;
  std::vector<int64_t> full_, last_, tiles_;  // per loop
  std::vector<int> bit_;                      // per loop: its bit, -1 for a single tile
  std::vector<char> dep_;                     // [a * loops + l]: access a depends on loop l
  std::vector<int> deepest_;                  // per access (scratch of profile)
  std::vector<std::array<Class, 4>> classes_; // per level (scratch of profile)
  std::vector<size_t> nclass_, pick_;         // per level (scratch of profile)
  std::vector<int64_t> storeEnd_;             // per access (scratch of profile)
  std::vector<int64_t> size_;                 // per loop (scratch of sizeAt)
  std::vector<OrderProfile::Term> terms_;     // scratch of profile
  size_t bits_ = 0;
  bool memo_ = false;                         // 2^bits small enough to keep every value
  std::vector<int64_t> beatMemo_;             // [a << bits | mask], -1 until computed
  std::vector<int64_t> loadMemo_, storeMemo_; // the same for tileTransferCycles
};

/// The metrics' totals from per-tensor beats and the cycle sum (fills tensors' names, the
/// compulsory bytes and bank bytes).
void finishMetrics(const MemoryProblem& p, const BufferTiling& t, const Walk& w, MemoryMetrics& m);

/// The metrics of tiling `t` (checked by `w`) from its order's profile: evaluateMemory, for a
/// profile already made.
MemoryMetrics profileMetrics(const MemoryProblem& p, const BufferTiling& t, const Walk& w,
                             const OrderProfile& o);

} // namespace rubick::dse::detail
