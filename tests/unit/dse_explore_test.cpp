// SPDX-License-Identifier: Apache-2.0
// The explorer: pruning is lossless, results do not depend on threads, IDs are stable, the
// Pareto marks are right, and impossible constraints name the culprit.

#include "dataflow_test_util.h"

#include "rubick/dse/Explore.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rubick::dse {
namespace {

ExploreOptions gemmOptions() {
  ExploreOptions o;
  o.constraints.arrays = {{4, 4}, {3, 5}};
  o.constraints.elementBits = {32, 8, 8};
  return o;
}

void expectSamePoints(const ExploreResult& a, const ExploreResult& b) {
  ASSERT_EQ(a.points.size(), b.points.size());
  for (size_t i = 0; i < a.points.size(); ++i) {
    EXPECT_EQ(a.points[i].id, b.points[i].id);
    EXPECT_EQ(a.points[i].dataflow, b.points[i].dataflow);
    EXPECT_EQ(a.points[i].metrics.latency, b.points[i].metrics.latency);
    EXPECT_EQ(a.points[i].metrics.bufferBytes, b.points[i].metrics.bufferBytes);
    EXPECT_EQ(a.points[i].pareto, b.points[i].pareto);
  }
}

TEST(Explore, PruningIsLossless) {
  // GEMM with sizes that are not multiples of the arrays, under every kind of constraint.
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  for (int variant = 0; variant < 4; ++variant) {
    ExploreOptions o = gemmOptions();
    if (variant == 0) o.constraints.maxFanout = 4;
    if (variant == 1) o.constraints.maxPorts = 5;
    if (variant == 2) o.constraints.bufferBytes = 400;
    if (variant == 3) {
      o.constraints.entries = {ir::EntryKind::XSystolic, ir::EntryKind::YSystolic,
                               ir::EntryKind::Stationary, ir::EntryKind::XMulticast};
      o.constraints.maxFanout = 3;
    }
    ExploreResult pruned = explore(v, o);
    o.prune = false;
    ExploreResult full = explore(v, o);
    EXPECT_GT(pruned.points.size(), 0u) << variant;
    expectSamePoints(pruned, full);
  }
}

TEST(Explore, ElementWidthsDefaultToTheProgramsTypes) {
  // No widths given: the accesses' own (the program's types), as if given; a wrong count is
  // refused rather than read past.
  dataflow::StatementView v = dataflow::test::gemm(4, 3, 5);
  ExploreOptions none = gemmOptions();
  none.constraints.elementBits.clear();
  ExploreOptions given = gemmOptions();
  given.constraints.elementBits.clear();
  for (const dataflow::AccessView& a : v.accesses)
    given.constraints.elementBits.push_back(a.elementBits);
  expectSamePoints(explore(v, none), explore(v, given));
  ExploreOptions wrong = gemmOptions();
  wrong.constraints.elementBits = {32, 8};
  EXPECT_THROW(explore(v, wrong), std::invalid_argument);
}

TEST(Explore, ConstraintsHold) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreOptions o = gemmOptions();
  o.constraints.maxFanout = 4;
  o.constraints.maxPorts = 5;
  o.constraints.bufferBytes = 500;
  ExploreResult r = explore(v, o);
  ASSERT_GT(r.points.size(), 0u);
  for (const DesignPoint& d : r.points) {
    EXPECT_LE(d.metrics.maxFanout, 4);
    EXPECT_LE(d.metrics.maxFanin, 4);
    EXPECT_LE(d.metrics.bufferBytes, 500);
    for (const TensorMetrics& t : d.metrics.tensors)
      EXPECT_LE(t.ports, 5);
  }
}

TEST(Explore, ResultsDoNotDependOnThreads) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreOptions o = gemmOptions();
  o.threads = 1;
  ExploreResult one = explore(v, o);
  o.threads = 5;
  ExploreResult five = explore(v, o);
  expectSamePoints(one, five);
}

TEST(Explore, SortedByObjectiveWithStableIds) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreOptions o = gemmOptions();
  ExploreResult r = explore(v, o);
  for (size_t i = 1; i < r.points.size(); ++i)
    EXPECT_LE(r.points[i - 1].metrics.latency, r.points[i].metrics.latency);
  std::set<std::string> ids;
  for (const DesignPoint& d : r.points) {
    EXPECT_EQ(d.id, designId(v, d.dataflow, o.constraints.elementBits));
    EXPECT_EQ(d.id.size(), kIdDigits);
    EXPECT_TRUE(ids.insert(d.id).second) << "duplicate id " << d.id;
  }
  o.objective = Objective::Buffer;
  r = explore(v, o);
  for (size_t i = 1; i < r.points.size(); ++i)
    EXPECT_LE(r.points[i - 1].metrics.bufferBytes, r.points[i].metrics.bufferBytes);
}

TEST(Explore, ParetoMarksExactlyTheNonDominated) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreResult r = explore(v, gemmOptions());
  auto dominates = [](const Metrics& a, const Metrics& b) {
    bool le = a.latency <= b.latency && a.wires <= b.wires && a.bufferBytes <= b.bufferBytes;
    bool lt = a.latency < b.latency || a.wires < b.wires || a.bufferBytes < b.bufferBytes;
    return le && lt;
  };
  size_t front = 0;
  for (const DesignPoint& d : r.points) {
    bool dominated = false;
    for (const DesignPoint& e : r.points)
      dominated |= dominates(e.metrics, d.metrics);
    EXPECT_EQ(d.pareto, !dominated) << d.id;
    front += d.pareto;
  }
  EXPECT_GT(front, 0u);
  EXPECT_EQ(front, r.stats.pareto);
}

TEST(Explore, EqualsBruteForceOverSpaceTimeMatrices) {
  ExploreOptions o = gemmOptions();
  o.constraints.maxFanout = 4;
  expectSamePoints(explore(dataflow::test::gemm(6, 5, 7), o),
                   exploreBruteForce(dataflow::test::gemm(6, 5, 7), o));
  ExploreOptions g = gemmOptions();
  g.constraints.arrays = {{4, 4}};
  g.constraints.elementBits = {32, 8, 8};
  dataflow::StatementView gemv =
      dataflow::test::statement(dataflow::test::kGemv, {{"M", 6}, {"N", 5}});
  expectSamePoints(explore(gemv, g), exploreBruteForce(gemv, g));
}

TEST(Explore, RowsOfPesAndSinglePesMapFewerLoops) {
  // GEMM has three loops; a 2-D array maps two onto space and one onto time, a row of PEs one
  // onto space, a single PE none (all in time).
  const dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreOptions o = gemmOptions();
  o.constraints.arrays = {{1, 4}, {1, 1}, {4, 4}};
  const ExploreResult r = explore(v, o);
  size_t row = 0, single = 0;
  for (const DesignPoint& d : r.points) {
    SCOPED_TRACE(d.id);
    size_t spatial = 0;
    for (size_t axis = 0; axis < 2; ++axis) {
      bool used = false;
      for (int64_t c : d.dataflow.s[axis])
        used |= c != 0;
      spatial += used;
    }
    if (d.dataflow.p == 1 && d.dataflow.q == 1) {
      ++single;
      EXPECT_EQ(spatial, 0u);
      EXPECT_EQ(d.dataflow.k(), 1u);
    } else if (d.dataflow.p == 1) {
      ++row;
      EXPECT_EQ(spatial, 1u);
      EXPECT_EQ(d.dataflow.k(), 2u);
    }
  }
  EXPECT_GT(row, 0u);
  EXPECT_GT(single, 0u);
  // The 4x4 designs are those of the 4x4 array alone: the fewer-loop matrices are only for the
  // arrays that need them.
  ExploreOptions alone = gemmOptions();
  alone.constraints.arrays = {{4, 4}};
  const ExploreResult a = explore(v, alone);
  std::vector<std::string> ids, idsAlone;
  for (const DesignPoint& d : r.points)
    if (d.dataflow.p == 4 && d.dataflow.q == 4) ids.push_back(d.id);
  for (const DesignPoint& d : a.points)
    idsAlone.push_back(d.id);
  std::sort(ids.begin(), ids.end());
  std::sort(idsAlone.begin(), idsAlone.end());
  EXPECT_EQ(ids, idsAlone);
}

TEST(Explore, ImpossibleConstraintsNameTheCulprit) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreOptions o = gemmOptions();
  o.constraints.bufferBytes = 10; // far below the tensors' own size
  ExploreResult r = explore(v, o);
  EXPECT_TRUE(r.points.empty());
  EXPECT_NE(r.mostRestrictive().find("buffer budget"), std::string::npos) << r.mostRestrictive();
  o.constraints.bufferBytes = 0;
  o.constraints.maxFanout = 0;
  o.constraints.entries = {ir::EntryKind::DiagMulticastStationary};
  r = explore(v, o);
  EXPECT_TRUE(r.points.empty());
  EXPECT_NE(r.mostRestrictive().find("allowed entries"), std::string::npos) << r.mostRestrictive();
}

} // namespace
} // namespace rubick::dse
