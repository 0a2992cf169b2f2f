// SPDX-License-Identifier: Apache-2.0
// The plan of a design with a memory system: the core planned for one buffer tile runs as many
// cycles per tile as the memory model charges, and every tensor's tile has a DMA map that
// reproduces the core's bank layout.

#include "dataflow_test_util.h"
#include "dma_test_util.h"

#include "rubick/arch/MemoryPlan.h"
#include "rubick/dse/Explore.h"
#include "rubick/frontend/Sema.h"
#include "rubick/support/Unsupported.h"

#include <gtest/gtest.h>

#include <map>

namespace rubick::arch {
namespace {

using dataflow::test::program;

// Every explored memory design of `prog` gets a plan; returns how many.
int checkPlans(const tc::Program& prog, dse::ArrayShape array, dse::MemorySystem mem,
               int64_t budget) {
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = {array};
  o.constraints.memory = mem;
  o.constraints.bufferBytes = budget;
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.write ? 32 : 8);
  dse::ExploreResult r = dse::explore(v, o);
  int planned = 0;
  for (const dse::DesignPoint& pt : r.points) {
    MemoryPlan m =
        makeMemoryPlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, pt.buffer, "d");
    int64_t tiles = 1;
    bool full = true;
    for (size_t l = 0; l < v.loops.size(); ++l) {
      tiles *= m.tileCount[l];
      full = full && v.extent[l] % pt.buffer.size[l] == 0;
    }
    EXPECT_EQ(tiles, pt.memory.bufferTiles) << pt.id;
    // The core chains its runs exactly when the explorer chose it (its safety rule is the
    // explorer's, from the core's own schedule).
    EXPECT_EQ(m.core.chain, pt.buffer.chain) << pt.id;
    // With every tile full, the model's compute cycles are the core's latency per tile; with
    // chained runs, n array tiles an interval apart per tile and one fill and drain in all.
    const dse::Schedule& s = m.core.schedule;
    const int64_t compute =
        m.core.chain ? tiles * s.tiles * s.interval + s.tileCycles - s.interval : tiles * s.latency;
    if (full) {
      EXPECT_EQ(compute, pt.memory.computeCycles)
          << pt.id << " " << dataflow::toSpec(pt.dataflow, v) << " tile "
          << dse::toString(pt.buffer, v) << " core " << dataflow::toSpec(m.dataflow, v)
          << " latency " << m.core.schedule.latency << " tiles " << tiles;
    }
    auto [tileProg, tileView] = bufferTileProblem(prog, v, pt.buffer);
    const std::vector<TensorMap> maps = hostMap(tileProg, tileView, m.dataflow, m.core);
    for (size_t i = 0; i < m.tensors.size(); ++i) {
      EXPECT_EQ(m.tensors[i].tile, maps[i].shape);
      test::expectReproduces(m.tensors[i].dma, maps[i], pt.id + " " + v.accesses[i].name);
    }
    ++planned;
  }
  return planned;
}

TEST(MemoryPlan, GemmDesignsRunTheModelsTileCycles) {
  tc::Program gemm = program(dataflow::test::kGemm, {{"M", 32}, {"N", 32}, {"K", 32}});
  EXPECT_GT(checkPlans(gemm, {4, 4}, {8, 50, 64}, 2048), 20);
}

TEST(MemoryPlan, ShortEdgeTilesAndGemv) {
  tc::Program gemm = program(dataflow::test::kGemm, {{"M", 20}, {"N", 12}, {"K", 18}});
  EXPECT_GT(checkPlans(gemm, {4, 4}, {4, 20, 64}, 1024), 10);
  tc::Program gemv = program(dataflow::test::kGemv, {{"M", 24}, {"N", 40}});
  EXPECT_GT(checkPlans(gemv, {4, 4}, {4, 20, 64}, 256), 2);
}

TEST(MemoryPlan, PartialSumsAcrossBufferTilesHoldTheWholeReduction) {
  // GEMM 32^3 of int8 with k cut into buffer tiles: C adds up 32 products of at most 2^14 in
  // magnitude, |C| <= 2^19, 21 bits with the sign, however few products one tile has.
  tc::Program prog = program(dataflow::test::kGemm, {{"M", 32}, {"N", 32}, {"K", 32}});
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = {{4, 4}};
  o.constraints.memory = {64, 1, 4096};
  o.constraints.bufferBytes = 2048;
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.write ? 32 : 8);
  int split = 0;
  for (const dse::DesignPoint& pt : dse::explore(v, o).points) {
    if (pt.buffer.size[2] == 32) continue;
    MemoryPlan m =
        makeMemoryPlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, pt.buffer, "d");
    EXPECT_GE(m.core.accumulatorBits, 21) << pt.id;
    EXPECT_GE(m.core.tensors[0].wireBits, 21) << pt.id;
    ++split;
  }
  EXPECT_GT(split, 0);
}

TEST(MemoryPlan, ConvolutionTilesCoverTheirWindow) {
  // I(n, c, h + r, w + s) with H = 4, R = 2 (3 output rows), W = 3, S = 2: a tile of h:2 and
  // r:2 covers 2 + 2 - 1 = 3 image rows; s:1 of w:2 covers 2 columns. The output and weights
  // take their loops' sizes.
  tc::Program conv =
      program(dataflow::test::kConv,
              {{"N", 1}, {"C", 2}, {"H", 4}, {"W", 3}, {"F", 2}, {"R", 2}, {"S", 2}});
  dataflow::StatementView v = dataflow::viewStatement(conv, 0);
  dse::BufferTiling t{v.extent, {}};
  t.size[v.loopIndex("h")] = 2;
  t.size[v.loopIndex("s")] = 1;
  auto [tileProg, tileView] = bufferTileProblem(conv, v, t);
  for (const dataflow::AccessView& a : tileView.accesses) {
    const std::map<std::string, IntVec> want = {
        {"I", {1, 2, 3, 2}}, {"O", {1, 2, 2, 2}}, {"Wt", {2, 2, 2, 1}}};
    EXPECT_EQ(a.shape, want.at(a.name)) << a.name;
  }
}

TEST(MemoryPlan, BackwardIndicesAreUnsupported) {
  tc::Program prog =
      program("def rev(int8(N) A) -> (int32(N) B) { B(i) = A(N - 1 - i) }", {{"N", 4}});
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  EXPECT_NE(memoryBuildProblem(v, {32, 8}).find("not a sum of loops"), std::string::npos)
      << memoryBuildProblem(v, {32, 8});
}

} // namespace
} // namespace rubick::arch
