// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sharded explore (docs/scale.md): the search's work items, (array shape, space-time matrix)
// pairs in search order, are dealt round-robin to N shards. Shard I of N costs the items whose
// index is I modulo N; which items a shard owns depends on nothing but I, N and the options
// (not on threads or timing), so a rerun of one shard redoes exactly its part.

#include "rubick/dse/Explore.h"

#include <string>
#include <utility>
#include <vector>

namespace rubick::dse {

struct Shard {
  size_t index = 0, count = 1; // 0 <= index < count
  bool owns(size_t item) const { return item % count == index; }
  friend bool operator==(const Shard&, const Shard&) = default;
};

/// "I/N" with 0 <= I < N; throws std::invalid_argument saying what is wrong.
Shard parseShard(const std::string& text);
/// "I/N".
std::string toString(Shard s);
/// The file a shard writes into its directory: explore-shard-I-of-N.jsonl.
std::string shardFileName(Shard s);

/// What one shard found.
struct ShardResult {
  /// With keepBest N: the shard's best N and its own Pareto front (`pareto`: on the shard's
  /// front), `order` counting the shard's designs only; stats summed over its items (no
  /// recount without pruning when it found nothing).
  ExploreResult result;
  size_t items = 0; // work items of the whole search (shapes x space-time matrices)
  /// (work item, designs found there) for every item the shard owns, ascending.
  std::vector<std::pair<size_t, size_t>> itemDesigns;
};

/// explore() restricted to the work items shard `s` owns.
ShardResult exploreShard(const dataflow::StatementView& v, const ExploreOptions& o, Shard s);

} // namespace rubick::dse
