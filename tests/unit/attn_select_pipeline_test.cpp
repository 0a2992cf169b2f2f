// SPDX-License-Identifier: Apache-2.0
// Naming an attention pipeline by its spec: the spec's round trip, and a pipeline built from its
// spec without any search is the one the pipeline search lists (same ID, latency, buffer).

#include "rubick/attn/SelectPipeline.h"

#include "rubick/attn/AttentionForm.h"
#include "rubick/frontend/Sema.h"
#include "rubick/support/Diagnostic.h"

#include "attn_test_util.h"
#include "tc_test_util.h"

#include <gtest/gtest.h>

#include <map>

namespace rubick::attn {
namespace {

const char* kSingle = rubick::test::kAttentionSingleHead;

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.origin() + ": " + e.what();
  }
  return "(no error)";
}

void expectSamePipeline(const PipelinePoint& a, const PipelinePoint& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.blockKeys, b.blockKeys);
  EXPECT_EQ(a.lanes, b.lanes);
  EXPECT_EQ(a.g1.design.id, b.g1.design.id);
  EXPECT_EQ(a.g2.design.id, b.g2.design.id);
  EXPECT_EQ(a.latency, b.latency) << a.id;
  EXPECT_EQ(a.timing.perHead(), b.timing.perHead()) << a.id;
  EXPECT_EQ(a.bufferBytes, b.bufferBytes) << a.id;
  EXPECT_EQ(a.scoreBytes, b.scoreBytes) << a.id;
  EXPECT_EQ(a.wires, b.wires) << a.id;
  EXPECT_EQ(a.area, b.area) << a.id;
  EXPECT_EQ(a.utilization, b.utilization) << a.id;
}

TEST(PipelineSpec, RoundTripAndErrors) {
  const std::string a = "0123456789abcdef", b = "fedcba9876543210";
  PipelineSpec s = parsePipelineSpec("gemm2=" + b + ",lanes=4,block=16,gemm1=" + a);
  EXPECT_EQ(s.blockKeys, 16);
  EXPECT_EQ(s.lanes, 4);
  EXPECT_EQ(s.gemm1, a);
  EXPECT_EQ(s.gemm2, b);
  PipelinePoint p;
  p.blockKeys = 16;
  p.lanes = 4;
  p.g1.design.id = a;
  p.g2.design.id = b;
  EXPECT_EQ(pipelineSpec(p), "block=16,lanes=4,gemm1=" + a + ",gemm2=" + b);
  auto err = [](const std::string& t) { return errorOf([&] { parsePipelineSpec(t); }); };
  EXPECT_NE(err("").find("--pipeline: the pipeline spec is empty"), std::string::npos);
  EXPECT_NE(err("block=16,lanes=4,gemm1=" + a).find("no gemm2"), std::string::npos);
  EXPECT_NE(err("block=16,block=8").find("block is given twice"), std::string::npos);
  EXPECT_NE(err("blocks=16").find("unknown key 'blocks'"), std::string::npos);
  EXPECT_NE(err("block16").find("expected KEY=VALUE"), std::string::npos);
  EXPECT_NE(err("block=x,lanes=4,gemm1=" + a + ",gemm2=" + b).find("whole number"),
            std::string::npos);
  EXPECT_NE(err("block=16,lanes=4,gemm1=123,gemm2=" + b).find("gemm1 must be a design ID"),
            std::string::npos);
}

// The program of examples/attention.tc with the options `rubick explore` gives it by default.
struct Example {
  std::string path = std::string(RUBICK_SOURCE_DIR) + "/examples/attention.tc";
  tc::Program prog = tc::loadProgram(path);
  AttentionForm form = recogniseAttention(prog, nullptr);
  PipelineOptions options;
  Example() {
    options.explore.constraints.arrays = {{8, 8}};
    options.explore.threads = 2;
    options.rebind = [p = path](const std::vector<std::pair<std::string, int64_t>>& sizes) {
      tc::SemaOptions so;
      for (const auto& [n, v] : sizes)
        so.sizes.push_back({n, v, {}});
      return tc::loadProgram(p, so);
    };
  }
};

TEST(FindPipeline, TheExamplesTopPipelinesFromTheirSpecs) {
  Example x;
  PipelineResult r = explorePipeline(x.prog, x.form, x.options);
  ASSERT_GT(r.points.size(), 8u);
  // The top 4, and the best of each block size (the GEMMs rebound to smaller blocks): each
  // pick costs two searches, which the sanitizer build runs ten times slower.
  std::map<int64_t, const PipelinePoint*> bestPerBlock;
  std::vector<const PipelinePoint*> picks;
  for (size_t i = 0; i < r.points.size(); ++i) {
    if (i < 4) picks.push_back(&r.points[i]);
    if (bestPerBlock.emplace(r.points[i].blockKeys, &r.points[i]).second && i >= 4)
      picks.push_back(&r.points[i]);
  }
  ASSERT_GE(bestPerBlock.size(), 3u); // 16, and 4 and 8
  for (const PipelinePoint* p : picks) {
    SCOPED_TRACE(pipelineSpec(*p));
    expectSamePipeline(findPipeline(x.prog, x.form, x.options, parsePipelineSpec(pipelineSpec(*p))),
                       *p);
    dse::Selection s;
    s.pipeline = pipelineSpec(*p);
    expectSamePipeline(selectPipeline(x.prog, x.form, x.options, s), *p);
  }
  // --point still finds a pipeline by searching, and none selects the best.
  dse::Selection s;
  s.point = r.points[3].id;
  expectSamePipeline(selectPipeline(x.prog, x.form, x.options, s), r.points[3]);
  expectSamePipeline(selectPipeline(x.prog, x.form, x.options, {}), r.points.front());
}

tc::Program withSizes(const char* text, int64_t l, int64_t s, int64_t d) {
  tc::SemaOptions o;
  o.sizes = {{"L", l, {}}, {"S", s, {}}, {"D", d, {}}, {"Dv", d, {}}};
  return test::analyzeText(text, o);
}

TEST(FindPipeline, PairsTheExplorerDoesNotTry) {
  // The explorer pairs only the best few designs of each GEMM; a spec may name any pair, and it
  // costs exactly what a wider search lists.
  tc::Program p = withSizes(kSingle, 8, 16, 8);
  AttentionForm f = recogniseAttention(p, nullptr);
  PipelineOptions narrow = test::smallPipeline(kSingle, 4, {16}, 1, {1});
  PipelineOptions wide = test::smallPipeline(kSingle, 4, {16}, 4, {1});
  PipelineResult n = explorePipeline(p, f, narrow), w = explorePipeline(p, f, wide);
  ASSERT_EQ(n.points.size(), 1u);
  size_t unpaired = 0;
  for (const PipelinePoint& pt : w.points) {
    if (pt.id == n.points.front().id) continue;
    ++unpaired;
    expectSamePipeline(findPipeline(p, f, narrow, parsePipelineSpec(pipelineSpec(pt))), pt);
  }
  EXPECT_EQ(unpaired, w.points.size() - 1);
  EXPECT_GT(unpaired, 0u);
}

TEST(FindPipeline, RefusesWhatTheFlagsAndHardwareExclude) {
  tc::Program p = withSizes(kSingle, 8, 16, 8);
  AttentionForm f = recogniseAttention(p, nullptr);
  PipelineOptions o = test::smallPipeline(kSingle, 4, {}, 2, {});
  PipelineResult r = explorePipeline(p, f, o);
  const PipelinePoint& best = r.points.front();
  PipelineSpec s = parsePipelineSpec(pipelineSpec(best));
  auto err = [&](const PipelineOptions& opt, const PipelineSpec& spec) {
    return errorOf([&] { findPipeline(p, f, opt, spec); });
  };
  EXPECT_EQ(err(o, s), "(no error)");
  // The search flags bound a spec as they bound the search.
  PipelineOptions blocks = o;
  const int64_t other = best.blockKeys == 4 ? 8 : 4;
  blocks.blockKeys = {other};
  EXPECT_NE(err(blocks, s).find("is not among --block-keys " + std::to_string(other)),
            std::string::npos)
      << err(blocks, s);
  PipelineOptions lanes = o;
  lanes.lanes = {best.lanes == 2 ? 4 : 2};
  EXPECT_NE(err(lanes, s).find("is not among --vector-lanes"), std::string::npos);
  PipelineSpec bad = s;
  bad.lanes = 65;
  EXPECT_NE(err(o, bad).find("the width must be 1 to 64"), std::string::npos);
  bad = s;
  bad.blockKeys = 17;
  EXPECT_NE(err(o, bad).find("larger than the 16 keys"), std::string::npos);
  // A GEMM ID of another block size (the design depends on the block) is not found.
  bad = s;
  bad.blockKeys = best.blockKeys == 16 ? 8 : 16;
  EXPECT_NE(err(o, bad).find("--pipeline: no GEMM 1 design " + s.gemm1), std::string::npos)
      << err(o, bad);
  std::swap(bad.gemm1, bad.gemm2);
  bad.blockKeys = s.blockKeys;
  EXPECT_NE(err(o, bad).find("no GEMM 1 design " + s.gemm2), std::string::npos) << err(o, bad);
  // The buffer budget applies to the whole pipeline: its own size is just enough.
  PipelineOptions budget = o;
  budget.explore.constraints.bufferBytes = best.bufferBytes;
  EXPECT_EQ(err(budget, s), "(no error)");
  budget.explore.constraints.bufferBytes = best.bufferBytes - 1;
  EXPECT_NE(err(budget, s).find("(--buffer-kib)"), std::string::npos) << err(budget, s);
}

TEST(FindPipeline, RefusesWhatTheVectorUnitCannotTake) {
  // int16 values (tests/errors/explore_attention_too_wide.tc): blocks of 2 or more keys give
  // weighted values wider than U's 32 bits, so the search keeps only blocks of 1; a spec with
  // a block of 4 is refused with the reason the search gives.
  const char* wide = R"(
def attention(int8(L,D) Q, int8(S,D) K, int16(S,D) V) -> (O) {
    Sc(i,j) +=! Q(i,d) * K(j,d)
    mx(i) max=! Sc(i,j)
    E(i,j) = exp(Sc(i,j) - mx(i))
    sm(i) +=! E(i,j)
    U(i,e) +=! E(i,j) * V(j,e)
    O(i,e) = U(i,e) / sm(i)
})";
  tc::SemaOptions so;
  so.sizes = {{"L", 8, {}}, {"S", 16, {}}, {"D", 2, {}}};
  tc::Program p = test::analyzeText(wide, so);
  AttentionForm f = recogniseAttention(p, nullptr);
  PipelineOptions o = test::smallPipeline(wide, 4, {1, 4}, 1, {1});
  PipelineResult r = explorePipeline(p, f, o);
  ASSERT_GT(r.tooWide, 0u);
  for (const PipelinePoint& pt : r.points)
    EXPECT_EQ(pt.blockKeys, 1);
  // The GEMM designs of blocks of 4, as the search saw them: the GEMM 2 of a pipeline with
  // blocks of 4 keys comes from explore with its stage's widths (E is stored in 16 bits).
  PipelineOptions four = o;
  four.blockKeys = {4};
  four.perGemm = 1;
  const std::string e = errorOf([&] { explorePipeline(p, f, four); });
  const std::string lead = "suits the vector unit: ";
  ASSERT_NE(e.find(lead), std::string::npos) << e;
  const std::string reason = e.substr(e.find(lead) + lead.size());
  tc::Program p4 = o.rebind({{"L", 8}, {"S", 4}, {"D", 2}});
  auto bestId = [&](size_t stmt, std::vector<int64_t> bits) {
    dse::ExploreOptions x = o.explore;
    x.constraints.elementBits = std::move(bits);
    return dse::explore(dataflow::viewStatement(p4, stmt), x).points.front().id;
  };
  PipelineSpec s;
  s.blockKeys = 4;
  s.lanes = 1;
  s.gemm1 = bestId(f.score, {32, 8, 8});    // Sc, Q, K
  s.gemm2 = bestId(f.values, {32, 16, 16}); // U, E (16 bits), V
  std::string why = errorOf([&] { findPipeline(p, f, o, s); });
  EXPECT_EQ(why, "--pipeline: the vector unit cannot take this pipeline: " + reason);
}

} // namespace
} // namespace rubick::attn
