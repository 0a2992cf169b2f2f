// SPDX-License-Identifier: Apache-2.0
// arch::buildProblem: the one decision of what the hardware can build, and its use by the
// planner (which must refuse exactly what it refuses, as rubick::Unsupported).

#include "rubick/arch/Buildable.h"
#include "rubick/arch/Plan.h"
#include "rubick/dataflow/StatementView.h"
#include "rubick/support/Unsupported.h"

#include "tc_test_util.h"

#include <gtest/gtest.h>

namespace rubick {
namespace {

struct Case {
  tc::Program prog;
  dataflow::StatementView v;
  std::vector<int64_t> bits;
};

Case make(const std::string& text) {
  Case c{test::analyzeText(text), {}, {}};
  c.v = dataflow::viewStatement(c.prog, 0);
  for (const dataflow::AccessView& a : c.v.accesses)
    c.bits.push_back(tc::bitWidth(c.prog.tensors[a.tensor].type));
  return c;
}

std::string problem(const std::string& text) {
  Case c = make(text);
  return arch::buildProblem(c.prog, c.v, c.bits);
}

TEST(Buildable, ProductsOfTensorElementsAreBuilt) {
  EXPECT_EQ(problem("def g(int8(4,4) A, int8(4,4) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }"), "");
  EXPECT_EQ(problem("def s(int8(4) A, int8(4) B) -> (C) { C(i) = A(i) * B(i) }"), "");
  EXPECT_EQ(problem("def c(int8(4) A) -> (C) { C(i) = A(i) }"), "");
  EXPECT_EQ(problem("def m(int8(4,4) A) -> (C) { C(i) max=! A(i,k) }"), "");
  EXPECT_EQ(problem("def n(int8(4,4) A, int8(4,4) B) -> (C) { C(i,j) +=! -A(i,k) * B(k,j) }"), "");
  EXPECT_EQ(problem("def k(int8(4,4) A) -> (C) { C(i) +=! 2 * A(i,k) }"), "");
  EXPECT_EQ(problem("def m(int8(4,4) A, int8(4,4) B) -> (C) { C(i,j) min=! A(i,k) * B(k,j) }"), "");
}

TEST(Buildable, EachUnbuiltFormSaysWhat) {
  EXPECT_NE(problem("def g(int8(4,4) A, int8(4,4) B, int32(4,4) D) -> (C) "
                    "{ C(i,j) +=! A(i,k) * B(k,j) + D(i,j) }")
                .find("uses '+'"),
            std::string::npos);
  EXPECT_NE(problem("def g(int8(4,4) A, int8(4,4) B) -> (C) { C(i,j) +=! 0.5 * A(i,k) * B(k,j) }")
                .find("a floating-point constant"),
            std::string::npos);
  EXPECT_NE(problem("def g(int8(4) A, int8(4) B, int8(4) D, int8(4) E) -> (C) "
                    "{ C(i) = 2 * A(i) * B(i) * D(i) * E(i) }")
                .find("constant factor included"),
            std::string::npos);
  EXPECT_NE(problem("def g(int8(4,4) A) -> (C) { C(i) *=! A(i,k) }").find("'*=!'"),
            std::string::npos);

  EXPECT_NE(problem("def g(int8(4) A, int8(4) B, int8(4) D, int8(4) E, int8(4) F) -> (C) "
                    "{ C(i) = A(i) * B(i) * D(i) * E(i) * F(i) }")
                .find("at most 4 operands"),
            std::string::npos);
}

TEST(Buildable, AccumulatorWidthIsChecked) {
  // Two int32 operands: 64 product bits, plus log2(4) = 2 for the 4-long reduction: 66 > 64.
  EXPECT_NE(problem("def g(int32(4,4) A, int32(4,4) B) -> (int64(4,4) C) "
                    "{ C(i,j) +=! A(i,k) * B(k,j) }")
                .find("66 bits"),
            std::string::npos);
}

TEST(Buildable, PlannerRefusesWhatItRefuses) {
  Case c = make("def g(int8(4,4) A) -> (C) { C(i) *=! A(i,k) }");
  dataflow::Dataflow d;
  try {
    arch::makePlan(c.prog, c.v, d, {}, c.bits, "t");
    FAIL() << "no error";
  } catch (const Unsupported& e) {
    EXPECT_EQ(e.diag().message, arch::buildProblem(c.prog, c.v, c.bits));
  }
}

} // namespace
} // namespace rubick
