// SPDX-License-Identifier: Apache-2.0
// The reads a core makes of its input banks and the writes of its output banks
// (arch/CoreReads.h), the order a PIM stream unit lays its words in: as many as the PIM explorer's
// closed form counts (and, without overlapped tiles, the cost model), each inside its bank, every
// element's place among them, for every design of small sweeps.

#include "dataflow_test_util.h"

#include "rubick/arch/CoreReads.h"
#include "rubick/arch/HostMap.h"
#include "rubick/arch/Plan.h"
#include "rubick/dse/Explore.h"
#include "rubick/dse/Pim.h"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

namespace rubick::arch {
namespace {

using dataflow::test::program;

size_t checkSweep(const tc::Program& prog, std::vector<dse::ArrayShape> arrays) {
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = std::move(arrays);
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.write ? 32 : 8);
  dse::ExploreResult r = dse::explore(v, o);
  size_t overlapped = 0, nonRecurring = 0;
  for (const dse::DesignPoint& pt : r.points) {
    Plan plan = makePlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, "d");
    overlapped += plan.schedule.interval < plan.schedule.tileCycles;
    std::vector<TensorMap> maps = hostMap(prog, v, pt.dataflow, plan);
    std::vector<int> inputs;
    for (size_t t = 0; t < plan.tensors.size(); ++t) {
      const TensorPlan& tp = plan.tensors[t];
      if (tp.output) continue;
      inputs.push_back(static_cast<int>(t));
      const CoreReads cr = coreReads(plan, {static_cast<int>(t)});
      // The closed form the PIM explorer charges; without overlap also the cost model's count.
      EXPECT_EQ(static_cast<int64_t>(cr.reads.size()), dse::bankReads(v, pt, t))
          << pt.id << " " << tp.name;
      if (plan.schedule.interval == plan.schedule.tileCycles) {
        EXPECT_EQ(static_cast<int64_t>(cr.reads.size()), pt.metrics.tensors[t].accesses)
            << pt.id << " " << tp.name;
      }
      EXPECT_EQ(std::accumulate(cr.perCycle.begin(), cr.perCycle.end(), size_t(0)),
                cr.reads.size());
      std::set<std::pair<int, int64_t>> read;
      for (const BankRead& b : cr.reads) {
        EXPECT_EQ(b.tensor, static_cast<int>(t));
        EXPECT_GE(b.bank, 0);
        EXPECT_LT(b.bank, static_cast<int>(tp.ports.size()));
        EXPECT_GE(b.address, 0);
        EXPECT_LT(b.address, tp.depth) << pt.id << " " << tp.name;
        read.insert({b.bank, b.address});
      }
      for (const std::vector<Location>& places : maps[t].elements)
        for (const Location& l : places)
          EXPECT_TRUE(read.count({l.bank, l.address}))
              << pt.id << " " << tp.name << " bank " << l.bank << " address " << l.address;
    }
    // An output whose partial sums do not recur: each bank address written once, every
    // element's place among them, as many writes as the explorer counts.
    for (size_t t = 0; t < plan.tensors.size(); ++t) {
      const TensorPlan& tp = plan.tensors[t];
      if (!tp.output) continue;
      if (tp.recurs) {
        EXPECT_THROW(coreWrites(plan, static_cast<int>(t)), std::logic_error);
        continue;
      }
      ++nonRecurring;
      const CoreReads cw = coreWrites(plan, static_cast<int>(t));
      EXPECT_EQ(static_cast<int64_t>(cw.reads.size()), dse::bankReads(v, pt, t)) << pt.id;
      std::set<std::pair<int, int64_t>> written;
      for (const BankRead& b : cw.reads)
        EXPECT_TRUE(written.insert({b.bank, b.address}).second)
            << pt.id << " writes bank " << b.bank << " address " << b.address << " twice";
      for (const std::vector<Location>& places : maps[t].elements)
        for (const Location& l : places)
          EXPECT_TRUE(written.count({l.bank, l.address})) << pt.id << " " << tp.name;
    }
    // All inputs together: each cycle's reads are those of the tensors one by one.
    const CoreReads all = coreReads(plan, inputs);
    size_t total = 0;
    for (int t : inputs)
      total += coreReads(plan, {t}).reads.size();
    EXPECT_EQ(all.reads.size(), total);
  }
  EXPECT_GT(nonRecurring, 0u);
  return overlapped;
}

TEST(CoreReads, GemmSweepMatchesTheCostModel) {
  const size_t overlapped =
      checkSweep(program(dataflow::test::kGemm, {{"M", 6}, {"N", 5}, {"K", 7}}), {{4, 4}, {2, 3}});
  EXPECT_GT(overlapped, 0u); // both kinds of schedule are covered
}

TEST(CoreReads, GemvSweepMatchesTheCostModel) {
  checkSweep(program(dataflow::test::kGemv, {{"M", 9}, {"N", 7}}), {{1, 4}, {2, 2}, {3, 3}});
}

TEST(CoreReads, OutputsAreRefused) {
  const tc::Program prog = program(dataflow::test::kGemv, {{"M", 4}, {"N", 4}});
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = {{2, 2}};
  o.constraints.elementBits = {32, 8, 8};
  dse::ExploreResult r = dse::explore(v, o);
  ASSERT_FALSE(r.points.empty());
  const dse::DesignPoint& pt = r.points.front();
  Plan plan = makePlan(prog, v, pt.dataflow, pt.entries, {32, 8, 8}, "d");
  EXPECT_THROW(coreReads(plan, {0}), std::logic_error);
}

} // namespace
} // namespace rubick::arch
