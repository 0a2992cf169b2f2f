// SPDX-License-Identifier: Apache-2.0
// The buffer-tiling search's shortcuts against the plain search: the cache shared between designs
// gives every design what its own uncached search gives, the best-first search gives what
// evaluating every candidate gives, and an explore run with the cache does not depend on threads
// and equals the brute-force explorer (which searches every design without a cache).

#include "dataflow_test_util.h"
#include "memory_test_util.h"

#include "rubick/dse/BufferSearch.h"
#include "rubick/dse/Explore.h"

#include <gtest/gtest.h>

namespace rubick::dse {
namespace {

// Every design of `v` on `p` x `q` (explored without a memory, so no time loop is chunked).
std::vector<DesignPoint> allDesigns(const dataflow::StatementView& v, int64_t p, int64_t q,
                                    const std::vector<int64_t>& bits) {
  ExploreOptions o;
  o.constraints.arrays = {{p, q}};
  o.constraints.elementBits = bits;
  o.threads = 1;
  return explore(v, o).points;
}

void expectSame(const std::optional<BufferChoice>& a, const std::optional<BufferChoice>& b) {
  ASSERT_EQ(a.has_value(), b.has_value());
  if (!a) return;
  EXPECT_EQ(a->dataflow, b->dataflow);
  EXPECT_EQ(a->tiling, b->tiling);
  test::expectSameMetrics(a->metrics, b->metrics);
}

// A statement with a memory and a bank budget (0: none).
struct Case {
  const char* name;
  dataflow::StatementView v;
  MemorySystem memory;
  int64_t budget = 0;
};

std::vector<Case> cases() {
  const MemorySystem wide{8, 50, 256}, narrow{2, 5, 64};
  return {
      {"gemm 32^3, 1 KiB", dataflow::test::gemm(32, 32, 32), wide, 1024},
      {"gemm 32^3, narrow bus, 1 KiB", dataflow::test::gemm(32, 32, 32), narrow, 1024},
      // DRAM rows of 64 bytes, 7 cycles each after a transfer's first (a PIM unit's bank).
      {"gemm 32^3, DRAM rows, 1 KiB", dataflow::test::gemm(32, 32, 32), {8, 50, 256, 64, 7}, 1024},
      // Sizes that leave short last tiles, and a loop outside the array (the batch).
      {"gemm 13x10x11, 4 KiB", dataflow::test::gemm(13, 10, 11), wide, 4096},
      {"bmm 3x8x6x5, no budget",
       dataflow::test::statement(dataflow::test::kBmm, {{"NB", 3}, {"M", 8}, {"N", 6}, {"K", 5}}),
       narrow, 0}};
}

const std::vector<int64_t> kBits = {32, 8, 8};

TEST(BufferSearch, CacheGivesTheUncachedResult) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const std::vector<DesignPoint> designs = allDesigns(c.v, 4, 4, kBits);
    ASSERT_GT(designs.size(), 100u);
    // One cache for the whole sweep, as in an explore run: designs share its entries.
    BufferSearchCache cache(c.v);
    size_t found = 0;
    for (const DesignPoint& d : designs) {
      SCOPED_TRACE(d.id);
      auto plain = bestBufferTiling(c.v, d.dataflow, d.entries, kBits, c.memory, c.budget);
      auto shared =
          bestBufferTiling(c.v, d.dataflow, d.entries, kBits, c.memory, c.budget, true, &cache);
      expectSame(shared, plain);
      found += plain.has_value();
    }
    EXPECT_GT(found, 0u);
    EXPECT_EQ(cache.lookups(), designs.size());
    EXPECT_LT(cache.searches(), cache.lookups()); // the cache was used
  }
}

TEST(BufferSearch, BestFirstEqualsTryingEverything) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const std::vector<DesignPoint> designs = allDesigns(c.v, 4, 4, kBits);
    for (size_t i = 0; i < designs.size(); i += 37) {
      const DesignPoint& d = designs[i];
      SCOPED_TRACE(d.id);
      expectSame(bestBufferTiling(c.v, d.dataflow, d.entries, kBits, c.memory, c.budget, true),
                 bestBufferTiling(c.v, d.dataflow, d.entries, kBits, c.memory, c.budget, false));
    }
  }
}

ExploreOptions memoryOptions() {
  ExploreOptions o;
  o.constraints.arrays = {{4, 4}, {3, 2}};
  o.constraints.elementBits = {32, 8, 8};
  o.constraints.memory = {4, 20, 64};
  o.constraints.bufferBytes = 1500;
  return o;
}

void expectSamePoints(const ExploreResult& a, const ExploreResult& b) {
  ASSERT_EQ(a.points.size(), b.points.size());
  for (size_t i = 0; i < a.points.size(); ++i) {
    const DesignPoint &x = a.points[i], &y = b.points[i];
    EXPECT_EQ(x.id, y.id);
    EXPECT_EQ(x.dataflow, y.dataflow);
    EXPECT_EQ(x.buffer, y.buffer);
    EXPECT_EQ(x.metrics.latency, y.metrics.latency);
    EXPECT_EQ(x.metrics.bufferBytes, y.metrics.bufferBytes);
    EXPECT_EQ(x.memory.busBytes, y.memory.busBytes);
    EXPECT_EQ(x.pareto, y.pareto);
  }
}

TEST(BufferSearch, ExploreWithMemoryDoesNotDependOnThreads) {
  dataflow::StatementView v = dataflow::test::gemm(16, 12, 20);
  ExploreOptions o = memoryOptions();
  o.threads = 1;
  ExploreResult one = explore(v, o);
  o.threads = 3;
  ExploreResult three = explore(v, o);
  ASSERT_GT(one.points.size(), 100u);
  expectSamePoints(one, three);
}

TEST(BufferSearch, ExploreWithMemoryEqualsBruteForce) {
  // The brute-force explorer searches every design's buffer tiling on its own, without a cache.
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreOptions o = memoryOptions();
  ExploreResult fast = explore(v, o);
  ASSERT_GT(fast.points.size(), 0u);
  expectSamePoints(fast, exploreBruteForce(v, o));
}

} // namespace
} // namespace rubick::dse
