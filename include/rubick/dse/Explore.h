// SPDX-License-Identifier: Apache-2.0
#pragma once
// Design-space exploration (theory §3-5): every realisable dataflow of a statement on every
// array shape asked for, under constraints, with metrics, ranked by an objective and with the
// Pareto front over (latency, wires or area, buffer bytes) marked.
//
// Search: the space-time matrices are found once by the IR-space search, with entries pruned
// before solving (an entry outside the allowed set, or whose fan-out or ports exceed the limit
// on every array shape asked for, never enters a combination). Then, per array shape and
// matrix: the entries are checked against that shape's limits, the explorer's tilings are
// generated, and each design is costed, dropping it as soon as its buffer exceeds the budget.
// A final filter re-checks every constraint, so pruning can only save time, never change the
// result (a test compares against a run without pruning).
//
// Work is spread over threads. Every result is a function of the set of designs (sums, the
// Pareto front, the best N under a total order), or is delivered in search order, so nothing
// depends on the thread count or on which work item finishes first.
//
// Stopping: explore() holds an InterruptScope, so a signal (SIGINT, SIGTERM with the CLI's
// handler) stops the search within about 100 ms and throws rubick::Interrupted; an exception
// from `progress` or `onDesign` likewise stops it and propagates from explore().
//
// Memory: with `keepBest`, designs are streamed: each work item's designs are folded into the
// running Pareto front and the running best N as soon as the item is done, so memory grows
// with the front, not with the design count (a range of arrays gives millions of designs).

#include "rubick/dataflow/Dataflow.h"
#include "rubick/dataflow/Enumerate.h"
#include "rubick/dse/CostModel.h"
#include "rubick/dse/DesignId.h"
#include "rubick/dse/Epilogue.h"
#include "rubick/dse/Memory.h"
#include "rubick/dse/Metrics.h" // Objective, and the metrics it ranks by
#include "rubick/ir/AccessEntry.h"

#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace rubick::dse {

struct ArrayShape {
  int64_t p = 0, q = 0;
  friend auto operator<=>(const ArrayShape&, const ArrayShape&) = default;
};

struct Constraints {
  std::vector<ArrayShape> arrays;
  int64_t maxFanout = 0;   // 0: no limit (applies to fan-out of inputs and fan-in of outputs)
  int64_t maxPorts = 0;    // per tensor; 0: no limit
  int64_t bufferBytes = 0; // all banks together (both halves with a memory system); 0: no limit
  std::set<ir::EntryKind> entries; // allowed kinds; empty: all 14
  /// Stored element width per access (write first); the program's types unless --dtype.
  std::vector<int64_t> elementBits;
  /// External memory (docs/memory.md); when enabled every design gets the buffer tiling with
  /// the fewest cycles, and latency, utilisation and buffer are those of the whole run.
  MemorySystem memory;
  /// A chain's on-chip RAM for its intermediates (docs/fusion.md): bytes; -1: bufferBytes
  /// (no limit when that is 0); 0: every intermediate through memory.
  int64_t chipBytes = -1;
  int64_t chipBudget() const {
    if (chipBytes >= 0) return chipBytes;
    return bufferBytes > 0 ? bufferBytes : std::numeric_limits<int64_t>::max();
  }
  /// A chain's stages run this many times, each time on the next tile of rows (docs/fusion.md,
  /// "Tiles of rows"); 1: each stage once on the whole tensors.
  int64_t rowTiles = 1;
};

struct DesignPoint {
  std::string id;
  dataflow::Dataflow dataflow;
  std::vector<ir::OrientedEntry> entries;
  Metrics metrics;
  bool pareto = false;
  /// Position in search order (array shape, then space-time matrix, then tiling), counting
  /// every design that satisfies the constraints from 0: the order of `onDesign` and --csv.
  size_t order = 0;
  /// With a memory system: the buffer tiling and its metrics (`buffer.size` empty otherwise).
  BufferTiling buffer;
  MemoryMetrics memory;
};

struct ExploreStats {
  size_t spaceTimeMatrices = 0; // realisable matrices from the IR search (before shapes)
  size_t candidates = 0;        // (shape, matrix, tiling) triples considered
  size_t designs = 0;           // satisfying every constraint
  size_t pareto = 0;
  // Candidates each constraint removed (a candidate may violate several).
  size_t byEntries = 0, byFanout = 0, byPorts = 0, byBuffer = 0, byFit = 0;
  // With a memory system, byBuffer also counts designs none of whose tilings within the budget
  // has tiles the DMA can move (dse/TileBox.h), when the statement has such tilings at all.
  bool tileShapes = false;
};

struct ExploreOptions {
  Constraints constraints;
  Objective objective = Objective::Latency;
  unsigned threads = 0; // 0: all hardware threads
  bool prune = true;    // false: no pruning before the final filter (for testing)
  CostTable costs;
  /// Called from the calling thread as work completes (every work item, and at least every
  /// 100 ms): work items done, work items in all, designs found so far.
  std::function<void(size_t done, size_t total, size_t designs)> progress;
  /// 0: `points` holds every design. N > 0: `points` holds only the best N by the objective
  /// and every Pareto-optimal design, and the others are dropped as they are found.
  size_t keepBest = 0;
  /// Called for every design (before Pareto marking, so `pareto` is false) in search order,
  /// one call at a time, from any of the worker threads.
  std::function<void(const DesignPoint&)> onDesign;
  /// The statement's epilogue (dse/Epilogue.h), built on the output's way to memory; null: none.
  std::shared_ptr<const Epilogue> epilogue;
};

struct ExploreResult {
  /// Sorted by the objective, ties by the other metrics and id: every design, or with
  /// `keepBest` the best N, then the other Pareto-optimal designs in the same order
  /// (stats.designs counts them all).
  std::vector<DesignPoint> points;
  ExploreStats stats;
  /// When `points` is empty: the constraint that removed the most candidates.
  std::string mostRestrictive() const;
};

ExploreResult explore(const dataflow::StatementView& v, const ExploreOptions& o);

/// The same search by brute force: per array shape, every space-time matrix with coefficients
/// in [-1, 1] is decomposed on its own, then tiled, costed and filtered; no pruning in IR space.
/// The reference that the benchmark and the tests compare explore() against.
ExploreResult exploreBruteForce(const dataflow::StatementView& v, const ExploreOptions& o);

/// The space-time matrices explore() considers (step 1: the IR-space search, with entries
/// pruned as in explore(), one representative per time reversal and mirror), in its order.
std::vector<dataflow::FoundDataflow> spaceTimeMatrices(const dataflow::StatementView& v,
                                                       const ExploreOptions& o);

} // namespace rubick::dse
