// SPDX-License-Identifier: Apache-2.0
// Streaming exploration (ExploreOptions::keepBest, onDesign, CsvFile): keeping only the best N
// and the Pareto front gives exactly those designs of the full result, with the same marks and
// counts; the CSV streamed to disk while searching equals the CSV of the full result in search
// order, pareto cells included; neither depends on the thread count; and the CSV refuses two
// rows with one ID.

#include "dataflow_test_util.h"

#include "rubick/dse/Explore.h"
#include "rubick/dse/Report.h"
#include "rubick/support/OwnedOutput.h"

#include "temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

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

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<DesignPoint> inSearchOrder(std::vector<DesignPoint> ps) {
  std::sort(ps.begin(), ps.end(),
            [](const DesignPoint& a, const DesignPoint& b) { return a.order < b.order; });
  return ps;
}

TEST(ExploreStream, CsvStreamedToDiskEqualsTheFullCsv) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreResult full = explore(v, options(1));
  const std::string want = toCsv(v, inSearchOrder(full.points));
  // The pareto cells matter here: they are set in the file after the search.
  size_t marked = 0;
  for (size_t at = want.find('\n'); at + 1 < want.size(); at = want.find('\n', at + 1))
    marked += want.compare(at + 1 + kIdDigits, 3, ",1,") == 0;
  ASSERT_EQ(marked, full.stats.pareto);
  ASSERT_GT(marked, 1u);
  test::TempDir t;
  for (unsigned threads : {1u, 4u}) {
    ExploreOptions o = options(threads);
    o.keepBest = 3;
    const std::string path = t / ("all" + std::to_string(threads) + ".csv");
    CsvFile csv(v, path);
    size_t calls = 0;
    o.onDesign = [&](const DesignPoint& d) {
      EXPECT_EQ(d.order, calls++); // one at a time, in search order
      csv.add(d);
    };
    ExploreResult r = explore(v, o);
    EXPECT_EQ(calls, full.points.size());
    EXPECT_FALSE(std::filesystem::exists(path)); // only the temporary so far
    csv.finish(r.points);
    commitOutputFile(csv.file(), "id,pareto", Overwrite::OwnOnly);
    EXPECT_EQ(readText(path), want) << threads;
  }
}

TEST(ExploreStream, CsvRefusesTwoRowsWithOneId) {
  // Every design's ID cut to 4 bits: 16 values for more than 16 rows, so some rows must share
  // one. The CSV reports the smallest shared ID with its first two rows, and writes nothing.
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreResult full = explore(v, options(1));
  std::vector<DesignPoint> rows = inSearchOrder(full.points);
  ASSERT_GT(rows.size(), 16u);
  setIdBitsForTesting(4);
  for (DesignPoint& d : rows)
    d.id = designId(v, d.dataflow, options(1).constraints.elementBits);
  setIdBitsForTesting(64);
  std::map<std::string, std::vector<size_t>> byId; // fixed-width hex: text order is value order
  for (size_t i = 0; i < rows.size(); ++i)
    byId[rows[i].id].push_back(i);
  auto shared =
      std::find_if(byId.begin(), byId.end(), [](const auto& e) { return e.second.size() > 1; });
  ASSERT_NE(shared, byId.end());
  auto describe = [&](size_t i) {
    const dataflow::Dataflow& d = rows[i].dataflow;
    // Line 1 is the header, so design i is on line i + 2.
    return dataflow::toSpec(d, v) + " on " + std::to_string(d.p) + "x" + std::to_string(d.q) +
           ", line " + std::to_string(i + 2) + " of the CSV";
  };
  const std::string want = "internal: two designs share the ID " + shared->first + " (" +
                           describe(shared->second[0]) + ", and " + describe(shared->second[1]) +
                           "); please report this with the program and flags";
  test::TempDir t;
  {
    CsvFile csv(v, t / "all.csv");
    for (DesignPoint& d : rows) {
      d.pareto = false;
      csv.add(d);
    }
    try {
      csv.finish(full.points);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.diag().message, want);
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(t.path()));
}

TEST(ExploreStream, CsvAddRecordsAFailureInsteadOfThrowing) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  test::TempDir t;
  CsvFile csv(v, t / "x.csv");
  DesignPoint d;
  d.id = "not an id";
  EXPECT_NO_THROW(csv.add(d));
  EXPECT_THROW(csv.check(), std::logic_error);
  EXPECT_THROW(csv.finish({}), std::logic_error);
}

} // namespace
} // namespace rubick::dse
