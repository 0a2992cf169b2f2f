// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exact cycles of one PIM stream unit's run (docs/pim.md, "The hardware"): its banks' reader
// (rtl_templates/rubick_bank_stream.v), the column FIFO and the stream port
// (rtl_templates/rubick_stream_port.v) and the core on its gated clock, replayed cycle by cycle
// from the words the core reads in each of its cycles (arch/CoreReads.h). Nothing in a unit
// depends on the data, so this is what the hardware measures, and verify holds it to that.

#include <cstdint>
#include <utility>
#include <vector>

namespace rubick::arch {

/// A unit's stream of columns when its outputs go to its banks too: `runs` (reads, then
/// writes, per run; the columns after the last run are reads), as rubick_bank_stream's RUNS.
/// A write column comes right after the read columns that hold every word the core reads up
/// to the cycle it writes the column's last word: the core never waits for a read behind a
/// write it has not produced, so the stream cannot deadlock, and the column is written as
/// soon as its words are there.
struct StreamLayout {
  std::vector<std::pair<int64_t, int64_t>> runs;
  int64_t readColumns = 0, writeColumns = 0;
  std::vector<char> isWrite; // per column
};
StreamLayout streamLayout(const std::vector<int32_t>& readsPerCycle,
                          const std::vector<int32_t>& writesPerCycle, int64_t wordsIn,
                          int64_t wordsOut);

struct PimUnitConfig {
  int64_t banks = 1, rowCols = 1;               // per unit; columns a row
  int64_t tRCD = 0, tRP = 0, tRAS = 0, tCL = 0; // unit cycles
  int64_t readerDepth = 0;                      // the reader's FIFO columns (0: CL + 2)
  int64_t wordsPerColumn = 1;
  int64_t portDepth = 0; // the stream port's words (0: a column + ports - 1)
  int64_t ports = 1;     // the core's banks that read the stream
  int64_t columns = 0;   // the stream's columns
  // Outputs in the banks: rubick_stream_wport's ports, words a column, buffer (0: a column +
  // ports - 1), and the stream's column kinds (streamLayout's isWrite; empty: all reads).
  int64_t writePorts = 0, outWordsPerColumn = 1, writeDepth = 0;
  std::vector<char> isWrite;
};

struct PimUnitRun {
  int64_t cycles = 0;     // from the edge that samples start to the first cycle done is high
  int64_t coreStops = 0;  // cycles the core waited for words
  int64_t activates = 0;  // rows opened
  int64_t lastColumn = 0; // the cycle the last column was taken by the port
};

/// `perCycle`: the words the core reads in each of its busy cycles (busy cycle 1 first); the
/// core's done rises `perCycle.size()` core edges after the one that samples start. Throws
/// std::logic_error if the stream ends before the core has its words or the run does not end.
/// `writesPerCycle` (empty: none): the words the core writes in each busy cycle.
PimUnitRun pimUnitRun(const PimUnitConfig& c, const std::vector<int32_t>& perCycle,
                      const std::vector<int32_t>& writesPerCycle = {});

} // namespace rubick::arch
