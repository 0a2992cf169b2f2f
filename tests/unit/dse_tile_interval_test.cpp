// SPDX-License-Identifier: Apache-2.0
// Overlapped tiles: the busy windows of PEs and ports (dse/PortWindows.h) equal a brute-force
// walk over every iteration of a tile, and with the schedule's interval no PE or bank port is
// used by two tiles in one cycle (the events checked here are those the hardware times by the
// windows: arch/Plan.h, emit/VerilogTop.cpp).

#include "dataflow_test_util.h"

#include "rubick/dse/Explore.h"
#include "rubick/dse/PortWindows.h"
#include "rubick/dse/Schedule.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace rubick::dse {
namespace {

std::vector<DesignPoint> allDesigns(const dataflow::StatementView& v, int64_t p, int64_t q) {
  ExploreOptions o;
  o.constraints.arrays = {{p, q}};
  o.constraints.elementBits = {32, 8, 8};
  o.threads = 1;
  return explore(v, o).points;
}

// Every (x, y, t1) a full tile visits: S u + offset over the inner box.
std::vector<std::array<int64_t, 3>> tilePoints(const dataflow::Dataflow& d) {
  std::vector<std::array<int64_t, 3>> out;
  const IntVec off = d.offset();
  std::vector<int64_t> u(d.k(), 0);
  for (;;) {
    std::array<int64_t, 3> pt{off[0], off[1], off[2]};
    for (int r = 0; r < 3; ++r)
      for (size_t c = 0; c < d.k(); ++c)
        pt[r] += d.s[r][c] * u[c];
    out.push_back(pt);
    size_t c = 0;
    while (c < u.size() && ++u[c] == d.inner[c].factor)
      u[c++] = 0;
    if (c == u.size()) break;
  }
  return out;
}

TEST(TileInterval, WindowsEqualABruteForceWalk) {
  int designs = 0, overlapped = 0;
  for (auto [p, q] : {std::pair<int64_t, int64_t>{4, 4}, {3, 5}}) {
    const dataflow::StatementView v = dataflow::test::gemm(6, 5, 7);
    for (const DesignPoint& dp : allDesigns(v, p, q)) {
      const dataflow::Dataflow& d = dp.dataflow;
      SCOPED_TRACE(dataflow::toSpec(d, v));
      const std::vector<Window> pe = peWindows(d);
      ASSERT_EQ(pe.size(), size_t(p * q));
      // Per PE: the t1 it works at, from the walk; the window must be exactly that set.
      std::map<int64_t, std::set<int64_t>> t1Of;
      for (const auto& pt : tilePoints(d))
        t1Of[pt[0] * q + pt[1]].insert(pt[2]);
      for (int64_t e = 0; e < p * q; ++e) {
        const std::set<int64_t>& ts = t1Of[e];
        if (ts.empty()) {
          EXPECT_TRUE(pe[e].empty()) << "PE " << e;
          continue;
        }
        EXPECT_EQ(pe[e], (Window{*ts.begin(), *ts.rbegin()})) << "PE " << e;
        EXPECT_EQ(int64_t(ts.size()), pe[e].length()) << "PE " << e << " works with gaps";
      }
      // Per port: the hull of its PEs' port times (te = t1 + teShift), from the walk.
      for (const ir::OrientedEntry& e : dp.entries) {
        const PortWindows w = portWindows(d, e, pe);
        std::vector<Window> hull(w.window.size());
        for (const auto& pt : tilePoints(d)) {
          const int64_t i = pt[0] * q + pt[1];
          hull[w.portOf[i]].add(pt[2] + w.teShift[i], pt[2] + w.teShift[i]);
        }
        EXPECT_EQ(hull, w.window) << ir::toString(e);
      }
      const Schedule s = schedule(v, d, dp.entries);
      ASSERT_LE(s.interval, s.tileCycles);
      ASSERT_GE(2 * s.interval, s.tileCycles);
      overlapped += s.interval < s.tileCycles;
      // Two consecutive tiles never share a PE.
      for (const Window& w : pe)
        EXPECT_LE(w.length(), s.interval);
      ++designs;
    }
  }
  EXPECT_GT(designs, 100);
  EXPECT_GT(overlapped, designs / 4); // the rule is not vacuous
}

TEST(TileInterval, OneTileHasNothingToOverlap) {
  const dataflow::StatementView v = dataflow::test::gemm(4, 4, 4);
  for (const DesignPoint& dp : allDesigns(v, 4, 4)) {
    const Schedule s = schedule(v, dp.dataflow, dp.entries);
    if (s.tiles != 1) continue;
    EXPECT_EQ(s.interval, s.tileCycles);
    EXPECT_EQ(s.latency, s.tileCycles);
  }
}

} // namespace
} // namespace rubick::dse
