// SPDX-License-Identifier: Apache-2.0
// The entry table's derived properties (AccessEntry.h: EntryInfo's held, systolic, multicast,
// diagonal, slots, links, ports, fanout) against Omega, worked out here independently of the
// reuse vectors they are derived from, and against PE-by-PE walks and hand counts.

#include "rubick/ir/AccessEntry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace rubick::ir {
namespace {

// Omega applied to a PE space-time offset (dx, dy | dt).
std::array<int64_t, 3> apply(const EntryInfo& e, int64_t dx, int64_t dy, int64_t dt) {
  std::array<int64_t, 3> out{};
  for (int s = 0; s < 3; ++s)
    out[s] = e.omega[s][0] * dx + e.omega[s][1] * dy + e.omega[s][2] * dt;
  return out;
}

bool inKernel(const EntryInfo& e, int64_t dx, int64_t dy, int64_t dt) {
  return apply(e, dx, dy, dt) == std::array<int64_t, 3>{0, 0, 0};
}

TEST(EntryTable, HeldIsAValueStayingInItsPe) {
  for (const EntryInfo& e : allEntries())
    EXPECT_EQ(e.held, inKernel(e, 0, 0, 1)) << e.name;
}

TEST(EntryTable, SystolicStepIsTheFirstBasicStepOmegaKeeps) {
  for (const EntryInfo& e : allEntries()) {
    // Not held: the first of +x, +y, the diagonal along which a value one cycle later sits at
    // the same entry position (multicast entries keep none; X-systolic-Y-multicast keeps +x and
    // the diagonal, and the canonical one is +x).
    PeStep expected;
    if (!e.held)
      for (PeStep s : {PeStep{1, 0}, PeStep{0, 1}, PeStep{1, 1}})
        if (inKernel(e, s.dx, s.dy, 1)) {
          expected = s;
          break;
        }
    EXPECT_EQ(e.systolic, expected) << e.name;
  }
}

TEST(EntryTable, MulticastSpansTheSameCycleReuse) {
  for (const EntryInfo& e : allEntries()) {
    for (const PeStep& m : e.multicast)
      EXPECT_TRUE(inKernel(e, m.dx, m.dy, 0)) << e.name;
    if (e.multicast.size() == 2) {
      EXPECT_NE(e.multicast[0].dx * e.multicast[1].dy, e.multicast[0].dy * e.multicast[1].dx)
          << e.name;
    }
    // Every unit step Omega keeps within a cycle lies in their span.
    for (int64_t dx = -1; dx <= 1; ++dx)
      for (int64_t dy = -1; dy <= 1; ++dy) {
        if (!inKernel(e, dx, dy, 0)) continue;
        bool spanned = dx == 0 && dy == 0;
        if (e.multicast.size() == 1) spanned |= e.multicast[0].dx * dy == e.multicast[0].dy * dx;
        spanned |= e.multicast.size() == 2;
        EXPECT_TRUE(spanned) << e.name << " (" << dx << "," << dy << "|0)";
      }
  }
}

TEST(EntryTable, DiagonalSlotsAndVectorsAgree) {
  const std::set<int> diagonal = {3, 7, 13};
  for (const EntryInfo& e : allEntries()) {
    EXPECT_EQ(e.diagonal, diagonal.count(e.number) == 1) << e.name;
    EXPECT_EQ(isDiagonal(e.kind), e.diagonal) << e.name;
    std::vector<int> slots;
    for (int s = 0; s < 3; ++s)
      if (e.omega[s] != Vec3{0, 0, 0}) slots.push_back(s);
    EXPECT_EQ(e.slots, slots) << e.name;
    EXPECT_EQ(activeSlots(e.kind), slots) << e.name;
    // The derived fields rebuild the reuse space: the multicast steps, then the time step.
    size_t dims = e.multicast.size() + (e.held || !e.systolic.none() ? 1 : 0);
    EXPECT_EQ(dims, e.vectors.size()) << e.name;
  }
}

// Links, ports and fan-out by walking the array, PE by PE.
struct Walked {
  int64_t links = 0, ports = 0, fanout = 0;
};

Walked walk(const EntryInfo& e, int64_t p, int64_t q) {
  Walked w;
  std::set<std::pair<int64_t, int64_t>> positions;
  std::map<std::array<int64_t, 3>, int64_t> sameCycle; // PEs one port value reaches at t1 = 0
  for (int64_t x = 0; x < p; ++x)
    for (int64_t y = 0; y < q; ++y) {
      const int64_t nx = x + e.systolic.dx, ny = y + e.systolic.dy;
      w.links += !e.systolic.none() && nx >= 0 && nx < p && ny >= 0 && ny < q;
      const std::array<int64_t, 3> at = apply(e, x, y, 0);
      positions.insert({at[0], at[1]});
      w.fanout = std::max(w.fanout, ++sameCycle[at]);
    }
  w.ports = static_cast<int64_t>(positions.size());
  return w;
}

TEST(EntryTable, LinksPortsAndFanoutMatchTheWalk) {
  for (auto [p, q] : {std::pair<int64_t, int64_t>{4, 4},
                      {4, 3},
                      {3, 4},
                      {8, 2},
                      {1, 5},
                      {5, 1},
                      {1, 1},
                      {16, 16}})
    for (const EntryInfo& e : allEntries()) {
      const Walked w = walk(e, p, q);
      EXPECT_EQ(e.links(p, q), w.links) << e.name << " " << p << "x" << q;
      EXPECT_EQ(e.ports(p, q), w.ports) << e.name << " " << p << "x" << q;
      EXPECT_EQ(e.fanout(p, q), w.fanout) << e.name << " " << p << "x" << q;
      EXPECT_EQ(ports(e.kind, p, q), w.ports) << e.name;
      EXPECT_EQ(fanout(e.kind, p, q), w.fanout) << e.name;
    }
}

TEST(EntryTable, LinksByHand) {
  // P = 4 (x), Q = 3 (y): +x chains (P-1)*Q, +y chains P*(Q-1), diagonal (P-1)*(Q-1).
  const std::map<EntryKind, int64_t> links43 = {
      {EntryKind::XSystolic, 9},           {EntryKind::YSystolic, 8},
      {EntryKind::DiagSystolic, 6},        {EntryKind::XSystolicYMulticast, 9},
      {EntryKind::YSystolicXMulticast, 8},
  };
  for (const EntryInfo& e : allEntries()) {
    auto it = links43.find(e.kind);
    EXPECT_EQ(e.links(4, 3), it == links43.end() ? 0 : it->second) << e.name;
  }
  EXPECT_EQ(info(EntryKind::XSystolic).links(8, 8), 56);
  EXPECT_EQ(info(EntryKind::DiagSystolic).links(8, 8), 49);
  EXPECT_EQ(info(EntryKind::YSystolic).links(1, 5), 4);
  EXPECT_EQ(info(EntryKind::XSystolic).links(1, 5), 0);
  EXPECT_EQ(info(EntryKind::DiagSystolic).links(1, 1), 0);
}

} // namespace
} // namespace rubick::ir
