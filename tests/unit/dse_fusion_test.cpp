// SPDX-License-Identifier: Apache-2.0
// Fusion of a chain (dse/Fusion.h): a group's costs worked out by hand on an MLP block, the
// reasons a group cannot run, and the dynamic programme against every grouping of random chains.

#include "dataflow_test_util.h"

#include "rubick/dse/Chain.h"
#include "rubick/dse/Fusion.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace rubick::dse {
namespace {

// H = X W1 (int32), R = relu(H + b) as int8, Y = R W2 (int32); 64 rows. Bytes: X 64 x 128,
// W1 128 x 256, H 64 x 256 x 4, b 256 x 4, R 64 x 256, W2 256 x 128, Y 64 x 128 x 4. Each
// statement alone: compute cycles, cycles, bytes (at 64 bytes a cycle S0 moves its 106,496
// bytes in 1,664 cycles, under its 4,000 of computing: 1,000 fixed; S1's 82,944 take 1,296,
// over its computing: 204 fixed; S2 like S0).
FusionChain mlp() {
  FusionChain c;
  c.tensors = {{"X", 8192, true},   {"W1", 32768, true}, {"H", 65536, false}, {"b", 1024, true},
               {"R", 16384, false}, {"W2", 32768, true}, {"Y", 32768, true}};
  c.stages = {{"S0", 2, 64, {{0, true}, {1, false}}, 4000, 5000, 8192 + 32768 + 65536},
              {"S1", 4, 64, {{2, true}, {3, false}}, 1000, 1500, 65536 + 1024 + 16384},
              {"S2", 6, 64, {{4, true}, {5, false}}, 4000, 5000, 16384 + 32768 + 32768}};
  return c;
}

constexpr int64_t kAloneBytes = 106496 + 82944 + 81920;

TEST(Fusion, AGroupKeepsItsIntermediatesOnChip) {
  const FusionChain c = mlp();
  FusionGroup g;
  // Whole tensors, no on-chip limit: X, W1, b, W2 read once, Y written; H and R stay on chip.
  // The stages still take turns, each as long as alone: fusing saves traffic, not time.
  ASSERT_EQ(fusionGroup(c, 0, 2, 1, {64, -1}, g), "");
  EXPECT_EQ(g.bytes, 8192 + 32768 + 1024 + 32768 + 32768);
  EXPECT_TRUE(g.keepsWhole);
  EXPECT_EQ(g.bufferBytes, 65536 + 16384);
  EXPECT_EQ(g.computeCycles, 9000);
  EXPECT_EQ(g.cycles, 5000 + 1500 + 5000);
  EXPECT_EQ(g.savedBytes, kAloneBytes - g.bytes);
  // 4 tiles of 16 rows: a tile of H and R on chip; X by rows once, every stage's weights again
  // each tile. S0: 4 x 1,000 fixed + max(4,000, (106,496 + 3 x 32,768) / 64 = 3,200); S1: 4 x
  // 204 + (82,944 + 3 x 1,024) / 64 = 1,344; S2 as S0.
  ASSERT_EQ(fusionGroup(c, 0, 2, 4, {64, -1}, g), "");
  EXPECT_FALSE(g.keepsWhole);
  EXPECT_EQ(g.bytes, 8192 + 4 * 66560 + 32768);
  EXPECT_EQ(g.bufferBytes, 65536 / 4 + 16384 / 4);
  EXPECT_EQ(g.cycles, (4000 + 4000) + (816 + 1344) + (4000 + 4000));
  EXPECT_EQ(g.savedBytes, kAloneBytes - g.bytes); // negative: the weights cost more
  EXPECT_LT(g.savedBytes, 0);
  // 40,000 bytes on chip: whole H and R (81,920) do not fit, nor halves (40,960); quarters do.
  EXPECT_EQ(fusionGroup(c, 0, 2, 1, {64, 40000}, g),
            "its intermediates' tiles take 81920 bytes, more than the on-chip budget of 40000");
  EXPECT_EQ(fusionGroup(c, 0, 2, 2, {64, 40000}, g),
            "its intermediates' tiles take 40960 bytes, more than the on-chip budget of 40000");
  ASSERT_EQ(fusionGroup(c, 0, 2, 4, {64, 40000}, g), "");
  // Nothing on chip: only a group without intermediates of its own could run.
  EXPECT_NE(fusionGroup(c, 0, 1, 64, {64, 0}, g), "");
  EXPECT_EQ(fusionGroup(c, 0, 2, 3, {64, -1}, g), "3 tiles do not divide the group's rows (64)");
  // Alone, a statement is its own design.
  ASSERT_EQ(fusionGroup(c, 1, 1, 1, {64, -1}, g), "");
  EXPECT_EQ(g.cycles, 1500);
  EXPECT_EQ(g.bytes, 65536 + 1024 + 16384);
}

TEST(Fusion, RowsMustMatchAndIntermediatesBeReadByRows) {
  FusionChain c = mlp();
  c.stages[2].reads[0].byRow = false; // S2 reads R transposed
  FusionGroup g;
  EXPECT_EQ(fusionGroup(c, 1, 2, 2, {64, -1}, g),
            "S2 reads R other than by rows: a tile of rows does not hold what it needs");
  EXPECT_EQ(fusionGroup(c, 1, 2, 1, {64, -1}, g), ""); // whole tensors on chip
  c.stages[2].rows = 32;
  EXPECT_EQ(fusionTiles(c, 1, 2), std::vector<int64_t>{1});
  EXPECT_EQ(fusionTiles(c, 0, 1), (std::vector<int64_t>{1, 2, 4, 8, 16, 32, 64}));
}

TEST(Fusion, TheMlpFusesAsFarAsItsIntermediatesFitOnChip) {
  const FusionChain c = mlp();
  // No limit: one group of whole tensors, as fast as alone and the least traffic (every
  // other plan moves H or R).
  FusionPlan p = fuseChain(c, {64, -1});
  ASSERT_EQ(p.groups.size(), 1u);
  EXPECT_EQ(p.groups[0].tiles, 1);
  EXPECT_EQ(p.cycles, 11500);
  EXPECT_EQ(p.bytes, 107520);
  // Room for R (16,384) but not H (65,536) nor half of H and R: S0 alone, S1..S2 whole. Halves
  // of H alone would fit S0..S1, but 2 tiles re-read W1 and pay S0's fixed cost twice (12,720
  // cycles in all).
  p = fuseChain(c, {64, 40000});
  ASSERT_EQ(p.groups.size(), 2u);
  EXPECT_EQ(p.groups[0].last, 0u);
  EXPECT_EQ(p.groups[1].first, 1u);
  EXPECT_EQ(p.groups[1].tiles, 1);
  EXPECT_EQ(p.cycles, 11500);
  EXPECT_EQ(p.bytes, 106496 + 65536 + 1024 + 32768 + 32768);
  // Too little for any tile of an intermediate: every statement alone.
  p = fuseChain(c, {64, 100});
  EXPECT_EQ(p.groups.size(), 3u);
  EXPECT_EQ(p.cycles, 5000 + 1500 + 5000);
  EXPECT_EQ(p.bytes, kAloneBytes);
}

TEST(Fusion, DynamicProgrammingFindsTheBestGrouping) {
  std::mt19937_64 rng(11);
  int fused = 0, tileable = 0; // plans with a group of several stages; chains with a tiled
                               // group that can run
  for (int round = 0; round < 300; ++round) {
    FusionChain c;
    const FusionLimits l{int64_t(1 + rng() % 16), rng() % 3 ? int64_t(rng() % 8000) : -1,
                         int64_t(rng() % 50)};
    const size_t n = 1 + rng() % 5;
    const int64_t rows = int64_t(1) << (rng() % 4); // 1..8: up to 4 tile counts a group
    // Inputs first, then one output per stage.
    const size_t inputs = 1 + rng() % 3;
    for (size_t t = 0; t < inputs; ++t)
      c.tensors.push_back({"I" + std::to_string(t), int64_t(1 + rng() % 4000), true});
    for (size_t s = 0; s < n; ++s) {
      FusionStage st;
      st.statement = "S" + std::to_string(s);
      st.rows = rng() % 4 ? rows : rows * 2;
      const size_t reads = 1 + rng() % 3;
      for (size_t r = 0; r < reads; ++r)
        st.reads.push_back({int(rng() % c.tensors.size()), rng() % 3 != 0});
      st.output = int(c.tensors.size());
      c.tensors.push_back({"T" + std::to_string(s), int64_t(1 + rng() % 4000), rng() % 4 == 0});
      st.computeCycles = int64_t(rng() % 500);
      st.soloBytes = int64_t(rng() % 6000);
      // A design alone takes at least its computing and its transfers, and some fixed cost.
      const int64_t transfers = (st.soloBytes + l.bytesPerCycle - 1) / l.bytesPerCycle;
      st.soloCycles = std::max(st.computeCycles, transfers) + int64_t(rng() % 400);
      c.stages.push_back(st);
    }
    c.tensors.back().external = true;
    const FusionPlan dp = fuseChain(c, l), all = fuseChainExhaustively(c, l);
    SCOPED_TRACE(round);
    EXPECT_EQ(dp.cycles, all.cycles);
    EXPECT_EQ(dp.bytes, all.bytes);
    // The plan's groups cover the chain in order and add up to its totals; no group is faster
    // than its stages alone (they take turns on one bus, as built).
    int64_t cycles = 0, bytes = 0;
    size_t next = 0;
    bool anyFused = false;
    for (const FusionGroup& g : dp.groups) {
      anyFused |= g.last > g.first;
      EXPECT_EQ(g.first, next);
      next = g.last + 1;
      cycles += g.cycles;
      bytes += g.bytes;
      int64_t alone = 0;
      for (size_t s = g.first; s <= g.last; ++s)
        alone += c.stages[s].soloCycles;
      EXPECT_GE(g.cycles, alone);
    }
    EXPECT_EQ(next, n);
    EXPECT_EQ(cycles, dp.cycles);
    EXPECT_EQ(bytes, dp.bytes);
    fused += anyFused;
    bool canTile = false;
    for (size_t a = 0; a < n; ++a)
      for (size_t b = a + 1; b < n; ++b)
        for (int64_t t : fusionTiles(c, a, b)) {
          FusionGroup g;
          canTile |= t > 1 && fusionGroup(c, a, b, t, l, g).empty();
        }
    tileable += canTile;
  }
  // The chains exercise both answers, and the programme weighs tiled groups.
  EXPECT_GT(fused, 30);
  EXPECT_LT(fused, 270);
  EXPECT_GT(tileable, 30);
}

TEST(Chain, AProgramBecomesAFusionChain) {
  // The MLP block of examples/mlp.tc at M=16, K=32, N=32, P=16 on 4x4 with an 8-byte memory.
  const tc::Program prog = dataflow::test::program(
      "def mlp(int8(M,K) X, int8(K,N) W1, int32(N) b, int8(N,P) W2) -> (Y) {"
      " H(i,j) +=! X(i,k) * W1(k,j)  R(i,j) = max(H(i,j) + b(j), 0)"
      " Y(i,p) +=! R(i,j) * W2(j,p) }",
      {{"M", 16}, {"K", 32}, {"N", 32}, {"P", 16}});
  const ChainResult r = exploreChain(prog, [](size_t, const dataflow::StatementView& v) {
    ExploreOptions o;
    o.constraints.arrays = {{4, 4}};
    o.constraints.memory = {8, 20, 256};
    o.constraints.bufferBytes = 16384;
    for (const dataflow::AccessView& a : v.accesses)
      o.constraints.elementBits.push_back(a.elementBits);
    return o;
  });
  const FusionChain& c = r.chain;
  std::map<std::string, std::pair<int64_t, bool>> bytes; // name -> bytes, external
  for (const FusionTensor& t : c.tensors)
    bytes[t.name] = {t.bytes, t.external};
  EXPECT_EQ(bytes["X"], std::make_pair(int64_t(16 * 32), true));
  EXPECT_EQ(bytes["W1"], std::make_pair(int64_t(32 * 32), true));
  EXPECT_EQ(bytes["H"], std::make_pair(int64_t(16 * 32 * 4), false));
  EXPECT_EQ(bytes["b"], std::make_pair(int64_t(32 * 4), true));
  EXPECT_EQ(bytes["R"], std::make_pair(int64_t(16 * 32 * 4), false)); // max of int32: int32
  EXPECT_EQ(bytes["W2"], std::make_pair(int64_t(32 * 16), true));
  EXPECT_EQ(bytes["Y"], std::make_pair(int64_t(16 * 16 * 4), true));
  ASSERT_EQ(c.stages.size(), 3u);
  const char* reads[3][2] = {{"X", "W1"}, {"H", "b"}, {"R", "W2"}};
  for (size_t s = 0; s < 3; ++s) {
    const FusionStage& st = c.stages[s];
    EXPECT_EQ(st.rows, 16);
    ASSERT_EQ(st.reads.size(), 2u);
    // The first read is by rows (its first index is the row loop i), the second is not.
    EXPECT_EQ(c.tensors[size_t(st.reads[0].tensor)].name, reads[s][0]);
    EXPECT_TRUE(st.reads[0].byRow);
    EXPECT_EQ(c.tensors[size_t(st.reads[1].tensor)].name, reads[s][1]);
    EXPECT_FALSE(st.reads[1].byRow);
    // Alone: the statement's best memory design.
    EXPECT_EQ(st.soloCycles, r.stages[s].alone.memory.cycles);
    EXPECT_EQ(st.soloBytes, r.stages[s].alone.memory.busBytes);
  }
  EXPECT_EQ(r.limits.bytesPerCycle, 8);
  EXPECT_EQ(r.limits.chipBytes, 16384); // the on-chip RAM: the buffer budget by default
  EXPECT_EQ(r.limits.latency, 20);
  EXPECT_EQ(r.plan.cycles, fuseChain(c, r.limits).cycles);
}

} // namespace
} // namespace rubick::dse
