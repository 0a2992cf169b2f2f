// Streaming exploration (ExploreOptions::keepBest, onDesign, CsvRows): keeping only the best N
// and the Pareto front gives exactly those designs of the full result, with the same marks and
// counts; the CSV built while searching equals the CSV of the full result in search order; and
// neither depends on the thread count.

#include "dataflow_test_util.h"

#include "rubick/dse/Explore.h"
#include "rubick/dse/Report.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rubick::dse {
namespace {

ExploreOptions options(unsigned threads) {
  ExploreOptions o;
  o.constraints.arrays = {{4, 4}, {3, 5}, {6, 2}};
  o.constraints.elementBits = {32, 8, 8};
  o.threads = threads;
  return o;
}

// The designs a streaming run must return: the first n of the full ranking, then every other
// Pareto-optimal design in ranking order.
std::vector<const DesignPoint*> expectedKept(const ExploreResult& full, size_t n) {
  std::vector<const DesignPoint*> out;
  for (size_t i = 0; i < full.points.size(); ++i)
    if (i < n || full.points[i].pareto) out.push_back(&full.points[i]);
  return out;
}

TEST(ExploreStream, KeepBestIsTheFullResultCut) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  for (Objective obj : {Objective::Latency, Objective::Area, Objective::Buffer}) {
    ExploreOptions o = options(1);
    o.objective = obj;
    ExploreResult full = explore(v, o);
    ASSERT_GT(full.points.size(), 50u);
    for (size_t n : {size_t(1), size_t(7), size_t(40)})
      for (unsigned threads : {1u, 3u}) {
        ExploreOptions s = options(threads);
        s.objective = obj;
        s.keepBest = n;
        ExploreResult r = explore(v, s);
        std::vector<const DesignPoint*> want = expectedKept(full, n);
        ASSERT_EQ(r.points.size(), want.size()) << n << " " << threads;
        for (size_t i = 0; i < want.size(); ++i) {
          EXPECT_EQ(r.points[i].id, want[i]->id) << i;
          EXPECT_EQ(r.points[i].pareto, want[i]->pareto) << i;
          EXPECT_EQ(r.points[i].order, want[i]->order) << i;
        }
        EXPECT_EQ(r.stats.designs, full.points.size());
        EXPECT_EQ(r.stats.pareto, full.stats.pareto);
        EXPECT_EQ(r.stats.candidates, full.stats.candidates);
      }
  }
}

TEST(ExploreStream, OrderNumbersTheDesignsInSearchOrder) {
  // Array shape first: the orders of each shape's designs form one contiguous run, in the order
  // the shapes were given, and together they are 0 .. designs-1.
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreResult r = explore(v, options(3));
  std::vector<std::pair<size_t, ArrayShape>> byOrder;
  for (const DesignPoint& d : r.points)
    byOrder.push_back({d.order, {d.dataflow.p, d.dataflow.q}});
  std::sort(byOrder.begin(), byOrder.end());
  for (size_t i = 0; i < byOrder.size(); ++i)
    ASSERT_EQ(byOrder[i].first, i);
  const std::vector<ArrayShape>& shapes = options(1).constraints.arrays;
  size_t shape = 0;
  for (const auto& [order, s] : byOrder) {
    while (shape < shapes.size() && shapes[shape] != s)
      ++shape;
    ASSERT_LT(shape, shapes.size()) << "design " << order << " out of shape order";
  }
}

TEST(ExploreStream, CsvBuiltWhileSearchingEqualsTheFullCsv) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreResult full = explore(v, options(1));
  std::vector<DesignPoint> inOrder = full.points;
  std::sort(inOrder.begin(), inOrder.end(),
            [](const DesignPoint& a, const DesignPoint& b) { return a.order < b.order; });
  const std::string want = toCsv(v, inOrder);
  for (unsigned threads : {1u, 4u}) {
    ExploreOptions o = options(threads);
    o.keepBest = 3;
    CsvRows csv(v);
    size_t calls = 0;
    o.onDesign = [&](const DesignPoint& d) {
      EXPECT_EQ(d.order, calls++); // one at a time, in search order
      csv.add(d);
    };
    ExploreResult r = explore(v, o);
    EXPECT_EQ(calls, full.points.size());
    EXPECT_EQ(csv.text(r.points), want) << threads;
  }
}

} // namespace
} // namespace rubick::dse
