// SPDX-License-Identifier: Apache-2.0
// The vector unit's lane schedule: every item once, no two lanes of a cycle on one bank, rows of
// one query row in the row-wise passes, one lane = the items in order; and the explorer's
// timing is the schedule's.

#include "rubick/attn/AttentionForm.h"
#include "rubick/attn/LaneSchedule.h"
#include "rubick/attn/Pipeline.h"

#include "attn_test_util.h"
#include "tc_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace rubick::attn {
namespace {

const char* kSingle = rubick::test::kAttentionSingleHead;

// The properties every schedule must have, checked item by item.
void expectValid(const std::vector<LaneItem>& items, const LaneRows& rows, int64_t lanes) {
  std::vector<int> seen(items.size(), 0);
  int64_t lastGroup = items.empty() ? 0 : items.front().group;
  for (const std::vector<int64_t>& row : rows) {
    ASSERT_FALSE(row.empty());
    ASSERT_LE(int64_t(row.size()), lanes);
    ASSERT_GE(row.back(), 0) << "a row ends in an idle lane";
    std::vector<int64_t> used;
    for (size_t a = 0; a < row.size(); ++a) {
      if (row[a] < 0) continue;
      const LaneItem& x = items[size_t(row[a])];
      if (x.lane >= 0) {
        EXPECT_EQ(x.lane, int64_t(a)) << "an item out of its lane";
      }
      used.push_back(row[a]);
    }
    const int64_t group = items[size_t(used[0])].group;
    for (size_t a = 0; a < used.size(); ++a) {
      const LaneItem& x = items[size_t(used[a])];
      ++seen[size_t(used[a])];
      EXPECT_EQ(x.group, group) << "two query rows in one cycle";
      for (size_t b = a + 1; b < used.size(); ++b) {
        const LaneItem& y = items[size_t(used[b])];
        if (x.writeBank >= 0) {
          EXPECT_NE(x.writeBank, y.writeBank) << "two writes on one bank";
        }
        if (x.readBank >= 0 && x.readBank == y.readBank) {
          EXPECT_EQ(x.readAddr, y.readAddr) << "two reads of one bank at two addresses";
        }
      }
    }
    // Groups in order: never back to an earlier one.
    EXPECT_GE(group, lastGroup);
    lastGroup = group;
  }
  for (size_t i = 0; i < items.size(); ++i)
    EXPECT_EQ(seen[i], 1) << "item " << i;
}

// Independent lower bounds: W items per cycle, one write per bank per cycle, and per group.
int64_t lowerBound(const std::vector<LaneItem>& items, int64_t lanes) {
  std::map<int64_t, std::vector<const LaneItem*>> groups;
  for (const LaneItem& x : items)
    groups[x.group].push_back(&x);
  int64_t bound = 0;
  for (const auto& [g, xs] : groups) {
    std::map<int64_t, int64_t> perBank, perLane;
    int64_t worst = 0;
    for (const LaneItem* x : xs) {
      if (x->writeBank >= 0) worst = std::max(worst, ++perBank[x->writeBank]);
      if (x->lane >= 0) worst = std::max(worst, ++perLane[x->lane]);
    }
    bound += std::max<int64_t>(worst, (int64_t(xs.size()) + lanes - 1) / lanes);
  }
  return bound;
}

TEST(LaneSchedule, OneLaneIsTheItemsInOrder) {
  std::vector<LaneItem> items = {{0, -1, 0, 3}, {0, -1, 0, 3}, {1, 2, 5, -1}, {1, 0, 0, -1}};
  LaneRows rows = laneSchedule(items, 1);
  ASSERT_EQ(rows.size(), items.size());
  for (size_t i = 0; i < rows.size(); ++i)
    EXPECT_EQ(rows[i], std::vector<int64_t>{int64_t(i)});
}

TEST(LaneSchedule, ConflictsGoToOtherCycles) {
  // Writes to banks 0, 0, 1, 1 in two lanes: two rows, each bank once per row.
  std::vector<LaneItem> w = {{0, -1, 0, 0}, {0, -1, 0, 0}, {0, -1, 0, 1}, {0, -1, 0, 1}};
  LaneRows rows = laneSchedule(w, 2);
  EXPECT_EQ(rows.size(), 2u);
  expectValid(w, rows, 2);
  // One bank read at one address by two lanes is one read; at two addresses it is not.
  std::vector<LaneItem> r = {{0, 4, 7, -1}, {0, 4, 7, -1}, {0, 4, 8, -1}};
  rows = laneSchedule(r, 4);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<int64_t>{0, 1}));
  // Groups never share a cycle, however many lanes are free.
  std::vector<LaneItem> g = {{0, -1, 0, 0}, {1, -1, 0, 1}, {1, -1, 0, 2}};
  rows = laneSchedule(g, 8);
  EXPECT_EQ(rows, (LaneRows{{0}, {1, 2}}));
}

TEST(LaneSchedule, FixedLanesKeepTheirItems) {
  // Lane 1's items wait for lane 1 even while lane 0 has nothing; lane 0 and 1 never share a
  // write bank in a cycle.
  std::vector<LaneItem> f = {{0, -1, 0, 0, 1}, {0, -1, 0, 1, 1}, {0, -1, 0, 1, 0}};
  LaneRows rows = laneSchedule(f, 2);
  expectValid(f, rows, 2);
  EXPECT_EQ(rows, (LaneRows{{2, 0}, {-1, 1}}));
  // Items of any lane fill the idle lanes.
  std::vector<LaneItem> m = {{0, -1, 0, -1, 1}, {0, -1, 0, -1, -1}, {0, -1, 0, -1, -1}};
  rows = laneSchedule(m, 3);
  EXPECT_EQ(rows, (LaneRows{{1, 0, 2}}));
  EXPECT_THROW(laneSchedule(m, 1), std::logic_error);
}

TEST(LaneSchedule, ExploredPipelinesAreScheduledValidly) {
  tc::SemaOptions so;
  so.sizes = {{"L", 6, {}}, {"S", 10, {}}, {"D", 4, {}}, {"Dv", 5, {}}};
  tc::Program p = test::analyzeText(kSingle, so);
  AttentionForm f = recogniseAttention(p, nullptr);
  PipelineOptions o = test::smallPipeline(kSingle, 4, {4}, 2, {1, 2, 4, 8});
  PipelineResult r = explorePipeline(p, f, o);
  EXPECT_EQ(r.combinations, 2u * 2u * 4u);
  std::map<int64_t, int64_t> bestByLanes;
  for (const PipelinePoint& pt : r.points) {
    const PassItems items = passItems(f, pt.g1, pt.g2, stageMaps(pt.g1), stageMaps(pt.g2));
    const PassSchedules s = schedulePasses(items, pt.lanes);
    // Q, K and V in the lane of their store part: index mod W.
    for (const auto& [xs, rows] : {std::pair{&items.query, &s.query}, std::pair{&items.key, &s.key},
                                   std::pair{&items.value, &s.value}})
      for (const std::vector<int64_t>& row : *rows)
        for (size_t l = 0; l < row.size(); ++l)
          if (row[l] >= 0) {
            EXPECT_EQ((*xs)[size_t(row[l])].key % pt.lanes, int64_t(l));
          }
    // U in the lane of its accumulator part: row mod min(W, L).
    for (const std::vector<int64_t>& row : s.result)
      for (size_t l = 0; l < row.size(); ++l)
        if (row[l] >= 0) {
          EXPECT_EQ(items.result[size_t(row[l])].key % std::min<int64_t>(pt.lanes, 6), int64_t(l));
        }
    for (const auto& [xs, rows] :
         {std::pair{&items.query, &s.query}, std::pair{&items.key, &s.key},
          std::pair{&items.value, &s.value}, std::pair{&items.score, &s.score},
          std::pair{&items.expo, &s.expo}, std::pair{&items.result, &s.result}}) {
      expectValid(*xs, *rows, pt.lanes);
      EXPECT_GE(int64_t(rows->size()), lowerBound(*xs, pt.lanes));
      if (pt.lanes == 1) {
        EXPECT_EQ(rows->size(), xs->size());
      }
    }
    // Scores: L x block, one per item; results: L x Dv; grouped by query row.
    EXPECT_EQ(items.score.size(), 6u * 4u);
    EXPECT_EQ(items.result.size(), 6u * 5u);
    EXPECT_EQ(items.score[5].group, 1); // (1, 1)
    // The explorer timed exactly these schedules.
    EXPECT_EQ(pt.timing.query, int64_t(s.query.size()) + 1);
    EXPECT_EQ(pt.timing.copy, int64_t(std::max(s.key.size(), s.value.size())) + 1);
    EXPECT_EQ(pt.timing.rowMax, int64_t(s.score.size()) + 2);
    EXPECT_EQ(pt.timing.exp, int64_t(s.expo.size()) + 3);
    EXPECT_EQ(pt.timing.accumulate, int64_t(s.result.size()) + 2);
    auto& best = bestByLanes[pt.lanes];
    best = best ? std::min(best, pt.latency) : pt.latency;
  }
  // More lanes never cost cycles (the greedy packing fills at least the first lane).
  EXPECT_LE(bestByLanes[2], bestByLanes[1]);
  EXPECT_LE(bestByLanes[4], bestByLanes[2]);
  EXPECT_LT(bestByLanes[4], bestByLanes[1]);
}

TEST(LaneSchedule, WidthIsValidated) {
  tc::SemaOptions so;
  so.sizes = {{"L", 4, {}}, {"S", 4, {}}, {"D", 4, {}}, {"Dv", 4, {}}};
  tc::Program p = test::analyzeText(kSingle, so);
  PipelineOptions o;
  o.explore.constraints.arrays = {{2, 2}};
  o.lanes = {0};
  std::string msg = test::errorOf([&] { explorePipeline(p, recogniseAttention(p, nullptr), o); });
  EXPECT_NE(msg.find("0 lanes; the width must be 1 to 64"), std::string::npos) << msg;
}

} // namespace
} // namespace rubick::attn
