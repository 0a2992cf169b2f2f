// SPDX-License-Identifier: Apache-2.0
// --dataflow: a design built from its written dataflow with no search must be the design explore
// lists under the same ID (same entries, same metrics), and is refused exactly when explore's
// constraints would drop it.

#include "dataflow_test_util.h"

#include "rubick/dataflow/DataflowSpec.h"
#include "rubick/dse/Select.h"
#include "rubick/support/Diagnostic.h"

#include <gtest/gtest.h>

#include <set>

namespace rubick::dse {
namespace {

ExploreOptions gemmOptions() {
  ExploreOptions o;
  o.constraints.arrays = {{4, 4}, {3, 5}};
  o.constraints.elementBits = {32, 8, 8};
  o.threads = 2;
  return o;
}

// "origin: message", or "(no error)".
std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.origin() + ": " + e.what();
  }
  return "(no error)";
}

// The design --dataflow builds from explore's written form of `d`, on `d`'s array (--array).
DesignPoint rebuilt(const dataflow::StatementView& v, ExploreOptions o, const DesignPoint& d) {
  o.constraints.arrays = {{d.dataflow.p, d.dataflow.q}};
  Selection s;
  s.dataflow = dataflow::toSpec(d.dataflow, v);
  std::vector<DesignPoint> got = selectDesigns(v, o, s, "emit");
  EXPECT_EQ(got.size(), 1u);
  return got.front();
}

TEST(BuildDesign, EveryExploredDesignFromItsDataflow) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  const ExploreOptions o = gemmOptions();
  ExploreResult r = explore(v, o);
  ASSERT_GT(r.points.size(), 100u);
  for (const DesignPoint& d : r.points) {
    DesignPoint b = rebuilt(v, o, d);
    EXPECT_EQ(b.id, d.id) << dataflow::toSpec(d.dataflow, v);
    EXPECT_EQ(b.dataflow, d.dataflow) << d.id;
    EXPECT_EQ(b.entries, d.entries) << d.id; // kinds and orientation
    EXPECT_EQ(b.metrics.latency, d.metrics.latency) << d.id;
    EXPECT_EQ(b.metrics.bufferBytes, d.metrics.bufferBytes) << d.id;
    EXPECT_EQ(b.metrics.wires, d.metrics.wires) << d.id;
    EXPECT_EQ(b.metrics.area, d.metrics.area) << d.id;
    EXPECT_EQ(b.metrics.energy, d.metrics.energy) << d.id;
    EXPECT_EQ(b.metrics.utilization, d.metrics.utilization) << d.id;
  }
}

TEST(BuildDesign, RefusedExactlyWhenTheConstraintsRemoveIt) {
  // Explore under each constraint is the reference: a design it no longer lists is refused,
  // naming the constraint's flag; one it lists is built.
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreResult everything = explore(v, gemmOptions());
  const char* flags[] = {"--max-fanout", "--max-ports", "--buffer-kib", "--entries"};
  for (int variant = 0; variant < 4; ++variant) {
    ExploreOptions o = gemmOptions();
    if (variant == 0) o.constraints.maxFanout = 4;
    if (variant == 1) o.constraints.maxPorts = 5;
    if (variant == 2) o.constraints.bufferBytes = 400;
    if (variant == 3)
      o.constraints.entries = {ir::EntryKind::XSystolic, ir::EntryKind::YSystolic,
                               ir::EntryKind::Stationary};
    std::set<std::string> allowed;
    for (const DesignPoint& d : explore(v, o).points)
      allowed.insert(d.id);
    ASSERT_LT(allowed.size(), everything.points.size()) << variant;
    size_t refused = 0;
    for (const DesignPoint& d : everything.points) {
      std::string e = errorOf([&] { rebuilt(v, o, d); });
      if (allowed.count(d.id)) {
        EXPECT_EQ(e, "(no error)") << variant << " " << d.id;
      } else {
        ++refused;
        EXPECT_NE(e.find(flags[variant]), std::string::npos) << e;
        EXPECT_EQ(e.rfind("--dataflow: ", 0), 0u) << e;
      }
    }
    EXPECT_EQ(refused, everything.points.size() - allowed.size()) << variant;
  }
}

TEST(BuildDesign, NamesTheTensorNoEntryRealises) {
  // |det S| = 2: the dataflow is legal but C's layout is not integral (dump --ir
  // shows the same).
  dataflow::StatementView v = dataflow::test::gemm(4, 4, 4);
  ExploreOptions o = gemmOptions();
  o.constraints.arrays = {{7, 7}};
  Selection s;
  s.dataflow = "PE(i + j, j + k) | T(i + k)";
  std::string e = errorOf([&] { selectDesigns(v, o, s, "emit"); });
  EXPECT_NE(e.find("no access entry realises C"), std::string::npos) << e;
  EXPECT_NE(e.find("not integral"), std::string::npos) << e;
}

TEST(BuildDesign, SelectorRules) {
  dataflow::StatementView v = dataflow::test::gemm(4, 4, 4);
  ExploreOptions o = gemmOptions();
  auto err = [&](const Selection& s) { return errorOf([&] { selectDesigns(v, o, s, "emit"); }); };
  Selection s;
  s.dataflow = "PE(i, j) | T(k)";
  // explore's arrays: --array-range gives several, and the dataflow needs one.
  EXPECT_NE(err(s).find("give the one explore listed with --array"), std::string::npos) << err(s);
  o.constraints.arrays = {{4, 4}};
  EXPECT_EQ(selectDesigns(v, o, s, "emit").front().id,
            designId(v, dataflow::parseDataflowSpec("PE(i, j) | T(k)", v, 4, 4), {32, 8, 8}));
  // The spec parser's own errors, with the origin the text came from.
  s.dataflowOrigin = "df.txt";
  s.dataflow = "PE(i, q) | T(k)";
  EXPECT_NE(err(s).find("df.txt: column 7: 'q' is not a loop"), std::string::npos) << err(s);
  s.dataflowOrigin = "--dataflow";
  s.dataflow = "PE(i, j) | T(k)";
  s.point = "0123456789abcdef";
  EXPECT_EQ(err(s), "--dataflow: give either --dataflow or --point, not both");
  s.point.reset();
  s.entries = "C=stationary";
  EXPECT_NE(err(s).find("--dataflow: give either --dataflow or --entries/--layout"),
            std::string::npos);
  s.entries.clear();
  s.all = true;
  EXPECT_EQ(err(s), "--dataflow: give either --dataflow or --all, not both");
  // --pipeline is for attention pipelines, and names everything on its own.
  Selection p;
  p.pipeline = "block=4,lanes=1,gemm1=0123456789abcdef,gemm2=0123456789abcdef";
  EXPECT_NE(err(p).find("--pipeline: --pipeline names an attention pipeline"), std::string::npos)
      << err(p);
  p.point = "0123456789abcdef";
  EXPECT_EQ(err(p), "--pipeline: give either --pipeline or --point, not both");
  p.point.reset();
  p.limit = 2;
  EXPECT_NE(err(p).find("do not apply"), std::string::npos) << err(p);
}

} // namespace
} // namespace rubick::dse
