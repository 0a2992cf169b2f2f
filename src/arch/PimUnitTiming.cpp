#include "rubick/arch/PimUnitTiming.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

namespace rubick::arch {

// Mirrors the registers and the combinational rules of rubick_bank_stream and
// rubick_stream_port cycle by cycle (their comments give the rules); names follow the RTL.
PimUnitRun pimUnitRun(const PimUnitConfig& c, const std::vector<int32_t>& perCycle) {
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
    const bool rdFire = busy && rdLeft > 0 && held < depth &&
                        ((open[rdBank] && !rdone[rdBank] && rcdOk(rdBank)) || rdNowOpen);
    const bool rdRowEnd = rdCol == c.rowCols - 1 || rdLeft == 1;
    if (rdFire) returns.push_back(t + c.tCL);
    const bool rdValid = !returns.empty() && returns.front() == t;
    if (rdValid) returns.pop_front();
    const bool outValid = fifo > 0;
    // ---- the port and the core ----
    const int64_t k = coreRunning ? perCycle[static_cast<size_t>(coreDone)] : 0;
    const bool go = portCount >= k;
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
      if (rdFire && rdRowEnd && rdBank == b) rdone[b] = 1;
    }
    run.activates += actFire;
    if (start && !busy) {
      busy = true;
      actLeft = rdLeft = c.columns;
      actFirst = true;
      actBank = rdBank = rdCol = 0;
    } else {
      if (finish) busy = false;
      if (actFire) {
        actLeft -= actCnt;
        actFirst = false;
        gapNeed = actCnt;
        actBank = actBank == nb - 1 ? 0 : actBank + 1;
      }
      if (rdFire) {
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
