// SPDX-License-Identifier: Apache-2.0
// A PIM unit's banks (include/rubick/dse/Pim.h, docs/pim.md): what a row costs a unit that
// copies tiles (its memory model) and one that reads in place (its stream).

#include "rubick/dse/Pim.h"

#include "MemoryCommon.h"

#include "rubick/dse/PortWindows.h"
#include "rubick/dse/Schedule.h"

#include <algorithm>

namespace rubick::dse {

using detail::ceilDiv;

namespace {

// A bank is busy with a row from its activate to the end of its precharge, at least tRAS
// before the precharge; `reading` cycles of it are spent on the row's columns.
int64_t rowBusy(const PimBank& b, int64_t reading) {
  return std::max(b.tRCD + reading, b.tRAS) + b.tRP;
}

} // namespace

MemorySystem unitMemory(const PimSystem& s) {
  const PimBank& b = s.bank;
  MemorySystem m;
  m.bytesPerCycle = b.bytesPerCycle;
  m.latency = b.tRCD + b.tCL;
  m.burstBytes = std::clamp<int64_t>(b.rowBytes, b.bytesPerCycle, 4096);
  m.rowBytes = b.rowBytes;
  // With k banks taking rows in turn a row can start every busy / k cycles; what that exceeds
  // the row's reading is the row's cost on the unit's port.
  const int64_t reading = ceilDiv(b.rowBytes, b.bytesPerCycle);
  const int64_t k = std::max<int64_t>(1, s.banksPerUnit);
  m.rowCycles = std::max<int64_t>(0, ceilDiv(rowBusy(b, reading), k) - reading);
  return m;
}

int64_t bankReads(const dataflow::StatementView& v, const DesignPoint& d, size_t a) {
  const Schedule sc = schedule(v, d.dataflow, d.entries);
  const TensorTiming& tt = sc.tensors[a];
  const bool held = heldEntry(d.entries[a].kind);
  const bool overlap = sc.interval < sc.tileCycles;
  const PortWindows pw = portWindows(d.dataflow, d.entries[a], peWindows(d.dataflow));
  int64_t perTile = 0;
  for (const Window& w : pw.window) {
    if (!overlap)
      perTile += held ? 1 : tt.teMax - tt.teMin + 1;
    else if (!w.empty())
      perTile += held ? 1 : w.length();
  }
  return sc.tiles * perTile;
}

int64_t readAheadColumns(const PimSystem& s) {
  return s.readAheadBytes > 0 ? s.readAheadBytes / s.bank.bytesPerCycle : s.bank.tCL + 2;
}

PimStream streamRun(const PimSystem& s, int64_t latency, int64_t bytes, int64_t writeColumns) {
  PimStream r;
  r.cycles = latency;
  if (bytes <= 0) return r;
  const PimBank& b = s.bank;
  r.rows = ceilDiv(bytes, b.rowBytes);
  // The words lie in the order the array reads them, so a column register smooths the array's
  // bursts: the run takes the array's cycles or the bank's column reads, whichever is more.
  const int64_t base = std::max(latency, ceilDiv(bytes, b.bytesPerCycle));
  // The cycles on a row at that pace, rounded down so that a stall is never missed.
  r.rowCycles = std::max<int64_t>(1, b.rowBytes * base / bytes);
  const int64_t k = std::max<int64_t>(1, s.banksPerUnit);
  // What a row change costs beyond the row's own time, if nothing were read ahead.
  const int64_t change = ceilDiv(rowBusy(b, r.rowCycles), k) - r.rowCycles;
  if (change > 0) {
    // The reader reads ahead into its FIFO while the array is slower than the bank: at a row's
    // end the FIFO holds up to its depth (and a column in the port), which the array eats
    // during the change; the next row's first column is CL + 3 cycles from its read to the
    // array (docs/pim.md).
    const int64_t cols = std::max<int64_t>(1, b.rowBytes / b.bytesPerCycle);
    const int64_t gained = std::max<int64_t>(0, cols - ceilDiv(cols * cols, r.rowCycles));
    const int64_t held = std::min(readAheadColumns(s), b.tCL + 2 + gained) + 1;
    const int64_t slack = held * r.rowCycles / cols;
    r.stallPerRow = std::max<int64_t>(0, std::min(change, change + b.tCL + 3 - slack));
  }
  // A write column stops the reads behind it until the array has written its words: the next
  // read reaches the array CL + 3 cycles later.
  r.cycles = b.tRCD + b.tCL + base + (r.rows - 1) * r.stallPerRow + writeColumns * (b.tCL + 3);
  return r;
}

int64_t unitPes(const PimSystem& s) {
  int64_t n = 0;
  for (const ArrayShape& a : s.arrays)
    n = std::max(n, a.p * a.q);
  return n;
}

const char* toString(PimAccess a) {
  return a == PimAccess::stream ? "stream" : "dma";
}

const char* toString(PimPlacement p) {
  switch (p) {
  case PimPlacement::banks:
    return "banks";
  case PimPlacement::replicated:
    return "replicated";
  case PimPlacement::broadcast:
    return "broadcast";
  case PimPlacement::buffer:
    return "buffer";
  }
  return "?";
}

} // namespace rubick::dse
