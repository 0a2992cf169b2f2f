// SPDX-License-Identifier: Apache-2.0
// Decomposition of hand-written dataflows: the classic GEMM arrays land on the entries the
// literature names, layouts come out as expected, and unrealisable cases say why.

#include "dataflow_test_util.h"

#include "rubick/dataflow/IslVerify.h"
#include "rubick/support/Diagnostic.h"

#include <gtest/gtest.h>

namespace rubick::dataflow {
namespace {

using ir::EntryKind;
using test::gemm;
using test::kinds;

Decomposition decomposeVerified(const StatementView& v, const std::string& spec, int64_t p,
                                int64_t q) {
  Dataflow d = parseDataflowSpec(spec, v, p, q);
  Decomposition dec = decompose(v, d);
  poly::IslContext ctx;
  EXPECT_TRUE(checkLegality(ctx, v, d).legal()) << spec;
  std::string bad;
  EXPECT_TRUE(verifyDecomposition(ctx, v, d, dec, &bad)) << spec << ": " << bad;
  return dec;
}

// Accesses are ordered write first: C, A, B.
TEST(DataflowDecompose, OutputStationarySystolic) {
  // x = j, y = i, t1 = i + j + k: A(i,k) enters along x, B(k,j) along y, C stays.
  Decomposition d = decomposeVerified(gemm(4, 4, 4), "PE(j, i) | T(i + j + k)", 4, 4);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(kinds(d),
            (std::vector{EntryKind::Stationary, EntryKind::XSystolic, EntryKind::YSystolic}));
  // A(i, k) = A(y, t1 - x - y): the skewed layout replaces input delay registers.
  EXPECT_EQ(ir::toString(d.tensors[1].layout, "A"), "E(0, y | t1) -> A(y, t1 - y)");
  EXPECT_EQ(ir::transformName(d.tensors[1].layout), "skew");
}

TEST(DataflowDecompose, WeightStationary) {
  // B (the weights) held per PE; A flows along y, partial sums of C along x.
  Decomposition d = decomposeVerified(gemm(4, 4, 4), "PE(k, j) | T(i + j + k)", 4, 4);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(kinds(d),
            (std::vector{EntryKind::XSystolic, EntryKind::YSystolic, EntryKind::Stationary}));
}

TEST(DataflowDecompose, MulticastArray) {
  // Every cycle k: A(i,k) broadcast along a column, B(k,j) along a row, C accumulates in place.
  Decomposition d = decomposeVerified(gemm(4, 4, 4), "PE(i, j) | T(k)", 4, 4);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(kinds(d),
            (std::vector{EntryKind::Stationary, EntryKind::YMulticast, EntryKind::XMulticast}));
  EXPECT_EQ(ir::toString(d.tensors[1].layout, "A"), "E(x, 0 | t1) -> A(x, t1)");
  EXPECT_EQ(ir::transformName(d.tensors[1].layout), "plain");
}

TEST(DataflowDecompose, ReversedLoopMirrorsThePort) {
  // x = 3 - k: data of C moves towards -x; the entry is X-systolic with its port mirrored.
  Decomposition d = decomposeVerified(gemm(4, 4, 4), "PE(-k + 3, j) | T(i + j + k)", 4, 4);
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(d.tensors[0].entry);
  EXPECT_EQ(d.tensors[0].entry->kind, EntryKind::XSystolic);
  EXPECT_TRUE(d.tensors[0].entry->mirrorX);
}

TEST(DataflowDecompose, TiledLoopsUseOuterTime) {
  // 8x8x8 on 4x4: i and j split by 4, quotients in outer time.
  StatementView v = gemm(8, 8, 8);
  Decomposition d = decomposeVerified(v, "PE(i mod 4, j mod 4) | T(k, j / 4, i / 4)", 4, 4);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(kinds(d),
            (std::vector{EntryKind::Stationary, EntryKind::YMulticast, EntryKind::XMulticast}));
  // C(i, j) = C(x + 4*t3, y + 4*t2).
  EXPECT_EQ(ir::toString(d.tensors[0].layout, "C"), "E(x, y | 0, t2, t3) -> C(x + 4*t3, y + 4*t2)");
}

TEST(DataflowDecompose, NonUnimodularDataflowIsRejected) {
  // x = i + j, y = i - j: only half of the PE-time lattice is used, layouts are fractional.
  StatementView v = gemm(2, 2, 2);
  Dataflow d = parseDataflowSpec("PE(i + j, i - j + 1) | T(k)", v, 3, 3);
  Decomposition dec = decompose(v, d);
  EXPECT_FALSE(dec.ok());
  bool sawReason = false;
  for (const TensorDecomposition& t : dec.tensors)
    sawReason |= t.reason.find("not integral") != std::string::npos;
  EXPECT_TRUE(sawReason);
}

TEST(DataflowDecompose, NoReuseIsRejected) {
  // Conv2D with c, h, w inner: I(n, c, h + r, w + s) changes with every PE and cycle.
  StatementView v = test::statement(
      test::kConv, {{"N", 1}, {"C", 2}, {"H", 3}, {"W", 3}, {"F", 1}, {"R", 2}, {"S", 2}});
  Dataflow d = parseDataflowSpec("PE(h, w) | T(c, s, r)", v, 2, 2);
  Decomposition dec = decompose(v, d);
  const TensorDecomposition& in = dec.tensors[1];
  EXPECT_FALSE(in.ok());
  EXPECT_NE(in.reason.find("no reuse"), std::string::npos) << in.reason;
}

TEST(DataflowDecompose, ReuseSpaceWithoutBasisIsRejected) {
  // MTTKRP with inner (i, k, l): B(k, j) reuses along S e_i = (1,0|1) and S e_l = (0,1|-1);
  // that plane holds no basis of direction vectors in any orientation.
  StatementView v = test::statement(test::kMttkrp, {{"I", 2}, {"J", 2}, {"K", 2}, {"L", 2}});
  Dataflow d = parseDataflowSpec("PE(i, l) | T(i + k - l + 1, j)", v, 2, 2);
  Decomposition dec = decompose(v, d);
  const TensorDecomposition& b = dec.tensors[2];
  EXPECT_FALSE(b.ok());
  EXPECT_NE(b.reason.find("no basis of the seven direction vectors"), std::string::npos)
      << b.reason;
}

TEST(DataflowDecompose, GemvUsesTwoAxesAndTwoVectorEntries) {
  // Two loops: t1 is constant, every tile is one cycle.
  StatementView v = test::statement(test::kGemv, {{"M", 4}, {"N", 4}});
  Decomposition d = decomposeVerified(v, "PE(i, j) | T(0)", 4, 4);
  ASSERT_TRUE(d.ok());
  // y(i): reduced along y and held; A(i,j): one per PE; x(j): broadcast along x and held.
  EXPECT_EQ(kinds(d), (std::vector{EntryKind::YMulticastStationary, EntryKind::Stationary,
                                   EntryKind::XMulticastStationary}));
}

TEST(DataflowDecompose, ScalarOperandIsBroadcastToAll) {
  StatementView v = test::statement(test::kScaledGemm, {{"M", 2}, {"N", 2}, {"K", 2}});
  Decomposition d = decomposeVerified(v, "PE(i, j) | T(k)", 2, 2);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.tensors[1].entry->kind, EntryKind::XYMulticastStationary); // alpha
}

TEST(DataflowSpec, RejectsBadSpecsWithReasons) {
  StatementView v = gemm(4, 4, 4);
  auto message = [&](const std::string& spec, int64_t p = 4, int64_t q = 4) {
    try {
      parseDataflowSpec(spec, v, p, q);
    } catch (const Error& e) {
      return e.diag().message;
    }
    return std::string("<no error>");
  };
  EXPECT_EQ(message("PE(i + j, i + j) | T(k)"),
            "S is singular: two iterations share a PE and cycle");
  EXPECT_EQ(message("PE(i, i) | T(k, j)"),
            "with 2 inner coordinates, exactly 1 of x, y, t1 must be constant");
  EXPECT_EQ(message("PE(i, j) | T(k + 1)"),
            "t1 must start at 0; write the dataflow as PE(i, j) | T(k)");
  EXPECT_EQ(message("PE(i, j) | T(q)"), "column 14: 'q' is not a loop of S0 (loops: i, j, k)");
  EXPECT_EQ(message("PE(i, j) | T(k)", 2, 4), "the dataflow needs 4x4 PEs but the array is 2x4");
  EXPECT_EQ(message("PE(i mod 2, j) | T(k)"),
            "loop 'i' is split by 2 but its quotient 'i / 2' is not in outer time");
  EXPECT_EQ(message("PE(i, j) | T(k, k)"),
            "outer time 'k / 1' does not match its inner part (factor 4)");
  EXPECT_EQ(message("PE(i, j)"), "column 9: expected '|' between PE(...) and T(...)");
}

TEST(DataflowSpec, PrintsWhatItParses) {
  StatementView v = gemm(2, 4, 2);
  for (const char* spec : {"PE(k, j mod 2) | T(i + j mod 2, j / 2)", "PE(j mod 2, i) | T(k, j / 2)",
                           "PE(-k + 1, i) | T(j)"}) {
    Dataflow d = parseDataflowSpec(spec, v, 2, 2);
    EXPECT_EQ(toSpec(d, v), spec);
    EXPECT_EQ(parseDataflowSpec(toSpec(d, v), v, 2, 2), d);
  }
}

} // namespace
} // namespace rubick::dataflow
