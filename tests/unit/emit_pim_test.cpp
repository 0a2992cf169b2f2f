// SPDX-License-Identifier: Apache-2.0
// What the PIM hardware builds (emit/Pim.h, pimBuildProblem) and what it refuses, with the
// reason: units with a DMA, spreads that do not divide a loop no tensor is indexed by alone,
// and an output in the banks whose partial sums meet again across tiles (they would be read
// back from the banks).

#include "dataflow_test_util.h"

#include "rubick/dse/Pim.h"
#include "rubick/dse/Schedule.h"
#include "rubick/emit/Pim.h"

#include <gtest/gtest.h>

namespace rubick::emit {
namespace {

dse::PimSystem twoUnits() {
  dse::PimSystem s;
  s.units = 2;
  s.banksPerUnit = 2;
  s.access = dse::PimAccess::stream;
  s.arrays = {{2, 2}};
  s.bufferBytes = 16; // C never fits: it goes to the banks
  s.bank = {8, 32, 1, 1, 3, 1};
  s.hostBytesPerCycle = 8;
  s.clockMhz = 100;
  return s;
}

dse::ExploreOptions options() {
  dse::ExploreOptions o;
  o.constraints.elementBits = {32, 8, 8};
  return o;
}

TEST(PimBuild, BuildsRankOneAndRefusesWithAReason) {
  const dataflow::StatementView v = dataflow::test::gemm(8, 6, 4);
  const dse::PimSystem s = twoUnits();
  const dse::PimExploreResult r = dse::explorePim(v, s, options());
  ASSERT_FALSE(r.designs.empty());
  const dse::PimDesign& best = r.designs.front();
  ASSERT_EQ(best.placement[0], dse::PimPlacement::banks);
  EXPECT_EQ(pimBuildProblem(v, best, s, options()), "");

  // On units with a DMA (each the same memory design on its block) a spread must divide its
  // loop: j (6) over 4 units does not.
  dse::PimSystem dma = s;
  dma.access = dse::PimAccess::dma;
  dse::PimDesign split = best;
  split.spread = {1, 4, 1};
  EXPECT_NE(pimBuildProblem(v, split, dma, options()).find("with a DMA, which need it to divide"),
            std::string::npos);
  split.spread = {2, 2, 1};
  EXPECT_EQ(pimBuildProblem(v, split, dma, options()), "");

  // A spread of j (6) over 4 units: the last unit's j = 6, 7 reach no element of C (indexed by
  // j alone over 6), so it computes nothing anywhere: built. Without such a tensor (here: C
  // and B said to be wider than the loop), those iterations would reach elements: refused.
  dse::PimDesign uneven = best;
  uneven.spread = {1, 4, 1};
  EXPECT_EQ(pimBuildProblem(v, uneven, s, options()), "");
  dataflow::StatementView wide = v;
  for (dataflow::AccessView& a : wide.accesses)
    for (size_t r = 0; r < a.coeffs.size(); ++r)
      if (a.coeffs[r][1] == 1) a.shape[r] = 8;
  EXPECT_NE(pimBuildProblem(wide, uneven, s, options()).find("no tensor is indexed by it alone"),
            std::string::npos);

  // A unit design whose C recurs across tiles, with C in the banks.
  dse::ExploreOptions uo = options();
  uo.constraints.arrays = s.arrays;
  size_t recurring = 0;
  for (const dse::DesignPoint& p : dse::explore(best.share, uo).points) {
    if (!dse::schedule(best.share, p.dataflow, p.entries).tensors[0].recurs) continue;
    dse::PimDesign d = best;
    d.unit = p;
    EXPECT_NE(pimBuildProblem(v, d, s, options()).find("meet again across tiles"),
              std::string::npos)
        << p.id;
    ++recurring;
  }
  EXPECT_GT(recurring, 0u);
}

TEST(PimBuild, ExploreRanksByTheReplayedRun) {
  // With pimExact, every built design's units' run is the replay packagePim predicts (and
  // verify holds the hardware to); the closed form stays beside it; the ranking is by it.
  const tc::Program prog =
      dataflow::test::program(dataflow::test::kGemm, {{"M", 8}, {"N", 6}, {"K", 4}});
  const dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  const dse::PimSystem s = twoUnits();
  const dse::PimExploreResult r = dse::explorePim(v, s, options(), pimExact(prog, v, s, options()));
  ASSERT_FALSE(r.designs.empty());
  for (size_t i = 0; i < r.designs.size(); ++i) {
    const dse::PimDesign& d = r.designs[i];
    SCOPED_TRACE(d.id);
    EXPECT_TRUE(d.exact);
    const PimPackage p = packagePim(prog, v, d, s, options(), "t");
    EXPECT_EQ(d.unitCycles, p.predictedCycles);
    EXPECT_EQ(d.modelUnitCycles, p.explorerCycles);
    EXPECT_EQ(d.cycles, d.hostInCycles + d.unitCycles + d.hostOutCycles);
    if (i > 0) {
      EXPECT_LE(r.designs[i - 1].cycles, d.cycles);
    }
  }
  // Without the hook the closed form is all there is.
  for (const dse::PimDesign& d : dse::explorePim(v, s, options()).designs) {
    EXPECT_FALSE(d.exact);
    EXPECT_EQ(d.unitCycles, d.modelUnitCycles);
  }
}

} // namespace
} // namespace rubick::emit
