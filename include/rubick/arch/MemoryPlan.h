// SPDX-License-Identifier: Apache-2.0
#pragma once
// The hardware plan of a design with a memory system (docs/memory.md): the array and banks
// are planned for one full buffer tile (the statement with every loop cut to its buffer tile
// size), and each tensor's tile moves between memory and the banks under a DMA map. The same
// core runs every buffer tile; the tiles at a tensor's edges are partly outside the tensor and
// are padded with zeros on the way in (and not written on the way out).
//
// A tensor's tile is the index range of its dimensions (I(h + r): h_t + r_t - 1 rows, a halo),
// moved as a box of its row-major layout (dse/TileBox.h).

#include "rubick/arch/DmaMap.h"
#include "rubick/arch/Plan.h"
#include "rubick/dse/Epilogue.h"
#include "rubick/dse/Explore.h"
#include "rubick/dse/Memory.h"
#include "rubick/dse/TileBox.h"

#include <memory>
#include <string>
#include <vector>

namespace rubick::arch {

struct TensorTransfer {
  size_t access = 0;
  std::vector<int64_t> tile;  // per tensor dimension: elements in one full buffer tile
  std::vector<int64_t> shape; // the whole tensor
  dse::TileBox box;           // the tile as the DMA moves it (rows x cols, a pitch apart)
  DmaMap dma;
  // How the buffer-level sequencer treats it (positions in BufferTiling::order):
  std::vector<char> indexedBy; // per position: the tensor's tile changes with that loop
  std::vector<char> revisits;  // outputs, per position: a loop outside the innermost indexing
                               // one that does not index it, so its partial sums leave the chip
                               // and come back
  bool reload = false;         // an output with some `revisits` position, or `startValues`
  // `+=`: the output's values in memory are its start values, so every first visit of a tile
  // loads it too (the sequencer's ACC) and the core adds to what it loaded, never to zero.
  bool startValues = false;
};

/// An epilogue operand (dse/Epilogue.h). A vector is loaded whole, once, before the first
/// buffer tile, into a register file (rtl_templates/rubick_vec_reg.v) that the epilogue reads.
/// A full operand (the output's shape) moves a tile at a time into a bank per lane of the
/// output's write groups (group (gr, gc) at gr x groupCols + gc), loaded while the core computes
/// that tile and read, in the output's group order, beside the output's tile when it is stored.
struct OperandTransfer {
  dse::EpilogueOperand operand;
  int64_t lanes = 1; // elements per write group of its load
  DmaMap dma;        // a full operand's: the output's groups, a bank per lane
  int64_t banks = 0, depth = 0, addressBits = 0;
  // A full operand's tiles: boxes of the output's rows and columns in its own layout, starting
  // `offsetBytes` after its base (the offset of its index).
  dse::TileBox box;
  int64_t offsetBytes = 0;
};

/// A tensor as it lies in external memory and moves over the bus: the statement's (write
/// first), then the epilogue's operands; `bits` is the width in memory (an output's after its
/// epilogue).
struct MovedTensor {
  std::string name;
  bool output = false;
  int64_t bits = 0;
  std::vector<int64_t> shape;
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
  /// The contraction's epilogue, applied to the output between its banks and the memory (the
  /// output's memory width is then the epilogue's), and its operands; null: none.
  std::shared_ptr<const dse::Epilogue> epilogue;
  int64_t epilogueBits = 0; // the output's bits in memory with an epilogue
  std::vector<OperandTransfer> operands;
};

/// The plan of explored design `pt` (its dataflow, entries and buffer tiling) with `o`'s
/// element widths and epilogue, for a bus of `busBytes` bytes.
MemoryPlan designMemoryPlan(const tc::Program& prog, const dataflow::StatementView& v,
                            const dse::DesignPoint& pt, const dse::ExploreOptions& o,
                            const std::string& name, int64_t busBytes);

/// Why explored design `pt` cannot be built with `o`'s memory system (the designMemoryPlan
/// above, on the bus of arch::axiOptions), or "" when it can or has no buffer tiling.
std::string designMemoryProblem(const tc::Program& prog, const dataflow::StatementView& v,
                                const dse::DesignPoint& pt, const dse::ExploreOptions& o);

/// Every tensor the DMA moves, in base-register order (the statement's, then the operands).
std::vector<MovedTensor> movedTensors(const MemoryPlan& m);

/// Puts epilogue `e` of `prog` on `m`'s output for a bus of `busBytes` bytes. Throws
/// Unsupported for what the DMA engines cannot move (widths other than 8, 16 and 32 bits) and
/// for a contraction stored at another width than its type.
void addEpilogue(MemoryPlan& m, const tc::Program& prog, const dataflow::StatementView& v,
                 std::shared_ptr<const dse::Epilogue> e, int64_t busBytes);

/// The core's cycles from start pulse to done pulse on buffer tile `step` (to its next pulse
/// when its runs chain).
int64_t coreCycles(const MemoryPlan& m, int64_t step);

/// Why statement `v` cannot be built with a memory system (its tensors moved by the DMA), or ""
/// when it can: no scalar, every dimension indexed by a sum of loops with positive factors and
/// no constant, whole-byte elements (`elementBits`: write first, as
/// dse::Constraints::elementBits). Whether a tiling's tiles are boxes is dse::tileBox's.
std::string memoryBuildProblem(const dataflow::StatementView& v,
                               const std::vector<int64_t>& elementBits);

/// The statement restricted to one full buffer tile: the loops' extents are the tile sizes and
/// each tensor's shape is its tile (each dimension the index range the tile's loops cover).
/// Throws Unsupported for an access dimension that is not a sum of loops.
std::pair<tc::Program, dataflow::StatementView> bufferTileProblem(const tc::Program& prog,
                                                                  const dataflow::StatementView& v,
                                                                  const dse::BufferTiling& t);

/// Throws Unsupported (with the reason) when some tensor's tile is not a box or its layout has
/// no DMA map. `outputIndexDims`: the output's dimensions that index an epilogue operand
/// (dse::indexDims), which its box must keep as rows or columns; `outputSplitDims`
/// (dse::splitDims): dimensions its box never takes as whole.
MemoryPlan makeMemoryPlan(const tc::Program& prog, const dataflow::StatementView& v,
                          const dataflow::Dataflow& d,
                          const std::vector<ir::OrientedEntry>& entries,
                          const std::vector<int64_t>& elementBits, const dse::BufferTiling& t,
                          const std::string& name, uint32_t outputIndexDims = 0,
                          uint32_t outputSplitDims = 0);

} // namespace rubick::arch
