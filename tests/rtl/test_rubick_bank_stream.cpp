// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_bank_stream.v: every reader of tb_rubick_bank_stream.v (AiM-
// and HBM-PIM-like banks, 1 to 4 banks, bank-bound rows, zero timings, a FIFO of one column, rows
// of one column; eight of them again with runs of write columns) streams random regions of banks
// with random contents out of and into the bank model of sim_templates/rubick_pim_bank.h, which
// fails on any breach of the banks' timings or protocol. Every run, with a consumer that stalls
// at random or never and a write stream that offers its columns at random or always:
//  - every ACT opens the region's next row (bank and row), every RD or WR is the region's next
//    column (bank, column, the row the model must have open, and its kind by the runs), every
//    read column comes out in order and bit-exact, nothing after the last one; every WR writes
//    the write stream's column offered in its cycle (win_ready exactly then, wr_data = win_data)
//    and the banks hold it after the run; no WR ever without runs; no violation in the model;
//  - busy from the cycle after start until done, done once, every bank closed at done; out_*
//    held while stalled; the command outputs do not move when the inputs other than win_valid do.
// With an always-ready consumer and an always-valid write stream, cycle-exact, two ways:
//  - every command's cycle and the done cycle against a step-by-step model of the policy in the
//    module's header (ACT just in time and first on the row command slot, RD with a free FIFO
//    place, WR without one, PRE of the lowest ready bank), from any bank state and FIFO depth;
//  - against the header's formula (the recurrence A(j) and the done cycle T, also when the
//    region ends with write columns; for whole rows of reads its closed form) wherever it
//    applies: the banks rested, DEPTH >= CL + 2 and no PRE of the formula on the cycle of an ACT
//    or of another PRE; it must apply to half of the runs from rested banks at least, except
//    where PREs fall on ACTs by construction (tRCD = 0, rows of one column) or DEPTH < CL + 2.
//    On whole rows of reads also the closed form and the header's comparison with docs/pim.md's
//    streamRun, for the last column's cycle.
// First the bank model alone: a legal sequence passes, writes are stored, each kind of breach is
// caught.
// Then a second model with CL 6 cycles longer (the reader does not know CL: its FIFO places
// throttle it), and finally a 1 MiB stream (scaled to what the reader's region holds) per
// reader, timed against the formula and printed beside docs/pim.md's streamRun.
#include "Vtb_rubick_bank_stream.h"
#include "rtl_test.h"
#include "rubick_pim_bank.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace {

using Vtb = Vtb_rubick_bank_stream;
using rubick_sim::PimBankConfig;
using rubick_sim::PimBanks;
const char* kTest = "test_rubick_bank_stream";
constexpr long kNever = std::numeric_limits<long>::min() / 4;

struct Config {
  const char* name;
  unsigned banks, colW, rowCols, rowW, lenW, tRCD, tRP, tRAS, CL, depth;
  bool formulaMostly; // the formula applies to most runs (not: DEPTH < CL + 2, or PREs that
                      // fall on ACTs by construction: tRCD = 0, one-column rows)
  std::vector<std::pair<uint32_t, uint32_t>> runs; // RUNS: (R_i, W_i); empty: NRUNS = 0
  unsigned colBytes() const { return (colW + 7) / 8; }
  uint64_t rows() const { return uint64_t(1) << rowW; }
  uint64_t space() const { return rows() * banks * rowCols; } // columns
  uint64_t maxLen() const { return (uint64_t(1) << lenW) - 1; }
  long trp1() const { return std::max(1u, tRP); }
  // The kinds of a region's first `len` columns by the runs: true for a write column.
  std::vector<bool> kinds(uint64_t len) const {
    std::vector<bool> w(len, false);
    uint64_t at = 0;
    for (const auto& [r, wr] : runs) {
      at += r;
      for (uint64_t k = at; k < at + wr && k < len; ++k)
        w[k] = true;
      at += wr;
      if (at >= len) break;
    }
    return w;
  }
};

// Must match tb_rubick_bank_stream.v (the write configurations' runs were drawn at random once).
const Config kConfigs[] = {
    {"aim", 1, 256, 64, 10, 16, 18, 18, 35, 14, 16, true, {}},
    {"hbm", 2, 256, 32, 10, 16, 4, 4, 9, 5, 7, true, {}},
    {"aim2", 2, 256, 64, 9, 16, 18, 18, 35, 14, 16, true, {}},
    {"b4", 4, 32, 4, 6, 10, 6, 7, 15, 3, 5, true, {}},
    {"b2", 2, 40, 8, 6, 10, 5, 6, 20, 2, 4, true, {}},
    {"z2", 2, 16, 4, 5, 8, 0, 0, 0, 0, 2, false, {}},
    {"z1", 1, 8, 2, 6, 8, 0, 0, 0, 0, 2, true, {}},
    {"d1", 2, 64, 16, 5, 10, 3, 2, 8, 4, 1, false, {}},
    {"b3", 3, 24, 5, 5, 8, 2, 3, 7, 2, 4, true, {}},
    {"c1", 2, 12, 1, 7, 8, 1, 1, 2, 1, 3, false, {}},
    {"aimw",
     1,
     256,
     64,
     10,
     16,
     18,
     18,
     35,
     14,
     16,
     true,
     {{126u, 123u}, {45u, 44u}, {178u, 104u}, {133u, 35u}, {73u, 81u}, {184u, 102u}, {119u, 101u}}},
    {"hbmw",
     2,
     256,
     32,
     10,
     16,
     4,
     4,
     9,
     5,
     7,
     true,
     {{0u, 64u}, {28u, 32u}, {3u, 12u}, {63u, 23u}, {24u, 4u}}},
    {"b4w",
     4,
     32,
     4,
     6,
     10,
     6,
     7,
     15,
     3,
     5,
     true,
     {{3u, 0u}, {9u, 1u}, {11u, 6u}, {4u, 4u}, {8u, 4u}, {9u, 1u}}},
    {"z2w",
     2,
     16,
     4,
     5,
     8,
     0,
     0,
     0,
     0,
     2,
     false,
     {{0u, 0u},
      {0u, 1u},
      {1u, 2u},
      {2u, 1u},
      {2u, 1u},
      {2u, 1u},
      {0u, 2u},
      {0u, 2u},
      {0u, 2u},
      {0u, 3u},
      {0u, 1u},
      {1u, 2u}}},
    {"z1w",
     1,
     8,
     2,
     6,
     8,
     0,
     0,
     0,
     0,
     2,
     true,
     {{3u, 0u}, {5u, 0u}, {1u, 0u}, {2u, 1u}, {1u, 2u}, {1u, 2u}}},
    {"d1w",
     2,
     64,
     16,
     5,
     10,
     3,
     2,
     8,
     4,
     1,
     false,
     {{0u, 1u}, {1u, 1u}, {2u, 3u}, {0u, 0u}, {5u, 4294967295u}}},
    {"b3w",
     3,
     24,
     5,
     5,
     8,
     2,
     3,
     7,
     2,
     4,
     true,
     {{9u, 7u}, {5u, 1u}, {3u, 3u}, {7u, 5u}, {12u, 7u}}},
    {"c1w",
     2,
     12,
     1,
     7,
     8,
     1,
     1,
     2,
     1,
     3,
     false,
     {{1u, 1u}, {1u, 1u}, {1u, 1u}, {1u, 1u}, {1u, 1u}, {1u, 1u}, {0u, 2u}, {3u, 0u}, {1u, 4u}}},
};

struct Ports {
  std::function<void(Vtb&, bool, unsigned, uint64_t, unsigned, uint64_t)> setStart;
  std::function<void(Vtb&, bool)> setReady;
  std::function<void(Vtb&, bool, const rtl::Value&)> setRead, setWin;
  std::function<bool(Vtb&)> busy, done, outValid, rowValid, rowAct, colValid, colWrite, winReady;
  std::function<rtl::Value(Vtb&, int)> outData, wrData;
  std::function<uint64_t(Vtb&)> rowBank, rowAddr, colBank, colAddr;
};

#define PORTS(P)                                                                                   \
  Ports {                                                                                          \
    [](Vtb& m, bool s, unsigned bank, uint64_t row, unsigned col, uint64_t len) {                  \
      m.P##_start = s;                                                                             \
      m.P##_start_bank = bank;                                                                     \
      m.P##_start_row = row;                                                                       \
      m.P##_start_col = col;                                                                       \
      m.P##_start_len = len;                                                                       \
    },                                                                                             \
        [](Vtb& m, bool r) { m.P##_out_ready = r; },                                               \
        [](Vtb& m, bool v, const rtl::Value& d) {                                                  \
          m.P##_rd_valid = v;                                                                      \
          rtl::put(m.P##_rd_data, d);                                                              \
        },                                                                                         \
        [](Vtb& m, bool v, const rtl::Value& d) {                                                  \
          m.P##_win_valid = v;                                                                     \
          rtl::put(m.P##_win_data, d);                                                             \
        },                                                                                         \
        [](Vtb& m) -> bool { return m.P##_busy; }, [](Vtb& m) -> bool { return m.P##_done; },      \
        [](Vtb& m) -> bool { return m.P##_out_valid; },                                            \
        [](Vtb& m) -> bool { return m.P##_row_valid; },                                            \
        [](Vtb& m) -> bool { return m.P##_row_act; },                                              \
        [](Vtb& m) -> bool { return m.P##_col_valid; },                                            \
        [](Vtb& m) -> bool { return m.P##_col_write; },                                            \
        [](Vtb& m) -> bool { return m.P##_win_ready; },                                            \
        [](Vtb& m, int w) { return rtl::get(m.P##_out_data, w); },                                 \
        [](Vtb& m, int w) { return rtl::get(m.P##_wr_data, w); },                                  \
        [](Vtb& m) -> uint64_t { return m.P##_row_bank; },                                         \
        [](Vtb& m) -> uint64_t { return m.P##_row_addr; },                                         \
        [](Vtb& m) -> uint64_t { return m.P##_col_bank; },                                         \
        [](Vtb& m) -> uint64_t { return m.P##_col_addr; },                                         \
  }

// ---- Regions: column k of a region, and its rows ----

struct Region {
  unsigned bank = 0;
  uint64_t row = 0;
  unsigned col = 0;
  uint64_t len = 0;
};

struct Loc {
  unsigned bank;
  uint64_t row;
  unsigned col;
};

// The linear column address is (row * BANKS + bank) * ROW_COLS + col.
Loc locate(const Config& c, uint64_t lin) {
  const uint64_t r = lin / c.rowCols;
  return {unsigned(r % c.banks), r / c.banks, unsigned(lin % c.rowCols)};
}
uint64_t linear(const Config& c, const Region& g) {
  return (g.row * c.banks + g.bank) * c.rowCols + g.col;
}

struct RowPiece {
  unsigned bank;
  uint64_t row;
  unsigned col0, cnt;
};

std::vector<RowPiece> rowsOf(const Config& c, const Region& g) {
  std::vector<RowPiece> rows;
  uint64_t lin = linear(c, g), left = g.len;
  while (left > 0) {
    const Loc l = locate(c, lin);
    const unsigned cnt = unsigned(std::min<uint64_t>(left, c.rowCols - l.col));
    rows.push_back({l.bank, l.row, l.col, cnt});
    lin += cnt;
    left -= cnt;
  }
  return rows;
}

std::string str(const Region& g) {
  return "region bank " + std::to_string(g.bank) + " row " + std::to_string(g.row) + " col " +
         std::to_string(g.col) + " len " + std::to_string(g.len);
}

// ---- Commands and their cycles, relative to the start edge (start in cycle 0) ----

struct Cmd {
  long at;
  char kind; // 'A' ACT, 'P' PRE, 'R' RD, 'W' WR
  unsigned bank;
  uint64_t addr; // ACT: row, RD and WR: column, PRE: 0
  bool operator==(const Cmd& o) const {
    return at == o.at && kind == o.kind && bank == o.bank && addr == o.addr;
  }
  std::string str() const {
    return std::string(1, kind) + " bank " + std::to_string(bank) +
           (kind == 'P' ? "" : (kind == 'A' ? " row " : " col ") + std::to_string(addr)) +
           " in cycle " + std::to_string(at);
  }
};

bool isColumn(char kind) {
  return kind == 'R' || kind == 'W';
}

// Row command before column command within a cycle.
void order(std::vector<Cmd>& v) {
  std::stable_sort(v.begin(), v.end(), [](const Cmd& a, const Cmd& b) {
    if (a.at != b.at) return a.at < b.at;
    return isColumn(a.kind) < isColumn(b.kind);
  });
}

// The policy of the module's header, cycle by cycle, with an always-ready consumer and an
// always-valid write stream: the cycles of every command and of done. preAt: each bank's last
// PRE relative to the start (kNever: none); isW: the region's column kinds.
struct Schedule {
  std::vector<Cmd> cmds;
  long done = 0;
};

Schedule simulate(const Config& c, unsigned CL, const std::vector<RowPiece>& rows,
                  std::vector<long> preAt, const std::vector<bool>& isW) {
  struct Bank {
    bool open = false, allRead = false;
    size_t j = 0;
    long actAt = 0, lastRd = 0;
  };
  std::vector<Bank> bank(c.banks);
  Schedule s;
  const size_t n = rows.size();
  size_t jAct = 0, jRd = 0, col = 0;
  unsigned kRd = 0;
  long lastAct = 0, lastTake = 0;
  std::deque<long> taken; // the cycle each RD's column is taken: its FIFO place is held till then
  for (long u = 1;; ++u) {
    if (u > 50'000'000) rtl::fail(kTest, u, std::string(c.name) + ": reference does not finish");
    bool act = false;
    if (jAct < n) {
      const RowPiece& r = rows[jAct];
      Bank& b = bank[r.bank];
      if (!b.open && (preAt[r.bank] == kNever || u - preAt[r.bank] >= c.trp1()) &&
          (jAct == 0 || u - lastAct >= long(rows[jAct - 1].cnt))) {
        act = true;
        b = Bank{true, false, jAct, u, 0};
        lastAct = u;
        s.cmds.push_back({u, 'A', r.bank, r.row});
        ++jAct;
      }
    }
    while (!taken.empty() && taken.front() < u)
      taken.pop_front();
    if (jRd < n) {
      const RowPiece& r = rows[jRd];
      Bank& b = bank[r.bank];
      const bool write = isW[col];
      if (b.open && !b.allRead && b.j == jRd && u - b.actAt >= long(c.tRCD) &&
          (write || taken.size() < c.depth)) {
        s.cmds.push_back({u, write ? 'W' : 'R', r.bank, r.col0 + kRd});
        if (!write) {
          lastTake = u + CL + 1;
          taken.push_back(lastTake);
        }
        ++col;
        if (++kRd == r.cnt) {
          b.allRead = true;
          b.lastRd = u;
          ++jRd;
          kRd = 0;
        }
      }
    }
    if (!act)
      for (unsigned i = 0; i < c.banks; ++i) {
        Bank& b = bank[i];
        if (b.open && b.allRead && b.lastRd < u && u - b.actAt >= long(c.tRAS)) {
          b.open = false;
          preAt[i] = u;
          s.cmds.push_back({u, 'P', i, 0});
          break;
        }
      }
    bool open = false;
    for (const Bank& b : bank)
      open = open || b.open;
    if (jRd == n && lastTake <= u && !open) {
      s.done = u + 1;
      break;
    }
  }
  order(s.cmds);
  return s;
}

// The header's formula: A(j) = max(A(j-1) + cnt(j-1), A(j-BANKS) + busy(j-BANKS)), RDs and WRs
// from A(j) + TRCD, PRE at A(j) + max(TRCD + cnt(j), TRAS), T = A(n-1) + 1 + max(TRCD + cnt(n-1)
// + CL, TRAS) when the last column is a read, else max(A(n-1) + 1 + max(TRCD + cnt(n-1), TRAS),
// r + CL + 2) with r the last RD's cycle (if any). `applies`: no PRE on an ACT's cycle or on
// another PRE's (then nothing waits for the row command slot, and the formula is the schedule).
struct Formula {
  std::vector<Cmd> cmds;
  long done = 2;
  bool applies = true;
};

Formula formula(const Config& c, unsigned CL, const std::vector<RowPiece>& rows,
                const std::vector<bool>& isW) {
  Formula f;
  const size_t n = rows.size();
  if (n == 0) return f;
  const long trcd = c.tRCD, tras = c.tRAS;
  std::vector<long> A(n), busy(n);
  std::vector<long> acts, pres;
  size_t col = 0;
  long lastRd = -1;
  for (size_t j = 0; j < n; ++j) {
    busy[j] = std::max(trcd + rows[j].cnt, tras) + c.trp1();
    A[j] = j == 0 ? 1 : A[j - 1] + rows[j - 1].cnt;
    if (j >= c.banks) A[j] = std::max(A[j], A[j - c.banks] + busy[j - c.banks]);
    f.cmds.push_back({A[j], 'A', rows[j].bank, rows[j].row});
    for (unsigned k = 0; k < rows[j].cnt; ++k, ++col) {
      f.cmds.push_back({A[j] + trcd + k, isW[col] ? 'W' : 'R', rows[j].bank, rows[j].col0 + k});
      if (!isW[col]) lastRd = A[j] + trcd + k;
    }
    const long pre = A[j] + std::max(trcd + rows[j].cnt, tras);
    f.cmds.push_back({pre, 'P', rows[j].bank, 0});
    acts.push_back(A[j]);
    pres.push_back(pre);
  }
  std::sort(pres.begin(), pres.end());
  for (size_t i = 0; i < pres.size(); ++i)
    if ((i > 0 && pres[i] == pres[i - 1]) || std::binary_search(acts.begin(), acts.end(), pres[i]))
      f.applies = false;
  if (!isW[col - 1])
    f.done = A[n - 1] + 1 + std::max(trcd + rows[n - 1].cnt + CL, tras);
  else
    f.done = std::max(A[n - 1] + 1 + std::max(trcd + rows[n - 1].cnt, tras),
                      lastRd < 0 ? 0 : lastRd + CL + 2);
  order(f.cmds);
  return f;
}

// Whole rows from a row's start: the header's closed form of A(n-1).
long closedForm(const Config& c, unsigned CL, long n) {
  const long C = c.rowCols, B = c.banks, trcd = c.tRCD, tras = c.tRAS;
  const long busy = std::max(trcd + C, tras) + c.trp1();
  const long m = n - 1;
  const long A = 1 + std::max(m * C, (m / B) * busy + (m % B) * C);
  return A + 1 + std::max(trcd + C + CL, tras);
}

// docs/pim.md's streamRun (dse::streamRun) for `cols` columns read by an array that takes one a
// cycle (latency = columns): tRCD + CL + base + (rows - 1) x stall.
long streamRun(const Config& c, unsigned CL, long cols) {
  const long rowBytes = long(c.rowCols) * c.colBytes(), bytes = cols * long(c.colBytes());
  const long base = cols;
  const long rows = (bytes + rowBytes - 1) / rowBytes;
  const long rc = std::max<long>(1, rowBytes * base / bytes);
  const long busy = std::max<long>(c.tRCD + rc, c.tRAS) + c.tRP;
  const long stall = std::max<long>(0, (busy + c.banks - 1) / c.banks - rc);
  return long(c.tRCD) + CL + base + (rows - 1) * stall;
}

std::string firstDifference(const std::vector<Cmd>& got, const std::vector<Cmd>& want) {
  for (size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
    if (i < got.size() && i < want.size() && got[i] == want[i]) continue;
    return "command " + std::to_string(i) + ": " +
           (i < got.size() ? got[i].str() : std::string("none")) + ", expected " +
           (i < want.size() ? want[i].str() : std::string("none"));
  }
  return "";
}

rtl::Value valueOf(const uint8_t* p, const Config& c) {
  rtl::Value v(int(c.colW));
  for (unsigned i = 0; i < c.colBytes(); ++i)
    v.chunk[i / 8] |= uint64_t(p[i]) << (8 * (i % 8));
  v.trim();
  return v;
}

// ---- The bench: every reader runs its own queue of regions, all in step ----

struct RunSpec {
  Region region;
  double pReady = 1.0;
  double pWin = 1.0; // the write stream offers a column in a cycle (and holds it until taken)
  int gap = 0;       // idle cycles before the start
  bool timed = false;
};

struct Unit {
  Config cfg;
  Ports io;
  std::unique_ptr<PimBanks> mem;
  std::deque<RunSpec> queue;
  // The current run.
  bool active = false;
  RunSpec run;
  std::vector<RowPiece> rows;
  std::vector<bool> isW;                                // the region's column kinds
  std::vector<uint64_t> reads;                          // the region's read columns
  std::vector<std::pair<uint64_t, rtl::Value>> written; // write columns and their data
  uint64_t nextOut = 0, nextCol = 0;
  size_t nextAct = 0;
  long startAt = 0, lastOut = 0;
  std::vector<long> preAtStart; // each bank's last PRE, relative to the start
  std::vector<Cmd> trace;
  bool ready = true, stalled = false;
  rtl::Value stalledData;
  bool offering = false; // the write stream's column, until a WR takes it
  rtl::Value offerData;
  std::vector<long> lastPre; // absolute
  // Results.
  long runs = 0, columns = 0, writes = 0, timed = 0, eligible = 0, formulaRuns = 0, closedRuns = 0,
       modelRuns = 0, stalls = 0;
  long lastDone = 0, lastOutRel = 0;
  bool lastByFormula = false;
};

struct Bench {
  Vtb& m;
  std::vector<Unit>& units;
  rtl::Rng& rng;
  long cycle = 0;

  void fail(const Unit& u, const std::string& what) {
    rtl::fail(kTest, cycle,
              std::string(u.cfg.name) + (u.active ? " (" + str(u.run.region) + ")" : "") + ": " +
                  what);
  }

  void newModel(Unit& u, unsigned CL) {
    const Config& c = u.cfg;
    PimBankConfig pc;
    pc.banks = c.banks;
    pc.rows = c.rows();
    pc.rowCols = c.rowCols;
    pc.colBytes = c.colBytes();
    pc.tRCD = c.tRCD;
    pc.tRP = c.tRP;
    pc.tRAS = c.tRAS;
    pc.CL = CL;
    u.mem = std::make_unique<PimBanks>(pc);
    for (unsigned b = 0; b < c.banks; ++b)
      for (uint64_t r = 0; r < c.rows(); ++r)
        for (unsigned k = 0; k < c.rowCols; ++k) {
          uint8_t* p = u.mem->column(b, r, k);
          for (unsigned i = 0; i < c.colBytes(); i += 8) {
            const uint64_t w = rng.bits(64);
            for (unsigned j = 0; j < 8 && i + j < c.colBytes(); ++j)
              p[i + j] = uint8_t(w >> (8 * j));
          }
        }
    u.lastPre.assign(c.banks, kNever);
  }

  void begin(Unit& u) {
    u.run = u.queue.front();
    u.queue.pop_front();
    u.rows = rowsOf(u.cfg, u.run.region);
    u.isW = u.cfg.kinds(u.run.region.len);
    u.reads.clear();
    for (uint64_t k = 0; k < u.run.region.len; ++k)
      if (!u.isW[k]) u.reads.push_back(k);
    u.written.clear();
    u.active = true;
    u.nextOut = u.nextCol = 0;
    u.nextAct = 0;
    u.startAt = cycle;
    u.trace.clear();
    u.preAtStart.clear();
    for (long p : u.lastPre)
      u.preAtStart.push_back(p == kNever ? kNever : p - cycle);
    u.stalled = false;
    const Region& g = u.run.region;
    u.io.setStart(m, true, g.bank, g.row, g.col, g.len);
  }

  void finish(Unit& u) {
    const Config& c = u.cfg;
    const long done = cycle - u.startAt;
    if (u.nextOut != u.reads.size() || u.nextCol != u.run.region.len || u.nextAct != u.rows.size())
      fail(u, "done after " + std::to_string(u.nextOut) + " of " + std::to_string(u.reads.size()) +
                  " columns out, " + std::to_string(u.nextCol) + " read or written, " +
                  std::to_string(u.nextAct) + " of " + std::to_string(u.rows.size()) +
                  " rows opened");
    for (const auto& [k, data] : u.written) {
      const Loc l = locate(c, linear(c, u.run.region) + k);
      const rtl::Value got = valueOf(u.mem->column(l.bank, l.row, l.col), c);
      if (got != data)
        fail(u, "write column " + std::to_string(k) + " holds " + got.hex() + ", written " +
                    data.hex());
    }
    if (!u.mem->allClosed()) fail(u, "done with a bank open");
    if (u.mem->violationCount()) fail(u, "bank model: " + u.mem->violations().front());
    ++u.runs;
    u.columns += long(u.run.region.len);
    u.writes += long(u.written.size());
    u.lastDone = done;
    u.lastOutRel = u.lastOut - u.startAt;
    u.lastByFormula = false;
    if (u.run.timed) {
      ++u.timed;
      const unsigned CL = u.mem->config().CL;
      order(u.trace);
      const Schedule s = simulate(c, CL, u.rows, u.preAtStart, u.isW);
      std::string diff = firstDifference(u.trace, s.cmds);
      if (!diff.empty()) fail(u, "always-ready schedule, " + diff);
      if (done != s.done) fail(u, rtl::mismatch("done cycle", done, s.done));
      bool rested = true;
      for (long p : u.preAtStart)
        rested = rested && (p == kNever || 1 - p >= c.trp1());
      const Formula f = formula(c, CL, u.rows, u.isW);
      if (rested && c.depth >= CL + 2) ++u.eligible;
      if (rested && c.depth >= CL + 2 && f.applies) {
        ++u.formulaRuns;
        u.lastByFormula = true;
        diff = firstDifference(u.trace, f.cmds);
        if (!diff.empty()) fail(u, "the header's formula, " + diff);
        if (done != f.done) fail(u, rtl::mismatch("done cycle (formula)", done, f.done));
        const Region& g = u.run.region;
        if (g.col == 0 && g.len > 0 && g.len % c.rowCols == 0 && u.written.empty()) {
          ++u.closedRuns;
          const long n = long(g.len / c.rowCols);
          const long want = closedForm(c, CL, n);
          if (done != want) fail(u, rtl::mismatch("done cycle (closed form)", done, want));
          if (c.tRP >= 1) { // the header's comparison with streamRun, for the last column
            const long B = c.banks, C = c.rowCols, m = n - 1;
            const long busy = std::max<long>(c.tRCD + C, c.tRAS) + c.tRP;
            const long share = (busy + B - 1) / B;
            const long early =
                busy <= B * C ? 0 : (m / B) * (B * share - busy) + (m % B) * (share - C);
            const long last = streamRun(c, CL, long(g.len)) + 1 - early;
            if (u.lastOut - u.startAt != last)
              fail(u, rtl::mismatch("last column's cycle (streamRun + 1 - early)",
                                    u.lastOut - u.startAt, last));
            ++u.modelRuns;
          }
        }
      }
    }
    u.active = false;
  }

  void step() {
    for (Unit& u : units) {
      u.ready = u.active ? u.run.pReady >= 1.0 || rng.chance(u.run.pReady) : rng.chance(0.5);
      u.io.setReady(m, u.ready);
      u.io.setStart(m, false, 0, 0, 0, 0);
      if (!u.offering && rng.chance(u.active ? u.run.pWin : 0.5)) {
        u.offering = true;
        u.offerData = rng.value(int(u.cfg.colW));
      }
      u.io.setWin(m, u.offering, u.offering ? u.offerData : rtl::Value(int(u.cfg.colW)));
    }
    m.clk = 0;
    m.eval();
    struct Seen {
      bool rowValid, rowAct, colValid, colWrite;
      uint64_t rowBank, rowAddr, colBank, colAddr;
    };
    std::vector<Seen> seen;
    for (Unit& u : units) {
      const bool busy = u.io.busy(m), done = u.io.done(m);
      if (u.active && cycle > u.startAt) {
        if (done) {
          if (busy) fail(u, "busy in the done cycle");
          finish(u);
        } else if (!busy) {
          fail(u, "busy low before done");
        }
      } else if (done || (busy && !u.active)) {
        fail(u, "busy or done outside a run");
      }
      if (!u.active && !u.queue.empty()) {
        if (u.queue.front().gap <= 0)
          begin(u);
        else
          --u.queue.front().gap;
      }
      Seen s{u.io.rowValid(m), u.io.rowAct(m),  u.io.colValid(m), u.io.colWrite(m),
             u.io.rowBank(m),  u.io.rowAddr(m), u.io.colBank(m),  u.io.colAddr(m)};
      seen.push_back(s);
      const long rel = cycle - u.startAt;
      const bool running = u.active && rel > 0;
      if ((s.rowValid || s.colValid) && !running) fail(u, "a bank command outside a run");
      if (s.rowValid && s.rowAct) {
        if (u.nextAct >= u.rows.size()) fail(u, "an ACT too many");
        const RowPiece& r = u.rows[u.nextAct];
        if (s.rowBank != r.bank || s.rowAddr != r.row)
          fail(u, "ACT bank " + std::to_string(s.rowBank) + " row " + std::to_string(s.rowAddr) +
                      ", expected bank " + std::to_string(r.bank) + " row " +
                      std::to_string(r.row) + " (region row " + std::to_string(u.nextAct) + ")");
        ++u.nextAct;
        u.mem->activate(unsigned(s.rowBank), s.rowAddr);
        u.trace.push_back({rel, 'A', unsigned(s.rowBank), s.rowAddr});
      } else if (s.rowValid) {
        u.mem->precharge(unsigned(s.rowBank));
        u.lastPre.at(s.rowBank) = cycle;
        u.trace.push_back({rel, 'P', unsigned(s.rowBank), 0});
      }
      if (s.colWrite && !s.colValid) fail(u, "col_write without col_valid");
      if (u.io.winReady(m) != s.colWrite) fail(u, "win_ready is not the WR");
      if (u.io.wrData(m, int(u.cfg.colW)) !=
          (u.offering ? u.offerData : rtl::Value(int(u.cfg.colW))))
        fail(u, "wr_data is not win_data");
      if (s.colWrite && !u.offering) fail(u, "a WR without win_valid");
      if (s.colValid) {
        const char* cmd = s.colWrite ? "WR" : "RD";
        if (u.nextCol >= u.run.region.len) fail(u, std::string("an ") + cmd + " too many");
        const Loc l = locate(u.cfg, linear(u.cfg, u.run.region) + u.nextCol);
        if (s.colBank != l.bank || s.colAddr != l.col)
          fail(u, std::string(cmd) + " bank " + std::to_string(s.colBank) + " col " +
                      std::to_string(s.colAddr) + ", expected bank " + std::to_string(l.bank) +
                      " col " + std::to_string(l.col) + " (column " + std::to_string(u.nextCol) +
                      ")");
        if (s.colWrite != u.isW[u.nextCol])
          fail(u, std::string(cmd) + " of column " + std::to_string(u.nextCol) + ", a " +
                      (u.isW[u.nextCol] ? "write" : "read") + " column");
        if (s.colWrite) {
          std::vector<uint8_t> bytes(u.cfg.colBytes());
          for (unsigned i = 0; i < bytes.size(); ++i)
            bytes[i] = uint8_t(u.offerData.chunk[i / 8] >> (8 * (i % 8)));
          u.mem->write(l.bank, l.col, bytes, int64_t(l.row));
          u.written.push_back({u.nextCol, u.offerData});
          u.offering = false;
        } else {
          u.mem->read(l.bank, l.col, int64_t(l.row));
        }
        ++u.nextCol;
        u.trace.push_back({rel, s.colWrite ? 'W' : 'R', l.bank, l.col});
      }
      const bool v = u.mem->dataValid();
      u.io.setRead(m, v, v ? valueOf(u.mem->data().data(), u.cfg) : rtl::Value(int(u.cfg.colW)));
    }
    m.eval(); // the start and the read data (CL = 0: this cycle's) settle
    for (size_t i = 0; i < units.size(); ++i) {
      Unit& u = units[i];
      const Seen& s = seen[i];
      if (u.io.rowValid(m) != s.rowValid || u.io.colValid(m) != s.colValid ||
          u.io.colWrite(m) != s.colWrite ||
          (s.rowValid && (u.io.rowAct(m) != s.rowAct || u.io.rowBank(m) != s.rowBank ||
                          u.io.rowAddr(m) != s.rowAddr)) ||
          (s.colValid && (u.io.colBank(m) != s.colBank || u.io.colAddr(m) != s.colAddr)))
        fail(u, "a bank command changed with the inputs");
      const bool valid = u.io.outValid(m);
      if (u.stalled) {
        if (!valid) fail(u, "out_valid dropped before out_ready");
        if (u.io.outData(m, int(u.cfg.colW)) != u.stalledData)
          fail(u, "out_data changed before out_ready");
      }
      u.stalled = false;
      if (!valid) continue;
      if (!u.active || cycle <= u.startAt) fail(u, "out_valid outside a run");
      const rtl::Value got = u.io.outData(m, int(u.cfg.colW));
      if (!u.ready) {
        u.stalled = true;
        u.stalledData = got;
        ++u.stalls;
        continue;
      }
      if (u.nextOut >= u.reads.size()) fail(u, "a column too many");
      const Loc l = locate(u.cfg, linear(u.cfg, u.run.region) + u.reads[u.nextOut]);
      const rtl::Value want = valueOf(u.mem->column(l.bank, l.row, l.col), u.cfg);
      if (got != want)
        fail(u, "column " + std::to_string(u.reads[u.nextOut]) +
                    rtl::mismatch(" out_data", got.hex(), want.hex()));
      ++u.nextOut;
      u.lastOut = cycle;
    }
    m.clk = 1;
    m.eval();
    for (Unit& u : units)
      u.mem->tick();
    ++cycle;
    for (Unit& u : units)
      if (u.mem->violationCount()) fail(u, "bank model: " + u.mem->violations().front());
  }

  void runAll(long limit, const std::string& what) {
    const long end = cycle + limit;
    auto idle = [&] {
      for (const Unit& u : units)
        if (u.active || !u.queue.empty()) return false;
      return true;
    };
    while (!idle()) {
      if (cycle >= end) rtl::fail(kTest, cycle, what + ": did not finish");
      step();
    }
  }

  // Every bank rested, then a fresh model (new contents) with read latency CL + extra.
  void swapModels(unsigned extra) {
    for (int i = 0; i < 40; ++i)
      step();
    for (Unit& u : units)
      newModel(u, u.cfg.CL + extra);
  }
};

Region randomRegion(const Config& c, rtl::Rng& rng) {
  const long C = c.rowCols;
  const long limit = long(std::min(c.maxLen(), c.space()));
  long len;
  switch (rng.range(0, 9)) {
  case 0:
    len = 0;
    break;
  case 1: { // inside one row, from its middle
    const long col = C > 2 ? rng.range(1, int(C - 2)) : 0;
    len = rng.range(1, int(C - col));
    const Loc l = locate(c, uint64_t(rng.range(0, int(c.space() / C - 1))) * C + col);
    return {l.bank, l.row, l.col, uint64_t(len)};
  }
  case 2:
    len = rng.range(1, int(C));
    break;
  case 3:
  case 4:
    len = C * rng.range(1, 6) + rng.range(-int(C) / 2, int(C) / 2);
    break;
  case 5:
  case 6: { // whole rows
    const long rows = rng.range(1, int(std::min<long>(limit / C, 12)));
    const Loc l = locate(c, uint64_t(rng.range(0, int(c.space() / C - rows))) * C);
    return {l.bank, l.row, 0, uint64_t(rows * C)};
  }
  default:
    len = rng.range(1, int(std::min<long>(limit, 24 * C)));
  }
  len = std::clamp<long>(len, 0, limit);
  uint64_t lin = uint64_t(rng.range(0, int(c.space() - uint64_t(len))));
  if (rng.chance(0.3)) lin -= lin % C; // from a row's start
  const Loc l = locate(c, lin);
  return {l.bank, l.row, l.col, uint64_t(len)};
}

// The bank model on its own: a legal sequence passes and returns each column CL cycles after
// its RD; each breach of the rules is recorded, with a message saying what it was.
void checkModel() {
  PimBankConfig pc;
  pc.banks = 2;
  pc.rows = 4;
  pc.rowCols = 8;
  pc.colBytes = 3;
  pc.tRCD = 2;
  pc.tRP = 3;
  pc.tRAS = 5;
  pc.CL = 2;
  auto make = [&](unsigned CL) {
    PimBankConfig c = pc;
    c.CL = CL;
    auto b = std::make_unique<PimBanks>(c);
    for (unsigned k = 0; k < 2; ++k)
      for (uint64_t r = 0; r < 4; ++r)
        for (unsigned col = 0; col < 8; ++col)
          for (unsigned i = 0; i < 3; ++i)
            b->column(k, r, col)[i] = uint8_t(k * 100 + r * 10 + col + i);
    return b;
  };
  auto expectData = [](const PimBanks& b, bool valid, unsigned k, uint64_t r, unsigned col,
                       const std::string& what) {
    if (b.dataValid() != valid) rtl::fail(kTest, long(b.cycle()), "bank model: " + what);
    if (valid && b.data() != std::vector<uint8_t>{uint8_t(k * 100 + r * 10 + col),
                                                  uint8_t(k * 100 + r * 10 + col + 1),
                                                  uint8_t(k * 100 + r * 10 + col + 2)})
      rtl::fail(kTest, long(b.cycle()), "bank model: wrong data, " + what);
  };
  { // legal: ACT, RD at tRCD, data CL later, PRE at tRAS, ACT at tRP, second bank alongside
    auto b = make(2);
    b->activate(0, 1);
    b->tick();
    b->activate(1, 3);
    b->tick();
    b->read(0, 4, 1); // cycle 2 = tRCD after the ACT
    b->tick();
    b->read(1, 7, 3);
    b->tick();
    expectData(*b, true, 0, 1, 4, "RD's data CL cycles later");
    b->tick();
    expectData(*b, true, 1, 3, 7, "second bank's data");
    b->precharge(0); // cycle 5 = tRAS after the ACT
    b->tick();
    expectData(*b, false, 0, 0, 0, "no data without an RD");
    b->tick();
    b->precharge(1);
    b->tick();
    b->activate(0, 2); // cycle 8 = tRP after the PRE
    b->tick();
    if (b->violationCount() != 0)
      rtl::fail(kTest, 0, "bank model: a legal sequence failed: " + b->violations().front());
    if (b->stats().activates != 3 || b->stats().precharges != 2 || b->stats().reads != 2)
      rtl::fail(kTest, 0, "bank model: wrong command counts");
  }
  { // CL = 0 and tRCD = 0: ACT and RD in one cycle, the data in that cycle (call order free)
    pc.tRCD = 0;
    auto b = make(0);
    b->read(1, 2, 0);
    b->activate(1, 0);
    expectData(*b, true, 1, 0, 2, "CL = 0 read of the row opened in the same cycle");
    b->tick();
    expectData(*b, false, 0, 0, 0, "CL = 0: nothing the cycle after");
    if (b->violationCount() != 0)
      rtl::fail(kTest, 0, "bank model: ACT and RD in one cycle with tRCD = 0 failed");
    pc.tRCD = 2;
  }
  { // writes: stored at the edge; an RD before the WR returns the old column, one after it the
    // new one; a WR to a closed bank stores nothing
    auto b = make(2);
    const std::vector<uint8_t> w1 = {7, 8, 9}, w2 = {1, 2, 3};
    b->write(1, 5, w2); // closed: a violation, dropped
    b->activate(0, 1);
    b->tick();
    b->tick();
    b->read(0, 4, 1); // cycle 2: the old column
    b->tick();
    b->write(0, 4, w1, 1); // cycle 3 = tRCD after the ACT and later
    b->tick();
    expectData(*b, true, 0, 1, 4, "an RD before a WR of its column returns the old data");
    b->read(0, 4, 1);
    b->tick();
    b->tick();
    if (!b->dataValid() || b->data() != w1)
      rtl::fail(kTest, long(b->cycle()), "bank model: an RD after a WR returns the written data");
    if (std::vector<uint8_t>(b->column(1, 0, 5), b->column(1, 0, 5) + 3) !=
        std::vector<uint8_t>{105, 106, 107})
      rtl::fail(kTest, 0, "bank model: a WR to a closed bank was stored");
    if (b->violationCount() != 1 ||
        b->violations().front().find("WR bank 1 col 5 to a closed") == std::string::npos)
      rtl::fail(kTest, 0, "bank model: expected one violation for the WR to a closed bank");
    if (b->stats().writes != 2 || b->stats().reads != 2)
      rtl::fail(kTest, 0, "bank model: wrong write or read count");
  }
  struct Bad {
    const char* want; // part of the message
    std::function<void(PimBanks&)> run;
  };
  const Bad bad[] = {
      {"tRCD",
       [](PimBanks& b) {
         b.activate(0, 0);
         b.tick();
         b.read(0, 0);
         b.tick();
       }},
      {"to a closed bank",
       [](PimBanks& b) {
         b.read(1, 0);
         b.tick();
       }},
      {"meant for row 2",
       [](PimBanks& b) {
         b.activate(0, 1);
         b.tick();
         b.tick();
         b.read(0, 0, 2);
         b.tick();
       }},
      {"while row 1 is open",
       [](PimBanks& b) {
         b.activate(0, 1);
         b.tick();
         b.activate(0, 2);
         b.tick();
       }},
      {"tRAS",
       [](PimBanks& b) {
         b.activate(1, 1);
         for (int i = 0; i < 4; ++i)
           b.tick();
         b.precharge(1);
         b.tick();
       }},
      {"which is closed",
       [](PimBanks& b) {
         b.precharge(0);
         b.tick();
       }},
      {"tRP",
       [](PimBanks& b) {
         b.activate(0, 1);
         for (int i = 0; i < 5; ++i)
           b.tick();
         b.precharge(0);
         b.tick();
         b.tick();
         b.activate(0, 1);
         b.tick();
       }},
      {"two row commands",
       [](PimBanks& b) {
         b.activate(0, 1);
         b.activate(1, 1);
         b.tick();
       }},
      {"two column commands",
       [](PimBanks& b) {
         b.activate(0, 1);
         b.tick();
         b.tick();
         b.read(0, 0);
         b.read(0, 1);
         b.tick();
       }},
      {"WR bank 0 col 0 1 cycles after its ACT (tRCD 2)",
       [](PimBanks& b) {
         b.activate(0, 0);
         b.tick();
         b.write(0, 0, std::vector<uint8_t>(3, 0));
         b.tick();
       }},
      {"(WR bank 0 col 1 dropped)", // an RD and a WR in one cycle
       [](PimBanks& b) {
         b.activate(0, 1);
         b.tick();
         b.tick();
         b.read(0, 0);
         b.write(0, 1, std::vector<uint8_t>(3, 0));
         b.tick();
       }},
      {"(RD bank 0 col 0 dropped)", // a WR and an RD in one cycle
       [](PimBanks& b) {
         b.activate(0, 1);
         b.tick();
         b.tick();
         b.write(0, 1, std::vector<uint8_t>(3, 0));
         b.read(0, 0);
         b.tick();
       }},
      {"WR bank 1 col 2 meant for row 2",
       [](PimBanks& b) {
         b.activate(1, 1);
         b.tick();
         b.tick();
         b.write(1, 2, std::vector<uint8_t>(3, 0), 2);
         b.tick();
       }},
      {"of 2 bytes, not 3",
       [](PimBanks& b) {
         b.activate(1, 1);
         b.tick();
         b.tick();
         b.write(1, 2, std::vector<uint8_t>(2, 0));
         b.tick();
       }},
      {"beyond the 2 banks",
       [](PimBanks& b) {
         b.activate(2, 0);
         b.tick();
       }},
      {"beyond the 4 rows",
       [](PimBanks& b) {
         b.activate(0, 4);
         b.tick();
       }},
      {"to a closed bank", // PRE and RD of one bank in a cycle: the PRE comes first
       [](PimBanks& b) {
         b.activate(0, 1);
         for (int i = 0; i < 5; ++i)
           b.tick();
         b.read(0, 3);
         b.precharge(0);
         b.tick();
       }},
  };
  for (const Bad& x : bad) {
    auto b = make(2);
    x.run(*b);
    if (b->violationCount() != 1 || b->violations().front().find(x.want) == std::string::npos)
      rtl::fail(kTest, 0,
                std::string("bank model: expected one violation with '") + x.want + "', got " +
                    std::to_string(b->violationCount()) +
                    (b->violations().empty() ? "" : ": " + b->violations().front()));
  }
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(2026);
  checkModel();
  std::vector<Unit> units;
  const Ports ports[] = {PORTS(aim), PORTS(hbm), PORTS(aim2), PORTS(b4),  PORTS(b2),   PORTS(z2),
                         PORTS(z1),  PORTS(d1),  PORTS(b3),   PORTS(c1),  PORTS(aimw), PORTS(hbmw),
                         PORTS(b4w), PORTS(z2w), PORTS(z1w),  PORTS(d1w), PORTS(b3w),  PORTS(c1w)};
  for (size_t i = 0; i < std::size(kConfigs); ++i) {
    Unit u;
    u.cfg = kConfigs[i];
    u.io = ports[i];
    units.push_back(std::move(u));
  }
  Bench bench{m, units, rng};
  for (Unit& u : units)
    bench.newModel(u, u.cfg.CL);

  // Reset: nothing moves.
  m.rst = 1;
  for (Unit& u : units) {
    u.io.setStart(m, true, 0, 0, 0, 1);
    u.io.setReady(m, true);
    u.io.setRead(m, false, rtl::Value(int(u.cfg.colW)));
    u.io.setWin(m, true, rtl::Value(int(u.cfg.colW)));
  }
  for (int i = 0; i < 3; ++i) {
    m.clk = 0;
    m.eval();
    m.clk = 1;
    m.eval();
    for (Unit& u : units) {
      if (u.io.busy(m) || u.io.done(m) || u.io.outValid(m) || u.io.rowValid(m) ||
          u.io.colValid(m) || u.io.winReady(m))
        rtl::fail(kTest, i, std::string(u.cfg.name) + ": active in reset");
      u.mem->tick();
    }
  }
  m.rst = 0;

  // 1. Random regions under random stalls of the consumer and the write stream (a third of them
  //    never stalled, timed), started after a random idle gap or in the done cycle of the
  //    previous run.
  const double readiness[] = {1.0, 1.0, 0.9, 0.6, 0.3, 0.1};
  const double offers[] = {1.0, 1.0, 0.8, 0.4, 0.1};
  auto spec = [&](const Unit& u, Region g, int gap) {
    RunSpec r;
    r.region = g;
    r.pReady = readiness[rng.range(0, 5)];
    r.pWin = u.cfg.runs.empty() ? rng.chance(0.5) : r.pReady >= 1.0 ? 1.0 : offers[rng.range(0, 4)];
    r.gap = gap;
    r.timed = r.pReady >= 1.0 && (u.cfg.runs.empty() || r.pWin >= 1.0);
    return r;
  };
  for (Unit& u : units)
    for (int k = 0; k < 300; ++k)
      u.queue.push_back(spec(u, randomRegion(u.cfg, rng),
                             rng.chance(0.3) ? 0 : rng.range(1, int(u.cfg.tRP) + 3)));
  bench.runAll(20'000'000, "random regions");

  // 2. Banks 6 cycles slower to answer than the reader was built for: its FIFO places hold it.
  bench.swapModels(6);
  for (Unit& u : units)
    for (int k = 0; k < 40; ++k)
      u.queue.push_back(spec(u, randomRegion(u.cfg, rng), rng.range(0, 4)));
  bench.runAll(20'000'000, "slow banks");

  // 3. 1 MiB from row 0 of bank 0 (scaled down to the whole rows the region can hold), always
  //    ready, against the formula and docs/pim.md's streamRun.
  bench.swapModels(0);
  for (Unit& u : units) {
    const Config& c = u.cfg;
    const uint64_t mib = (uint64_t(1) << 20) / c.colBytes();
    const uint64_t len = std::min({mib, c.maxLen(), c.space()}) / c.rowCols * c.rowCols;
    u.queue.push_back({Region{0, 0, 0, len}, 1.0, 1.0, 0, true});
  }
  bench.runAll(20'000'000, "1 MiB");
  for (Unit& u : units) {
    const Config& c = u.cfg;
    const long cols = long(u.run.region.len);
    // Regions of the write configurations hold reads only where they end before the first write.
    if (c.formulaMostly &&
        ((c.runs.empty() && u.closedRuns == 0) || u.formulaRuns < u.eligible / 2))
      rtl::fail(kTest, bench.cycle,
                std::string(c.name) + ": the formula applied to " + std::to_string(u.formulaRuns) +
                    " of " + std::to_string(u.eligible) + " timed runs from rested banks (" +
                    std::to_string(u.closedRuns) + " of whole rows)");
    if (!c.runs.empty()) {
      std::printf("%s: %s, %ld columns of %u B from row 0, %zu of them written: last read column "
                  "in cycle %ld, done in %ld (%s)\n",
                  kTest, c.name, cols, c.colBytes(), u.written.size(), u.lastOutRel, u.lastDone,
                  u.lastByFormula ? "= the formula" : "by the step model; formula n/a");
      continue;
    }
    const long model = streamRun(c, c.CL, cols);
    std::printf("%s: %s, %ld columns of %u B (%ld rows of %u), tRCD %u tRP %u tRAS %u CL %u, "
                "%u bank(s), DEPTH %u: last column in cycle %ld, done in %ld (%s); "
                "docs/pim.md streamRun %ld (last column - streamRun: %+ld)\n",
                kTest, c.name, cols, c.colBytes(), cols / long(c.rowCols), c.rowCols, c.tRCD, c.tRP,
                c.tRAS, c.CL, c.banks, c.depth, u.lastOutRel, u.lastDone,
                u.lastByFormula ? "= the closed form" : "by the step model; formula n/a", model,
                u.lastOutRel - model);
  }

  long runs = 0, columns = 0, writes = 0, timed = 0, formulaRuns = 0, stalls = 0;
  for (const Unit& u : units) {
    runs += u.runs;
    columns += u.columns;
    writes += u.writes;
    timed += u.timed;
    formulaRuns += u.formulaRuns;
    stalls += u.stalls;
    std::printf("%s: %s: %ld runs (%ld columns written), %ld timed, %ld of them from rested banks "
                "with DEPTH >= CL + 2 (the formula on %ld, its closed form on %ld, against "
                "streamRun on %ld), %ld stall cycles\n",
                kTest, u.cfg.name, u.runs, u.writes, u.timed, u.eligible, u.formulaRuns,
                u.closedRuns, u.modelRuns, u.stalls);
  }
  std::printf("%s: OK (%ld runs, %ld columns of which %ld written, %ld timed exactly, %ld by the "
              "formula, %ld stall cycles, %ld cycles)\n",
              kTest, runs, columns, writes, timed, formulaRuns, stalls, bench.cycle);
  return 0;
}
