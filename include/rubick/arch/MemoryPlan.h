#pragma once
// The hardware plan of a design with a memory system (docs/memory.md): the array and banks
// are planned for one full buffer tile (the statement with every loop cut to its buffer tile
// size), and each tensor's tile moves between memory and the banks under a DMA map. The same
// core runs every buffer tile; the tiles at a tensor's edges are partly outside the tensor and
// are padded with zeros on the way in (and not written on the way out).
//
// Only accesses whose every dimension is one loop (A(i, k), not I(h + r)) are planned: a
// buffer tile of such a tensor is a box of its row-major layout.

#include "rubick/arch/DmaMap.h"
#include "rubick/arch/Plan.h"
#include "rubick/dse/Memory.h"

#include <string>
#include <vector>

namespace rubick::arch {

struct TensorTransfer {
  size_t access = 0;
  std::vector<int> loops;     // per tensor dimension: the loop that indexes it
  std::vector<int64_t> tile;  // per tensor dimension: elements in one full buffer tile
  std::vector<int64_t> shape; // the whole tensor
  DmaMap dma;
  // How the buffer-level sequencer treats it (positions in BufferTiling::order):
  std::vector<char> indexedBy; // per position: the tensor's tile changes with that loop
  std::vector<char> revisits;  // outputs, per position: a loop outside the innermost indexing
                               // one that does not index it, so its partial sums leave the chip
                               // and come back
  bool reload = false;         // an output with some `revisits` position
};

struct MemoryPlan {
  dataflow::Dataflow dataflow;         // the design's dataflow on one buffer tile
  Plan core;                           // the array and banks for one buffer tile
  dse::BufferTiling tiling;            // sizes and order of the buffer tiles
  std::vector<int64_t> tileCount;      // per loop: buffer tiles along it
  std::vector<TensorTransfer> tensors; // per access, write first
  /// Per buffer tile (step), the core's cycles from its start pulse to its done pulse, for a
  /// core whose run differs from tile to tile (the attention pipeline's: the first key block
  /// also copies the queries, the last one normalises). Empty: every tile takes
  /// core.schedule.latency + 1 (coreCycles below).
  std::vector<int64_t> stepCycles;
};

/// The core's cycles from start pulse to done pulse on buffer tile `step` (to its next pulse
/// when its runs chain).
int64_t coreCycles(const MemoryPlan& m, int64_t step);

/// Why statement `v` cannot be built with a memory system (its tensors moved by the DMA), or ""
/// when it can: every tensor has one or two dimensions, each indexed by a single loop, and
/// whole-byte elements (`elementBits`: write first, as dse::Constraints::elementBits).
std::string memoryBuildProblem(const dataflow::StatementView& v,
                               const std::vector<int64_t>& elementBits);

/// The statement restricted to one full buffer tile: the loops' extents are the tile sizes and
/// each tensor's shape is its tile. Throws Unsupported for an access dimension that is not a
/// single loop.
std::pair<tc::Program, dataflow::StatementView> bufferTileProblem(const tc::Program& prog,
                                                                  const dataflow::StatementView& v,
                                                                  const dse::BufferTiling& t);

/// Throws Unsupported (with the reason) when some tensor's layout has no DMA map.
MemoryPlan makeMemoryPlan(const tc::Program& prog, const dataflow::StatementView& v,
                          const dataflow::Dataflow& d,
                          const std::vector<ir::OrientedEntry>& entries,
                          const std::vector<int64_t>& elementBits, const dse::BufferTiling& t,
                          const std::string& name);

} // namespace rubick::arch
