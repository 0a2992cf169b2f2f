// SPDX-License-Identifier: Apache-2.0
// The closed form of a systolic output's chain end (Schedule.h: chainEndMax) against the walk
// over every point of the tile that it replaced, on every dataflow the brute-force explorer
// finds for several statements and array shapes, with every tiling it costs, and with the
// output's entry turned into each systolic kind in all four mirrorings.

#include "dataflow_test_util.h"

#include "rubick/dse/Explore.h"
#include "rubick/dse/Schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

namespace rubick::dse {
namespace {

using ir::EntryKind;

// Largest te + (last PE of the chain along the flow) over every point (x, y, t1) of the tile,
// in the entry's mirrored frame; te comes from Omega's port-time row.
int64_t chainEndByWalk(const dataflow::Dataflow& d, const ir::OrientedEntry& e) {
  const ir::Vec3& f = ir::info(e.kind).omega[2];
  int64_t best = INT64_MIN;
  IntVec off = d.offset();
  std::vector<int64_t> u(d.k(), 0);
  while (true) {
    int64_t pt[3];
    for (int r = 0; r < 3; ++r) {
      pt[r] = off[r];
      for (size_t c = 0; c < d.k(); ++c)
        pt[r] += d.s[r][c] * u[c];
    }
    int64_t x = e.mirrorX ? d.p - 1 - pt[0] : pt[0];
    int64_t y = e.mirrorY ? d.q - 1 - pt[1] : pt[1];
    int64_t te = f[0] * x + f[1] * y + f[2] * pt[2];
    int64_t end = 0;
    switch (e.kind) {
    case EntryKind::XSystolic:
    case EntryKind::XSystolicYMulticast:
      end = d.p - 1;
      break;
    case EntryKind::YSystolic:
    case EntryKind::YSystolicXMulticast:
      end = d.q - 1;
      break;
    default:
      end = x + std::min(d.p - 1 - x, d.q - 1 - y); // along (1, 1) to the array edge
    }
    best = std::max(best, te + end);
    size_t c = 0;
    while (c < u.size() && ++u[c] == d.inner[c].factor)
      u[c++] = 0;
    if (c == u.size()) break;
  }
  return best;
}

struct Case {
  dataflow::StatementView v;
  std::vector<ArrayShape> arrays;
};

TEST(Schedule, ChainEndClosedFormMatchesWalk) {
  using dataflow::test::statement;
  std::vector<Case> cases = {
      {dataflow::test::gemm(6, 5, 7), {{4, 4}, {3, 5}, {7, 2}}},
      {dataflow::test::gemm(9, 3, 4), {{5, 5}, {2, 6}}},
      {statement(dataflow::test::kGemv, {{"M", 7}, {"N", 5}}), {{4, 3}}},
      {statement(dataflow::test::kBmm, {{"NB", 2}, {"M", 5}, {"N", 3}, {"K", 4}}), {{4, 4}}},
      {statement(dataflow::test::kMttkrp, {{"I", 3}, {"J", 4}, {"K", 5}, {"L", 2}}), {{3, 4}}},
  };
  const EntryKind kinds[] = {EntryKind::XSystolic, EntryKind::YSystolic, EntryKind::DiagSystolic,
                             EntryKind::XSystolicYMulticast, EntryKind::YSystolicXMulticast};
  size_t compared = 0, diagonal = 0, mirroredDiagonal = 0;
  for (const Case& c : cases) {
    ExploreOptions o;
    o.constraints.arrays = c.arrays;
    o.constraints.elementBits.assign(c.v.accesses.size(), 8);
    o.threads = 1;
    for (const DesignPoint& pt : explore(c.v, o).points) { // every design (keepBest 0)
      const ir::OrientedEntry& found = pt.entries[0];
      diagonal += found.kind == EntryKind::DiagSystolic;
      mirroredDiagonal += found.kind == EntryKind::DiagSystolic && (found.mirrorX || found.mirrorY);
      for (EntryKind k : kinds)
        for (int m = 0; m < 4; ++m) {
          ir::OrientedEntry e = found;
          e.kind = k;
          e.mirrorX = m & 1;
          e.mirrorY = m & 2;
          ASSERT_EQ(chainEndMax(pt.dataflow, e), chainEndByWalk(pt.dataflow, e))
              << pt.id << " " << ir::toString(e);
          ++compared;
        }
    }
  }
  // The comparison covered real diagonal outputs, mirrored ones among them.
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(diagonal, 0u);
  EXPECT_GT(mirroredDiagonal, 0u);
}

} // namespace
} // namespace rubick::dse

namespace rubick::dse {
namespace {

// `+=` (StatementView::accumulates): every design's output recurs, so its first visit reads the
// bank (the start values) and the tile's timing takes that read; the same design of `+=!`
// recurs only along outer dimensions that do not move the output.
TEST(Schedule, AccumulatingOutputsAlwaysRecur) {
  dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
  ExploreOptions o;
  o.constraints.arrays = {{4, 4}};
  o.constraints.elementBits = {32, 8, 8};
  o.threads = 1;
  const ExploreResult r = explore(v, o);
  ASSERT_FALSE(r.points.empty());
  dataflow::StatementView acc = v;
  acc.accumulates = true;
  size_t plainRecurring = 0;
  for (const DesignPoint& p : r.points) {
    const Schedule plain = schedule(v, p.dataflow, p.entries);
    const Schedule s = schedule(acc, p.dataflow, p.entries);
    EXPECT_TRUE(s.tensors[0].recurs) << p.id;
    plainRecurring += plain.tensors[0].recurs ? 1 : 0;
    // Reading the start value never makes the tile shorter.
    EXPECT_GE(s.tileCycles, plain.tileCycles) << p.id;
    if (plain.tensors[0].recurs) {
      EXPECT_EQ(s.tileCycles, plain.tileCycles) << p.id;
    }
  }
  EXPECT_LT(plainRecurring, r.points.size()); // some designs change
}

} // namespace
} // namespace rubick::dse
