// SPDX-License-Identifier: Apache-2.0
#pragma once
// `rubick merge`: the shards of one sharded explore combined into what the unsharded run finds
// (docs/scale.md). The best N under the ranking's total order are among the shards' best N,
// and every design of the whole front is on its shard's front, so the shards' kept designs
// are enough; search order is rebuilt from the designs each work item found.

#include "rubick/dse/ShardFile.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rubick::dse {

/// The shard files (explore-shard-*-of-*.jsonl) in `dirs`, read and checked to be one complete
/// set of one run: every shard 0..N-1 exactly once, the same version, options and fingerprint.
/// Throws rubick::Error naming the missing or duplicated shard, or the files that disagree.
/// Sorted by shard index. Without `rows`, the CSV rows are not read (writeMergedCsvRows reads
/// them from the files again).
std::vector<ShardContents> readShardSet(const std::vector<std::string>& dirs, bool rows = true);

/// The explore result of the whole set (as explore() with the same options and keepBest
/// returns it, `order` in the whole search order). Throws rubick::Error when the shards do not
/// add up (a design ID twice, or a work item's designs missing).
ExploreResult mergeShards(const std::vector<ShardContents>& shards, Objective objective,
                          size_t keepBest);

/// The --csv rows of every design in search order (`pareto` cells set from `merged`), as
/// explore --csv writes them after its header, given to `out` one by one. The rows are read
/// from the shards' files as they are needed (a k-way merge: one row per shard in memory), so
/// the shards may be read without them (readShardSet's `rows` false). Throws rubick::Error
/// for a row missing, out of order or twice, or a design ID on two rows.
void writeMergedCsvRows(const std::vector<ShardContents>& shards, const ExploreResult& merged,
                        const std::function<void(std::string_view)>& out);

} // namespace rubick::dse
