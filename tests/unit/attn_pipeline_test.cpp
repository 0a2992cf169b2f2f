// SPDX-License-Identifier: Apache-2.0
// The attention form and the pipeline search.

#include "rubick/attn/AttentionForm.h"
#include "rubick/attn/LaneSchedule.h"
#include "rubick/attn/Pipeline.h"

#include "attn_test_util.h"
#include "tc_test_util.h"

#include <gtest/gtest.h>

#include <map>

namespace rubick::attn {
namespace {

const char* kSingle = rubick::test::kAttentionSingleHead;

tc::Program withSizes(const std::string& text, int64_t l, int64_t s, int64_t d, int64_t dv) {
  tc::SemaOptions o;
  o.sizes = {{"L", l, {}}, {"S", s, {}}, {"D", d, {}}};
  if (text.find("Dv") != std::string::npos) o.sizes.push_back({"Dv", dv, {}});
  return test::analyzeText(text, o);
}

TEST(AttentionForm, RecognisesTheSixStatements) {
  tc::Program p = withSizes(kSingle, 5, 7, 3, 4);
  AttentionForm f = recogniseAttention(p, nullptr);
  EXPECT_EQ(f.l, 5);
  EXPECT_EQ(f.s, 7);
  EXPECT_EQ(f.d, 3);
  EXPECT_EQ(f.dv, 4);
  EXPECT_EQ(f.keySize, "S");
  EXPECT_FALSE(f.multiHead);
  EXPECT_EQ(p.tensors[f.q].name, "Q");
  EXPECT_EQ(p.tensors[f.k].name, "K");
  EXPECT_EQ(p.tensors[f.v].name, "V");
  EXPECT_EQ(p.tensors[f.o].name, "O");
  EXPECT_EQ(p.tensors[f.scores].name, "Sc");
  EXPECT_EQ(p.tensors[f.e].name, "E");
}

TEST(AttentionForm, TransposedKeysAndSwappedOperands) {
  // K stored as (d, j) is a layout; operand order does not matter.
  tc::Program p = withSizes(R"(
def att(int8(L,D) Q, int8(D,S) Kt, int8(S,D) V) -> (O) {
    A(i,j) +=! Kt(d,j) * Q(i,d)
    m(i) max=! A(i,j)
    P(i,j) = exp(A(i,j) - m(i))
    l(i) +=! P(i,j)
    W(i,e) +=! V(j,e) * P(i,j)
    O(i,e) = W(i,e) / l(i)
})",
                            4, 6, 2, 0);
  AttentionForm f = recogniseAttention(p, nullptr);
  EXPECT_EQ(p.tensors[f.q].name, "Q");
  EXPECT_EQ(p.tensors[f.k].name, "Kt");
  EXPECT_EQ(f.s, 6);
  EXPECT_EQ(f.dv, 2);
}

TEST(AttentionForm, MultiHead) {
  tc::SemaOptions o;
  o.sizes = {{"H", 4, {}}, {"L", 8, {}}, {"S", 8, {}}, {"D", 4, {}}};
  tc::Program p = test::analyzeText(R"(
def mha(int8(H,L,D) Q, int8(H,S,D) K, int8(H,S,D) V) -> (O) {
    Sc(h,i,j) +=! Q(h,i,d) * K(h,j,d)
    mx(h,i) max=! Sc(h,i,j)
    E(h,i,j) = exp(Sc(h,i,j) - mx(h,i))
    sm(h,i) +=! E(h,i,j)
    U(h,i,e) +=! E(h,i,j) * V(h,j,e)
    O(h,i,e) = U(h,i,e) / sm(h,i)
})",
                                    o);
  AttentionForm f = recogniseAttention(p, nullptr);
  EXPECT_TRUE(f.multiHead);
  EXPECT_EQ(f.heads, 4);
  EXPECT_EQ(f.l, 8);
  EXPECT_EQ(f.d, 4);
}

TEST(AttentionForm, ReportsTheFirstStatementThatDoesNotFit) {
  std::string text = kSingle;
  text.replace(text.find("sm(i) +=! E(i,j)"), 16, "sm(i) +=! Sc(i,j)");
  tc::Program p = withSizes(text, 4, 4, 4, 4);
  std::string msg = test::errorOf([&] { recogniseAttention(p, nullptr); });
  EXPECT_NE(msg.find("statement 'sm(i) +=! Sc(i, j)'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("row sum"), std::string::npos) << msg;

  tc::Program wide = withSizes(R"(
def att(int32(L,D) Q, int8(S,D) K, int8(S,D) V) -> (O) {
    Sc(i,j) +=! Q(i,d) * K(j,d)
    mx(i) max=! Sc(i,j)
    E(i,j) = exp(Sc(i,j) - mx(i))
    sm(i) +=! E(i,j)
    U(i,e) +=! E(i,j) * V(j,e)
    O(i,e) = U(i,e) / sm(i)
})",
                               4, 4, 4, 0);
  EXPECT_NE(test::errorOf([&] { recogniseAttention(wide, nullptr); }).find("int8 or int16"),
            std::string::npos);
}

TEST(Pipeline, TimingAddsUpThePhases) {
  tc::Program p = withSizes(kSingle, 5, 7, 3, 4);
  AttentionForm f = recogniseAttention(p, nullptr);
  // One lane: one schedule row per item (5 x 3 scores, 5 x 4 results).
  PipelineCounts c{30, 40, 50, 60};
  c.queryRows = 60;
  c.keyRows = 30;
  c.valueRows = 40;
  c.scoreRows = 5 * 3;
  c.expRows = 50;
  c.resultRows = 5 * 4;
  PipelineTiming t = pipelineTiming(f, c, 3, 100, 200);
  EXPECT_EQ(t.blocks, 3); // 7 keys in blocks of 3: 3 + 3 + 1
  EXPECT_EQ(t.query, 60 + 1);
  EXPECT_EQ(t.copy, 40 + 1);
  EXPECT_EQ(t.gemm1, 101);
  EXPECT_EQ(t.rowMax, 5 * 3 + 2);
  EXPECT_EQ(t.exp, 50 + 3);
  EXPECT_EQ(t.gemm2, 201);
  EXPECT_EQ(t.accumulate, 5 * 4 + 2);
  EXPECT_EQ(t.normalise, 4 * kRecipCycles + kRecipCycles + 2 + 4); // rows every 34 cycles
  EXPECT_EQ(t.perHead(), 61 + 3 * (41 + 101 + 17 + 53 + 201 + 22) + t.normalise);
  // W lanes: each pass is its schedule's rows plus the same pipeline depth.
  c.queryRows = 15;
  c.keyRows = 8;
  c.valueRows = 10;
  c.scoreRows = 5;
  c.expRows = 13;
  c.resultRows = 5;
  t = pipelineTiming(f, c, 3, 100, 200);
  EXPECT_EQ(t.query, 16);
  EXPECT_EQ(t.copy, 11);
  EXPECT_EQ(t.rowMax, 7);
  EXPECT_EQ(t.exp, 16);
  EXPECT_EQ(t.accumulate, 7);
  // Two normalise lanes: rows {0, 1}, {2, 3}, {4} start their reciprocals 34 cycles apart.
  c.normaliseLanes = 2;
  t = pipelineTiming(f, c, 3, 100, 200);
  EXPECT_EQ(t.normalise, 2 * kRecipCycles + kRecipCycles + 2 + 4);
  // As many lanes as rows: one group.
  c.normaliseLanes = 5;
  EXPECT_EQ(pipelineTiming(f, c, 3, 100, 200).normalise, kRecipCycles + 2 + 4);
  EXPECT_EQ(normaliseLanes(8, 5), 5);
  EXPECT_EQ(normaliseLanes(4, 5), 4);
}

TEST(Pipeline, SmallerKeyBlocksShrinkTheScoreBuffer) {
  tc::Program p = withSizes(kSingle, 8, 16, 8, 8);
  AttentionForm f = recogniseAttention(p, nullptr);
  PipelineOptions o = test::smallPipeline(kSingle, 4, {4, 16}, 2, {1});
  PipelineResult r = explorePipeline(p, f, o);
  ASSERT_EQ(r.combinations, 8u);
  int64_t score4 = 0, score16 = 0;
  for (const PipelinePoint& pt : r.points) {
    EXPECT_EQ(pt.latency, pt.timing.perHead());
    EXPECT_EQ(pt.macs, 8 * 16 * 8 * 2);
    // The GEMMs were rebound: GEMM 1 covers L x block x D.
    EXPECT_EQ(pt.g1.view.extent[1], pt.blockKeys);
    int64_t& s = pt.blockKeys == 4 ? score4 : score16;
    s = s ? std::min(s, pt.scoreBytes) : pt.scoreBytes;
  }
  // 8 x 4 int32 scores against 8 x 16.
  EXPECT_EQ(score4, 8 * 4 * 4);
  EXPECT_EQ(score16, 8 * 16 * 4);
  // A budget between the two leaves only the small blocks.
  o.explore.constraints.bufferBytes = r.points.front().bufferBytes - 1;
  PipelineResult b = explorePipeline(p, f, o);
  for (const PipelinePoint& pt : b.points)
    EXPECT_LT(pt.bufferBytes, r.points.front().bufferBytes);
  EXPECT_GT(b.overBudget, 0u);
}

// Each lane reaches every bank of both arrays: the crossbar term is W x the bank word bits,
// which the host maps give independently (the banks each tensor's elements are placed in).
TEST(Pipeline, LanesAddACrossbarToWiresAndArea) {
  tc::Program p = withSizes(kSingle, 8, 16, 8, 8);
  AttentionForm f = recogniseAttention(p, nullptr);
  PipelineOptions o = test::smallPipeline(kSingle, 4, {16}, 1, {1, 2, 4});
  PipelineResult r = explorePipeline(p, f, o);
  ASSERT_EQ(r.points.size(), 3u);
  auto bankBits = [](const GemmStage& g) {
    const std::vector<arch::TensorMap> maps = stageMaps(g);
    int64_t bits = 0;
    for (size_t t = 0; t < maps.size(); ++t) {
      int banks = 0;
      for (const auto& places : maps[t].elements)
        for (const arch::Location& l : places)
          banks = std::max(banks, l.bank + 1);
      bits += banks * g.elementBits.at(t);
    }
    return bits;
  };
  std::map<int64_t, const PipelinePoint*> byLanes;
  for (const PipelinePoint& pt : r.points)
    byLanes[pt.lanes] = &pt;
  const PipelinePoint& one = *byLanes.at(1);
  const int64_t perLane = bankBits(one.g1) + bankBits(one.g2);
  ASSERT_GT(perLane, 0);
  for (const auto& [w, pt] : byLanes) {
    EXPECT_EQ(pt->crossbarWires, w * perLane) << "W=" << w;
    EXPECT_EQ(pt->wires - pt->crossbarWires,
              pt->g1.design.metrics.wires + pt->g2.design.metrics.wires);
    if (w > 1) {
      EXPECT_GT(pt->area, one.area);
      EXPECT_LE(pt->latency, one.latency);
    }
  }
  // Wider units are faster but cost wires: every width is on the (latency, wires, buffer)
  // front unless a narrower one is just as fast.
  for (const auto& [w, pt] : byLanes)
    EXPECT_EQ(pt->pareto, w == 1 || pt->latency < byLanes.at(w / 2)->latency) << "W=" << w;
}

} // namespace
} // namespace rubick::attn
