// SPDX-License-Identifier: Apache-2.0
// The worked example of the theory notes: GEMM with 0<=i<2, 0<=k<2, 0<=j<4 on a 2x2 array,
// S(i,j,k) -> PE(k, j mod 2) | T(i + j mod 2, j / 2).

#include "rubick/dataflow/DataflowSpec.h"
#include "rubick/dataflow/Decompose.h"
#include "rubick/dataflow/IslVerify.h"
#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Sema.h"

#include <gtest/gtest.h>

namespace rubick::dataflow {
namespace {

StatementView seedGemm() {
  auto file = std::make_shared<const SourceFile>(
      "seed.tc", "def gemm(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }");
  tc::SemaOptions o;
  o.sizes = {{"M", 2, {}}, {"K", 2, {}}, {"N", 4, {}}};
  return viewStatement(tc::analyze(tc::parse(file), file, o), 0);
}

TEST(DataflowSeed, DecomposesAIntoYSystolicWithColumnLayout) {
  StatementView v = seedGemm();
  ASSERT_EQ(v.accesses.size(), 3u); // C (write), A, B
  Dataflow d = parseDataflowSpec("PE(k, j mod 2) | T(i + j mod 2, j / 2)", v, 2, 2);
  Decomposition dec = decompose(v, d);
  ASSERT_TRUE(dec.reason.empty()) << dec.reason;
  const TensorDecomposition& a = dec.tensors[1];
  ASSERT_TRUE(a.ok()) << a.reason;
  EXPECT_EQ(a.entry->kind, ir::EntryKind::YSystolic);
  EXPECT_FALSE(a.entry->mirrorX);
  EXPECT_FALSE(a.entry->mirrorY);
  // M_A = (x, y | t1, t2) -> A(t1 - y, x)
  EXPECT_EQ(a.movement, Mat::fromRows({{0, -1, 1}, {1, 0, 0}}));
  // Omega_A = (x, 0 | t1 - y, t2) and L_A = E(x, 0 | t1, t2) -> A(t1, x).
  EXPECT_EQ(ir::toString(a.layout, "A"), "E(x, 0 | t1, t2) -> A(t1, x)");
  poly::IslContext ctx;
  EXPECT_TRUE(checkLegality(ctx, v, d).legal());
  std::string bad;
  EXPECT_TRUE(verifyDecomposition(ctx, v, d, dec, &bad)) << bad;
}

} // namespace
} // namespace rubick::dataflow
