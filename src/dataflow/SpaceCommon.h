// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pieces shared by the two searches of the dataflow space (private to src/dataflow).

#include "rubick/dataflow/Enumerate.h"

#include <set>
#include <vector>

namespace rubick::dataflow::detail {

/// Which axes (0 = x, 1 = y, 2 = t1) S leaves constant, for k inner coordinates.
std::vector<std::vector<int>> constantAxisPatterns(size_t k);
bool isConstantAxis(const std::vector<int>& axes, int r);

/// A dataflow with the given inner loops (unsplit), S all zero and no outer order yet.
Dataflow skeleton(const StatementView& v, int64_t p, int64_t q, const std::vector<int>& loops);

std::vector<ir::EntryKind> kindsOf(const std::vector<ir::OrientedEntry>& es);

/// Bookkeeping: canonical mirroring, deduplication, and the count of distinct (untiled)
/// space-time matrices per entry combination.
class Recorder {
public:
  /// `entries` are those of `tiled` (one per access), before canonical mirroring.
  void add(const Dataflow& tiled, const std::vector<ir::OrientedEntry>& entries,
           EnumerationStats& stats);
  void finish(EnumerationResult& res);

private:
  std::set<FoundDataflow> found_;
  std::set<Dataflow> counted_;
};

} // namespace rubick::dataflow::detail
