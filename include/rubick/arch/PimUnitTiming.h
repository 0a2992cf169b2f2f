#pragma once
// The exact cycles of one PIM stream unit's run (docs/pim.md, "The hardware"): its banks' reader
// (rtl_templates/rubick_bank_stream.v), the column FIFO and the stream port
// (rtl_templates/rubick_stream_port.v) and the core on its gated clock, replayed cycle by cycle
// from the words the core reads in each of its cycles (arch/CoreReads.h). Nothing in a unit
// depends on the data, so this is what the hardware measures, and verify holds it to that.

#include <cstdint>
#include <vector>

namespace rubick::arch {

struct PimUnitConfig {
  int64_t banks = 1, rowCols = 1;               // per unit; columns a row
  int64_t tRCD = 0, tRP = 0, tRAS = 0, tCL = 0; // unit cycles
  int64_t readerDepth = 0;                      // the reader's FIFO columns (0: CL + 2)
  int64_t wordsPerColumn = 1;
  int64_t portDepth = 0; // the stream port's words (0: a column + ports - 1)
  int64_t ports = 1;     // the core's banks that read the stream
  int64_t columns = 0;   // the stream's columns
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
PimUnitRun pimUnitRun(const PimUnitConfig& c, const std::vector<int32_t>& perCycle);

} // namespace rubick::arch
