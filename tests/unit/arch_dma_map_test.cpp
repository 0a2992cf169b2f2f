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

} // namespace
} // namespace rubick::arch
