// SPDX-License-Identifier: Apache-2.0
#pragma once
// Choosing a design's buffer-level tiling (docs/memory.md).
//
// Candidates, per loop by its role in the dataflow:
//  - spatial loops (feeding x or y, array tile factor f): n = ceil(E / f) array tiles; a buffer
//    tile holds ceil(n / B) of them for B = 1, 2, 4, ... below n, and n;
//  - time loops (feeding only t1): chunks of ceil(E / B) iterations for the same B; a chunk
//    shorter than E becomes the array tile's extent in that loop (the dataflow's factor), so an
//    array tile then covers one chunk and partial sums meet in the output banks;
//  - outer loops (not on the array): ceil(E / B) iterations.
// Orders: loops read by the same tensors are kept in loop order (swapping them changes no
// transfer), and every order of those groups is tried.
//
// The best candidate has the fewest cycles, then the fewest bus bytes, then the fewest bank
// bytes, then the smallest tiling; the bank budget (0: none) bounds the bank bytes. The search is
// best first: candidates come out in the order of a lower bound of their cycles (chunkings by
// their compute cycles, sizes by their first load, last store and every tile moved once), and
// stop once the bound exceeds the best found. A test compares it with trying every candidate.
//
// The result depends only on numbers that many designs share: per loop its role and array
// factor, per chunking of the time loops the array tile's cycles and every access's bank use,
// the memory and the budget. BufferSearchCache remembers results under those numbers, so an
// explore run searches once per distinct set (a test compares it with the uncached search).

#include "rubick/dse/Memory.h"
#include "rubick/dse/Schedule.h"

#include <memory>
#include <optional>

namespace rubick::dse {

struct BufferChoice {
  dataflow::Dataflow dataflow; // the design's dataflow with its time loops chunked
  Schedule schedule;           // its schedule
  BufferTiling tiling;
  MemoryMetrics metrics;
};

/// The model's inputs for dataflow `d` (already chunked) with `entries`.
MemoryProblem memoryProblem(const dataflow::StatementView& v, const dataflow::Dataflow& d,
                            const std::vector<ir::OrientedEntry>& entries,
                            const std::vector<int64_t>& elementBits, const MemorySystem& memory);

/// `d` with time loop `loop` cut into chunks of `chunk` iterations (the chunk index becomes the
/// outermost time stamp).
dataflow::Dataflow chunked(const dataflow::StatementView& v, const dataflow::Dataflow& d, int loop,
                           int64_t chunk);

/// The inverse of chunked(): `d` with every time loop cut into chunks made whole again (the
/// dataflow the buffer search started from, given one it returned).
dataflow::Dataflow unchunked(const dataflow::StatementView& v, const dataflow::Dataflow& d);

/// Search results of one statement's designs, shared by the threads of an explore run.
class BufferSearchCache {
public:
  explicit BufferSearchCache(const dataflow::StatementView& v);
  ~BufferSearchCache();
  const dataflow::StatementView& view() const { return *view_; }
  /// Searches run (the distinct sets of search numbers met) and results asked for.
  size_t searches() const;
  size_t lookups() const;

  struct Maps; // private to src/dse
  Maps& maps() const { return *maps_; }

private:
  const dataflow::StatementView* view_;
  std::unique_ptr<Maps> maps_;
};

/// The best buffer tiling of the design, or nullopt when none fits `bankBudget` bytes. With
/// `prune` false every candidate is evaluated (the reference for tests). With a `cache` (made
/// for `v`), a design whose search numbers were met before takes the result found then.
std::optional<BufferChoice> bestBufferTiling(const dataflow::StatementView& v,
                                             const dataflow::Dataflow& d,
                                             const std::vector<ir::OrientedEntry>& entries,
                                             const std::vector<int64_t>& elementBits,
                                             const MemorySystem& memory, int64_t bankBudget,
                                             bool prune = true, BufferSearchCache* cache = nullptr);

} // namespace rubick::dse
