// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/PimUnitTiming.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

namespace rubick::arch {

StreamLayout streamLayout(const std::vector<int32_t>& reads, const std::vector<int32_t>& writes,
                          int64_t wordsIn, int64_t wordsOut) {
  StreamLayout l;
  std::vector<int64_t> readsUpTo(reads.size()); // inclusive prefix sums
  int64_t total = 0;
  for (size_t c = 0; c < reads.size(); ++c)
    readsUpTo[c] = total += reads[c];
  l.readColumns = (total + wordsIn - 1) / wordsIn;
  int64_t totalWrites = 0;
  for (int32_t w : writes)
    totalWrites += w;
  l.writeColumns = (totalWrites + wordsOut - 1) / wordsOut;
  // Each write column's place: after the read columns the core needs up to the cycle of its
  // last word.
  int64_t written = 0, placed = 0; // read columns before the current run's writes
  size_t c = 0;
  for (int64_t j = 0; j < l.writeColumns; ++j) {
    const int64_t last = std::min((j + 1) * wordsOut, totalWrites) - 1; // its last word
    while (written + writes[c] <= last)
      written += writes[c++];
    const int64_t at = c < readsUpTo.size() ? (readsUpTo[c] + wordsIn - 1) / wordsIn : 0;
    if (l.runs.empty() || at > placed) {
      l.runs.push_back({at - placed, 0});
      placed = at;
    }
    ++l.runs.back().second;
  }
  int64_t r = 0;
  for (const auto& [reads, ws] : l.runs) {
    l.isWrite.insert(l.isWrite.end(), static_cast<size_t>(reads), 0);
    l.isWrite.insert(l.isWrite.end(), static_cast<size_t>(ws), 1);
    r += reads;
  }
  l.isWrite.insert(l.isWrite.end(), static_cast<size_t>(l.readColumns - r), 0);
  return l;
}

// Mirrors the registers and the combinational rules of rubick_bank_stream and
// rubick_stream_port cycle by cycle (their comments give the rules); names follow the RTL.
PimUnitRun pimUnitRun(const PimUnitConfig& c, const std::vector<int32_t>& perCycle,
                      const std::vector<int32_t>& writesPerCycle) {
  const int64_t nb = std::max<int64_t>(1, c.banks);
  const int64_t depth = c.readerDepth > 0 ? c.readerDepth : c.tCL + 2;
  const int64_t words = c.wordsPerColumn;
  const int64_t portDepth = c.portDepth > 0 ? c.portDepth : words + c.ports - 1;
  const int64_t taTop = std::max(c.tRCD, c.tRAS), tpTop = c.tRP > 0 ? c.tRP : 1;
  const int64_t coreEdges = static_cast<int64_t>(perCycle.size());

  std::vector<char> open(nb, 0), rdone(nb, 0);
  std::vector<int64_t> tAct(nb, 0), tPre(nb, tpTop);
  bool busy = false, actFirst = false;
  int64_t actLeft = 0, actBank = 0, gap = 0, gapNeed = 0;
  int64_t rdLeft = 0, rdBank = 0, rdCol = 0, held = 0, fifo = 0;
  std::deque<int64_t> returns; // cycles in which read data arrives
  int64_t portCount = 0, coreDone = 0;
  // The write port: words held and words of the run not sent yet.
  const bool writes = c.writePorts > 0;
  const int64_t wWords = c.outWordsPerColumn;
  const int64_t wDepth = c.writeDepth > 0 ? c.writeDepth : wWords + c.writePorts - 1;
  int64_t wCount = 0, wLeft = 0, wTotal = 0;
  for (int32_t w : writesPerCycle)
    wTotal += w;
  int64_t column = 0; // the region's next column to read or write
  bool coreRunning = false;

  PimUnitRun run;
  const int64_t limit = 64 * (coreEdges + c.columns) + 100000;
  for (int64_t t = 0;; ++t) {
    if (t > limit) throw std::logic_error("pimUnitRun: the run does not end");
    const bool start = t == 0;
    // ---- the reader's combinational part ----
    const int64_t actCnt = std::min(actLeft, c.rowCols);
    auto rcdOk = [&](int64_t b) { return c.tRCD == 0 || tAct[b] >= c.tRCD; };
    auto rasOk = [&](int64_t b) { return c.tRAS == 0 || tAct[b] >= c.tRAS; };
    auto rpOk = [&](int64_t b) { return c.tRP == 0 || tPre[b] >= c.tRP; };
    int64_t preBank = -1;
    for (int64_t b = nb - 1; b >= 0; --b)
      if (open[b] && rdone[b] && rasOk(b)) preBank = b;
    const bool actFire =
        busy && actLeft > 0 && !open[actBank] && rpOk(actBank) && (actFirst || gap >= gapNeed);
    const bool preFire = preBank >= 0 && !actFire;
    const bool rdNowOpen = c.tRCD == 0 && actFire && actBank == rdBank;
    const bool isWrite =
        writes && column < static_cast<int64_t>(c.isWrite.size()) && c.isWrite[column];
    const bool wOutValid = writes && wLeft > 0 && wCount >= std::min(wWords, wLeft);
    const bool colFire = busy && rdLeft > 0 && (isWrite ? wOutValid : held < depth) &&
                         ((open[rdBank] && !rdone[rdBank] && rcdOk(rdBank)) || rdNowOpen);
    const bool rdFire = colFire && !isWrite, wrFire = colFire && isWrite;
    const bool rdRowEnd = rdCol == c.rowCols - 1 || rdLeft == 1;
    if (rdFire) returns.push_back(t + c.tCL);
    const bool rdValid = !returns.empty() && returns.front() == t;
    if (rdValid) returns.pop_front();
    const bool outValid = fifo > 0;
    // ---- the port and the core ----
    const int64_t k = coreRunning ? perCycle[static_cast<size_t>(coreDone)] : 0;
    const int64_t kw = coreRunning && writes ? writesPerCycle[static_cast<size_t>(coreDone)] : 0;
    // The core steps when its read words are there and its write words have room.
    const bool go = portCount >= k && wCount + kw <= wDepth;
    const bool inReady = !start && portCount - (go ? k : 0) + words <= portDepth;
    const bool pop = outValid && inReady;
    bool stillOpen = false;
    for (int64_t b = 0; b < nb; ++b)
      stillOpen |= open[b] && !(preFire && preBank == b);
    const bool finish = busy && rdLeft == 0 && !stillOpen && (held == 0 || (held == 1 && pop));
    if (coreRunning && !go) ++run.coreStops;
    if (pop) run.lastColumn = t;
    // ---- the edge ----
    for (int64_t b = 0; b < nb; ++b) {
      if (actFire && actBank == b) {
        open[b] = 1;
        tAct[b] = 1;
      } else if (tAct[b] != taTop) {
        ++tAct[b];
      }
      if (preFire && preBank == b) {
        open[b] = 0;
        rdone[b] = 0;
        tPre[b] = 1;
      } else if (tPre[b] != tpTop) {
        ++tPre[b];
      }
      if (colFire && rdRowEnd && rdBank == b) rdone[b] = 1;
    }
    run.activates += actFire;
    if (start && !busy) {
      busy = true;
      actLeft = rdLeft = c.columns;
      actFirst = true;
      actBank = rdBank = rdCol = 0;
      column = 0;
    } else {
      if (finish) busy = false;
      if (actFire) {
        actLeft -= actCnt;
        actFirst = false;
        gapNeed = actCnt;
        actBank = actBank == nb - 1 ? 0 : actBank + 1;
      }
      if (colFire) {
        ++column;
        --rdLeft;
        if (rdRowEnd) {
          rdCol = 0;
          rdBank = rdBank == nb - 1 ? 0 : rdBank + 1;
        } else {
          ++rdCol;
        }
      }
    }
    if (actFire)
      gap = 1;
    else if (gap != c.rowCols)
      ++gap;
    held += (rdFire ? 1 : 0) - (pop ? 1 : 0);
    fifo += (rdValid ? 1 : 0) - (pop ? 1 : 0);
    portCount = start ? 0 : portCount - (go ? k : 0) + (pop ? words : 0);
    if (start) {
      wCount = 0;
      wLeft = wTotal;
    } else {
      const int64_t sent = wrFire ? std::min(wWords, wLeft) : 0;
      wCount += (go ? kw : 0) - sent;
      wLeft -= sent;
    }
    if (start) {
      coreRunning = coreEdges > 0;
      coreDone = 0;
    } else if (coreRunning && go) {
      if (++coreDone == coreEdges) coreRunning = false;
    }
    // After edge t: done = the core's done and the reader idle.
    if (!start && !coreRunning && !busy) {
      run.cycles = t;
      return run;
    }
  }
}

} // namespace rubick::arch
