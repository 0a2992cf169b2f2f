// SPDX-License-Identifier: Apache-2.0
// Lowering to isl: dimensions, access relations and reduction marks, cross-checked with isl
// itself (point counts against loop extents, access ranges inside tensor domains, relations
// equal to hand-written ones).

#include "rubick/poly/PolyProgram.h"

#include "tc_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

namespace rubick::poly {
namespace {

using test::analyzeText;

int64_t count(const isl::set& s) {
  isl::val v = isl::manage(isl_set_count_val(s.get()));
  return v.get_num_si();
}

// The structural promises of lower(), checked with isl for every statement and access.
void checkModel(const PolyProgram& p) {
  const tc::Program& prog = p.program;
  ASSERT_EQ(p.tensorDomains.size(), prog.tensors.size());
  for (size_t t = 0; t < prog.tensors.size(); ++t) {
    int64_t want = 1;
    for (int64_t d : prog.tensors[t].shape)
      want *= d;
    EXPECT_EQ(count(p.tensorDomains[t]), want) << prog.tensors[t].name;
  }
  ASSERT_EQ(p.statements.size(), prog.statements.size());
  for (const PolyStatement& ps : p.statements) {
    const tc::Statement& s = prog.statements[ps.statement];
    SCOPED_TRACE(s.text);
    int64_t points = 1;
    for (const tc::Loop& l : s.loops)
      points *= l.hi - l.lo;
    EXPECT_EQ(count(ps.domain), points);
    EXPECT_EQ(ps.domain.tuple_dim(), s.loops.size());
    size_t want = 1 + s.reads.size() + (s.readsOutput() ? 1 : 0);
    ASSERT_EQ(ps.accesses.size(), want);
    EXPECT_TRUE(ps.accesses[0].write);
    for (size_t a = 1; a < ps.accesses.size(); ++a)
      EXPECT_FALSE(ps.accesses[a].write);
    for (const PolyAccess& a : ps.accesses) {
      EXPECT_TRUE(a.relation.domain().is_equal(ps.domain));
      EXPECT_TRUE(a.relation.range().is_subset(p.tensorDomains[a.tensor]));
      // Every access is a function of the iteration: one element per point.
      EXPECT_TRUE(a.relation.is_single_valued());
    }
    std::vector<int> reductions;
    for (size_t l = 0; l < s.loops.size(); ++l)
      if (s.loops[l].reduction) reductions.push_back(static_cast<int>(l));
    EXPECT_EQ(ps.accesses[0].reductionLoops, isReduction(s.op) ? reductions : std::vector<int>{});
  }
}

TEST(Lower, Gemm) {
  IslContext ctx;
  PolyProgram p = lower(ctx, analyzeText("# rubick: size M=4, N=5, K=6\n"
                                         "def gemm(int8(M,K) A, int8(K,N) B) -> (C) {"
                                         " C(i,j) +=! A(i,k) * B(k,j) }"));
  checkModel(p);
  ASSERT_EQ(p.statements.size(), 1u);
  const PolyStatement& s = p.statements[0];
  EXPECT_EQ(count(s.domain), 4 * 5 * 6);
  EXPECT_TRUE(s.domain.is_equal(
      isl::set(ctx.ctx(), "{ S0[i, j, k] : 0 <= i < 4 and 0 <= j < 5 and 0 <= k < 6 }")));
  ASSERT_EQ(s.accesses.size(), 3u);
  const std::string dom = " : 0 <= i < 4 and 0 <= j < 5 and 0 <= k < 6 }";
  EXPECT_TRUE(
      s.accesses[0].relation.is_equal(isl::map(ctx.ctx(), "{ S0[i, j, k] -> C[i, j]" + dom)));
  EXPECT_TRUE(
      s.accesses[1].relation.is_equal(isl::map(ctx.ctx(), "{ S0[i, j, k] -> A[i, k]" + dom)));
  EXPECT_TRUE(
      s.accesses[2].relation.is_equal(isl::map(ctx.ctx(), "{ S0[i, j, k] -> B[k, j]" + dom)));
  EXPECT_EQ(s.accesses[0].reductionLoops, std::vector<int>{2});
  EXPECT_EQ(s.accesses[1].tensor, p.program.findTensor("A"));
  EXPECT_TRUE(p.tensorDomains[p.program.findTensor("C")].is_equal(
      isl::set(ctx.ctx(), "{ C[a, b] : 0 <= a < 4 and 0 <= b < 5 }")));
  // The user's names survive in the printed relation.
  std::ostringstream os;
  os << s.accesses[1].relation.gist_domain(s.domain);
  EXPECT_EQ(os.str(), "{ S0[i, j, k] -> A[i, k] }");
}

TEST(Lower, StridedShiftedAndMirroredAccesses) {
  IslContext ctx;
  // k in 0:4 (7 - 2k in 0..7), so A is read at 7, 5, 3, 1.
  PolyProgram p = lower(ctx, analyzeText("def f(int8(8) A) -> (s) {"
                                         " s(i) +=! A(7 - 2*k) where i in 0:1 }"));
  checkModel(p);
  isl::set read = p.statements[0].accesses[1].relation.range();
  EXPECT_TRUE(read.is_equal(isl::set(ctx.ctx(), "{ A[d] : d = 1 or d = 3 or d = 5 or d = 7 }")));
  // conv1d: h in 0:8, r in 0:3, I(h + r) covers all of I; each element is read by up to 3 points.
  PolyProgram c = lower(ctx, analyzeText("def f(int8(10) I, int8(3) W) -> (O) {"
                                         " O(h) +=! I(h + r) * W(r) }"));
  checkModel(c);
  const PolyAccess& in = c.statements[0].accesses[1];
  EXPECT_TRUE(in.relation.range().is_equal(c.tensorDomains[0]));
  EXPECT_TRUE(in.relation.is_equal(
      isl::map(ctx.ctx(), "{ S0[h, r] -> I[h + r] : 0 <= h < 8 and 0 <= r < 3 }")));
}

TEST(Lower, UpdateReadsTheOldValueRightAfterTheWrite) {
  IslContext ctx;
  PolyProgram p = lower(ctx, analyzeText("def f(int8(4,3) A) -> (C) {"
                                         " C(i) = A(i, 0)  C(i) += A(i, j)  C(i) max= A(i, 1) }"));
  checkModel(p);
  ASSERT_EQ(p.statements.size(), 3u);
  // S1: write C, read C (old value), read A; reduction + over j without an identity.
  const PolyStatement& s1 = p.statements[1];
  ASSERT_EQ(s1.accesses.size(), 3u);
  EXPECT_EQ(s1.accesses[1].tensor, p.program.findTensor("C"));
  EXPECT_TRUE(s1.accesses[1].relation.is_equal(s1.accesses[0].relation));
  EXPECT_EQ(s1.accesses[0].reductionLoops, std::vector<int>{1});
  // S2 reduces nothing but still reads the old value (an element-wise max).
  EXPECT_EQ(p.statements[2].accesses.size(), 3u);
  EXPECT_TRUE(p.statements[2].accesses[0].reductionLoops.empty());
  // S0 is a plain assignment: no reduction mark even though it has no extra loops.
  EXPECT_TRUE(p.statements[0].accesses[0].reductionLoops.empty());
}

TEST(Lower, ScalarsAndShiftedLoops) {
  IslContext ctx;
  PolyProgram p = lower(ctx, analyzeText("def f(int8(8) A, int32 s) -> (C, t) {"
                                         " t = s * 2  C(i) +=! A(i + k + 4) * t"
                                         " where i in 0:2, k in -4:0 }"));
  checkModel(p);
  EXPECT_TRUE(p.tensorDomains[p.program.findTensor("s")].is_equal(isl::set(ctx.ctx(), "{ s[] }")));
  EXPECT_TRUE(p.statements[0].domain.is_equal(isl::set(ctx.ctx(), "{ S0[] }")));
  EXPECT_EQ(count(p.statements[1].domain), 2 * 4);
  EXPECT_TRUE(p.statements[1].accesses[1].relation.range().is_equal(
      isl::set(ctx.ctx(), "{ A[d] : 0 <= d <= 4 }")));
}

TEST(Lower, LargeSizesStaySymbolic) {
  // 2^31 - 1 per dimension: isl counts without enumerating.
  IslContext ctx;
  PolyProgram p = lower(ctx, analyzeText("def f(int8(2147483647, 2147483647) A) -> (C) {"
                                         " C(i) +=! A(i, j) }"));
  EXPECT_TRUE(p.statements[0].accesses[1].relation.range().is_equal(p.tensorDomains[0]));
}

TEST(Lower, EveryExampleIsAConsistentModel) {
  int seen = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(RUBICK_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() != ".tc") continue;
    SCOPED_TRACE(entry.path().string());
    IslContext ctx;
    checkModel(lower(ctx, tc::loadProgram(entry.path().string())));
    ++seen;
  }
  EXPECT_GE(seen, 6);
}

TEST(Lower, Conv2dPointCount) {
  // N=1 C=2 H=W=5 F=3 R=S=3: outputs 3x3, loops n1 f3 h3 w3 c2 r3 s3 = 486 points.
  IslContext ctx;
  tc::SemaOptions o;
  for (auto [n, v] : std::vector<std::pair<std::string, int64_t>>{
           {"N", 1}, {"C", 2}, {"H", 5}, {"W", 5}, {"F", 3}, {"R", 3}, {"S", 3}})
    o.sizes.push_back({n, v, {}});
  PolyProgram p =
      lower(ctx, tc::loadProgram(std::string(RUBICK_SOURCE_DIR) + "/examples/conv2d.tc", o));
  checkModel(p);
  EXPECT_EQ(count(p.statements[0].domain), 486);
  EXPECT_EQ(p.statements[0].accesses[0].reductionLoops, (std::vector<int>{4, 5, 6}));
}

TEST(Lower, OperationBudgetBecomesAnError) {
  IslContext ctx(1);
  tc::Program prog = analyzeText(test::readExample("attention.tc"));
  try {
    lower(ctx, std::move(prog));
    FAIL() << "the budget of one operation was not exceeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.diag().message,
              "building the polyhedral model: the polyhedral computation exceeded its operation "
              "budget");
  }
}

} // namespace
} // namespace rubick::poly
