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
