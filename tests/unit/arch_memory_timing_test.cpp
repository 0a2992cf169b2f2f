// SPDX-License-Identifier: Apache-2.0
// Cycle prediction of memory designs (rubick/arch/MemoryTiming.h): the DMA engines' formulas
// on tiles worked out by hand, the sequencer's phase rule on a timeline worked out by hand, the
// composition on a design of one buffer tile, and invariants on every explored design of a
// GEMM. tests/rtl checks the engine functions against the RTL; the whole composition is checked
// against simulations of emitted tops (docs/memory.md, "Cycle prediction").

#include "dataflow_test_util.h"
#include "dma_timing_test_util.h"

#include "rubick/arch/BufferSequence.h"
#include "rubick/arch/DmaTiming.h"
#include "rubick/arch/MemoryTiming.h"
#include "rubick/dse/BufferSearch.h"
#include "rubick/dse/Explore.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rubick::arch {
namespace {

using dataflow::test::program;

using test::bus;
using test::engine;

TEST(DmaTiming, ReaderFollowsTheColumnLaneFormula) {
  // One row of 32 int8 on an 8-byte bus, groups of 4: 4 beats, 8 groups, group g needs beat
  // N(g) = g / 2 + 1. rubick_dma_rd.v: T = L + 7 + max over g of (N(g) + G - 1 - g) = L + 7 + 8.
  const DmaEngine e = engine(1, 4, false, 1, 32);
  const TileGeometry g{4096, 32, 1, 32};
  EXPECT_EQ(dmaReadDone(e, g, bus(8, 10)), 10 + 7 + 8);
  EXPECT_EQ(dmaReadDone(e, g, bus(8, 1)), 1 + 7 + 8);
  // Beats 3 cycles apart: beat N is taken in cycle 3 + L + 3 (N - 1) and its groups leave 5
  // cycles later, one a cycle: group 6 (beat 4) gives 3 + 10 + 9 + 5 + 1 = 28.
  EXPECT_EQ(dmaReadDone(e, g, bus(8, 10, 3)), 28);
  // Nothing to read: G + 2.
  EXPECT_EQ(dmaReadDone(e, TileGeometry{4096, 32, 0, 32}, bus(8, 10)), 8 + 2);
  // Unaligned by 4 bytes: 5 beats, N(g) = (4g + 7) / 8 + 1, and max(N(g) + 7 - g) is still 8.
  EXPECT_EQ(dmaReadDone(e, TileGeometry{4100, 36, 1, 32}, bus(8, 10)), 10 + 7 + 8);
}

TEST(DmaTiming, ReadCommandsFollowTheHeader) {
  const DmaEngine e = engine(1, 4, false, 3, 8);
  // Contiguous rows are one run, each beat read once; other rows one command each.
  std::vector<DmaCommand> c = readCommands(e, TileGeometry{4100, 8, 3, 8}, 8);
  ASSERT_EQ(c.size(), 3U);
  EXPECT_EQ(c[0].addr, 4096U);
  EXPECT_EQ(c[0].beats, 2);
  EXPECT_EQ(c[1].addr, 4112U);
  EXPECT_EQ(c[1].beats, 1);
  c = readCommands(e, TileGeometry{4100, 20, 3, 8}, 8);
  ASSERT_EQ(c.size(), 3U);
  EXPECT_EQ(c[1].addr, 4120U);
  EXPECT_EQ(c[1].beats, 1);
  EXPECT_EQ(c[2].addr, 4136U);
  EXPECT_EQ(c[2].beats, 2);
  // Bursts never cross 4 KiB: 3 beats from 4088 split 1 + 2.
  EXPECT_EQ(splitBursts({{4088, 3}}, 8, 16), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(splitBursts({{0, 40}}, 8, 16), (std::vector<int64_t>{16, 16, 8}));
}

TEST(DmaTiming, WriterFollowsItsFormula) {
  // One row of 8 int32 on an 8-byte bus, groups of 2 columns: each group completes one beat,
  // c = 1, so P = E = 3 + 4; one burst of 4 beats: done = max(max(P + 2, NB + 2 + L) + 3, E + 2).
  const DmaEngine e = engine(4, 2, false, 1, 8);
  const TileGeometry g{4096, 32, 1, 8};
  EXPECT_EQ(dmaWriteDone(e, g, bus(8, 10), 1), std::max(7 + 2, 1 + 2 + 10) + 3);
  EXPECT_EQ(dmaWriteDone(e, g, bus(8, 1), 1), std::max(7 + 2, 1 + 2 + 1) + 3);
  // Two rows, four groups of 4 columns on a 4-byte bus: each group completes 4 beats (c = 4),
  // P = 3 + 16 = 19; two bursts of 8 beats: done = max(P + 2, 2 + 2 + L) + 3.
  const DmaEngine f = engine(4, 4, false, 2, 8);
  EXPECT_EQ(dmaWriteDone(f, TileGeometry{4096, 32, 2, 8}, bus(4, 5), 1), 19 + 2 + 3);
  EXPECT_EQ(dmaWriteDone(f, TileGeometry{4096, 32, 2, 8}, bus(4, 40), 1), 2 + 2 + 40 + 3);
  // Beats 2 cycles apart bind instead of the packer: the W beats go in cycles 5, 7, ..., 35,
  // the last B in 36, done 3 cycles later.
  EXPECT_EQ(dmaWriteDone(f, TileGeometry{4096, 32, 2, 8}, bus(4, 5, 2), 1), 36 + 3);
  // Nothing to write: every group still passes, one a cycle, E + 2.
  EXPECT_EQ(dmaWriteDone(f, TileGeometry{4096, 32, 0, 8}, bus(4, 5), 1), 4 + 2);
}

TEST(BufferSequence, PhaseRuleOnAHandWorkedTimeline) {
  // One loop of 2 tiles; an input and an output both indexed by it. Core 10 cycles, loads 5,
  // stores 7. Phase -1 (cycles 1..6): load of tile 0. Phase 0 (7..17): core, load of tile 1
  // (7..12). Phase 1 (18..28): core, store of tile 0 (18..25). Phase 2 (29..36): store of tile
  // 1. done in cycle 37.
  SequencerConfig c;
  c.ext = {2};
  SequencedTensor in, out;
  in.dep = out.dep = {1};
  in.red = out.red = {0};
  out.out = true;
  in.colLoop = out.colLoop = 0;
  in.cols = out.cols = 4;
  in.tcols = out.tcols = 8;
  c.tensors = {out, in};
  const SeqTimeline t = sequencerTimeline(c, {0, 1000}, [](const SeqEvent& e) -> int64_t {
    return e.kind == SeqKind::core ? 10 : e.kind == SeqKind::load ? 5 : 7;
  });
  ASSERT_EQ(t.phases.size(), 4U);
  EXPECT_EQ(t.phases[0].last, 6);
  EXPECT_EQ(t.phases[1].first, 7);
  EXPECT_EQ(t.phases[1].last, 17);
  EXPECT_EQ(t.phases[2].last, 28);
  EXPECT_EQ(t.phases[3].last, 36);
  EXPECT_EQ(t.done, 37);
  // The second tile of each tensor is 4 elements further; the output's halves toggle per tile.
  ASSERT_EQ(t.events.size(), 6U);
  EXPECT_EQ(t.events[2].kind, SeqKind::load);
  EXPECT_EQ(t.events[2].addr, 1004U);
  EXPECT_EQ(t.events.back().kind, SeqKind::store);
  EXPECT_EQ(t.events.back().addr, 4U);
}

struct Explored {
  tc::Program prog;
  dataflow::StatementView v;
  dse::ExploreOptions o;
  dse::ExploreResult r;
};

Explored exploreGemm(int64_t m, int64_t n, int64_t k, dse::MemorySystem mem, int64_t budget) {
  Explored e;
  e.prog = program(dataflow::test::kGemm, {{"M", m}, {"N", n}, {"K", k}});
  e.v = dataflow::viewStatement(e.prog, 0);
  e.o.constraints.arrays = {{4, 4}};
  e.o.constraints.memory = mem;
  e.o.constraints.bufferBytes = budget;
  for (const dataflow::AccessView& a : e.v.accesses)
    e.o.constraints.elementBits.push_back(a.write ? 32 : 8);
  e.r = dse::explore(e.v, e.o);
  return e;
}

MemoryPlan plan(const Explored& e, const dse::DesignPoint& pt) {
  return makeMemoryPlan(e.prog, e.v, pt.dataflow, pt.entries, e.o.constraints.elementBits,
                        pt.buffer, "d");
}

TEST(MemoryTiming, OneBufferTileIsFirstLoadsCoreAndLastStore) {
  // A buffer as large as the problem: one tile. Phase -1 loads A then B (the second starts the
  // cycle after the first's done), phase 0 runs the core (latency + 1 to its done pulse),
  // phase 1 stores C; each phase starts the cycle after the previous one's end.
  const dse::MemorySystem mem{8, 20, 256};
  Explored e = exploreGemm(8, 8, 8, mem, 1 << 20);
  ASSERT_FALSE(e.r.points.empty());
  int checked = 0;
  for (size_t i = 0; i < e.r.points.size() && checked < 20; i += 3) {
    dse::DesignPoint pt = e.r.points[i];
    pt.buffer = dse::BufferTiling{e.v.extent, {}};
    const MemoryPlan m = plan(e, pt);
    const AxiOptions o = axiOptions(mem);
    const MemoryTiming t = memoryTiming(m, o, mem);
    BusTiming b = bus(8, 20);
    b.burstBeats = o.burstBeats;
    b.outstanding = o.outstanding;
    auto load = [&](size_t i, uint64_t base) {
      const DmaEngine en = dmaEngine(m.tensors[i].dma, m.core.tensors[i].elementBits);
      return dmaReadDone(en, TileGeometry{base, 8, 8, 8}, b) + 1;
    };
    const DmaEngine c = dmaEngine(m.tensors[0].dma, 32);
    const int64_t store = dmaWriteDone(c, TileGeometry{t.bases[0], 32, 8, 8}, b, 3);
    const int64_t a = load(1, t.bases[1]), bb = load(2, t.bases[2]);
    // Phase -1: A in cycles 1 .. 1 + a, B from 2 + a to 2 + a + bb. Phase 0: the core's start
    // to its done, latency + 1 cycles later. Phase 1: the store's start to its done.
    const int64_t firstLoad = 2 + a + bb;
    const int64_t core = m.core.schedule.latency + 2;
    EXPECT_EQ(t.firstLoad, firstLoad) << pt.id;
    EXPECT_EQ(t.coreCycles, m.core.schedule.latency + 1);
    EXPECT_EQ(t.lastStore, store + 1) << pt.id;
    EXPECT_EQ(t.cycles, firstLoad + core + store + 1) << pt.id;
    EXPECT_EQ(t.tiles, 1);
    EXPECT_EQ(t.loads, 2);
    EXPECT_EQ(t.stores, 1);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(MemoryTiming, InvariantsOnEveryGemmDesign) {
  const dse::MemorySystem mem{8, 50, 256};
  Explored e = exploreGemm(20, 12, 18, mem, 2048);
  ASSERT_FALSE(e.r.points.empty());
  const AxiOptions o = axiOptions(mem);
  for (size_t i = 0; i < e.r.points.size(); i += 7) {
    const dse::DesignPoint& pt = e.r.points[i];
    const MemoryPlan m = plan(e, pt);
    const MemoryTiming t = memoryTiming(m, o, mem);
    EXPECT_EQ(t.tiles, pt.memory.bufferTiles);
    // Every phase lasts at least the core's part (its run, or with chained runs its run to the
    // next pulse); the explorer's compute cycles are the core's work without the sequencer's
    // cycles.
    EXPECT_GE(t.cycles, t.firstLoad + t.tiles * coreCycles(m, 0) + t.lastStore) << pt.id;
    EXPECT_GE(t.cycles, pt.memory.computeCycles) << pt.id;
    EXPECT_EQ(t.computeBound + t.loadBound + t.storeBound, t.tiles);
    EXPECT_EQ(t.firstLoad + t.computePhaseCycles + t.loadPhaseCycles + t.storePhaseCycles +
                  t.lastStore,
              t.cycles);
    // Each tile's transfer takes at least the latency and its beats.
    EXPECT_GE(t.loadCycles, t.loads * (mem.latency + 1));
    EXPECT_GE(t.storeCycles, t.stores * (mem.latency + 1));
    // Slower memories never make a run shorter; the base addresses only matter modulo 4 KiB.
    dse::MemorySystem later = mem, narrower = mem;
    later.latency += 13;
    narrower.bytesPerCycle = 2;
    EXPECT_GT(memoryTiming(m, o, later).cycles, t.cycles) << pt.id;
    EXPECT_GT(memoryTiming(m, o, narrower).cycles, t.cycles) << pt.id;
    std::vector<uint64_t> moved = t.bases;
    for (uint64_t& b : moved)
      b += 3 * 4096;
    EXPECT_EQ(memoryTiming(m, o, mem, moved).cycles, t.cycles) << pt.id;
  }
}

} // namespace
} // namespace rubick::arch

namespace rubick::arch {
namespace {

TEST(MemoryTiming, TheExplorersModelTracksIt) {
  // The explorer's model (dse/Memory.h) charges what the top does, phase by phase, with the
  // engines' rates: its DMA lanes are the engines' (the direction too, but for diagonal entries
  // with two spread dimensions, where the engine's layout check decides), and its cycles are
  // close. Least close: load-bound tilings of odd sizes on a narrow bus, whose rows straddle
  // beats in ways that depend on the base address, and row-lane engines' one-beat commands
  // (measured up to 21% low on the 2-byte bus, since overlapped array tiles made more of these
  // small designs load-bound; 7.5% on the 8-byte bus).
  for (const dse::MemorySystem& mem :
       {dse::MemorySystem{8, 50, 256}, dse::MemorySystem{2, 9, 64}}) {
    Explored e = exploreGemm(20, 12, 18, mem, 2048);
    ASSERT_FALSE(e.r.points.empty());
    const AxiOptions o = axiOptions(mem);
    std::vector<double> off;
    for (size_t i = 0; i < e.r.points.size(); i += 5) {
      const dse::DesignPoint& pt = e.r.points[i];
      const MemoryPlan m = plan(e, pt);
      const dse::MemoryProblem p =
          dse::memoryProblem(e.v, pt.dataflow, pt.entries, e.o.constraints.elementBits, mem);
      for (size_t a = 0; a < m.tensors.size(); ++a) {
        EXPECT_EQ(p.banks[a].lanes, m.tensors[a].dma.lanes) << pt.id << " " << a;
        if (!ir::isDiagonal(pt.entries[a].kind)) {
          EXPECT_EQ(p.banks[a].rowLanes, m.tensors[a].dma.rowLanes) << pt.id << " " << a;
        }
      }
      const double ratio = double(memoryTiming(m, o, mem).cycles) / double(pt.memory.cycles);
      off.push_back(std::abs(ratio - 1));
    }
    std::sort(off.begin(), off.end());
    std::printf("bus %lld B, %zu designs: |exact / model - 1| median %.3f, worst %.3f\n",
                (long long)mem.bytesPerCycle, off.size(), off[off.size() / 2], off.back());
    EXPECT_LT(off[off.size() / 2], 0.03);
    EXPECT_LT(off.back(), 0.25);
  }
}

} // namespace
} // namespace rubick::arch
