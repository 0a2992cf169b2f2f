// SPDX-License-Identifier: Apache-2.0
#include "rubick/linalg/AffineText.h"
#include "rubick/linalg/Matrix.h"

#include <gtest/gtest.h>
#include <numeric>

namespace rubick {
namespace {

TEST(Rational, NormalisesSignAndGcd) {
  Rational r(6, -4);
  EXPECT_EQ(r.num(), -3);
  EXPECT_EQ(r.den(), 2);
  EXPECT_EQ(r.str(), "-3/2");
  EXPECT_EQ(Rational(1, 3) + Rational(1, 6), Rational(1, 2));
  EXPECT_EQ(Rational(2, 3) * Rational(3, 4), Rational(1, 2));
  EXPECT_EQ(Rational(1, 2) / Rational(1, 4), Rational(2));
  EXPECT_LT(Rational(-1, 2), Rational(1, 3));
  EXPECT_THROW(Rational(1, 0), std::domain_error);
  EXPECT_THROW(Rational(1, 2).toInt(), std::logic_error);
}

TEST(Rational, OverflowThrowsInsteadOfWrapping) {
  Rational big(INT64_MAX);
  EXPECT_THROW(big + 1, std::overflow_error);
  EXPECT_THROW(big * 2, std::overflow_error);
}

TEST(Mat, RankAndDeterminant) {
  EXPECT_EQ(Mat::fromRows({{1, 2}, {2, 4}}).rank(), 1u);
  EXPECT_EQ(Mat::identity(3).rank(), 3u);
  // det by cofactor expansion: 2*(3*1-0*1) - 0 + 1*(1*1-3*0) = 6 + 1 = 7
  EXPECT_EQ(Mat::fromRows({{2, 0, 1}, {1, 3, 0}, {0, 1, 1}}).det(), Rational(7));
  EXPECT_EQ(Mat::fromRows({{1, 1}, {1, -1}}).det(), Rational(-2));
}

TEST(Mat, InverseOfUnimodularIsIntegral) {
  Mat s = Mat::fromRows({{0, 0, 1}, {0, 1, 0}, {1, 1, 0}}); // the seed example's S
  std::optional<Mat> x = s.inverse();
  ASSERT_TRUE(x);
  EXPECT_EQ(*x * s, Mat::identity(3));
  EXPECT_EQ(*x, Mat::fromRows({{0, -1, 1}, {0, 1, 0}, {1, 0, 0}}));
  EXPECT_FALSE(Mat::fromRows({{1, 2}, {2, 4}}).inverse());
}

TEST(Mat, NullSpaceIsPrimitiveAndSpansKernel) {
  // A(i,k) of GEMM over (i, j, k): independent of j only.
  std::vector<IntVec> ns = Mat::fromRows({{1, 0, 0}, {0, 0, 1}}).nullSpace();
  ASSERT_EQ(ns.size(), 1u);
  EXPECT_EQ(ns[0], (IntVec{0, 1, 0}));
  // x + 2y - 3t = 0: a plane; each basis vector must satisfy it and be primitive.
  Mat m = Mat::fromRows({{2, 4, -6}});
  ns = m.nullSpace();
  ASSERT_EQ(ns.size(), 2u);
  for (const IntVec& v : ns) {
    EXPECT_EQ(v[0] + 2 * v[1] - 3 * v[2], 0);
    EXPECT_EQ(std::gcd(std::gcd(v[0], v[1]), v[2]), 1);
  }
  EXPECT_TRUE(Mat::identity(3).nullSpace().empty());
}

TEST(Mat, SolveReportsEachOutcome) {
  Mat a = Mat::fromRows({{1, 0}, {0, 1}, {1, 1}});
  SolveResult ok = solve(a, Mat::fromRows({{1}, {2}, {3}}));
  ASSERT_EQ(ok.status, SolveResult::Status::Unique);
  EXPECT_EQ(ok.x, Mat::fromRows({{1}, {2}}));
  EXPECT_EQ(solve(a, Mat::fromRows({{1}, {2}, {4}})).status, SolveResult::Status::Inconsistent);
  EXPECT_EQ(solve(Mat::fromRows({{1, 1}}), Mat::fromRows({{1}})).status,
            SolveResult::Status::Underdetermined);
}

TEST(Mat, InSpan) {
  std::vector<IntVec> plane{{1, 0, 1}, {0, 1, 1}};
  EXPECT_TRUE(inSpan(plane, {1, 1, 2}));
  EXPECT_TRUE(inSpan(plane, {1, -1, 0}));
  EXPECT_FALSE(inSpan(plane, {0, 0, 1}));
  EXPECT_TRUE(inSpan({}, {0, 0, 0}));
}

TEST(AffineText, PositiveTermsFirst) {
  EXPECT_EQ(affineText({{-1, "y"}, {1, "t1"}}, 0), "t1 - y");
  EXPECT_EQ(affineText({{1, "y"}, {2, "t2"}}, -1), "y + 2*t2 - 1");
  EXPECT_EQ(affineText({{-1, "x"}}, 3), "-x + 3");
  EXPECT_EQ(affineText({{0, "x"}}, 0), "0");
  EXPECT_EQ(affineText({{Rational(1, 2), "x"}}, 0), "1/2*x");
}

} // namespace
} // namespace rubick
