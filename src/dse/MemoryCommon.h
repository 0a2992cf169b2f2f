#pragma once
// Pieces shared by the closed-form memory model and its tile-by-tile reference (private).

#include "rubick/dse/Memory.h"

#include <algorithm>
#include <vector>

namespace rubick::dse::detail {

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

/// X(beats): the cycles of a transfer window.
inline int64_t transferCycles(const MemoryProblem& p, int64_t beats) {
  return beats == 0 ? 0 : p.memory.latency + beats;
}

/// The metrics' totals from per-tensor beats and the cycle sum (fills tensors' names, the
/// compulsory bytes and bank bytes).
void finishMetrics(const MemoryProblem& p, const BufferTiling& t, MemoryMetrics& m);

} // namespace rubick::dse::detail
