// SPDX-License-Identifier: Apache-2.0
// The attention pipeline with its tensors in external memory (attn/PipelineMemory.h): the
// memory plan (tiles, buffers, what moves in which phase) and the cycles the explorer ranks by.

#include "rubick/arch/BufferSequence.h"
#include "rubick/attn/AttentionForm.h"
#include "rubick/attn/Pipeline.h"
#include "rubick/attn/PipelineMemory.h"
#include "rubick/attn/SelectPipeline.h"
#include "rubick/support/Unsupported.h"

#include "attn_test_util.h"
#include "tc_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace rubick::attn {
namespace {

const char* kSingle = rubick::test::kAttentionSingleHead;

const char* kTransposed = R"(
def att(int8(L,D) Q, int8(D,S) Kt, int8(S,Dv) V) -> (int16 O) {
    Sc(i,j) +=! Q(i,d) * Kt(d,j)
    mx(i) max=! Sc(i,j)
    E(i,j) = exp(Sc(i,j) - mx(i))
    sm(i) +=! E(i,j)
    U(i,e) +=! E(i,j) * V(j,e)
    O(i,e) = U(i,e) / sm(i)
})";

tc::Program withSizes(const char* text, int64_t l, int64_t s, int64_t d, int64_t dv) {
  tc::SemaOptions o;
  o.sizes = {{"L", l, {}}, {"S", s, {}}, {"D", d, {}}, {"Dv", dv, {}}};
  return test::analyzeText(text, o);
}

dse::MemorySystem memory(int64_t bytes, int64_t latency) {
  return {bytes, latency, std::min<int64_t>(256 * bytes, 4096)};
}

// What each phase of the sequencer moves, as "Q K V" (loads) and "O" (stores), from phase -1.
std::vector<std::string> movesPerPhase(const arch::MemoryPlan& m) {
  const arch::SequencerConfig c = arch::sequencerConfig(m);
  std::vector<std::string> out;
  for (const arch::SeqWork& w : arch::sequencerWork(c, std::vector<uint64_t>(4, 0))) {
    std::string s;
    for (const arch::SeqEvent& e : w.stores)
      s += "st:" + m.core.tensors[size_t(e.tensor)].name + " ";
    for (const arch::SeqEvent& e : w.loads)
      s += m.core.tensors[size_t(e.tensor)].name + " ";
    out.push_back(s);
  }
  return out;
}

TEST(PipelineMemory, KeyBlocksAreTheBufferTiles) {
  // 18 keys in blocks of 8: blocks of 8, 8 and 2 keys. Q comes with the first block's K and V,
  // each next block's K and V while the previous block computes, O after the last.
  tc::Program p = withSizes(kSingle, 4, 18, 4, 6);
  AttentionForm f = recogniseAttention(p, nullptr);
  const arch::MemoryPlan m = pipelineMemoryPlan(p, f, 8, memory(8, 20), "att");
  ASSERT_EQ(m.tensors.size(), 4u);
  EXPECT_EQ(m.core.tensors[0].name, "O");
  EXPECT_TRUE(m.core.tensors[0].output);
  EXPECT_EQ(m.core.tensors[1].name, "Q");
  EXPECT_EQ(m.core.tensors[2].name, "K");
  EXPECT_EQ(m.core.tensors[3].name, "V");
  EXPECT_EQ(m.tensors[2].tile, (std::vector<int64_t>{8, 4}));
  EXPECT_EQ(m.tensors[3].tile, (std::vector<int64_t>{8, 6}));
  EXPECT_EQ(m.tensors[1].tile, (std::vector<int64_t>{4, 4}));
  EXPECT_EQ(movesPerPhase(m), (std::vector<std::string>{"Q K V ", "K V ", "K V ", "", "st:O "}));
  // Block b of K starts at row 8b (4 int8 per row); the last block has 2 valid rows.
  const arch::SequencerConfig c = arch::sequencerConfig(m);
  std::vector<std::pair<uint64_t, int64_t>> kTiles;
  for (const arch::SeqWork& w : arch::sequencerWork(c, {1000, 2000, 3000, 4000}))
    for (const arch::SeqEvent& e : w.loads)
      if (e.tensor == 2) kTiles.push_back({e.addr, e.rows});
  EXPECT_EQ(kTiles, (std::vector<std::pair<uint64_t, int64_t>>{
                        {3000, 8}, {3000 + 8 * 4, 8}, {3000 + 16 * 4, 2}}));
}

TEST(PipelineMemory, TransposedKeysMoveAsColumnBlocks) {
  // Kt(d, j): a block is D rows of 8 keys, at 8 bytes further along each row per block; the
  // last block has 20 - 16 = 4 valid columns.
  tc::Program p = withSizes(kTransposed, 3, 20, 5, 2);
  AttentionForm f = recogniseAttention(p, nullptr);
  const arch::MemoryPlan m = pipelineMemoryPlan(p, f, 8, memory(4, 20), "att");
  EXPECT_EQ(m.tensors[2].tile, (std::vector<int64_t>{5, 8}));
  const arch::SequencerConfig c = arch::sequencerConfig(m);
  std::vector<std::pair<uint64_t, int64_t>> kTiles;
  for (const arch::SeqWork& w : arch::sequencerWork(c, {0, 0, 100, 0}))
    for (const arch::SeqEvent& e : w.loads)
      if (e.tensor == 2) kTiles.push_back({e.addr, e.cols});
  EXPECT_EQ(kTiles, (std::vector<std::pair<uint64_t, int64_t>>{{100, 8}, {108, 8}, {116, 4}}));
  // O is int16: two elements per 32-bit bus word, so its buffer has two banks.
  EXPECT_EQ(m.core.tensors[0].ports.size(), 2u);
  EXPECT_EQ(m.core.tensors[2].ports.size(), 4u);
}

TEST(PipelineMemory, BuffersHoldTilesRowMajor) {
  // Every DMA map puts element x of its tile (row-major) at word x / G of bank x mod G, which
  // is where the pipeline reads it (src/emit/AttentionMemoryCore.cpp).
  for (const char* text : {kSingle, kTransposed}) {
    tc::Program p = withSizes(text, 5, 12, 3, 7);
    AttentionForm f = recogniseAttention(p, nullptr);
    for (int64_t bus : {4, 16, 64})
      for (int64_t block : {4, 12}) {
        const arch::MemoryPlan m = pipelineMemoryPlan(p, f, block, memory(bus, 10), "att");
        for (size_t t = 0; t < 4; ++t) {
          const arch::DmaMap& d = m.tensors[t].dma;
          const int64_t g = int64_t(m.core.tensors[t].ports.size());
          std::set<int64_t> seen;
          for (int64_t gr = 0; gr < d.groupRows(); ++gr)
            for (int64_t gc = 0; gc < d.groupCols(); ++gc)
              for (int64_t l = 0; l < d.lanes; ++l) {
                const arch::Location at = d.place(gr, gc, l, 0);
                if (at.bank < 0) continue;
                const auto [r, c] = d.element(gr, gc, l);
                const int64_t x = r * d.cols + c;
                EXPECT_EQ(at.bank, x % g);
                EXPECT_EQ(at.address, x / g);
                seen.insert(x);
              }
          EXPECT_EQ(int64_t(seen.size()), m.tensors[t].tile[0] * m.tensors[t].tile[1]);
        }
      }
  }
}

TEST(PipelineMemory, FewerBanksWhenTheLayoutHasNoMap) {
  // Rows of 63 int8 on a 64-byte bus: with 64 banks the bank pattern repeats only after 64 rows,
  // 64 x 63 cells, more than a DMA map holds; with 32 it repeats after 32 rows of two groups
  // (32 + 31 columns) that step by one word: 32 x 32 cells.
  tc::Program p = withSizes(kSingle, 60, 100, 63, 64);
  AttentionForm f = recogniseAttention(p, nullptr);
  const arch::MemoryPlan m = pipelineMemoryPlan(p, f, 100, memory(64, 10), "att");
  EXPECT_EQ(m.core.tensors[1].ports.size(), 32u); // Q, 60 x 63
  EXPECT_EQ(m.tensors[1].dma.lanes, 32);
  EXPECT_EQ(m.core.tensors[3].ports.size(), 64u); // V, 100 x 64: one row is one bus word
  EXPECT_EQ(m.tensors[3].dma.lanes, 64);
}

TEST(PipelineMemory, StepsAddTheQueryAndNormalisePhases) {
  PipelineTiming t;
  t.query = 10;
  t.copy = 1, t.gemm1 = 2, t.rowMax = 3, t.exp = 4, t.gemm2 = 5, t.accumulate = 6;
  t.normalise = 100;
  t.blocks = 3;
  EXPECT_EQ(pipelineStepCycles(t), (std::vector<int64_t>{10 + 21 + 1, 21 + 1, 21 + 100 + 1}));
  t.blocks = 1;
  EXPECT_EQ(pipelineStepCycles(t), (std::vector<int64_t>{10 + 21 + 100 + 1}));
}

TEST(PipelineMemory, ExploreCountsTheTransfers) {
  tc::Program p = withSizes(kSingle, 8, 32, 8, 8);
  AttentionForm f = recogniseAttention(p, nullptr);
  auto run = [&](const dse::MemorySystem& mem) {
    PipelineOptions o = test::smallPipeline(kSingle, 4, {8, 32}, 2, {1, 4});
    o.explore.constraints.memory = mem;
    return explorePipeline(p, f, o);
  };
  // A fast memory: every block phase is bound by the pipeline, so the run is the first load,
  // each block's run plus its done cycle and the cycle between phases, and the last store.
  const PipelineResult fast = run(memory(64, 1));
  ASSERT_FALSE(fast.points.empty());
  for (const PipelinePoint& pt : fast.points) {
    const arch::MemoryTiming& tm = pt.transfers.timing;
    EXPECT_TRUE(pt.memory.enabled());
    EXPECT_EQ(pt.transfers.computeCycles, pt.timing.perHead());
    EXPECT_EQ(tm.tiles, pt.timing.blocks);
    EXPECT_EQ(tm.loadBound, 0);
    EXPECT_EQ(pt.latency,
              tm.firstLoad + pt.transfers.computeCycles + 2 * pt.timing.blocks + tm.lastStore);
    // Q, K, V (and O) are each moved once.
    EXPECT_EQ(tm.loads, 1 + 2 * pt.timing.blocks);
    EXPECT_EQ(tm.stores, 1);
  }
  // Ranked by those cycles.
  for (size_t i = 1; i < fast.points.size(); ++i)
    EXPECT_LE(fast.points[i - 1].latency, fast.points[i].latency);
  // A slow memory: the same pipelines take longer, and some block phases wait for the loads.
  const PipelineResult slow = run(memory(4, 200));
  ASSERT_EQ(slow.points.size(), fast.points.size());
  int64_t waits = 0;
  for (const PipelinePoint& s : slow.points) {
    const auto same = std::find_if(fast.points.begin(), fast.points.end(), [&](const auto& x) {
      return pipelineSpec(x) == pipelineSpec(s);
    });
    ASSERT_NE(same, fast.points.end());
    EXPECT_GT(s.latency, same->latency);
    EXPECT_NE(s.id, same->id); // another top
    waits += s.transfers.timing.loadBound;
  }
  EXPECT_GT(waits, 0);
}

TEST(PipelineMemory, RefusesSeveralHeads) {
  tc::SemaOptions so;
  so.sizes = {{"H", 2, {}}, {"L", 4, {}}, {"S", 4, {}}, {"D", 4, {}}};
  const char* mha = R"(
def mha(int8(H,L,D) Q, int8(H,S,D) K, int8(H,S,D) V) -> (O) {
    Sc(h,i,j) +=! Q(h,i,d) * K(h,j,d)
    mx(h,i) max=! Sc(h,i,j)
    E(h,i,j) = exp(Sc(h,i,j) - mx(h,i))
    sm(h,i) +=! E(h,i,j)
    U(h,i,e) +=! E(h,i,j) * V(h,j,e)
    O(h,i,e) = U(h,i,e) / sm(h,i)
})";
  tc::Program p = test::analyzeText(mha, so);
  AttentionForm f = recogniseAttention(p, nullptr);
  PipelineOptions o = test::smallPipeline(mha, 4, {4}, 1, {1});
  o.explore.constraints.memory = memory(8, 10);
  EXPECT_THROW(explorePipeline(p, f, o), Unsupported);
  EXPECT_NE(pipelineMemoryProblem(p, f).find("multi-head"), std::string::npos);
}

} // namespace
} // namespace rubick::attn
