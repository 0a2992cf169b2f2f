// SPDX-License-Identifier: Apache-2.0
// The microarchitecture plan agrees with the cost model, and the host map gives every element
// a place inside its banks, without conflicts, for every design of a sweep.

#include "dataflow_test_util.h"

#include "rubick/arch/HostMap.h"
#include "rubick/arch/Plan.h"
#include "rubick/dse/Explore.h"
#include "rubick/frontend/Sema.h"
#include "rubick/support/Diagnostic.h"

#include <gtest/gtest.h>

namespace rubick::arch {
namespace {

using dataflow::test::program;

void checkSweep(const tc::Program& prog, std::vector<dse::ArrayShape> arrays) {
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = std::move(arrays);
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.write ? 32 : 8);
  dse::ExploreResult r = dse::explore(v, o);
  ASSERT_GT(r.points.size(), 0u);
  std::set<ir::EntryKind> inKinds, outKinds;
  for (const dse::DesignPoint& pt : r.points) {
    Plan plan = makePlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, "d");
    EXPECT_EQ(plan.schedule.latency, pt.metrics.latency);
    for (size_t t = 0; t < plan.tensors.size(); ++t) {
      const TensorPlan& tp = plan.tensors[t];
      const dse::TensorMetrics& tm = pt.metrics.tensors[t];
      EXPECT_EQ(static_cast<int64_t>(tp.ports.size()), tm.ports) << pt.id;
      EXPECT_EQ(tp.depth, tm.bankDepth) << pt.id;
      (tp.output ? outKinds : inKinds).insert(tp.entry.kind);
    }
    std::vector<TensorMap> maps = hostMap(prog, v, pt.dataflow, plan);
    for (size_t t = 0; t < maps.size(); ++t) {
      const TensorPlan& tp = plan.tensors[t];
      for (const std::vector<Location>& places : maps[t].elements) {
        ASSERT_FALSE(places.empty()) << pt.id << " " << tp.name;
        if (tp.output) {
          EXPECT_EQ(places.size(), 1u);
        }
        for (const Location& l : places) {
          EXPECT_GE(l.bank, 0);
          EXPECT_LT(l.bank, static_cast<int>(tp.ports.size()));
          EXPECT_GE(l.address, 0);
          EXPECT_LT(l.address, tp.depth) << pt.id << " " << tp.name;
        }
      }
    }
  }
  EXPECT_GT(inKinds.size(), 3u);
  EXPECT_GT(outKinds.size(), 2u);
}

TEST(ArchPlan, GemmSweepAgreesWithCostModelAndHostMap) {
  checkSweep(program(dataflow::test::kGemm, {{"M", 6}, {"N", 5}, {"K", 7}}), {{4, 4}, {3, 2}});
}

TEST(ArchPlan, GemvAndConvSweeps) {
  checkSweep(program(dataflow::test::kGemv, {{"M", 5}, {"N", 6}}), {{4, 4}});
  checkSweep(program(dataflow::test::kConv,
                     {{"N", 1}, {"C", 2}, {"H", 4}, {"W", 3}, {"F", 2}, {"R", 2}, {"S", 2}}),
             {{2, 3}});
}

// A maximum or minimum reduction meets in the output's width (each value wrapped to it first,
// as the reference model does), a sum in its growing accumulator; `+=` needs at least the
// output's width; every design of a `max=!` recurs only where its `+=!` twin does.
TEST(ArchPlan, FoldsAndAccumulatingOutputsSetTheWidths) {
  const char* text = "def f(int8(M,K) A, int8(K,N) B, int32(M,N) C0) -> (C, D, E) {"
                     " C(i,j) max=! A(i,k) * B(k,j)  D(i,j) +=! A(i,k) * B(k,j)"
                     " E(i,j) = C0(i,j)  E(i,j) += A(i,k) * B(k,j) }";
  tc::Program prog = program(text, {{"M", 5}, {"N", 4}, {"K", 6}});
  dse::ExploreOptions o;
  o.constraints.arrays = {{4, 4}};
  o.threads = 1;
  for (size_t stmt : {0, 1, 3}) {
    dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
    const int64_t outBits = tc::bitWidth(prog.tensors[v.accesses[0].tensor].type);
    o.constraints.elementBits = {outBits, 8, 8};
    EXPECT_EQ(v.fold, stmt == 0 ? dataflow::Fold::Max : dataflow::Fold::Sum);
    EXPECT_EQ(v.accumulates, stmt == 3);
    const dse::ExploreResult r = dse::explore(v, o);
    ASSERT_FALSE(r.points.empty());
    for (const dse::DesignPoint& pt : r.points) {
      const Plan plan = makePlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, "d");
      EXPECT_EQ(plan.fold, v.fold);
      const int64_t sumBits = 16 + 3; // int8 x int8 over 6 values
      if (stmt == 0) {
        EXPECT_EQ(plan.accumulatorBits, outBits) << pt.id;
      }
      if (stmt == 1) {
        EXPECT_EQ(plan.accumulatorBits, sumBits) << pt.id;
      }
      if (stmt == 3) {
        EXPECT_EQ(plan.accumulatorBits, std::max<int64_t>(sumBits, 32)) << pt.id;
        EXPECT_TRUE(plan.tensors[0].recurs && plan.tensors[0].accumulates) << pt.id;
      }
    }
  }
}

// A product's integer constant factor and negations make one signed PE operand, which widens
// the product and the accumulator by its width (dataflow::factorBits).
TEST(ArchPlan, ConstantFactorsWidenTheProduct) {
  EXPECT_EQ(dataflow::factorBits(1), 0);
  EXPECT_EQ(dataflow::factorBits(-1), 1);
  EXPECT_EQ(dataflow::factorBits(3), 3);
  EXPECT_EQ(dataflow::factorBits(-4), 3);
  EXPECT_EQ(dataflow::factorBits(4), 4);
  const char* text = "def f(int8(M,K) A, int8(K,N) B) -> (C, D, E) {"
                     " C(i,j) +=! 3 * A(i,k) * B(k,j)  D(i,j) +=! -A(i,k) * B(k,j)"
                     " E(i,j) +=! -(2 * A(i,k)) * -B(k,j) }";
  tc::Program prog = program(text, {{"M", 4}, {"N", 4}, {"K", 4}});
  const int64_t factors[] = {3, -1, 2};
  for (size_t stmt = 0; stmt < 3; ++stmt) {
    dataflow::StatementView v = dataflow::viewStatement(prog, stmt);
    EXPECT_EQ(v.factor, factors[stmt]) << stmt;
    dse::ExploreOptions o;
    o.constraints.arrays = {{4, 4}};
    o.constraints.elementBits = {32, 8, 8};
    o.threads = 1;
    const dse::ExploreResult r = dse::explore(v, o);
    ASSERT_FALSE(r.points.empty());
    const dse::DesignPoint& pt = r.points.front();
    const Plan plan = makePlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, "d");
    EXPECT_EQ(plan.factor, factors[stmt]);
    EXPECT_EQ(plan.productBits, 16 + dataflow::factorBits(factors[stmt]));
    EXPECT_EQ(plan.accumulatorBits, plan.productBits + 2); // a reduction of 4
    EXPECT_EQ(pt.metrics.accumulatorBits, plan.accumulatorBits);
  }
}

TEST(ArchPlan, UnsupportedStatementsSayWhy) {
  tc::Program prog =
      program("def f(int8(N) A, int8(N) B) -> (C) { C(i) = A(i) + B(i) }", {{"N", 4}});
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dataflow::Dataflow d = dataflow::parseDataflowSpec("PE(i, 0) | T(0)", v, 4, 1);
  dataflow::Decomposition dec = dataflow::decompose(v, d);
  std::vector<ir::OrientedEntry> es;
  for (const auto& t : dec.tensors)
    es.push_back(*t.entry);
  try {
    makePlan(prog, v, d, es, {32, 8, 8}, "d");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.diag().message.find("multiply tensor elements"), std::string::npos);
  }
}

} // namespace
} // namespace rubick::arch
