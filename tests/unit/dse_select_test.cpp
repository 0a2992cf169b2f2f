// SPDX-License-Identifier: Apache-2.0
// Design IDs (complete, unique, stable) and design selection (one set of rules and errors for
// emit and verify; an ID found without searching).

#include "dataflow_test_util.h"

#include "rubick/dse/Select.h"
#include "rubick/support/Diagnostic.h"

#include <gtest/gtest.h>

#include <set>

namespace rubick::dse {
namespace {

const char* kGemm16 = "def gemm(int16(M,K) A, int16(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }";
const char* kGemmOut16 =
    "def gemm(int8(M,K) A, int8(K,N) B) -> (int16(M,N) C) { C(i,j) +=! A(i,k) * B(k,j) }";
// The same accesses and loops as GEMM, but another computation.
const char* kGemmPlus = "def gemm(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) + B(k,j) }";

ExploreOptions gemmOptions() {
  ExploreOptions o;
  o.constraints.arrays = {{4, 4}, {3, 5}};
  o.constraints.elementBits = {32, 8, 8};
  o.threads = 2;
  return o;
}

std::vector<int64_t> bitsOf(const dataflow::StatementView& v) {
  std::vector<int64_t> out;
  for (const dataflow::AccessView& a : v.accesses)
    out.push_back(a.elementBits);
  return out;
}

// Restores full-width IDs however the test ends.
struct NarrowIds {
  explicit NarrowIds(int bits) { setIdBitsForTesting(bits); }
  ~NarrowIds() { setIdBitsForTesting(64); }
};

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DesignId, CoversElementTypesDtypeAndStatement) {
  const std::vector<std::pair<std::string, int64_t>> sizes = {{"M", 4}, {"N", 4}, {"K", 4}};
  dataflow::StatementView v8 = dataflow::test::statement(dataflow::test::kGemm, sizes);
  dataflow::StatementView v16 = dataflow::test::statement(kGemm16, sizes);
  dataflow::StatementView out16 = dataflow::test::statement(kGemmOut16, sizes);
  dataflow::StatementView plus = dataflow::test::statement(kGemmPlus, sizes);
  dataflow::Dataflow d = dataflow::parseDataflowSpec("PE(i, j) | T(k)", v8, 4, 4);
  const std::string id8 = designId(v8, d, bitsOf(v8));
  // The program's types, as the program declares them.
  EXPECT_NE(id8, designId(v16, d, bitsOf(v16)));
  EXPECT_NE(id8, designId(out16, d, bitsOf(out16)));
  // --dtype int16 on the int8 program: same program, other stored widths.
  EXPECT_NE(id8, designId(v8, d, {32, 16, 16}));
  // Another computation with the same loops and accesses.
  EXPECT_NE(id8, designId(plus, d, bitsOf(plus)));
  // Sizes, array shape and dataflow.
  dataflow::StatementView big = dataflow::test::gemm(4, 4, 8);
  EXPECT_NE(id8,
            designId(big, dataflow::parseDataflowSpec("PE(i, j) | T(k)", big, 4, 4), bitsOf(big)));
  EXPECT_NE(id8,
            designId(v8, dataflow::parseDataflowSpec("PE(i, j) | T(k)", v8, 8, 8), bitsOf(v8)));
  EXPECT_NE(id8,
            designId(v8, dataflow::parseDataflowSpec("PE(j, i) | T(k)", v8, 4, 4), bitsOf(v8)));
  // Deterministic, 16 hex digits.
  EXPECT_EQ(id8, designId(v8, d, bitsOf(v8)));
  EXPECT_TRUE(looksLikeId(id8)) << id8;
  EXPECT_EQ(id8.size(), 16u);
}

TEST(DesignId, StableAcrossRunsAndThreadCounts) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreOptions o = gemmOptions();
  o.threads = 1;
  ExploreResult one = explore(v, o);
  o.threads = 4;
  ExploreResult four = explore(v, o);
  ExploreResult again = explore(v, o);
  ASSERT_EQ(one.points.size(), four.points.size());
  ASSERT_EQ(one.points.size(), again.points.size());
  std::set<std::string> ids;
  for (size_t i = 0; i < one.points.size(); ++i) {
    EXPECT_EQ(one.points[i].id, four.points[i].id);
    EXPECT_EQ(one.points[i].id, again.points[i].id);
    EXPECT_TRUE(ids.insert(one.points[i].id).second) << one.points[i].id;
  }
}

TEST(DesignId, CollisionIsDetected) {
  // With 8-bit hashes, thousands of designs must collide; the explorer must refuse them.
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  NarrowIds narrow(8);
  std::string e = errorOf([&] { explore(v, gemmOptions()); });
  EXPECT_NE(e.find("share the ID"), std::string::npos) << e;
}

TEST(DesignId, RequireUniqueIdsNamesBoth) {
  std::vector<std::string> ids = {"00000000000000a1", "00000000000000b2", "00000000000000a1"};
  std::string e = errorOf([&] {
    requireUniqueIds(
        ids.size(), [&](size_t i) -> const std::string& { return ids[i]; },
        [](size_t i) { return "design #" + std::to_string(i); }, "design");
  });
  EXPECT_NE(e.find("00000000000000a1"), std::string::npos) << e;
  EXPECT_NE(e.find("design #0"), std::string::npos) << e;
  EXPECT_NE(e.find("design #2"), std::string::npos) << e;
  ids.pop_back();
  EXPECT_EQ(errorOf([&] {
              requireUniqueIds(
                  ids.size(), [&](size_t i) -> const std::string& { return ids[i]; },
                  [](size_t) { return std::string(); }, "design");
            }),
            "(no error)");
}

void expectSameDesign(const DesignPoint& a, const DesignPoint& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.dataflow, b.dataflow);
  ASSERT_EQ(a.entries.size(), b.entries.size());
  for (size_t i = 0; i < a.entries.size(); ++i)
    EXPECT_EQ(a.entries[i].kind, b.entries[i].kind) << a.id;
  EXPECT_EQ(a.metrics.latency, b.metrics.latency);
  EXPECT_EQ(a.metrics.bufferBytes, b.metrics.bufferBytes);
  EXPECT_EQ(a.metrics.wires, b.metrics.wires);
  EXPECT_EQ(a.metrics.area, b.metrics.area);
  EXPECT_EQ(a.metrics.energy, b.metrics.energy);
  EXPECT_EQ(a.metrics.utilization, b.metrics.utilization);
}

TEST(FindDesign, EveryExploredDesignByItsId) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreOptions o = gemmOptions();
  ExploreResult r = explore(v, o);
  ASSERT_GT(r.points.size(), 100u);
  std::set<std::string> ids;
  for (const DesignPoint& d : r.points)
    ids.insert(d.id);
  std::map<std::string, DesignPoint> found = findDesigns(v, o, ids);
  EXPECT_EQ(found.size(), r.points.size());
  for (const DesignPoint& d : r.points) {
    auto f = found.find(d.id);
    ASSERT_NE(f, found.end()) << d.id;
    expectSameDesign(f->second, d);
  }
  // One at a time, as emit and verify look them up.
  for (size_t i = 0; i < r.points.size(); i += r.points.size() / 5) {
    std::optional<DesignPoint> f = findDesign(v, o, r.points[i].id);
    ASSERT_TRUE(f) << r.points[i].id;
    expectSameDesign(*f, r.points[i]);
  }
  EXPECT_FALSE(findDesign(v, o, "0123456789abcdef"));
  EXPECT_FALSE(findDesign(v, o, ""));
}

TEST(FindDesign, NothingTheConstraintsRemove) {
  // A design is found iff explore lists it: what each constraint removes is not found.
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreResult everything = explore(v, gemmOptions());
  for (int variant = 0; variant < 4; ++variant) {
    ExploreOptions o = gemmOptions();
    if (variant == 0) o.constraints.maxFanout = 4;
    if (variant == 1) o.constraints.maxPorts = 5;
    if (variant == 2) o.constraints.bufferBytes = 400;
    if (variant == 3)
      o.constraints.entries = {ir::EntryKind::XSystolic, ir::EntryKind::YSystolic,
                               ir::EntryKind::Stationary};
    ExploreResult allowed = explore(v, o);
    std::set<std::string> ids, all;
    for (const DesignPoint& d : allowed.points)
      ids.insert(d.id);
    for (const DesignPoint& d : everything.points)
      all.insert(d.id);
    ASSERT_LT(ids.size(), all.size()) << variant;
    std::map<std::string, DesignPoint> found = findDesigns(v, o, all);
    EXPECT_EQ(found.size(), ids.size()) << variant;
    for (const DesignPoint& d : everything.points)
      EXPECT_EQ(found.count(d.id), ids.count(d.id)) << variant << " " << d.id;
  }
}

TEST(Select, ErrorsBeforeAnySearch) {
  dataflow::StatementView v = dataflow::test::gemm(4, 4, 4);
  ExploreOptions o = gemmOptions();
  auto err = [&](Selection s) { return errorOf([&] { selectDesigns(v, o, s, "emit"); }); };
  Selection s;
  s.point = "";
  EXPECT_NE(err(s).find("empty"), std::string::npos) << err(s);
  s.point = "047b034bce";
  EXPECT_NE(err(s).find("older"), std::string::npos) << err(s);
  s.point = "0123456789abcdef";
  EXPECT_NE(err(s).find("no design 0123456789abcdef"), std::string::npos) << err(s);
  s.entries = "C=stationary";
  EXPECT_NE(err(s).find("not both"), std::string::npos) << err(s);
  s = {};
  s.entries = "Z=stationary";
  EXPECT_NE(err(s).find("tensors: C, A, B"), std::string::npos) << err(s);
  s.entries = "A=sideways";
  EXPECT_NE(err(s).find("X-systolic"), std::string::npos) << err(s);
  s.entries = "A=stationary,A=X-systolic";
  EXPECT_NE(err(s).find("twice"), std::string::npos) << err(s);
  s = {};
  s.layouts = "A=sideways";
  EXPECT_NE(err(s).find("transpose+skew"), std::string::npos) << err(s);
  s = {};
  s.cover = "roles";
  EXPECT_NE(err(s).find("--all"), std::string::npos) << err(s);
  s.all = true;
  s.limit = 0;
  EXPECT_NE(err(s).find("at least 1"), std::string::npos) << err(s);
  s.limit = -2;
  EXPECT_NE(err(s).find("found -2"), std::string::npos) << err(s);
  s.limit.reset();
  s.skip = -1;
  EXPECT_NE(err(s).find("found -1"), std::string::npos) << err(s);
}

TEST(Select, FiltersWindowsAndCover) {
  dataflow::StatementView v = dataflow::test::gemm(4, 4, 4);
  ExploreOptions o = gemmOptions();
  ExploreResult r = explore(v, o);
  Selection s;
  EXPECT_EQ(selectDesigns(v, o, s, "emit").front().id, r.points.front().id);
  s.entries = "C=stationary";
  size_t selected = 0;
  std::vector<DesignPoint> best = selectDesigns(v, o, s, "emit", &selected);
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(selected, 1u);
  EXPECT_EQ(best[0].entries[0].kind, ir::EntryKind::Stationary);
  // The best such design is the first in the ranking that has the entry.
  for (const DesignPoint& d : r.points)
    if (d.entries[0].kind == ir::EntryKind::Stationary) {
      EXPECT_EQ(best[0].id, d.id);
      break;
    }
  s.all = true;
  size_t stationary = 0;
  for (const DesignPoint& d : r.points)
    stationary += d.entries[0].kind == ir::EntryKind::Stationary;
  std::vector<DesignPoint> every = selectDesigns(v, o, s, "verify", &selected);
  EXPECT_EQ(every.size(), stationary);
  s.skip = 2;
  s.limit = 3;
  std::vector<DesignPoint> window = selectDesigns(v, o, s, "verify", &selected);
  EXPECT_EQ(selected, stationary);
  ASSERT_EQ(window.size(), 3u);
  EXPECT_EQ(window[0].id, every[2].id);
  s.skip = int64_t(stationary);
  EXPECT_NE(errorOf([&] { selectDesigns(v, o, s, "verify"); }).find("skips all"),
            std::string::npos);
  // --cover roles: one design per (role, entry) seen among all designs.
  Selection cover;
  cover.all = true;
  cover.cover = "roles";
  std::set<std::pair<size_t, ir::EntryKind>> roles;
  for (const DesignPoint& d : r.points)
    for (size_t a = 0; a < d.entries.size(); ++a)
      roles.insert({a, d.entries[a].kind});
  std::set<std::pair<size_t, ir::EntryKind>> covered;
  for (const DesignPoint& d : selectDesigns(v, o, cover, "verify"))
    for (size_t a = 0; a < d.entries.size(); ++a)
      covered.insert({a, d.entries[a].kind});
  EXPECT_EQ(covered, roles);
}

// The best design that can be built: the first in rank order that passes the check, the ones
// before it named with their reasons, and at most kBuildTries checked.
TEST(Select, TakesTheFirstDesignThatPassesTheBuildCheck) {
  dataflow::StatementView v = dataflow::test::gemm(4, 4, 4);
  ExploreOptions o = gemmOptions();
  ExploreResult r = explore(v, o);
  ASSERT_GT(r.points.size(), 3u);
  const std::string third = r.points[2].id;
  BuildCheck onlyThird = [&](const DesignPoint& d) {
    return d.id == third ? std::string() : "not the third";
  };
  std::vector<std::string> passed;
  std::vector<DesignPoint> best =
      selectDesigns(v, o, Selection{}, "emit", nullptr, onlyThird, &passed);
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(best[0].id, third);
  ASSERT_EQ(passed.size(), 2u);
  EXPECT_EQ(passed[1], "rank 2 (" + r.points[1].id + ") cannot be built: not the third");
  // Ranks may skip (filtered by --entries): the reported rank is the design's own.
  BuildChoice c = firstBuildable(r.points, {1, 2, 3}, onlyThird);
  ASSERT_TRUE(c.rank.has_value());
  EXPECT_EQ(*c.rank, 2u);
  EXPECT_EQ(c.checked, 2u);
  EXPECT_EQ(c.first, "not the third");
  // None passes: the first problem is the error, with how many more were checked.
  BuildCheck none = [](const DesignPoint&) { return std::string("no map"); };
  const std::string e = errorOf([&] { selectDesigns(v, o, Selection{}, "emit", nullptr, none); });
  const size_t tried = std::min(r.points.size(), kBuildTries);
  EXPECT_NE(e.find("no map (as have the next " + std::to_string(tried - 1) + " designs"),
            std::string::npos)
      << e;
  std::vector<size_t> all(r.points.size());
  for (size_t k = 0; k < all.size(); ++k)
    all[k] = k;
  EXPECT_EQ(firstBuildable(r.points, all, none).checked, tried);
}

} // namespace
} // namespace rubick::dse
