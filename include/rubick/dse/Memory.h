// SPDX-License-Identifier: Apache-2.0
#pragma once
// The memory system's cost model: tensors live in external memory in their plain row-major
// layout and move through the on-chip banks in buffer tiles (docs/memory.md).
//
// A buffer tile is a box of the loop space: per loop a size (a multiple of the array tile's
// extent in that loop), walked in a loop order chosen per design (outermost first). Banks are
// ping-pong: while the array computes buffer tile s, the DMA reads what tile s+1 needs and
// writes what tile s-1 finished. The cycles are those of the emitted sequencer
// (arch/BufferSequence.h), each phase lasting as long as the longest of its three chains:
//
//   cycles = L(0) + sum over s of max(C + 1, L(s+1), S(s-1)) + S(N-1)
//   C      = array tiles in a full buffer tile x array tile cycles + 1   (the core; edge tiles
//            are padded, so every tile runs the full schedule)
//   L(s)   = the loads of tile s, one after the other on the read channel: the inputs whose
//            tile changed from s-1 (all of them for s = 0), plus outputs whose partial sums
//            were written out earlier (a reduction loop outside the output's loops) and come
//            back, each after its own store
//   S(s)   = the stores after tile s, one after the other on the write channel: the outputs
//            whose tile changes after s (all of them after the last)
//   (the phase computing tile s also loads, after L(s+1), an epilogue's full operands' tile s
//   when the output's tile starts at s: the sequencer's late tensors)
//   X(a)   = latency + engine overhead + max(beats, write groups)   (one transfer of a tile)
//
// A tensor tile moves as runs of consecutive bytes in the row-major layout, each run a whole
// number of beats (one bus word per beat and cycle); its DMA engine puts `lanes` elements into
// the banks per cycle (BankUse), so a tile also needs a cycle per write group of lanes.
//
// Chained runs: when array tiles overlap (interval I below the tile's T cycles) the core's run
// of a buffer tile can start while the previous run drains, I + 1 cycles after the previous
// run's last array tile, and every transfer of a phase then waits for that drain (g = T - I + 1
// cycles into the phase when the phase before was the core's):
//
//   phase = max(n I + 1, g + L, g + S)   (L, S: 0 when there is none; the first tile's phase
//                                        is not gated; the last stores are)
//
// with n the array tiles of a buffer tile. A design chains when that gives fewer cycles, the
// tiles overlap, and an output kept in the banks from one buffer tile to the next cannot be
// read back before it is written (I + 1 at least the carried interval, or every output moves
// to a new tile at every step or has several array tiles in a buffer tile, so that a run's
// first array tile and the previous run's last one write different elements).
//
// The sum over the N tiles is evaluated exactly in closed form: a tile's terms depend only on
// whether each level's index is the first, a middle one, the next to last or the last, so tiles
// fall into at most 4^levels classes of known sizes (walkMemory is the tile-by-tile reference).

#include "rubick/dataflow/Dataflow.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/ir/AccessEntry.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::dse {

/// External memory as the explorer sees it (a target's "memory" object; docs/memory.md).
struct MemorySystem {
  int64_t bytesPerCycle =
      0;                  // bus width and bandwidth: one beat of this many bytes a cycle; 0: none
  int64_t latency = 0;    // cycles from a transfer's first request to its first beat
  int64_t burstBytes = 0; // longest burst the DMA issues (never across a 4 KiB boundary)
  // DRAM rows (a PIM unit's banks, docs/pim.md): each tensor lies row-major from a row
  // boundary in rows of rowBytes, and every row a transfer touches after its first costs
  // rowCycles more (its first row's activate is part of `latency`). 0: no rows to open.
  int64_t rowBytes = 0;
  int64_t rowCycles = 0;
  // A contraction's epilogue (dse/Epilogue.h) on the output's way out: the output moves at
  // `outputBytes` per element (0: its banks' width), and its partial sums never leave the chip
  // (no order puts a loop that does not index it outside one that does).
  int64_t outputBytes = 0;
  bool outputsFinal = false;
  // ... and its operands load once before the first tile: their cycles and bytes, the same
  // for every design (dse::epiloguePrologue).
  int64_t prologueCycles = 0, prologueBytes = 0;
  int64_t prologueBufferBytes = 0; // the operands' registers: on chip, in the buffer budget
  // Full operands (a residual) move with the output's tiles: their bytes per element in all,
  // counted in the output's banks, and each one's, loaded late (while the core computes the
  // tile, after the phase's other loads, on the read channel) at every output tile's first step.
  int64_t outputOperandBytes = 0;
  std::vector<int64_t> lateOperandBytes = {};
  // The output's dimensions that index its vector operands (dse::indexDims): its tiles keep
  // them as their rows or columns (dse/TileBox.h).
  uint32_t outputIndexDims = 0;
  // ... and the ones along which a full operand is larger (dse::splitDims): never whole in
  // the output's tiles.
  uint32_t outputSplitDims = 0;
  bool enabled() const { return bytesPerCycle > 0; }
  friend bool operator==(const MemorySystem&, const MemorySystem&) = default;
};

/// The buffer-level tiling of one design.
struct BufferTiling {
  std::vector<int64_t> size; // per loop: its extent in one (full) buffer tile
  std::vector<int> order;    // loops with more than one tile, outermost first
  // The core's runs chain (docs/memory.md, "Chained runs"): what the model found faster for
  // these sizes and order (evaluateMemory's MemoryMetrics::chained); not part of a design's ID.
  bool chain = false;
  friend auto operator<=>(const BufferTiling&, const BufferTiling&) = default;
};

/// Per access (write first): what the model needs of its array-level layout in the banks.
struct BankUse {
  int64_t ports = 0;       // banks
  int64_t span = 1;        // bank words per array tile: the port-time span (1 for held values)
  int64_t bytes = 1;       // bytes per element in the banks
  int64_t memoryBytes = 0; // bytes per element in memory when not `bytes` (after an epilogue)
  int64_t movedBytes() const { return memoryBytes > 0 ? memoryBytes : bytes; }
  std::vector<int> grow; // loops whose array tiles in a buffer tile multiply the bank depth
  // The DMA engine's write groups: `lanes` elements of a tile row (or, with rowLanes, of a
  // tile column) enter the banks per cycle; 0: no limit but the bus.
  int64_t lanes = 0;
  bool rowLanes = false;
};

/// Everything the model needs of one design besides the buffer tiling.
struct MemoryProblem {
  const dataflow::StatementView* view = nullptr;
  std::vector<int64_t> arrayTile; // per loop: the extent one array tile covers
  int64_t tileCycles = 0;         // cycles of one array tile
  // Cycles between the starts of consecutive array tiles in the core: without and with partial
  // sums that recur in the next array tile (dse/Schedule.h), and the loops of the array tile's
  // outer stamps, innermost first (the core keeps those with more than one tile).
  int64_t interval = 0, intervalCarry = 0;
  std::vector<int> outerLoops;
  // Per entry of outerLoops, filled by dse::memoryProblem (computed on the fly when empty): an
  // output stays in place along the loop, so its next array tile takes the carried interval.
  std::vector<char> outerCarries;
  std::vector<BankUse> banks; // per access
  MemorySystem memory;
  /// Per access, filled by dse::memoryProblem (computed on the fly when empty): the tensor's
  /// sizes, and per loop whether the access depends on it.
  std::vector<std::vector<int64_t>> dims;
  std::vector<std::vector<char>> dep;
};

struct TensorTraffic {
  std::string name;
  bool output = false;
  int64_t readBytes = 0, writeBytes = 0; // moved over the bus, whole beats
  int64_t compulsoryBytes = 0;           // every element once
  int64_t bankBytes = 0;                 // both halves of its ping-pong banks
};

struct MemoryMetrics {
  int64_t cycles = 0;        // start to done, transfers included
  int64_t computeCycles = 0; // the core's runs: per buffer tile, its array tiles overlapped
  int64_t bufferTiles = 0;
  int64_t bankBytes = 0; // on-chip, both halves
  int64_t busBytes = 0;  // read + written, whole beats
  int64_t compulsoryBytes = 0;
  bool memoryBound = false; // the transfers' cycles exceed the array's
  bool chained = false;     // the cycles are those of chained core runs (faster here)
  std::vector<TensorTraffic> tensors;
};

/// The model above, in closed form.
MemoryMetrics evaluateMemory(const MemoryProblem& p, const BufferTiling& t);

/// The same by walking every buffer tile (the reference for tests; time grows with the tiles).
MemoryMetrics walkMemory(const MemoryProblem& p, const BufferTiling& t);

/// Bank bytes of one buffer tile, both halves (what the buffer budget limits).
int64_t bankBytes(const MemoryProblem& p, const BufferTiling& t);

/// Bus beats to move one tile of access `a` whose loops have the given sizes.
int64_t tileBeats(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize);

/// DRAM rows of `memory.rowBytes` that one tile of access `a` touches, its tensor lying
/// row-major from a row boundary (1 without rows).
int64_t tileRows(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize);

/// X(a) above: the cycles one transfer of that tile holds its channel (a load for inputs, a
/// store for outputs; `load` forces a load, as for partial sums coming back), with
/// (tileRows - 1) x `memory.rowCycles` for the rows it opens after its first. `elementBytes`
/// (0: the access's own) moves another tensor of its tiles, such as a full epilogue operand.
int64_t tileTransferCycles(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize,
                           bool load, int64_t elementBytes = 0);

/// Bus beats of that tile at `elementBytes` per element (0: the access's own).
int64_t tileBeats(const MemoryProblem& p, size_t a, const std::vector<int64_t>& loopSize,
                  int64_t elementBytes);

/// The engine overhead of X(a) beyond latency and the larger of beats and groups: a load's
/// request, its read pipeline and the scatter; a store's gather, pack and write response
/// (rtl_templates/rubick_dma_rd.v, rubick_dma_wr.v).
inline constexpr int64_t kLoadOverhead = 9, kStoreOverhead = 5;

/// "i:64 j:64 k:256, order k,i,j" (loops at their full extent and an empty order are left out).
std::string toString(const BufferTiling& t, const dataflow::StatementView& v);

} // namespace rubick::dse
