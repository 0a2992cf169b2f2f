// SPDX-License-Identifier: Apache-2.0
// The memory model: the closed form equals the tile-by-tile walk, hand-derived transfer counts
// hold, and the buffer-tiling search with its lower bounds finds what trying everything finds.

#include "dataflow_test_util.h"
#include "memory_test_util.h"

#include "rubick/dse/BufferSearch.h"
#include "rubick/dse/Explore.h"

#include <gtest/gtest.h>

#include <random>

namespace rubick::dse {
namespace {

const std::vector<int64_t> kBits = {32, 8, 8};

// A few explored designs of `v` on 4x4 (different entries and tilings).
std::vector<DesignPoint> someDesigns(const dataflow::StatementView& v, size_t every) {
  ExploreOptions o;
  o.constraints.arrays = {{4, 4}};
  o.constraints.elementBits = kBits;
  o.threads = 1;
  std::vector<DesignPoint> out;
  ExploreResult r = explore(v, o);
  for (size_t i = 0; i < r.points.size(); i += every)
    out.push_back(r.points[i]);
  return out;
}

using test::expectSameMetrics;

TEST(Memory, ClosedFormEqualsWalk) {
  // Sizes that are not multiples of the array, so last tiles are short; `C += A B` too (the
  // output's start values loaded on every first visit); late operand loads in two trials of
  // three.
  for (bool accumulates : {false, true}) {
    dataflow::StatementView v = dataflow::test::gemm(13, 10, 11);
    v.accumulates = accumulates;
    std::mt19937 rng(7);
    int checked = 0;
    for (const DesignPoint& d : someDesigns(v, 97)) {
      for (int trial = 0; trial < 12; ++trial) {
        MemorySystem mem{int64_t(1) << (rng() % 5), int64_t(rng() % 30), 64};
        // Now and then an epilogue's full operands (one of a byte; two of 4 and 2 bytes), loaded
        // late with each of the output's tiles.
        if (trial % 3)
          mem.lateOperandBytes =
              trial % 3 == 1 ? std::vector<int64_t>{1} : std::vector<int64_t>{4, 2};
        // Chunk one time loop now and then, so array tiles cover part of the reduction.
        dataflow::Dataflow df = d.dataflow;
        for (size_t c = 0; c < df.k(); ++c)
          if (df.s[0][c] == 0 && df.s[1][c] == 0 && rng() % 2)
            df = chunked(v, df, df.inner[c].loop, 1 + int64_t(rng() % v.extent[df.inner[c].loop]));
        MemoryProblem p = memoryProblem(v, df, d.entries, kBits, mem);
        BufferTiling t;
        for (size_t l = 0; l < v.extent.size(); ++l) {
          const int64_t tiles = (v.extent[l] + p.arrayTile[l] - 1) / p.arrayTile[l];
          t.size.push_back(p.arrayTile[l] * (1 + int64_t(rng() % tiles)));
          if (t.size[l] < v.extent[l]) t.order.push_back(int(l));
        }
        std::shuffle(t.order.begin(), t.order.end(), rng);
        SCOPED_TRACE(toString(t, v));
        expectSameMetrics(evaluateMemory(p, t), walkMemory(p, t));
        ++checked;
      }
    }
    EXPECT_GT(checked, 50);
  }
}

TEST(Memory, AccumulateReadsEveryTileOfTheOutputOnce) {
  // C += A B, GEMM 16^3 output-stationary on 4x4: every tile of C comes in (its start values or
  // its partial sums) as often as it goes out.
  dataflow::StatementView v = dataflow::test::gemm(16, 16, 16);
  v.accumulates = true;
  dataflow::Dataflow d =
      dataflow::parseDataflowSpec("PE(i mod 4, j mod 4) | T(k, j / 4, i / 4)", v, 4, 4);
  std::vector<ir::OrientedEntry> entries;
  for (const dataflow::TensorDecomposition& td : dataflow::decompose(v, d).tensors)
    entries.push_back(*td.entry);
  const MemorySystem mem{4, 10, 64};
  const MemoryProblem p = memoryProblem(v, d, entries, kBits, mem);
  const MemoryMetrics m = evaluateMemory(p, BufferTiling{{8, 16, 16}, {0}});
  EXPECT_EQ(m.tensors[0].readBytes, 16 * 16 * 4);
  EXPECT_EQ(m.tensors[0].writeBytes, 16 * 16 * 4);
  const MemoryProblem pc = memoryProblem(v, chunked(v, d, 2, 8), entries, kBits, mem);
  const MemoryMetrics r = evaluateMemory(pc, BufferTiling{{8, 16, 8}, {2, 0}});
  EXPECT_EQ(r.tensors[0].readBytes, 2 * 16 * 16 * 4); // both visits of every tile
  EXPECT_EQ(r.tensors[0].writeBytes, 2 * 16 * 16 * 4);
  // Without `+=` the first visits start from zero: a tile's first load is the difference.
  v.accumulates = false;
  const MemoryProblem plain = memoryProblem(v, d, entries, kBits, mem);
  EXPECT_EQ(evaluateMemory(plain, BufferTiling{{8, 16, 16}, {0}}).tensors[0].readBytes, 0);
}

TEST(Memory, HandDerivedTraffic) {
  // GEMM 16^3 output-stationary on 4x4 (i, j on the array, k in time), 4-byte beats, latency 10.
  dataflow::StatementView v = dataflow::test::gemm(16, 16, 16);
  dataflow::Dataflow d =
      dataflow::parseDataflowSpec("PE(i mod 4, j mod 4) | T(k, j / 4, i / 4)", v, 4, 4);
  std::vector<ir::OrientedEntry> entries;
  for (const dataflow::TensorDecomposition& td : dataflow::decompose(v, d).tensors)
    entries.push_back(*td.entry);
  MemorySystem mem{4, 10, 64};
  MemoryProblem p = memoryProblem(v, d, entries, kBits, mem);
  // Buffer tiles of 8 rows of C, all columns, the whole reduction; one loop of 2 tiles.
  BufferTiling t{{8, 16, 16}, {0}};
  MemoryMetrics m = evaluateMemory(p, t);
  // A: each element once (its rows change with i); B: whole, once (it does not depend on i);
  // C: written once, 4 bytes an element.
  EXPECT_EQ(m.tensors[1].readBytes, 16 * 16);
  EXPECT_EQ(m.tensors[2].readBytes, 16 * 16);
  EXPECT_EQ(m.tensors[0].writeBytes, 16 * 16 * 4);
  EXPECT_EQ(m.bufferTiles, 2);
  // DMA lanes: A's rows (i) spread over the array's x ports, its columns (k) are time: 4 row
  // lanes; B's columns (j) spread over the y ports: 4 column lanes; C is one bank per PE and
  // both its dimensions spread: 4 column lanes (columns first on a tie).
  EXPECT_EQ(p.banks[1].lanes, 4);
  EXPECT_TRUE(p.banks[1].rowLanes);
  EXPECT_EQ(p.banks[2].lanes, 4);
  EXPECT_FALSE(p.banks[2].rowLanes);
  EXPECT_EQ(p.banks[0].lanes, 4);
  EXPECT_FALSE(p.banks[0].rowLanes);
  // A transfer: latency 10 + overhead + max(beats, groups).
  //   A rows 0-7 or 8-15: 128 bytes in one run = 32 beats; 2 x 16 groups of 4 rows: 51 cycles.
  //   B whole: 64 beats; 16 x 4 groups: 83 cycles.
  //   C 8 rows: 512 bytes = 128 beats; 8 x 4 groups: 143 cycles.
  // Phases: load A rows 0-7 then B; tile 0 computes while A rows 8-15 load; tile 1 computes
  // while C rows 0-7 are stored; C rows 8-15 are stored. The core runs 2 x 4 array tiles of 4x4
  // per buffer tile, plus its done and the next phase's start. Array tiles (t1 = k = 0..15, 20
  // cycles) overlap: a PE's accumulator is written 2 cycles after its last sum and restarts in
  // that cycle, so one starts every 16 + 2 cycles.
  ASSERT_EQ(p.tileCycles, 20);
  ASSERT_EQ(p.interval, 18);
  const int64_t core = 7 * 18 + 20 + 2;
  const int64_t la = 10 + kLoadOverhead + 32, lb = 10 + kLoadOverhead + 64;
  const int64_t sc = 10 + kStoreOverhead + 128;
  const int64_t plain = (la + lb) + std::max(core, la) + std::max(core, sc) + sc;
  // Chained runs (C moves at every step): the core's part is 8 x 18 + 1 cycles, and every
  // transfer after tile 0's phase waits g = 20 - 18 + 1 = 3 cycles for the previous drain:
  // 134 + 145 + max(145, 3 + 143) + (3 + 143) = 571, against 573 unchained.
  const int64_t cc = 8 * 18 + 1, g = 3;
  const int64_t chained = (la + lb) + std::max(cc, la) + std::max(cc, g + sc) + g + sc;
  ASSERT_LT(chained, plain);
  EXPECT_TRUE(m.chained);
  EXPECT_EQ(m.cycles, chained);
  // The array fills and drains once over both buffer tiles.
  EXPECT_EQ(m.computeCycles, 2 * 8 * 18 + 20 - 18);

  // Order matters: tiles over i and k (k outer) write C's partial sums out and read them back.
  BufferTiling rmw{{8, 16, 8}, {2, 0}};
  MemoryProblem pc = memoryProblem(v, chunked(v, d, 2, 8), entries, kBits, mem);
  MemoryMetrics r = evaluateMemory(pc, rmw);
  EXPECT_EQ(r.tensors[0].writeBytes, 2 * 16 * 16 * 4); // every C tile twice
  EXPECT_EQ(r.tensors[0].readBytes, 16 * 16 * 4);      // the second visit reads it back
  expectSameMetrics(r, walkMemory(pc, rmw));
}

TEST(Memory, SearchWithBoundsFindsTheBest) {
  dataflow::StatementView v = dataflow::test::gemm(24, 20, 28);
  for (const DesignPoint& d : someDesigns(v, 211))
    for (int64_t budget : {0, 2000, 600})
      for (MemorySystem mem : {MemorySystem{16, 40, 64}, MemorySystem{2, 5, 64}}) {
        auto fast = bestBufferTiling(v, d.dataflow, d.entries, kBits, mem, budget, true);
        auto full = bestBufferTiling(v, d.dataflow, d.entries, kBits, mem, budget, false);
        ASSERT_EQ(fast.has_value(), full.has_value());
        if (!fast) continue;
        EXPECT_EQ(fast->dataflow, full->dataflow);
        EXPECT_EQ(fast->tiling, full->tiling);
        EXPECT_EQ(fast->metrics.cycles, full->metrics.cycles);
        if (budget) {
          EXPECT_LE(fast->metrics.bankBytes, budget);
        }
      }
}

} // namespace
} // namespace rubick::dse
