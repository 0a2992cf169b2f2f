// SPDX-License-Identifier: Apache-2.0
// The DMA maps reproduce the host map exactly: every element of every tensor of every design
// of a sweep, expanded from the map's groups, lands in exactly the places the host map gives.

#include "dataflow_test_util.h"
#include "dma_test_util.h"

#include "rubick/arch/DmaMap.h"
#include "rubick/arch/HostMap.h"
#include "rubick/arch/Plan.h"
#include "rubick/dse/Explore.h"
#include "rubick/frontend/Sema.h"

#include <gtest/gtest.h>

#include <map>

namespace rubick::arch {
namespace {

using dataflow::test::program;

struct Stats {
  std::map<std::string, std::map<int64_t, int>> lanes; // entry kind -> lanes -> count
  std::map<std::string, int64_t> phases;               // entry kind -> most phases
  int maps = 0, failed = 0;
};

void sweep(const tc::Program& prog, std::vector<dse::ArrayShape> arrays, Stats& s) {
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = std::move(arrays);
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.write ? 32 : 8);
  dse::ExploreResult r = dse::explore(v, o);
  ASSERT_GT(r.points.size(), 0u);
  for (const dse::DesignPoint& pt : r.points) {
    Plan plan = makePlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, "d");
    std::vector<TensorMap> maps = hostMap(prog, v, pt.dataflow, plan);
    for (size_t t = 0; t < maps.size(); ++t) {
      const TensorPlan& tp = plan.tensors[t];
      std::string why;
      std::optional<DmaMap> d = deriveDmaMap(maps[t], static_cast<int64_t>(tp.ports.size()), why);
      ++s.maps;
      const std::string what = pt.id + " " + tp.name + " " + toString(tp.entry);
      if (!d) {
        ++s.failed;
        ADD_FAILURE() << what << ": " << why;
        continue;
      }
      test::expectReproduces(*d, maps[t], what);
      // Small tables: a phase per array row or column at most; and a tensor with several
      // banks is written at least two elements a cycle.
      EXPECT_LE(d->rowPeriod * d->colPeriod, std::max(plan.p, plan.q)) << what;
      if (tp.ports.size() > 1) {
        EXPECT_GE(d->lanes * d->copies, 2) << what;
      }
      const std::string kind = (tp.output ? "out " : "in ") + toString(tp.entry);
      s.lanes[kind][d->lanes * d->copies]++;
      s.phases[kind] = std::max(s.phases[kind], d->rowPeriod * d->colPeriod);
    }
  }
}

void print(const Stats& s) {
  for (auto& [k, m] : s.lanes) {
    std::string line = k + " (phases <= " + std::to_string(s.phases.at(k)) + "):";
    for (auto& [l, n] : m)
      line += " " + std::to_string(l) + "x" + std::to_string(n);
    std::printf("%s\n", line.c_str());
  }
}

TEST(DmaMap, GemmSweepsReproduceTheHostMap) {
  Stats s;
  sweep(program(dataflow::test::kGemm, {{"M", 16}, {"N", 16}, {"K", 16}}), {{4, 4}}, s);
  sweep(program(dataflow::test::kGemm, {{"M", 6}, {"N", 5}, {"K", 7}}), {{4, 4}, {3, 2}}, s);
  print(s);
  EXPECT_EQ(s.failed, 0);
}

TEST(DmaMap, GemvSweepReproducesTheHostMap) {
  Stats s;
  sweep(program(dataflow::test::kGemv, {{"M", 12}, {"N", 16}}), {{4, 4}}, s);
  print(s);
  EXPECT_EQ(s.failed, 0);
}

TEST(DmaMap, WindowEdgesHaveFewerCopies) {
  // A row of 6 elements read by a window of 2 over 5 PEs: PE p holds elements p (address 0)
  // and p + 1 (address 1) in bank p. Elements 1..4 have two places, 0 and 5 one: written two
  // a cycle (column lanes 1, copies 2, the edge cells no place), or more lanes where the banks
  // allow, never writing a place an element does not have.
  TensorMap m;
  m.shape = {1, 6};
  m.elements.resize(6);
  for (int x = 0; x < 6; ++x) {
    if (x >= 1) m.elements[size_t(x)].push_back({x - 1, 1});
    if (x <= 4) m.elements[size_t(x)].push_back({x, 0});
    std::sort(m.elements[size_t(x)].begin(), m.elements[size_t(x)].end());
  }
  std::string why;
  std::optional<DmaMap> d = deriveDmaMap(m, 5, why);
  ASSERT_TRUE(d) << why;
  EXPECT_EQ(d->copies, 2);
  test::expectReproduces(*d, m, "window");
}

TEST(DmaMap, ConvolutionSweepReproducesTheHostMap) {
  // Every design of a small convolution on 4x4: every map found reproduces its host map (the
  // input read by windows has fewer places at their edges). The output and the weights always
  // have maps; the input has none exactly where a bank holds one element at several addresses
  // (read at several times), which one write a cycle per bank cannot fill (measured: about 4 in
  // 5 designs): such designs are passed over when a memory design is built.
  tc::Program conv =
      program(dataflow::test::kConv,
              {{"N", 1}, {"C", 2}, {"H", 4}, {"W", 4}, {"F", 2}, {"R", 2}, {"S", 2}});
  dataflow::StatementView v = dataflow::viewStatement(conv, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = {{4, 4}};
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.write ? 32 : 8);
  dse::ExploreResult r = dse::explore(v, o);
  std::map<std::string, std::pair<int, int>> maps; // tensor -> found, all
  for (const dse::DesignPoint& pt : r.points) {
    Plan plan = makePlan(conv, v, pt.dataflow, pt.entries, o.constraints.elementBits, "d");
    std::vector<TensorMap> hm = hostMap(conv, v, pt.dataflow, plan);
    for (size_t t = 0; t < hm.size(); ++t) {
      const std::string& name = plan.tensors[t].name;
      std::string why;
      std::optional<DmaMap> d =
          deriveDmaMap(hm[t], static_cast<int64_t>(plan.tensors[t].ports.size()), why);
      ++maps[name].second;
      if (name != "I") {
        EXPECT_TRUE(d) << pt.id << " " << name << ": " << why;
      }
      if (!d) {
        EXPECT_NE(why.find("several places in bank"), std::string::npos) << why;
      }
      if (!d) continue;
      ++maps[name].first;
      test::expectReproduces(*d, hm[t], pt.id + " " + name);
    }
  }
  for (auto& [name, n] : maps)
    std::printf("%s: %d of %d maps\n", name.c_str(), n.first, n.second);
  EXPECT_GT(maps["I"].first, 0);
}

} // namespace
} // namespace rubick::arch
