// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pieces shared by the IR-space explorer and its brute-force reference (private to src/dse).

#include "rubick/dataflow/Enumerate.h"
#include "rubick/dse/BufferSearch.h"
#include "rubick/dse/Explore.h"
#include "rubick/dse/Pareto.h"

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace rubick::dse::detail {

/// Designs and statistics of one unit of work.
struct Batch {
  std::vector<DesignPoint> points;
  ExploreStats stats;
  std::vector<char> localFront; // per point: not dominated within the batch (set by Collector)
  size_t designs = 0;           // before Collector drops any
};

/// Costs every explorer tiling of one space-time matrix on one array shape into `out`,
/// counting what each constraint removes; with `o.prune`, entries that violate a constraint
/// are not costed. With a memory system, `cache` (if given) shares buffer searches.
void costMatrix(const dataflow::StatementView& v, const ExploreOptions& o, ArrayShape shape,
                const dataflow::FoundDataflow& f, Batch& out, BufferSearchCache* cache = nullptr);

/// Metrics `m` of a design's array with the memory system's: latency, utilisation and buffer
/// become those of the whole run.
Metrics withMemory(Metrics m, const MemoryMetrics& mm, const dataflow::Dataflow& d);

/// The design of tiling `t` (entries `entries`) with a memory system, as explore costs it: its
/// best buffer tiling under the bank budget (which may cut `t`'s time loops into chunks), its
/// metrics and ID; nullopt when no buffer tiling fits. Entry constraints are not checked.
std::optional<DesignPoint> memoryDesign(const dataflow::StatementView& v, const ExploreOptions& o,
                                        const dataflow::Dataflow& t,
                                        const std::vector<ir::OrientedEntry>& entries,
                                        BufferSearchCache* cache = nullptr);

/// What a design's ID adds for its buffer tiling and memory system ("" without one).
std::string memoryIdText(const BufferTiling& t, const MemorySystem& mem);

/// Runs work(0..n-1) on the options' threads, reporting progress from the calling thread with
/// the count in `designs` (if given). The calling thread polls throwIfInterrupted at least every
/// 100 ms. When a work item, the progress callback or the poll throws, no further work is
/// started, the workers are joined and the (first) exception is rethrown here.
void runParallel(size_t n, const ExploreOptions& o, const std::function<void(size_t)>& work,
                 const std::atomic<size_t>* designs = nullptr);

/// Folds finished batches, from any thread, into the result. Batches are taken in index order
/// (a finished batch waits for its predecessors), which numbers the designs in search order and
/// feeds `onDesign`; then every design is either kept (keepBest 0) or folded into the running
/// Pareto front and the running best N, so memory stays bounded by what is shown.
class Collector {
public:
  Collector(const dataflow::StatementView& v, const ExploreOptions& o) : v_(v), o_(o) {}
  void add(size_t index, Batch&& b);
  /// Marks the front and sorts by the objective into `res`.
  void finish(ExploreResult& res);
  /// Designs found so far (for progress), from any thread.
  const std::atomic<size_t>& found() const { return found_; }
  /// Designs of each work item, by index (complete once every item is added).
  const std::vector<size_t>& itemDesigns() const { return itemDesigns_; }

private:
  void take(Batch& b);
  void fold(DesignPoint&& d, bool localFront);
  void trimBest();

  const dataflow::StatementView& v_;
  const ExploreOptions& o_;
  std::mutex mu_;
  std::map<size_t, Batch> pending_;
  size_t next_ = 0;
  std::atomic<size_t> found_{0};
  size_t designs_ = 0;
  std::vector<size_t> itemDesigns_;
  ExploreStats stats_;
  std::vector<DesignPoint> all_;   // keepBest 0
  std::vector<DesignPoint> best_;  // keepBest N: the best N so far (up to 2N before a trim)
  bool trimmed_ = false;           // best_ is sorted up to keepBest
  std::vector<DesignPoint> front_; // keepBest N: the Pareto front so far
  std::vector<ParetoKey> frontKeys_;
};

/// Strict total order of designs by rankKey (the objective's metric, then the tie-break
/// metrics of kMetrics), then the id and the search order.
bool better(const DesignPoint& a, const DesignPoint& b, Objective o);

/// One representative of a matrix and its time reversal (same metrics by symmetry), with its
/// entries re-oriented to match.
dataflow::FoundDataflow canonicalTimeAndMirror(const dataflow::FoundDataflow& f);

} // namespace rubick::dse::detail
