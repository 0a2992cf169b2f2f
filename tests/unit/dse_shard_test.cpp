// SPDX-License-Identifier: Apache-2.0
// Sharded explore: the shards partition the work items, their files read back as written, and
// merging them gives explore()'s result, whatever the shard count.

#include "dataflow_test_util.h"
#include "temp_dir.h"

#include "rubick/dse/MergeShards.h"
#include "rubick/dse/Shard.h"
#include "rubick/dse/ShardFile.h"
#include "rubick/support/Diagnostic.h"

#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

namespace rubick::dse {
namespace {

ExploreOptions gemmOptions(size_t keepBest) {
  ExploreOptions o;
  o.constraints.arrays = {{4, 4}, {3, 5}, {2, 2}};
  o.constraints.elementBits = {32, 8, 8};
  o.keepBest = keepBest;
  o.threads = 2;
  return o;
}

// A shard as its file holds it, written and read back.
ShardContents throughFile(const test::TempDir& dir, const ShardResult& r, Shard s,
                          const std::vector<std::pair<size_t, std::string>>& rows = {}) {
  ShardHeader h;
  h.shard = s;
  h.version = "test";
  h.options = {"gemm.tc"};
  h.fingerprint = "f";
  h.items = r.items;
  const std::string path = dir / shardFileName(s);
  {
    std::ofstream out(path, std::ios::binary);
    out << shardHeaderLine(h);
    for (const auto& [order, row] : rows)
      out << shardRowLine(order, row);
    for (const DesignPoint& d : r.result.points)
      out << shardDesignLine(d);
    out << shardEndLine(r);
  }
  return readShardFile(path);
}

TEST(Shard, ParsesIOfN) {
  EXPECT_EQ(parseShard("0/4"), (Shard{0, 4}));
  EXPECT_EQ(parseShard("3/4"), (Shard{3, 4}));
  EXPECT_EQ(toString(Shard{2, 5}), "2/5");
  EXPECT_EQ(shardFileName(Shard{2, 5}), "explore-shard-2-of-5.jsonl");
  for (const char* bad : {"4/4", "1/0", "1", "a/4", "-1/4", "1/4x", "/4", ""})
    EXPECT_THROW(parseShard(bad), std::invalid_argument) << bad;
}

TEST(Shard, MergedShardsAreTheUnshardedSearch) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  test::TempDir dir;
  for (size_t keepBest : {size_t(1), size_t(3), size_t(50)})
    for (size_t n : {size_t(1), size_t(2), size_t(5)}) {
      const ExploreResult whole = explore(v, gemmOptions(keepBest));
      std::vector<ShardContents> shards;
      std::vector<size_t> owner;
      for (size_t i = 0; i < n; ++i) {
        const ShardResult r = exploreShard(v, gemmOptions(keepBest), Shard{i, n});
        for (const auto& [item, designs] : r.itemDesigns) {
          if (owner.size() <= item) owner.resize(item + 1, n);
          EXPECT_EQ(owner[item], n) << "item " << item << " in two shards";
          owner[item] = i;
        }
        shards.push_back(throughFile(dir, r, Shard{i, n}));
      }
      ASSERT_FALSE(shards.empty());
      EXPECT_EQ(owner.size(), shards.front().header.items);
      const ExploreResult merged = mergeShards(shards, Objective::Latency, keepBest);
      const std::string what = std::to_string(n) + " shards, best " + std::to_string(keepBest);
      EXPECT_EQ(merged.stats.designs, whole.stats.designs) << what;
      EXPECT_EQ(merged.stats.candidates, whole.stats.candidates) << what;
      EXPECT_EQ(merged.stats.pareto, whole.stats.pareto) << what;
      EXPECT_EQ(merged.stats.spaceTimeMatrices, whole.stats.spaceTimeMatrices) << what;
      ASSERT_EQ(merged.points.size(), whole.points.size()) << what;
      for (size_t i = 0; i < whole.points.size(); ++i) {
        const DesignPoint &a = merged.points[i], &b = whole.points[i];
        EXPECT_EQ(a.id, b.id) << what << ", rank " << i;
        EXPECT_EQ(a.order, b.order) << what << ", rank " << i;
        EXPECT_EQ(a.pareto, b.pareto) << what << ", rank " << i;
        EXPECT_EQ(a.dataflow, b.dataflow) << what << ", rank " << i;
        EXPECT_EQ(a.entries, b.entries) << what << ", rank " << i;
        EXPECT_EQ(a.metrics.utilization, b.metrics.utilization) << what << ", rank " << i;
        EXPECT_EQ(a.metrics.energy, b.metrics.energy) << what << ", rank " << i;
        EXPECT_EQ(a.metrics.tensors.size(), b.metrics.tensors.size()) << what;
      }
    }
}

TEST(Shard, AShardFileWithoutItsEndIsIncomplete) {
  test::TempDir dir;
  const std::string path = dir / "explore-shard-0-of-1.jsonl";
  std::ofstream(path) << shardHeaderLine(ShardHeader{});
  EXPECT_THROW(readShardFile(path), Error);
  std::ofstream(path) << "{\"something\": 1}\n";
  EXPECT_THROW(readShardFile(path), Error);
}

} // namespace
} // namespace rubick::dse
