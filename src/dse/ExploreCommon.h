#pragma once
// Pieces shared by the IR-space explorer and its brute-force reference (private to src/dse).

#include "rubick/dataflow/Enumerate.h"
#include "rubick/dse/Explore.h"

#include <functional>
#include <vector>

namespace rubick::dse::detail {

/// Designs and statistics of one unit of work.
struct Batch {
  std::vector<DesignPoint> points;
  ExploreStats stats;
};

/// Costs every explorer tiling of one space-time matrix on one array shape into `out`,
/// counting what each constraint removes; with `o.prune`, entries that violate a constraint
/// are not costed.
void costMatrix(const dataflow::StatementView& v, const ExploreOptions& o, ArrayShape shape,
                const dataflow::FoundDataflow& f, Batch& out);

/// Runs work(0..n-1) on the options' threads, reporting progress from the calling thread.
void runParallel(size_t n, const ExploreOptions& o, const std::function<void(size_t)>& work);

/// Merges the batches in order, marks the Pareto front and sorts by the objective.
void finish(const ExploreOptions& o, std::vector<Batch>& batches, ExploreResult& res);

/// One representative of a matrix and its time reversal (same metrics by symmetry), with its
/// entries re-oriented to match.
dataflow::FoundDataflow canonicalTimeAndMirror(const dataflow::FoundDataflow& f);

} // namespace rubick::dse::detail
