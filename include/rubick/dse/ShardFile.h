// SPDX-License-Identifier: Apache-2.0
#pragma once
// The file of one explore shard (docs/scale.md): JSON lines. The first line names the run
// (shard I/N, rubick's version, explore's options and their fingerprint, the work items); then
// one "row" line per design the shard found (its --csv row, for merge's --csv); then one
// "design" line per design it kept (its best --top and its Pareto front, every field merge
// needs to print them); the last line, "end", holds the statistics and the designs per work
// item (without it the file is incomplete).

#include "rubick/dse/Shard.h"

#include <string>
#include <utility>
#include <vector>

namespace rubick::dse {

/// The start of every shard file (how rubick recognises one it may replace).
inline constexpr const char* kShardSignature = "{\"rubick_explore_shard\":";

struct ShardHeader {
  Shard shard;
  std::string version; // rubick's
  /// explore's command line after `explore`, less --shard, --shard-dir, --threads and -q.
  std::vector<std::string> options;
  std::string fingerprint; // shardFingerprint(version, options)
  size_t items = 0;        // work items of the whole search
};

/// A hash of rubick's version, the options and the content of every file they name (the
/// program, a target, a cost table): shards of one run agree, and merge recomputes it to see
/// that the inputs have not changed.
std::string shardFingerprint(const std::string& version, const std::vector<std::string>& options);

std::string shardHeaderLine(const ShardHeader& h);
/// One design's --csv row (`csvRow` ends in a line feed), numbered in the shard's search order.
std::string shardRowLine(size_t order, const std::string& csvRow);
std::string shardDesignLine(const DesignPoint& d);
std::string shardEndLine(const ShardResult& r);

/// A shard file read back.
struct ShardContents {
  std::string path;
  ShardHeader header;
  ShardResult result;
  std::vector<std::pair<size_t, std::string>> rows; // (shard order, --csv row)
};

/// Reads a shard file; throws rubick::Error naming the path (and line) when it is not one.
/// Without `rows`, the row lines are skipped unread (most of the file: merge without --csv).
ShardContents readShardFile(const std::string& path, bool rows = true);

} // namespace rubick::dse
