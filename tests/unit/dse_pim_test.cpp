// SPDX-License-Identifier: Apache-2.0
// The PIM model: the bank as a unit's memory, the rows a tile opens, and the spreads, placements
// and costs of explorePim, each worked out by hand or against the explorer run on one share.

#include "dataflow_test_util.h"

#include "rubick/dse/Pim.h"
#include "rubick/support/Unsupported.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace rubick::dse {
namespace {

PimSystem smallSystem() {
  PimSystem s;
  s.units = 4;
  s.banksPerUnit = 1;
  s.arrays = {{1, 4}};
  s.bufferBytes = 512;
  s.bank = {8, 64, 3, 2, 10, 4}; // 8 B a cycle, 64-byte rows, tRCD 3, tRP 2, tRAS 10, CL 4
  s.hostBytesPerCycle = 4;
  s.clockMhz = 100;
  return s;
}

TEST(Pim, UnitMemoryChargesWhatRowsAddToStreaming) {
  PimSystem s = smallSystem();
  MemorySystem m = unitMemory(s);
  EXPECT_EQ(m.bytesPerCycle, 8);
  EXPECT_EQ(m.latency, 3 + 4); // the first row's activate, then the read's data
  EXPECT_EQ(m.rowBytes, 64);
  // A row streams in 64 / 8 = 8 cycles; its bank is busy max(3 + 8, 10) + 2 = 13: 5 more.
  EXPECT_EQ(m.rowCycles, 5);
  // tRAS longer than activate and streaming: the bank is busy 20 + 2 cycles a row.
  s.bank.tRAS = 20;
  EXPECT_EQ(unitMemory(s).rowCycles, 22 - 8);
  // Two banks taking rows in turn: a row every ceil(22 / 2) = 11 cycles, 3 beyond streaming.
  s.banksPerUnit = 2;
  EXPECT_EQ(unitMemory(s).rowCycles, 3);
  // Four: hidden entirely.
  s.banksPerUnit = 4;
  EXPECT_EQ(unitMemory(s).rowCycles, 0);
}

TEST(Pim, RowsATileOpens) {
  // A(i, j) of 8 x 64 int8, row-major: each matrix row is one 64-byte DRAM row.
  const dataflow::StatementView v =
      dataflow::test::statement(dataflow::test::kGemv, {{"M", 8}, {"N", 64}});
  MemoryProblem p;
  p.view = &v;
  p.memory = {8, 7, 64, 64, 5};
  p.banks.resize(v.accesses.size());
  for (BankUse& b : p.banks)
    b.bytes = 1;
  const size_t a = 1; // A
  // The whole matrix: one run of 512 bytes, 8 rows.
  EXPECT_EQ(tileRows(p, a, {8, 64}), 8);
  // Half of each matrix row: 4 runs 64 bytes apart (a DRAM row apart): one row each.
  EXPECT_EQ(tileRows(p, a, {4, 32}), 4);
  // Rows of 256 bytes: the 4 half-rows span 3 x 64 + 32 = 224 bytes, one DRAM row.
  p.memory.rowBytes = 256;
  EXPECT_EQ(tileRows(p, a, {4, 32}), 1);
  // All 8: 7 x 64 + 32 = 480 bytes, two.
  EXPECT_EQ(tileRows(p, a, {8, 32}), 2);
  // Each further row costs rowCycles: the transfer of the whole matrix opens 2 rows.
  EXPECT_EQ(tileTransferCycles(p, a, {8, 64}, true), 7 + kLoadOverhead + 512 / 8 + (2 - 1) * 5);
  // Without rows, no extra cycles.
  p.memory.rowBytes = 0;
  p.memory.rowCycles = 0;
  EXPECT_EQ(tileRows(p, a, {8, 64}), 1);
  EXPECT_EQ(tileTransferCycles(p, a, {8, 64}, true), 7 + kLoadOverhead + 512 / 8);
}

TEST(Pim, StreamRunStallsPerRow) {
  PimSystem s = smallSystem();
  // 320 bytes over 100 cycles: 5 rows of 64 (8 columns), the array 64 x 100 / 320 = 20 cycles
  // on each; a bank is busy max(3 + 20, 10) + 2 = 25 cycles a row: a change costs 5 cycles
  // beyond the row. With one column read ahead (and one in the port) the array has
  // 2 x 20 / 8 = 5 cycles of words at a row's end, against the change's 5 + CL 4 + 3 = 12
  // until the next row's first word: 5 cycles of stall per further row.
  s.readAheadBytes = 8;
  PimStream r = streamRun(s, 100, 320);
  EXPECT_EQ(r.rows, 5);
  EXPECT_EQ(r.rowCycles, 20);
  EXPECT_EQ(r.stallPerRow, 5);
  EXPECT_EQ(r.cycles, 3 + 4 + 100 + 4 * 5);
  // The default FIFO of CL + 2 = 6 columns: the reader gains 8 - ceil(64 / 20) = 4 columns a
  // row on the array, so it is full at a row's end: 7 x 20 / 8 = 17 cycles of words, more than
  // the 12: no stall.
  s.readAheadBytes = 0;
  r = streamRun(s, 100, 320);
  EXPECT_EQ(r.stallPerRow, 0);
  EXPECT_EQ(r.cycles, 3 + 4 + 100);
  // Two write columns: each stops the reads behind it, CL + 3 cycles.
  EXPECT_EQ(streamRun(s, 100, 320, 2).cycles, 3 + 4 + 100 + 2 * (4 + 3));
  s.readAheadBytes = 8;
  // Two banks in turn: a row every ceil(25 / 2) = 13 cycles, under the array's 20: no stall.
  s.banksPerUnit = 2;
  r = streamRun(s, 100, 320);
  EXPECT_EQ(r.stallPerRow, 0);
  EXPECT_EQ(r.cycles, 3 + 4 + 100);
  // Nothing from the banks: the array's cycles alone.
  EXPECT_EQ(streamRun(s, 100, 0).cycles, 100);
  EXPECT_EQ(streamRun(s, 100, 0).rows, 0);
}

// GEMV 32 x 64 (int32 y, int8 A and x) on 4 units: 1 x 4, 2 x 2 or 4 x 1 units over (i, j).
const dataflow::StatementView& gemv() {
  static const dataflow::StatementView v =
      dataflow::test::statement(dataflow::test::kGemv, {{"M", 32}, {"N", 64}});
  return v;
}

ExploreOptions options() {
  ExploreOptions o;
  o.threads = 1;
  o.constraints.elementBits = {32, 8, 8};
  return o;
}

// What every design of either kind satisfies: the spread, the host's part (worked out by
// hand), the totals.
void checkCommon(const PimExploreResult& r) {
  // 4 units over (i, j): 1 x 4, 2 x 2, 4 x 1.
  EXPECT_EQ(r.spreads, 3u);
  for (const PimDesign& d : r.designs) {
    SCOPED_TRACE(d.id);
    ASSERT_EQ(d.spread.size(), 2u);
    const int64_t ui = d.spread[0], uj = d.spread[1];
    EXPECT_EQ(ui * uj, 4);
    EXPECT_EQ(d.share.extent, (IntVec{32 / ui, 64 / uj}));
    // y (32 int32) to the host, each unit's partial sums when j is spread (4 bytes a cycle).
    EXPECT_EQ(d.reduceUnits, uj);
    EXPECT_EQ(d.hostOutCycles, 32 * 4 * uj / 4);
    // x (64 bytes) written by the host once per run when every unit shares it; A (and x when
    // it is split) is resident in the banks.
    EXPECT_EQ(d.hostInCycles, uj > 1 ? 0 : 64 / 4);
    EXPECT_EQ(d.placement[1], PimPlacement::banks);
    if (uj > 1) {
      EXPECT_EQ(d.placement[2], PimPlacement::banks);
    }
    EXPECT_EQ(d.cycles, d.hostInCycles + d.unitCycles + d.hostOutCycles);
    EXPECT_EQ(d.macs, 32 * 64);
    EXPECT_NEAR(d.utilization, 32.0 * 64 / (double(d.cycles) * 4 * 4), 1e-12);
    // The banks give at least every element of A once.
    EXPECT_GE(d.bankBytes, 32 * 64);
    EXPECT_GT(d.rowHitRate, 0);
    EXPECT_LE(d.rowHitRate, 1);
    EXPECT_LE(d.roofline, 1 + 1e-9);
  }
  for (size_t i = 1; i < r.designs.size(); ++i)
    EXPECT_LE(r.designs[i - 1].cycles, r.designs[i].cycles);
}

TEST(Pim, DmaUnitsAreMemoryDesignsOfTheirShare) {
  PimSystem s = smallSystem();
  s.access = PimAccess::dma;
  const PimExploreResult r = explorePim(gemv(), s, options());
  ASSERT_EQ(r.designs.size(), 3u);
  checkCommon(r);
  for (const PimDesign& d : r.designs) {
    SCOPED_TRACE(d.id);
    // The unit is the explorer's best on one unit's share with the bank as its memory.
    ExploreOptions uo = options();
    uo.constraints.arrays = s.arrays;
    uo.constraints.bufferBytes = s.bufferBytes;
    uo.constraints.memory = unitMemory(s);
    uo.keepBest = 1;
    const dataflow::StatementView share = dataflow::test::statement(
        dataflow::test::kGemv, {{"M", 32 / d.spread[0]}, {"N", 64 / d.spread[1]}});
    const ExploreResult one = explore(share, uo);
    ASSERT_FALSE(one.points.empty());
    EXPECT_EQ(d.unitCycles, one.points.front().memory.cycles);
    EXPECT_EQ(d.unit.dataflow, one.points.front().dataflow);
    EXPECT_EQ(d.unit.buffer, one.points.front().buffer);
    EXPECT_EQ(d.bankBytes, 4 * one.points.front().memory.busBytes);
  }
}

TEST(Pim, StreamUnitsReadTheirBanksInPlace) {
  const PimSystem s = smallSystem();
  const PimExploreResult r = explorePim(gemv(), s, options());
  ASSERT_FALSE(r.designs.empty());
  checkCommon(r);
  const std::vector<int64_t> bytes = {4, 1, 1};
  for (const PimDesign& d : r.designs) {
    SCOPED_TRACE(d.id);
    // What the unit's buffer holds fits it; the banks give what the others' accesses read.
    int64_t buffer = 0, streamed = 0, writeColumns = 0;
    for (size_t a = 0; a < 3; ++a) {
      const TensorMetrics& t = d.unit.metrics.tensors[a];
      if (d.placement[a] == PimPlacement::buffer) buffer += t.bufferBytes;
      if (d.placement[a] == PimPlacement::banks || d.placement[a] == PimPlacement::replicated) {
        const int64_t moved = bankReads(d.share, d.unit, a) * bytes[a];
        streamed += moved;
        if (t.output) writeColumns += (moved + s.bank.bytesPerCycle - 1) / s.bank.bytesPerCycle;
      }
    }
    EXPECT_LE(buffer, s.bufferBytes);
    EXPECT_EQ(d.bankBytes, 4 * streamed);
    // No broadcast buffer in this system.
    for (PimPlacement p : d.placement)
      EXPECT_NE(p, PimPlacement::broadcast);
    // The unit's cycles are its array's and the stalls of its rows.
    const PimStream run = streamRun(s, d.unit.metrics.latency, d.bankBytes / 4, writeColumns);
    EXPECT_EQ(d.unitCycles, run.cycles);
    EXPECT_EQ(d.activates, 4 * run.rows);
    EXPECT_GE(d.unitCycles, d.unit.metrics.latency + s.bank.tRCD + s.bank.tCL);
  }
  // More banks per unit never cost cycles (rows open while others are read).
  PimSystem two = s;
  two.banksPerUnit = 2;
  const PimExploreResult r2 = explorePim(gemv(), two, options());
  ASSERT_FALSE(r2.designs.empty());
  EXPECT_LE(r2.designs.front().cycles, r.designs.front().cycles);
  // A broadcast buffer takes x when i is spread (x is then the same for every unit).
  PimSystem bc = s;
  bc.broadcastBytes = 1024;
  bc.broadcastBytesPerCycle = 8;
  for (const PimDesign& d : explorePim(gemv(), bc, options()).designs)
    if (d.spread[1] == 1) {
      EXPECT_EQ(d.placement[2], PimPlacement::broadcast) << d.id;
    }
}

TEST(Pim, StreamRunBoundByTheBank) {
  // 1,600 bytes in 100 cycles: the bank's 8 bytes a cycle need 200; 25 rows of 64 bytes, 8
  // cycles each at that pace, busy max(3 + 8, 10) + 2 = 13: 5 cycles of stall per further row.
  const PimStream r = streamRun(smallSystem(), 100, 1600);
  EXPECT_EQ(r.rows, 25);
  EXPECT_EQ(r.rowCycles, 8);
  EXPECT_EQ(r.stallPerRow, 5);
  EXPECT_EQ(r.cycles, 3 + 4 + 200 + 24 * 5);
}

TEST(Pim, TableNamesTheBound) {
  const PimSystem s = smallSystem();
  const PimExploreResult r = explorePim(gemv(), s, options());
  const std::string t = formatPimTable(gemv(), s, r, 1);
  // Rank 1 only, then how many more, then its place on the roofline: GEMV's 1 MAC a byte times
  // 4 x 8 bytes a cycle is 32 MACs a cycle against 4 x 4 PEs: bound by compute.
  EXPECT_NE(t.find("   1  " + r.designs.front().id), std::string::npos) << t;
  EXPECT_EQ(t.find("   2  "), std::string::npos) << t;
  EXPECT_NE(t.find("... 2 more"), std::string::npos) << t;
  EXPECT_NE(t.find("rank 1 on the banks' roofline: 1 MACs per byte from the banks x 32 B/cycle = "
                   "32 MACs/cycle against the units' peak of 16: bound by compute"),
            std::string::npos)
      << t;
  // A unit 8 times as wide with the same banks is bound by them.
  PimSystem wide = s;
  wide.arrays = {{4, 8}};
  const PimExploreResult rw = explorePim(gemv(), wide, options());
  ASSERT_FALSE(rw.designs.empty());
  EXPECT_NE(formatPimTable(gemv(), wide, rw, 1)
                .find("against the units' peak of 128: bound by "
                      "the banks"),
            std::string::npos);
}

TEST(Pim, JsonHoldsTheTable) {
  const PimSystem s = smallSystem();
  const PimExploreResult r = explorePim(gemv(), s, options());
  const tc::Program prog = dataflow::test::program(dataflow::test::kGemv, {{"M", 32}, {"N", 64}});
  const std::string text = pimToJson(prog, gemv(), "small", s, r, 2);
  // The file begins as explore's other JSON (how rubick knows the files it wrote).
  EXPECT_EQ(text.rfind("{\n  \"program\": \"", 0), 0u);
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["pim"]["units"], 4);
  EXPECT_EQ(j["pim"]["access"], "stream");
  EXPECT_EQ(j["spreads"], 3);
  ASSERT_EQ(j["designs"].size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const PimDesign& d = r.designs[i];
    const nlohmann::json& e = j["designs"][i];
    EXPECT_EQ(e["id"], d.id);
    EXPECT_EQ(e["cycles"], d.cycles);
    EXPECT_EQ(e["host_in_cycles"].get<int64_t>() + e["unit_cycles"].get<int64_t>() +
                  e["host_out_cycles"].get<int64_t>(),
              d.cycles);
    EXPECT_EQ(e["spread"]["i"].get<int64_t>() * e["spread"]["j"].get<int64_t>(), 4);
    EXPECT_EQ(e["placement"]["A"], "banks");
    EXPECT_EQ(e["unit"]["id"], d.unit.id);
    EXPECT_EQ(e["unit"]["latency"], d.unit.metrics.latency);
    EXPECT_NEAR(e["roofline"].get<double>(), d.roofline, 1e-5);
  }
}

TEST(Pim, HostOnlyBound) {
  // y 32 x 4 bytes, A 32 x 64, x 64: 2,240 bytes at 4 a cycle.
  EXPECT_EQ(hostOnlyCycles(gemv(), smallSystem(), options()), (32 * 4 + 32 * 64 + 64) / 4);
}

TEST(Pim, ScalarUnitsPutEveryLoopInTime) {
  // A unit of one PE (UPMEM's core): its designs map no loop onto space.
  PimSystem s = smallSystem();
  s.arrays = {{1, 1}};
  s.access = PimAccess::dma;
  const PimExploreResult r = explorePim(gemv(), s, options());
  ASSERT_FALSE(r.designs.empty());
  for (const PimDesign& d : r.designs) {
    EXPECT_EQ(d.unit.dataflow.p, 1) << d.id;
    EXPECT_EQ(d.unit.dataflow.q, 1) << d.id;
    for (size_t row = 0; row < 2; ++row)
      for (int64_t c : d.unit.dataflow.s[row])
        EXPECT_EQ(c, 0) << d.id; // PE(0, 0)
  }
}

TEST(Pim, NoSpreadWhenTheLoopsAreTooShort) {
  // 3 x 1 iterations cannot keep 4 units busy.
  const dataflow::StatementView v =
      dataflow::test::statement(dataflow::test::kGemv, {{"M", 3}, {"N", 1}});
  ExploreOptions o;
  o.threads = 1;
  const PimExploreResult r = explorePim(v, smallSystem(), o);
  EXPECT_EQ(r.spreads, 0u);
  EXPECT_TRUE(r.designs.empty());
}

} // namespace
} // namespace rubick::dse
