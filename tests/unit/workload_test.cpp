// SPDX-License-Identifier: Apache-2.0
// What a program is (workload/Workload.h): each kind from the examples, --stmt, and the
// attention form's error for a chain where chains are not taken.

#include "rubick/frontend/Sema.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/workload/Workload.h"

#include <gtest/gtest.h>

namespace rubick {
namespace {

tc::Program example(const std::string& name) {
  return tc::loadProgram(std::string(RUBICK_SOURCE_DIR) + "/examples/" + name, {});
}

TEST(Workload, EachExampleIsItsKind) {
  const auto never = [] { return false; };
  const auto always = [] { return true; };
  EXPECT_EQ(workload::recogniseWorkload(example("gemm.tc"), "", never, nullptr).kind,
            workload::Kind::Statement);
  const workload::Workload layer =
      workload::recogniseWorkload(example("gemm_layer.tc"), "", never, nullptr);
  EXPECT_EQ(layer.kind, workload::Kind::Epilogue);
  ASSERT_TRUE(layer.epilogue);
  EXPECT_EQ(layer.statement, 0u);
  EXPECT_EQ(layer.epilogue->outputName, "Y");
  const workload::Workload att =
      workload::recogniseWorkload(example("attention.tc"), "", never, nullptr);
  EXPECT_EQ(att.kind, workload::Kind::Attention);
  EXPECT_TRUE(att.attention.has_value());
  EXPECT_EQ(workload::recogniseWorkload(example("mlp.tc"), "", always, nullptr).kind,
            workload::Kind::Chain);
}

TEST(Workload, StmtPicksOneStatementOfAnyProgram) {
  const workload::Workload w =
      workload::recogniseWorkload(example("mlp.tc"), "Y", nullptr, nullptr);
  EXPECT_EQ(w.kind, workload::Kind::Statement);
  EXPECT_EQ(w.statement, 2u);
  EXPECT_EQ(workload::recogniseWorkload(example("gemm_layer.tc"), "S0", nullptr, nullptr).kind,
            workload::Kind::Statement);
}

TEST(Workload, AChainWhereChainsAreNotTakenKeepsTheAttentionFormsError) {
  bool asked = false;
  try {
    workload::recogniseWorkload(
        example("mlp.tc"), "", [&] { return asked = true, false; }, nullptr);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.diag().message.find("attention"), std::string::npos) << e.diag().message;
  }
  EXPECT_TRUE(asked);
  // Epilogues and attention are recognised without asking.
  asked = false;
  workload::recogniseWorkload(
      example("gemm_layer.tc"), "", [&] { return asked = true; }, nullptr);
  EXPECT_FALSE(asked);
}

} // namespace
} // namespace rubick
