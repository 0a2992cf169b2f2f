// SPDX-License-Identifier: Apache-2.0
// A PIM stream unit's stream layout and replayed run (arch/PimUnitTiming.h) on cases worked out
// by hand; the replay's agreement with the hardware is the sim.pim_* tests' (measured =
// predicted for every design).

#include "rubick/arch/PimUnitTiming.h"

#include <gtest/gtest.h>

namespace rubick::arch {
namespace {

using Runs = std::vector<std::pair<int64_t, int64_t>>;

TEST(PimStreamLayout, AWriteColumnFollowsTheReadsOfItsLastWordsCycle) {
  // Reads 2 a cycle (4 a column): read columns end after cycles 2, 4, 6 (1-based). Writes in
  // cycles 2, 5 and 6, two a column: column 0 is complete in cycle 5 (10 reads: 3 columns),
  // column 1 (one word and padding) in cycle 6 (12 reads: 3 columns).
  const StreamLayout l = streamLayout({2, 2, 2, 2, 2, 2}, {0, 1, 0, 0, 1, 1}, 4, 2);
  EXPECT_EQ(l.readColumns, 3);
  EXPECT_EQ(l.writeColumns, 2);
  EXPECT_EQ(l.runs, (Runs{{3, 2}}));
  EXPECT_EQ(l.isWrite, (std::vector<char>{0, 0, 0, 1, 1}));
  // One word a column: the first after cycle 1's reads (1 column), the second after cycle 6's.
  const StreamLayout m = streamLayout({2, 2, 2, 2, 2, 2}, {1, 0, 0, 0, 0, 1}, 4, 1);
  EXPECT_EQ(m.runs, (Runs{{1, 1}, {2, 1}}));
  EXPECT_EQ(m.isWrite, (std::vector<char>{0, 1, 0, 0, 1}));
  // No writes: every column a read, no runs.
  const StreamLayout n = streamLayout({3, 3}, {0, 0}, 4, 1);
  EXPECT_TRUE(n.runs.empty());
  EXPECT_EQ(n.isWrite, (std::vector<char>{0, 0}));
}

TEST(PimUnitRun, ZeroTimingsOneWordACycle) {
  // tRCD = tRP = tRAS = CL = 0, a word a column, the core reading one a cycle for n cycles:
  // the ACT and the first RD in cycle 1, its column in the FIFO after edge 1, in the port after
  // edge 2, the core's first step at edge 3 and one a cycle after: done after edge n + 2 (the
  // reader, precharging after its last RD in cycle n, is idle after edge n + 1).
  PimUnitConfig c;
  c.rowCols = 64;
  c.columns = 10;
  const PimUnitRun r = pimUnitRun(c, std::vector<int32_t>(10, 1));
  EXPECT_EQ(r.cycles, 12);
  EXPECT_EQ(r.coreStops, 2);
  EXPECT_EQ(r.activates, 1);
}

TEST(PimUnitRun, WritesWaitForTheirWords) {
  // The same with a write column after every read column (one output word a cycle, written
  // as it comes): each write column waits for the core's word, and the stream ends later than
  // without writes, never before the core.
  PimUnitConfig c;
  c.rowCols = 64;
  const std::vector<int32_t> reads(10, 1), writes(10, 1);
  const StreamLayout l = streamLayout(reads, writes, 1, 1);
  EXPECT_EQ(l.readColumns, 10);
  EXPECT_EQ(l.writeColumns, 10);
  c.columns = l.readColumns + l.writeColumns;
  c.writePorts = 1;
  c.isWrite = l.isWrite;
  const PimUnitRun r = pimUnitRun(c, reads, writes);
  PimUnitConfig none;
  none.rowCols = 64;
  none.columns = 10;
  EXPECT_GT(r.cycles, pimUnitRun(none, reads).cycles);
}

} // namespace
} // namespace rubick::arch
