// SPDX-License-Identifier: Apache-2.0
// Cycle prediction with DRAM timing (rubick/arch/Dram.h, DramTiming.h): the parameters' parser,
// the banks' state against cases worked out by hand and against the harness's memory model
// (sim_templates/rubick_axi_mem.h) on random bursts, the engines' per-run waits on hand-worked
// tiles, and the whole replay against the fixed-latency prediction where DRAM timing reduces
// to a fixed latency. tests/rtl checks the engines under DRAM timing against the RTL, and
// tests/sim whole designs in Verilator (docs/memory.md, "DRAM timing").

#include "dataflow_test_util.h"
#include "dma_timing_test_util.h"

#include "rubick_axi_mem.h"

#include "rubick/arch/DramTiming.h"
#include "rubick/arch/PimDma.h"
#include "rubick/dse/Explore.h"
#include "rubick/dse/Pim.h"
#include "rubick/support/Diagnostic.h"

#include <gtest/gtest.h>

#include <random>

namespace rubick::arch {
namespace {

std::string parseError(const std::string& spec) {
  try {
    parseDram(spec);
  } catch (const Error& e) {
    return e.origin() + ": " + e.diag().message;
  }
  return "";
}

TEST(Dram, ParsesSpecsStrictly) {
  EXPECT_EQ(parseDram(""), Dram{});
  EXPECT_EQ(parseDram("default"), Dram{});
  const Dram d = parseDram("cl=20,banks=4");
  EXPECT_EQ(d.banks, 4);
  EXPECT_EQ(d.CL, 20);
  EXPECT_EQ(d.rowBytes, 2048);
  EXPECT_EQ(d.tRCD, 14);
  EXPECT_EQ(parseDram(toString(d)), d);
  EXPECT_EQ(toString(Dram{}), "banks=8,row=2048,trcd=14,trp=14,cl=14,tras=0");
  EXPECT_EQ(parseError("banks=0"),
            "--dram: banks must be a whole number from 1 to 1024, found '0'");
  EXPECT_EQ(parseError("row=-4"),
            "--dram: row must be a whole number from 1 to 1073741824 bytes, found '-4'");
  EXPECT_EQ(parseError("trp=1.5"),
            "--dram: trp must be a whole number from 0 to 10000 cycles, found '1.5'");
  EXPECT_EQ(parseError("cl="),
            "--dram: cl must be a whole number from 0 to 10000 cycles, found ''");
  EXPECT_EQ(parseError("tcas=3"),
            "--dram: unknown parameter 'tcas' (expected banks, row, trcd, trp, cl or tras)");
  EXPECT_EQ(parseError("cl=3,cl=4"), "--dram: 'cl' given twice");
  EXPECT_EQ(parseError("banks"),
            "--dram: expected NAME=VALUE (banks, row, trcd, trp, cl, tras), found 'banks'");
  EXPECT_EQ(parseError("banks=2,"),
            "--dram: expected NAME=VALUE (banks, row, trcd, trp, cl, tras), found ''");
  EXPECT_EQ(parseError("row=99999999999"),
            "--dram: row must be a whole number from 1 to 1073741824 bytes, found '99999999999'");
}

TEST(Dram, BanksFollowTheRowRules) {
  // 2 banks of 64-byte rows: rows 0, 1, 2, ... in banks 0, 1, 0, ...; tRCD 3, tRP 2, CL 4.
  Dram d;
  d.banks = 2;
  d.rowBytes = 64;
  d.tRCD = 3;
  d.tRP = 2;
  d.CL = 4;
  DramBanks b(d);
  std::vector<BeatsReady> runs;
  // 4 beats of 8 bytes in row 0, bank 0 closed: activate from 10 to 13, data from 17.
  b.access(10, 0, 4, 8, true, runs);
  ASSERT_EQ(runs.size(), 1U);
  EXPECT_EQ(runs[0].cycle, 17);
  // Bytes 32 .. 95: beats 0-3 hit row 0 (its activate done at 13: 12 + ... = max(12, 13) + 4),
  // beats 4-7 open row 1 in bank 1 (12 + 3 + 4).
  b.access(12, 32, 8, 8, true, runs);
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_EQ(runs[0].first, 0);
  EXPECT_EQ(runs[0].cycle, 17);
  EXPECT_EQ(runs[1].first, 4);
  EXPECT_EQ(runs[1].cycle, 19);
  // Row 2 is bank 0's second row: precharge, activate: 20 + 2 + 3 + 4.
  b.access(20, 128, 1, 8, true, runs);
  EXPECT_EQ(runs[0].cycle, 29);
  // An access that arrives before its bank's activate is done waits for it: row 2 again at 21,
  // usable from 25.
  b.access(21, 136, 1, 8, true, runs);
  EXPECT_EQ(runs[0].cycle, 29);
  // Both rows of a burst over banks 1 and 0 are closed by another: 30 + 2 + 3 + 4 each.
  b.access(30, 256 - 8, 2, 8, true, runs);
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_EQ(runs[0].cycle, 39);
  EXPECT_EQ(runs[1].first, 1);
  EXPECT_EQ(runs[1].cycle, 39);
  EXPECT_EQ(b.hits, 2);
  EXPECT_EQ(b.misses, 5);
  EXPECT_EQ(b.conflicts, 3);
  // Not counted (another channel's burst replayed), but its row is opened: 40 + 2 + 3 + 4.
  b.access(40, 0, 1, 8, false, runs);
  EXPECT_EQ(runs[0].cycle, 49);
  b.access(50, 8, 1, 8, true, runs);
  EXPECT_EQ(runs[0].cycle, 54);
  EXPECT_EQ(b.hits, 3);
  EXPECT_EQ(b.misses, 5);
}

TEST(Dram, PrechargeWaitsForTras) {
  // One bank of 64-byte rows, tRCD 3, tRP 2, CL 4, tRAS 20.
  Dram d;
  d.banks = 1;
  d.rowBytes = 64;
  d.tRCD = 3;
  d.tRP = 2;
  d.CL = 4;
  d.tRAS = 20;
  DramBanks b(d);
  std::vector<BeatsReady> runs;
  // Row 0 activated at 10 (usable at 13): data at 17.
  b.access(10, 0, 1, 8, true, runs);
  EXPECT_EQ(runs[0].cycle, 17);
  // Row 1 at 14: the precharge waits until 10 + 20 = 30, then 30 + 2 + 3 + 4.
  b.access(14, 64, 1, 8, true, runs);
  EXPECT_EQ(runs[0].cycle, 39);
  // Row 0 again at 60, long after row 1's activate at 32 + 20: 60 + 2 + 3 + 4.
  b.access(60, 0, 1, 8, true, runs);
  EXPECT_EQ(runs[0].cycle, 69);
}

// A chain's next stage sees the banks the stage before left, on its own clock.
TEST(Dram, ShiftedBanksKeepTheirRowsOnTheNextClock) {
  Dram d;
  d.banks = 1;
  d.rowBytes = 64;
  d.tRCD = 3;
  d.tRP = 2;
  d.CL = 4;
  d.tRAS = 20;
  DramBanks b(d);
  std::vector<BeatsReady> runs;
  b.access(10, 0, 1, 8, true, runs); // row 0 activated at 10, usable at 13
  b.shift(8);                        // the next clock's 0 is this one's 8
  // The open row is still a hit, usable from 13 - 8 = 5: 5 + 4.
  b.access(2, 8, 1, 8, true, runs);
  EXPECT_EQ(runs[0].cycle, 9);
  // Another row at 4 (12 before the shift): the precharge waits for tRAS, 10 + 20 - 8 = 22, then
  // 22 + 2 + 3 + 4.
  b.access(4, 64, 1, 8, true, runs);
  EXPECT_EQ(runs[0].cycle, 31);
}

// Random read bursts into rubick_axi_mem.h in DRAM mode (one beat a cycle, R always taken)
// give every beat in the cycle the banks' runs predict.
TEST(Dram, BanksAreTheMemoryModels) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    rubick_sim::AxiMemConfig c;
    c.dataBytes = 8;
    c.bytesPerCycle = 8;
    c.latency = 1 + unsigned(rng() % 20);
    c.maxOutstanding = 256;
    c.size = 1 << 16;
    c.dram = true;
    c.banks = 1 + unsigned(rng() % 4);
    c.rowBytes = 16u << (rng() % 5);
    c.tRCD = unsigned(rng() % 12);
    c.tRP = unsigned(rng() % 12);
    c.CL = unsigned(rng() % 12);
    c.tRAS = round % 2 ? unsigned(rng() % 30) : 0;
    rubick_sim::AxiMem mem(c);
    Dram d;
    d.banks = c.banks;
    d.rowBytes = c.rowBytes;
    d.tRCD = c.tRCD;
    d.tRP = c.tRP;
    d.CL = c.CL;
    d.tRAS = c.tRAS;
    DramBanks banks(d);
    std::vector<int64_t> want; // every beat's cycle, in order
    std::vector<BeatsReady> runs;
    int64_t last = -1;
    std::vector<uint64_t> got;
    // Requests for 3000 cycles, then until every beat has come (one bank of short rows is slow).
    for (int64_t cycle = 0; cycle < 3000 || (got.size() < want.size() && cycle < 200000); ++cycle) {
      rubick_sim::AxiMasterPins m = mem.masterPins();
      m.rready = true;
      if (cycle < 3000 && rng() % 12 == 0) {
        const unsigned len = unsigned(rng() % 16);
        const uint64_t page = rng() % 15, at = 8 * (rng() % (512 - len));
        m.arvalid = true;
        m.araddr = page * 4096 + at;
        m.arlen = len;
        m.arsize = 3;
        banks.access(cycle + c.latency, m.araddr, len + 1, 8, true, runs);
        for (int64_t k = 0; k <= len; ++k) {
          int64_t ready = 0;
          for (const BeatsReady& r : runs)
            if (r.first <= k) ready = r.cycle;
          // In order, one a cycle; a burst's first beat waits for the burst before it.
          last = std::max(ready, last + 1);
          want.push_back(last);
        }
      }
      if (mem.pins().rvalid) got.push_back(mem.cycle());
      mem.tick(m);
    }
    ASSERT_EQ(mem.violationCount(), 0U) << mem.violations()[0];
    ASSERT_EQ(got.size(), want.size()) << round;
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(int64_t(got[i]), want[i]) << "round " << round << " beat " << i;
    EXPECT_EQ(int64_t(mem.stats().rowHits), banks.hits);
    EXPECT_EQ(int64_t(mem.stats().rowMisses), banks.misses);
    EXPECT_EQ(int64_t(mem.stats().rowConflicts), banks.conflicts);
    EXPECT_EQ(mem.violationCount(), 0U);
  }
}

// A memory that gives each burst fixed runs: `runs` with cycles after the handshake.
class FixedRuns final : public BurstMemory {
public:
  explicit FixedRuns(std::vector<BeatsReady> runs) : runs_(std::move(runs)) {}
  const std::vector<BeatsReady>& burst(bool, int64_t at, uint64_t, int64_t) override {
    out_ = runs_;
    for (BeatsReady& r : out_)
      r.cycle += at;
    return out_;
  }

private:
  std::vector<BeatsReady> runs_, out_;
};

// The engines here read command blocks of 2 beats (BLOCK_BEATS).
DmaEngine engine(int64_t elemBytes, int64_t lanes, bool rowLanes, int64_t rows, int64_t cols) {
  return test::engine(elemBytes, lanes, rowLanes, rows, cols, 2);
}

using test::bus;

TEST(DramTiming, EnginesWaitForEachRun) {
  // One row of 32 int8 on an 8-byte bus, groups of 4: one burst of 4 beats, its AR in cycle 3.
  // Beats 0-1 ready 10 cycles after it, beats 2-3 20: R in 13, 14, 23, 24. Beat n reaches the
  // groups 5 cycles after its R, group g needs beat g / 2 + 1 and groups go one a cycle, so
  // done = max over g of (R(N(g)) + 5 + 7 - g) = 23 + 5 + 3 (g = 4).
  const DmaEngine e = engine(1, 4, false, 1, 32);
  const TileGeometry g{4096, 32, 1, 32};
  FixedRuns late({{0, 10}, {2, 20}});
  BusTiming b = bus(8, 10);
  b.memory = &late;
  EXPECT_EQ(dmaReadDone(e, g, b), 31);
  // The writer: one row of 8 int32 (one burst of 4 beats, AW in cycle 3) whose response may
  // come 50 cycles after the AW: done 3 cycles after the B, 3 + 50 + 3.
  const DmaEngine w = engine(4, 2, false, 1, 8);
  FixedRuns slow({{0, 50}});
  BusTiming bw = bus(8, 10);
  bw.memory = &slow;
  EXPECT_EQ(dmaWriteDone(w, TileGeometry{4096, 32, 1, 8}, bw, 1), 56);
}

// Every burst's handshake cycle, each burst's beats `after` cycles later.
class Recording final : public BurstMemory {
public:
  explicit Recording(int64_t after) : after_(after) {}
  const std::vector<BeatsReady>& burst(bool, int64_t at, uint64_t, int64_t) override {
    at_.push_back(at);
    out_ = {{0, at + after_}};
    return out_;
  }
  const std::vector<int64_t>& at() const { return at_; }

private:
  int64_t after_;
  std::vector<int64_t> at_;
  std::vector<BeatsReady> out_;
};

TEST(DramTiming, RowLaneCommandsWaitForTheDescriptorFifo) {
  // Row lanes, 4 lanes of int8 on an 8-byte bus, chunks of 8 columns (BLOCK_BEATS 1);
  // 8 rows of 12 columns starting 4 bytes into a beat: per row a 2-beat command for columns
  // 0-7 and one of no beat for 8-11 (inside the beat the first read). Commands: 0-3 (rows 0-3,
  // one burst each), 4-7 (no beat), 8-11 (rows 4-7), 12-15 (no beat). One burst in flight,
  // data 1000 cycles after each AR. Burst 1 is pushed when burst 0's last beat is taken (at0 +
  // 1001), its AR the cycle after. Command 3's last beat is taken into the buffer at3 + 1002,
  // command 4's turn comes the cycle after; only then are fewer than MAX_OUTSTANDING + 3 = 4
  // commands waiting, so command 8 is issued at at3 + 1004, taken by the AXI engine at the next
  // edge, its burst pushed the cycle after and its AR the next: at3 + 1007 (the outstanding
  // limit alone would allow at3 + 1002).
  DmaEngine e = engine(1, 4, true, 8, 12);
  e.blockBeats = 1;
  const TileGeometry g{4100, 16, 8, 12};
  ASSERT_EQ(readCommands(e, g, 8).size(), 16U);
  EXPECT_EQ(readCommands(e, g, 8)[4].beats, 0);
  Recording mem(1000);
  BusTiming b = bus(8, 10);
  b.outstanding = 1;
  b.memory = &mem;
  dmaReadDone(e, g, b);
  ASSERT_EQ(mem.at().size(), 8U);
  EXPECT_EQ(mem.at()[1], mem.at()[0] + 1002);
  EXPECT_EQ(mem.at()[4], mem.at()[3] + 1007);
}

TEST(DramTiming, AFixedLatencyThroughTheHookIsTheFixedLatency) {
  // Random tiles of every engine kind: a BurstMemory answering the latency after each handshake
  // gives the cycles of the fixed-latency path.
  std::mt19937_64 rng(3);
  for (int i = 0; i < 400; ++i) {
    const bool rows = rng() % 2;
    const int64_t eb = int64_t(1) << (rng() % 3), lanes = 1 + int64_t(rng() % 4);
    const int64_t r = lanes + int64_t(rng() % 6), c = lanes + int64_t(rng() % 20);
    DmaEngine e = engine(eb, lanes, rows, r, c);
    const int64_t busBytes = int64_t(4) << (rng() % 3);
    const int64_t latency = 1 + int64_t(rng() % 30);
    TileGeometry g;
    g.rows = 1 + int64_t(rng() % uint64_t(r));
    g.cols = 1 + int64_t(rng() % uint64_t(c));
    g.pitch = uint64_t(c * eb + eb * int64_t(rng() % 5));
    g.base = 4096 * (1 + rng() % 4) + uint64_t(eb) * (rng() % 64);
    BusTiming fixed = bus(busBytes, latency);
    fixed.beatSpacing = 1 + int64_t(rng() % 3);
    FixedRuns same({{0, latency}});
    BusTiming hooked = fixed;
    hooked.memory = &same;
    EXPECT_EQ(dmaReadDone(e, g, hooked), dmaReadDone(e, g, fixed)) << i;
    EXPECT_EQ(dmaWriteDone(e, g, hooked, 3), dmaWriteDone(e, g, fixed, 3)) << i;
  }
}

struct Explored {
  tc::Program prog;
  dataflow::StatementView v;
  dse::ExploreOptions o;
  dse::ExploreResult r;
};

Explored exploreGemm(int64_t m, int64_t n, int64_t k, dse::MemorySystem mem, int64_t budget) {
  Explored e;
  e.prog = dataflow::test::program(dataflow::test::kGemm, {{"M", m}, {"N", n}, {"K", k}});
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

void expectSameTiming(const MemoryTiming& a, const MemoryTiming& b, const std::string& id) {
  EXPECT_EQ(a.cycles, b.cycles) << id;
  EXPECT_EQ(a.firstLoad, b.firstLoad) << id;
  EXPECT_EQ(a.lastStore, b.lastStore) << id;
  EXPECT_EQ(a.computeBound, b.computeBound) << id;
  EXPECT_EQ(a.loadBound, b.loadBound) << id;
  EXPECT_EQ(a.storeBound, b.storeBound) << id;
  EXPECT_EQ(a.loadCycles, b.loadCycles) << id;
  EXPECT_EQ(a.storeCycles, b.storeCycles) << id;
}

TEST(DramTiming, ReducesToTheFixedLatencyWithoutRowCosts) {
  // With tRCD = tRP = 0 every access is ready CL cycles after it reaches the DRAM, whatever the
  // rows: the fixed-latency prediction with latency + CL, on every tenth design of a GEMM with
  // partial sums reloaded and edge tiles, at unaligned bases too.
  const dse::MemorySystem mem{8, 20, 256};
  Explored e = exploreGemm(20, 12, 18, mem, 2048);
  ASSERT_FALSE(e.r.points.empty());
  const AxiOptions o = axiOptions(mem);
  int checked = 0;
  for (size_t i = 0; i < e.r.points.size(); i += 10) {
    const dse::DesignPoint& pt = e.r.points[i];
    const MemoryPlan m = plan(e, pt);
    std::vector<uint64_t> bases = defaultBases(m);
    for (size_t t = 0; t < bases.size(); ++t)
      bases[t] += 8 * ((i + t) % 3) + 4096 * t;
    for (int64_t cl : {0, 9}) {
      Dram d;
      d.tRCD = d.tRP = 0;
      d.CL = cl;
      d.rowBytes = 64;
      dse::MemorySystem slower = mem;
      slower.latency += cl;
      const MemoryTiming fixed = memoryTiming(m, o, slower, bases);
      const MemoryTiming dram = dramTiming(m, o, mem, d, bases);
      expectSameTiming(dram, fixed, pt.id);
      EXPECT_EQ(dram.unsettledPhases, 0) << pt.id;
      EXPECT_GT(dram.rowMisses, 0) << pt.id;
    }
    ++checked;
  }
  EXPECT_GT(checked, 5);
}

TEST(DramTiming, ShortRowsInOneBankCostCycles) {
  // One bank of 32-byte rows: a miss nearly every burst and conflicts between the channels. The
  // runs take longer than on a DRAM whose rows cost nothing, and the replay settles in every
  // phase.
  const dse::MemorySystem mem{8, 20, 256};
  Explored e = exploreGemm(20, 12, 18, mem, 2048);
  const AxiOptions o = axiOptions(mem);
  for (size_t i = 0; i < e.r.points.size(); i += 10) {
    const dse::DesignPoint& pt = e.r.points[i];
    const MemoryPlan m = plan(e, pt);
    Dram clOnly;
    clOnly.tRCD = clOnly.tRP = 0;
    Dram rows = clOnly;
    rows.banks = 1;
    rows.rowBytes = 32;
    rows.tRCD = rows.tRP = 14;
    const MemoryTiming a = dramTiming(m, o, mem, clOnly), b = dramTiming(m, o, mem, rows);
    EXPECT_GT(b.cycles, a.cycles) << pt.id;
    EXPECT_GT(b.rowMisses, a.rowMisses) << pt.id;
    EXPECT_GT(b.rowConflicts, 0) << pt.id;
    EXPECT_EQ(b.unsettledPhases, 0) << pt.id;
  }
}

TEST(PimDma, AUnitsBanksAreItsMemory) {
  // A unit with a DMA (docs/pim.md): 2 banks of 256-byte rows, 16 bytes a cycle.
  dse::PimSystem s;
  s.units = 1;
  s.banksPerUnit = 2;
  s.access = dse::PimAccess::dma;
  s.arrays = {{4, 4}};
  s.bufferBytes = 1024;
  s.bank = {16, 256, 3, 3, 12, 4};
  const Dram d = pimUnitDram(s);
  EXPECT_EQ(toString(d), "banks=2,row=256,trcd=3,trp=3,cl=4,tras=12");
  const dse::MemorySystem port = pimUnitPort(s);
  EXPECT_EQ(port.bytesPerCycle, 16);
  EXPECT_EQ(port.latency, 1); // the banks' timings are the DRAM's
  // Bursts in flight enough for an activate and a read (tRCD + CL + 2).
  EXPECT_EQ(pimUnitAxi(s).outstanding, 3 + 4 + 2);

  Explored e = exploreGemm(16, 12, 20, dse::unitMemory(s), s.bufferBytes);
  ASSERT_FALSE(e.r.points.empty());
  for (size_t i = 0; i < e.r.points.size(); i += 7) {
    const dse::DesignPoint& pt = e.r.points[i];
    const MemoryPlan m = plan(e, pt);
    // Row-major from row boundaries, one after the other: C (16 x 12 x 4 bytes = 3 rows), A
    // (16 x 20 = 2 rows), B (20 x 12 = 1 row).
    EXPECT_EQ(pimUnitBases(m, s), (std::vector<uint64_t>{0, 768, 1280})) << pt.id;
    const MemoryTiming t = pimUnitTiming(m, s);
    expectSameTiming(t, dramTiming(m, pimUnitAxi(s), port, d, {0, 768, 1280}), pt.id);
    // Without tRAS no run is slower; the precharges it holds back are the difference.
    dse::PimSystem quick = s;
    quick.bank.tRAS = 0;
    EXPECT_LE(pimUnitTiming(m, quick).cycles, t.cycles) << pt.id;
    EXPECT_EQ(t.unsettledPhases, 0) << pt.id;
  }
}

TEST(PimDma, UnitsHoldBlocksThatCoverTheTensors) {
  // Four units with a DMA on GEMM 8x6x4: every spread the explorer builds gives each unit a
  // block of every tensor (its plan's shapes), and the blocks at the units' offsets cover each
  // input and output element as often as the spread loops that do not index it multiply.
  dse::PimSystem s;
  s.units = 4;
  s.banksPerUnit = 2;
  s.access = dse::PimAccess::dma;
  s.arrays = {{2, 2}};
  s.bufferBytes = 512;
  s.bank = {8, 128, 3, 3, 10, 3};
  s.hostBytesPerCycle = 8;
  s.clockMhz = 500;
  const tc::Program prog =
      dataflow::test::program(dataflow::test::kGemm, {{"M", 8}, {"N", 6}, {"K", 4}});
  const dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.elementBits = {32, 8, 8};
  const dse::PimExploreResult r = dse::explorePim(v, s, o);
  size_t checked = 0;
  for (const dse::PimDesign& d : r.designs) {
    bool divides = true;
    for (size_t l = 0; l < v.extent.size(); ++l)
      divides &= v.extent[l] % d.spread[l] == 0;
    if (!divides) continue;
    SCOPED_TRACE(d.id);
    ++checked;
    const MemoryPlan m = pimUnitPlan(prog, v, d, o.constraints.elementBits, "u");
    for (size_t t = 0; t < v.accesses.size(); ++t) {
      const dataflow::AccessView& a = v.accesses[t];
      const std::vector<int64_t>& shape = prog.tensors[static_cast<size_t>(a.tensor)].shape;
      // The block: each dimension's loop at its share's extent.
      int64_t copies = 1;
      for (size_t l = 0; l < v.extent.size(); ++l) {
        bool indexes = false;
        for (const auto& row : a.coeffs)
          indexes |= row[l] != 0;
        if (!indexes) copies *= d.spread[l];
      }
      std::vector<int64_t> count(static_cast<size_t>(shape[0] * (shape.size() > 1 ? shape[1] : 1)));
      for (int64_t u = 0; u < s.units; ++u) {
        const std::vector<int64_t> off = pimUnitOffsets(v, d, u)[t];
        const std::vector<int64_t>& block = m.tensors[t].shape;
        ASSERT_EQ(block.size(), shape.size());
        const int64_t cols = shape.size() > 1 ? block[1] : 1;
        for (int64_t i = 0; i < block[0]; ++i)
          for (int64_t c = 0; c < cols; ++c) {
            const int64_t wi = off[0] + i, wc = shape.size() > 1 ? off[1] + c : 0;
            ASSERT_LT(wi, shape[0]);
            if (shape.size() > 1) {
              ASSERT_LT(wc, shape[1]);
            }
            ++count[static_cast<size_t>(wi * (shape.size() > 1 ? shape[1] : 1) + wc)];
          }
      }
      for (int64_t c : count)
        EXPECT_EQ(c, copies) << a.name;
    }
  }
  EXPECT_GE(checked, 4u);
}

} // namespace
} // namespace rubick::arch
