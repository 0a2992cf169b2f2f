// SPDX-License-Identifier: Apache-2.0
// The 14 access entries of theory §2.2 and the canonical classification of §2.1.

#include "rubick/ir/AccessEntry.h"

#include <gtest/gtest.h>
#include <set>

namespace rubick::ir {
namespace {

TEST(AccessEntry, FourteenEntriesWithTheirVectorCounts) {
  ASSERT_EQ(allEntries().size(), 14u);
  int counts[4] = {0, 0, 0, 0};
  for (const EntryInfo& e : allEntries())
    ++counts[e.vectors.size()];
  EXPECT_EQ(counts[1], 7); // 7 one-vector entries
  EXPECT_EQ(counts[2], 6); // 6 two-vector entries
  EXPECT_EQ(counts[3], 1); // 1 three-vector entry
}

TEST(AccessEntry, OmegaNullSpaceIsTheEntryReuseSpace) {
  for (const EntryInfo& e : allEntries()) {
    for (int m = 0; m < 4; ++m) {
      OrientedEntry o{e.kind, bool(m & 1), bool(m & 2)};
      Mat om = omegaLinear(o);
      std::vector<IntVec> reuse = reuseBasis(o);
      for (const IntVec& v : reuse) {
        Mat col = Mat::fromColumns({v}, 3);
        if (om.rows()) {
          EXPECT_TRUE((om * col).isZero()) << e.name;
        }
      }
      EXPECT_EQ(om.rows() ? 3 - om.rank() : 3, reuse.size()) << e.name;
    }
  }
}

TEST(AccessEntry, RankCheckPassesTheTheorysCount) {
  // Theory §3: of the 14^3 = 2744 entry triples, 2142 have stacked Omega of rank 3.
  int pass = 0;
  for (const EntryInfo& a : allEntries())
    for (const EntryInfo& b : allEntries())
      for (const EntryInfo& c : allEntries()) {
        Mat m = omegaLinear({a.kind}).vstack(omegaLinear({b.kind})).vstack(omegaLinear({c.kind}));
        pass += m.rows() && m.rank() == 3;
      }
  EXPECT_EQ(pass, 2142);
}

TEST(AccessEntry, PortsAndFanoutFollowTheTable) {
  // P = 4 (x), Q = 3 (y).
  EXPECT_EQ(ports(EntryKind::XSystolic, 4, 3), 3);
  EXPECT_EQ(ports(EntryKind::YSystolic, 4, 3), 4);
  EXPECT_EQ(ports(EntryKind::DiagSystolic, 4, 3), 6);
  EXPECT_EQ(ports(EntryKind::Stationary, 4, 3), 12);
  EXPECT_EQ(fanout(EntryKind::XMulticast, 4, 3), 4);
  EXPECT_EQ(fanout(EntryKind::YMulticast, 4, 3), 3);
  EXPECT_EQ(fanout(EntryKind::DiagMulticast, 4, 3), 3);
  EXPECT_EQ(fanout(EntryKind::XYMulticast, 4, 3), 12);
  EXPECT_EQ(fanout(EntryKind::XSystolicYMulticast, 4, 3), 3);
  EXPECT_EQ(fanout(EntryKind::YSystolicXMulticast, 4, 3), 4);
  EXPECT_EQ(ports(EntryKind::XYMulticastStationary, 4, 3), 1);
  // Ports equal the distinct port positions Omega reaches on the array.
  for (const EntryInfo& e : allEntries()) {
    std::set<std::pair<int64_t, int64_t>> pos;
    for (int64_t x = 0; x < 4; ++x)
      for (int64_t y = 0; y < 3; ++y)
        pos.insert({e.omega[0][0] * x + e.omega[0][1] * y, e.omega[1][0] * x + e.omega[1][1] * y});
    EXPECT_EQ(static_cast<int64_t>(pos.size()), ports(e.kind, 4, 3)) << e.name;
  }
}

TEST(AccessEntry, ClassifiesEveryBasicVector) {
  std::string why;
  auto one = [&](IntVec v) { return classifyReuse({v}, &why); };
  EXPECT_EQ(one({1, 0, 1})->kind, EntryKind::XSystolic);
  EXPECT_EQ(one({0, 1, 1})->kind, EntryKind::YSystolic);
  EXPECT_EQ(one({1, 1, 1})->kind, EntryKind::DiagSystolic);
  EXPECT_EQ(one({0, 0, 1})->kind, EntryKind::Stationary);
  EXPECT_EQ(one({1, 0, 0})->kind, EntryKind::XMulticast);
  EXPECT_EQ(one({0, 1, 0})->kind, EntryKind::YMulticast);
  EXPECT_EQ(one({1, 1, 0})->kind, EntryKind::DiagMulticast);
}

TEST(AccessEntry, MirroringNormalisesDirections) {
  std::string why;
  // Data moving towards -x (or, as a line, (1,0|-1)) is X-systolic with the port mirrored.
  auto e = classifyReuse({{1, 0, -1}}, &why);
  ASSERT_TRUE(e);
  EXPECT_EQ(*e, (OrientedEntry{EntryKind::XSystolic, true, false}));
  // The anti-diagonal is diag-multicast mirrored once; x and y mirroring give the same line.
  e = classifyReuse({{1, -1, 0}}, &why);
  ASSERT_TRUE(e);
  EXPECT_EQ(*e, (OrientedEntry{EntryKind::DiagMulticast, true, false}));
  // A symmetric space keeps no mirror flag.
  e = classifyReuse({{-1, 0, 0}, {0, 0, 1}}, &why);
  ASSERT_TRUE(e);
  EXPECT_EQ(*e, (OrientedEntry{EntryKind::XMulticastStationary, false, false}));
}

TEST(AccessEntry, TwoVectorSpacesFindTheirEntry) {
  std::string why;
  // span{(1,0|0), (0,1|1)} = Y-systolic-X-multicast, given by any basis.
  auto e = classifyReuse({{1, 0, 0}, {1, 1, 1}}, &why);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, EntryKind::YSystolicXMulticast);
  e = classifyReuse({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, &why);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, EntryKind::XYMulticastStationary);
}

TEST(AccessEntry, RejectsUnrealisableSpacesWithAReason) {
  std::string why;
  EXPECT_FALSE(classifyReuse({}, &why));
  EXPECT_NE(why.find("no reuse"), std::string::npos) << why;
  // Systolic along x and along y at once contains the anti-diagonal (1,-1|0): no entry.
  EXPECT_FALSE(classifyReuse({{1, 0, 1}, {0, 1, 1}}, &why));
  EXPECT_NE(why.find("no basis of the seven direction vectors"), std::string::npos) << why;
  // A step of two PEs per cycle is not a basic direction.
  EXPECT_FALSE(classifyReuse({{2, 0, 1}}, &why));
}

TEST(AccessEntry, ParsesNamesAndNumbers) {
  EXPECT_EQ(parseEntryKind("x-systolic"), EntryKind::XSystolic);
  EXPECT_EQ(parseEntryKind("XY-multicast-stationary"), EntryKind::XYMulticastStationary);
  EXPECT_EQ(parseEntryKind("7"), EntryKind::DiagMulticast);
  EXPECT_FALSE(parseEntryKind("sideways"));
  EXPECT_TRUE(isDiagonal(EntryKind::DiagMulticastStationary));
  EXPECT_FALSE(isDiagonal(EntryKind::XYMulticast));
}

} // namespace
} // namespace rubick::ir
