// SPDX-License-Identifier: Apache-2.0
// The dataflow space: the IR-space search must find exactly what brute force over space-time
// matrices finds, every entry must appear somewhere, and every dataflow must survive the round
// trip dataflow -> IR -> dataflow.

#include "dataflow_test_util.h"

#include "rubick/dataflow/Enumerate.h"
#include "rubick/dataflow/IslVerify.h"
#include "rubick/dataflow/Synthesize.h"

#include <gtest/gtest.h>
#include <set>

namespace rubick::dataflow {
namespace {

void expectSameSpace(const StatementView& v, int64_t p, int64_t q, const char* what) {
  EnumerationResult ir = enumerateDataflows(v, p, q);
  EnumerationResult bf = bruteForceDataflows(v, p, q);
  EXPECT_GT(bf.dataflows.size(), 0u) << what;
  size_t missing = 0, extra = 0;
  for (const FoundDataflow& f : bf.dataflows)
    if (!std::binary_search(ir.dataflows.begin(), ir.dataflows.end(), f)) {
      if (missing++ < 3) ADD_FAILURE() << what << ": IR search misses " << toSpec(f.dataflow, v);
    }
  for (const FoundDataflow& f : ir.dataflows)
    if (!std::binary_search(bf.dataflows.begin(), bf.dataflows.end(), f)) {
      if (extra++ < 3) ADD_FAILURE() << what << ": IR search adds " << toSpec(f.dataflow, v);
    }
  EXPECT_EQ(ir.dataflows.size(), bf.dataflows.size()) << what;
  EXPECT_EQ(ir.stats.perCombination, bf.stats.perCombination) << what;
  // Nothing illegal: every dataflow found is legal on the bounded domain (checked with isl on
  // a sample, point by point by the brute force on all).
  poly::IslContext ctx;
  for (size_t i = 0; i < ir.dataflows.size(); i += 1 + ir.dataflows.size() / 25)
    EXPECT_TRUE(checkLegality(ctx, v, ir.dataflows[i].dataflow).legal())
        << what << ": " << toSpec(ir.dataflows[i].dataflow, v);
}

TEST(DataflowSpace, IrSearchEqualsBruteForceOnGemm) {
  expectSameSpace(test::gemm(3, 3, 2), 2, 2, "GEMM 3x3x2 on 2x2");
  expectSameSpace(test::gemm(3, 2, 3), 2, 3, "GEMM 3x2x3 on 2x3");
}

TEST(DataflowSpace, IrSearchEqualsBruteForceOnGemv) {
  expectSameSpace(test::statement(test::kGemv, {{"M", 3}, {"N", 3}}), 2, 2, "GEMV 3x3 on 2x2");
}

TEST(DataflowSpace, IrSearchEqualsBruteForceOnBatchedGemm) {
  expectSameSpace(test::statement(test::kBmm, {{"NB", 2}, {"M", 2}, {"N", 2}, {"K", 2}}), 2, 2,
                  "BMM 2x2x2x2 on 2x2");
}

TEST(DataflowSpace, IrSearchEqualsBruteForceOnConv2d) {
  expectSameSpace(
      test::statement(test::kConv,
                      {{"N", 1}, {"C", 2}, {"H", 3}, {"W", 2}, {"F", 1}, {"R", 2}, {"S", 1}}),
      2, 2, "Conv2D on 2x2");
}

TEST(DataflowSpace, GemmTriplesOnAnEightByEightArray) {
  // Realisable entry triples do not depend on the problem size once tiles of 2 fit.
  EnumerationOptions o;
  o.tiling = Tiling::Min;
  EnumerationResult r = enumerateDataflows(test::gemm(16, 16, 16), 8, 8, o);
  // Only one-vector entries can serve GEMM (each tensor ignores exactly one loop), and the three
  // reuse lines must be independent: well below the 2142 triples that pass the rank check.
  EXPECT_GT(r.stats.perCombination.size(), 0u);
  EXPECT_LE(r.stats.perCombination.size(), 7u * 7u * 7u);
  for (const auto& [kinds, n] : r.stats.perCombination) {
    for (ir::EntryKind k : kinds)
      EXPECT_EQ(ir::info(k).vectors.size(), 1u);
    EXPECT_NE(kinds[0], kinds[1]); // C and A ignore different loops: their lines differ
  }
  // The classic arrays are there.
  auto has = [&](std::vector<ir::EntryKind> k) { return r.stats.perCombination.count(k) > 0; };
  using K = ir::EntryKind;
  EXPECT_TRUE(has({K::Stationary, K::XSystolic, K::YSystolic}));   // output stationary
  EXPECT_TRUE(has({K::XSystolic, K::YSystolic, K::Stationary}));   // weight stationary
  EXPECT_TRUE(has({K::Stationary, K::YMulticast, K::XMulticast})); // multicast
}

TEST(DataflowSpace, EveryEntryAppearsAndRoundTrips) {
  // Example programs as shipped in examples/, at small sizes.
  std::vector<StatementView> programs = {
      test::example("gemm.tc", {{"M", 3}, {"N", 3}, {"K", 3}}),
      test::example("gemv.tc", {{"M", 3}, {"N", 3}}),
      test::example("mttkrp.tc", {{"I", 2}, {"J", 2}, {"K", 2}, {"L", 2}}),
      test::example("gemm_alpha.tc", {{"M", 2}, {"N", 2}, {"K", 2}}),
  };
  std::set<ir::EntryKind> seen;
  size_t roundTrips = 0;
  for (const StatementView& v : programs) {
    EnumerationOptions o;
    o.tiling = Tiling::Min;
    for (const FoundDataflow& f : enumerateDataflows(v, 4, 4, o).dataflows) {
      Decomposition dec = decompose(v, f.dataflow);
      ASSERT_TRUE(dec.ok());
      std::vector<TensorChoice> choices;
      for (size_t a = 0; a < dec.tensors.size(); ++a) {
        seen.insert(dec.tensors[a].entry->kind);
        EXPECT_EQ(*dec.tensors[a].entry, f.entries[a]);
        choices.push_back({*dec.tensors[a].entry, dec.tensors[a].layout.linear});
      }
      Dataflow structure = f.dataflow;
      for (IntVec& row : structure.s)
        std::fill(row.begin(), row.end(), 0);
      SynthesisResult back = synthesize(v, structure, choices);
      ASSERT_TRUE(back.dataflow) << toSpec(f.dataflow, v) << ": " << back.reason;
      EXPECT_EQ(*back.dataflow, f.dataflow) << toSpec(f.dataflow, v);
      ++roundTrips;
    }
  }
  EXPECT_GT(roundTrips, 100u);
  for (const ir::EntryInfo& e : ir::allEntries())
    EXPECT_TRUE(seen.count(e.kind)) << e.name << " is produced by no dataflow";
}

TEST(DataflowSynthesis, SeedExampleFromEntriesAndLayouts) {
  StatementView v = test::gemm(2, 4, 2);
  Dataflow structure = parseDataflowSpec("PE(k, j mod 2) | T(i + j mod 2, j / 2)", v, 2, 2);
  Dataflow expected = structure;
  for (IntVec& row : structure.s)
    std::fill(row.begin(), row.end(), 0);
  using K = ir::EntryKind;
  // C: X-multicast, C(t1 - y, y) over (y, t1); A: Y-systolic, A(t1, x) over (x, t1);
  // B: stationary, B(x, y) over (x, y).
  std::vector<TensorChoice> choices = {
      {{K::XMulticast}, {{-1, 1}, {1, 0}}},
      {{K::YSystolic}, {{0, 1}, {1, 0}}},
      {{K::Stationary}, {{1, 0}, {0, 1}}},
  };
  SynthesisResult r = synthesize(v, structure, choices);
  ASSERT_TRUE(r.dataflow) << r.reason;
  EXPECT_EQ(*r.dataflow, expected);
}

TEST(DataflowSynthesis, RejectsWithReasons) {
  StatementView v = test::gemm(2, 2, 2);
  Dataflow structure = parseDataflowSpec("PE(i, j) | T(k)", v, 2, 2);
  using K = ir::EntryKind;
  // Two tensors that both claim loop i moves along x, inconsistently.
  SynthesisResult r = synthesize(v, structure,
                                 {{{K::Stationary}, {{1, 0}, {0, 1}}},
                                  {{K::YMulticast}, {{0, 1}, {1, 0}}},
                                  {{K::XMulticast}, {{0, 1}, {1, 0}}}});
  EXPECT_FALSE(r.dataflow);
  EXPECT_NE(r.reason.find("no solution"), std::string::npos) << r.reason;
  // Layouts scaled by 2 ask for S^-1 = 2 S'^-1: S is not integral.
  r = synthesize(v, structure,
                 {{{K::Stationary}, {{2, 0}, {0, 2}}},
                  {{K::YMulticast}, {{2, 0}, {0, 2}}},
                  {{K::XMulticast}, {{0, 2}, {2, 0}}}});
  EXPECT_FALSE(r.dataflow);
  EXPECT_NE(r.reason.find("not integral"), std::string::npos) << r.reason;
  // Wrong number of choices.
  r = synthesize(v, structure, {});
  EXPECT_NE(r.reason.find("one entry and layout per tensor"), std::string::npos) << r.reason;
}

} // namespace
} // namespace rubick::dataflow
