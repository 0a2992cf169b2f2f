// SPDX-License-Identifier: Apache-2.0
#pragma once
// The dataflow space of one statement on a P x Q array, found two independent ways:
//
// enumerateDataflows walks the IR space (theory §3): for each choice of inner loops, the
// oriented entries whose reuse dimension matches each access's null space; entry combinations
// pruned by cheap checks (for every set of tensors, the shared reuse of their entries must have
// the dimension of their shared access null space; this includes the stacked-rank check); then
// the layout freedom those entries leave, which is a small linear system in S solved exactly and
// walked over coefficients in [-bound, bound]; finally each solution is decomposed and kept only
// when it gives back exactly the chosen entries.
//
// bruteForceDataflows tries every space-time matrix with coefficients in [-bound, bound],
// checks legality point by point on the domain and decomposes it.
//
// Both return canonical dataflows (mirroring normalised), sorted and without duplicates.

#include "rubick/dataflow/Decompose.h"

#include <functional>
#include <map>
#include <vector>

namespace rubick::dataflow {

enum class Tiling {
  All,  // every tile factor 2..extent of each inner loop that fits the array
  Full, // inner loops are not split (factor = extent); only dataflows that fit
  Min,  // every inner loop split by 2: the smallest footprint, to ask "does S fit at all?"
  None, // no tiling and no fit check: the space-time matrices themselves (factor = extent)
};

struct EnumerationOptions {
  Tiling tiling = Tiling::All;
  int coefficientBound = 1; // entries of S lie in [-bound, bound]
  /// Optional filter on the entries an access may use (e.g. fan-out limits).
  std::function<bool(size_t access, const ir::OrientedEntry&)> allowEntry;
};

struct FoundDataflow {
  Dataflow dataflow;
  std::vector<ir::OrientedEntry> entries; // per access
  friend bool operator<(const FoundDataflow& a, const FoundDataflow& b) {
    return a.dataflow < b.dataflow;
  }
};

struct EnumerationStats {
  size_t innerChoices = 0;      // inner loop sets x constant-axis patterns
  size_t entryCombinations = 0; // oriented entry tuples whose reuse dimensions match the accesses
  size_t afterEntryChecks = 0;  // ... that pass the shared-reuse (intersection) checks
  size_t candidates = 0;        // space-time matrices tried (solutions, or brute force)
  size_t realisable = 0;        // distinct dataflows found (after tiling, deduplicated)
  /// Per unoriented entry tuple: the number of distinct space-time matrices realising it.
  std::map<std::vector<ir::EntryKind>, size_t> perCombination;
};

struct EnumerationResult {
  std::vector<FoundDataflow> dataflows;
  EnumerationStats stats;
};

EnumerationResult enumerateDataflows(const StatementView& v, int64_t p, int64_t q,
                                     const EnumerationOptions& o = {});
EnumerationResult bruteForceDataflows(const StatementView& v, int64_t p, int64_t q,
                                      const EnumerationOptions& o = {});

/// The inner-loop choices: every set of min(maxLoops, #loops with extent >= 2) such loops.
/// maxLoops is 3 (two array axes and time), or what a P x Q array can take: arraySpan.
std::vector<std::vector<int>> innerLoopSets(const StatementView& v, size_t maxLoops = 3);

/// The inner loops a P x Q array can map with a full-rank space-time matrix: time and each
/// axis of two PEs or more (3 for a 2-D array, 2 for a row of PEs, 1 for a single PE, whose
/// loops are all in time).
size_t arraySpan(int64_t p, int64_t q);

/// Tile factors for the inner loops of `d` (whose factors are ignored) under the policy; each
/// result fits the array.
std::vector<Dataflow> tilings(const StatementView& v, const Dataflow& d, Tiling t);

} // namespace rubick::dataflow
