// SPDX-License-Identifier: Apache-2.0
// The cost model on small designs whose numbers are worked out by hand from the schedule rules
// in include/rubick/dse/Schedule.h and the buffer model in CostModel.h.

#include "dataflow_test_util.h"

#include "rubick/dse/CostModel.h"

#include <gtest/gtest.h>

namespace rubick::dse {
namespace {

struct Design {
  dataflow::StatementView v;
  dataflow::Dataflow d;
  std::vector<ir::OrientedEntry> entries;
};

Design design(dataflow::StatementView v, const std::string& spec, int64_t p, int64_t q) {
  dataflow::Dataflow d = dataflow::parseDataflowSpec(spec, v, p, q);
  dataflow::Decomposition dec = dataflow::decompose(v, d);
  EXPECT_TRUE(dec.ok()) << spec;
  std::vector<ir::OrientedEntry> es;
  for (const auto& t : dec.tensors)
    es.push_back(*t.entry);
  return {std::move(v), d, es};
}

// GEMM int8 x int8 -> int32; accesses C, A, B.
const std::vector<int64_t> kBits = {32, 8, 8};

TEST(CostModel, MulticastOutputStationary) {
  Design g = design(dataflow::test::gemm(4, 4, 4), "PE(i, j) | T(k)", 4, 4);
  Metrics m = evaluate(g.v, g.d, g.entries, kBits);
  // One tile, t1 in 0..3. Inputs are read from tau = -2; C is written at tau = T1 + 1 = 5.
  EXPECT_EQ(m.tiles, 1);
  EXPECT_EQ(m.tileCycles, 8);
  EXPECT_EQ(m.latency, 8);
  EXPECT_DOUBLE_EQ(m.utilization, 64.0 / (16.0 * 8.0));
  EXPECT_EQ(m.accumulatorBits, 8 + 8 + 2);
  // A: 4 ports (Y-multicast), depth 4; B alike; C: 16 ports of depth 1, 4 bytes each.
  EXPECT_EQ(m.tensors[1].ports, 4);
  EXPECT_EQ(m.tensors[1].bankDepth, 4);
  EXPECT_EQ(m.tensors[0].ports, 16);
  EXPECT_EQ(m.tensors[0].bankDepth, 1);
  EXPECT_EQ(m.bufferBytes, 16 + 16 + 64);
  // Wires: A and B 4 ports x fan-out 4 x 8 bits; C 16 ports x 1 x 18 bits.
  EXPECT_EQ(m.wires, 128 + 128 + 288);
  EXPECT_EQ(m.linkBits, 0);
  EXPECT_EQ(m.maxFanout, 4);
  EXPECT_EQ(m.maxFanin, 1);
  EXPECT_EQ(m.peakWordsPerCycle, 8); // A and B ports stream; C is held
  // 16 accesses per tensor (C: 16 ports once; A, B: 4 ports x 4 port times) over 8 cycles.
  EXPECT_DOUBLE_EQ(m.wordsPerCycle, 48.0 / 8.0);
  // Area with the default table: PEs 16 x (5*8*8 + 7*18) = 7136; registers 5 x 16 x (18+8+8)
  // = 2720; no adder tree; SRAM 1 x (16*1*32 + 4*4*8 + 4*4*8) = 768; wires 0.25 x 544 = 136.
  EXPECT_DOUBLE_EQ(m.area, 7136 + 2720 + 768 + 136);
  // Energy: 64 MACs x (0.5*64 + 0.7*18) = 2854.4; C: SRAM 2*16*32 + registers 16*18 + wires
  // 0.3*288 = 1398.4; A and B each: SRAM 2*16*8 + registers 16*8*4 + wires 0.3*128*4 = 921.6.
  EXPECT_NEAR(m.energy, 2854.4 + 1398.4 + 2 * 921.6, 1e-9);
}

TEST(CostModel, SystolicOutputStationary) {
  Design g = design(dataflow::test::gemm(4, 4, 4), "PE(j, i) | T(i + j + k)", 4, 4);
  Metrics m = evaluate(g.v, g.d, g.entries, kBits);
  // t1 = i + j + k spans 10 cycles; A's port time y + k spans 0..6 (read from tau = -2);
  // C is written at tau = 11: 14 cycles.
  EXPECT_EQ(m.tileCycles, 14);
  EXPECT_EQ(m.interval, 14); // one tile: nothing to overlap
  EXPECT_EQ(m.latency, 14);
  // A: 4 ports, one shared counter over 7 port times (the skew leaves holes): 28 bytes.
  EXPECT_EQ(m.tensors[1].bankDepth, 7);
  EXPECT_EQ(m.tensors[1].bufferBytes, 28);
  EXPECT_EQ(m.bufferBytes, 28 + 28 + 64);
  EXPECT_EQ(m.wires, 32 + 32 + 288);
  EXPECT_EQ(m.linkBits, 2 * 12 * 8); // (P-1) x Q links for A, P x for B
  EXPECT_EQ(m.maxFanout, 1);
}

TEST(CostModel, TiledSpatialLoops) {
  Design g =
      design(dataflow::test::gemm(8, 8, 8), "PE(i mod 4, j mod 4) | T(k, j / 4, i / 4)", 4, 4);
  Metrics m = evaluate(g.v, g.d, g.entries, kBits);
  EXPECT_EQ(m.tiles, 4);
  EXPECT_EQ(m.tileCycles, 8 + 1 + 2 + 1); // t1 0..7, reads from -2, write at 9
  // Tiles overlap: each PE's accumulator sums t1 = 0..7, is written at 7 + 2 and may restart in
  // that cycle (the next tile's reset at its tau = -1): a tile every 8 + 2 cycles; A's and B's
  // ports stream 8 port times each. Three intervals and the last tile.
  EXPECT_EQ(m.interval, 10);
  EXPECT_EQ(m.latency, 3 * 10 + 12);
  // Every element stored once: A and B 64 bytes, C 64 x 4 bytes.
  EXPECT_EQ(m.tensors[1].bankDepth, 16); // 8 port times x 2 values of i / 4
  EXPECT_EQ(m.bufferBytes, 64 + 64 + 256);
  EXPECT_FALSE(m.tensors[0].recurs);
}

TEST(CostModel, TiledReductionRecursThroughTheOutputBank) {
  // k split across two tiles: C(i, j) is summed over y by an adder tree (depth 2) and the two
  // tiles' partial sums meet in the bank (read-modify-write).
  Design g = design(dataflow::test::gemm(4, 4, 8), "PE(i, k mod 4) | T(j, k / 4)", 4, 4);
  ASSERT_EQ(g.entries[0].kind, ir::EntryKind::YMulticast);
  ASSERT_EQ(g.entries[1].kind, ir::EntryKind::Stationary);
  ASSERT_EQ(g.entries[2].kind, ir::EntryKind::XMulticast);
  Metrics m = evaluate(g.v, g.d, g.entries, kBits);
  EXPECT_TRUE(m.tensors[0].recurs);
  // C written at tau = te + 1 + D + 1 <= 3 + 1 + 2 + 1 = 7; A held, read at -2: 10 cycles.
  EXPECT_EQ(m.tileCycles, 10);
  // Overlap: C's port x reads te + 2 and writes te + 4 for te = j = 0..3; the next tile may
  // read only after the last write: 4 + 2 cycles apart (A's held values live t1 = 0..3).
  EXPECT_EQ(m.interval, 6);
  EXPECT_EQ(m.latency, 6 + 10);
  EXPECT_EQ(m.accumulatorBits, 16 + 3);
  EXPECT_EQ(m.tensors[0].bufferBytes, 4 * 4 * 4); // 4 ports x 4 port times, int32
  EXPECT_EQ(m.tensors[1].bankDepth, 2);           // held, one value per tile of k
  EXPECT_EQ(m.tensors[1].bufferBytes, 32);
  EXPECT_EQ(m.tensors[2].bankDepth, 8);
  EXPECT_EQ(m.maxFanin, 4);
}

TEST(CostModel, AccumulatorCoversTheReduction) {
  dataflow::StatementView v = dataflow::test::gemm(2, 2, 100);
  EXPECT_EQ(accumulatorBits(v, {8, 8}), 16 + 7); // 2^7 = 128 >= 100 terms
  EXPECT_EQ(treeDepth(1), 0);
  EXPECT_EQ(treeDepth(2), 1);
  EXPECT_EQ(treeDepth(5), 3);
}

} // namespace
} // namespace rubick::dse
