// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_buf_seq.v: every configuration of tb_rubick_buf_seq.v (GEMM
// with C kept across k and with C's partial sums reloaded, GEMV with rank-1 tensors, one buffer
// tile, four loops with a loop of one tile, outputs only, inputs only; partial edge tiles; 12- to
// 64-bit addresses) runs against a fake core and fake DMA engines that answer each start with
// done after a delay drawn per event (from 1 cycle to hundreds), and against a reference model
// written from the specification (docs: seq-spec, the module's header), not from the RTL:
//  - steps are enumerated with an odometer, run starts/ends and first visits found by comparing
//    tile indices between steps, geometry from the closed formula (with multiplications);
//  - the timeline from the timing rule: phase k starts at P(k), the core at P(k), stores one after
//    the other from P(k), loads one after the other from P(k) and after their own tensor's store,
//    E(k) the last done, P(k+1) = E(k) + 1, done at E(N) + 1. The timeline is rubick_lib's
//    arch::sequencerTimeline (what the cycle prediction of memory designs uses); its transfers
//    and their geometry must be the ones this model's predicates and formula give.
// Every cycle: busy, done, half and acc_zero (per phase), every start pulse (which tensor, which
// cycle) and its geometry (address, rows, cols), held until its done; a store's st_row0 and
// st_col0 are the stored step's r * RSTEP and c * CSTEP (r, c from the model's odometer), held the
// same way, and 0 for inputs. Random start pulses while busy must be ignored; one run per
// configuration is cut by rst, and the next must be exact.
// Hand-derived numbers check the model itself (transfer counts, one closed-form done cycle).
// Two configurations chain the core's runs (CHAIN): their fake core answers core_next after its
// delay and core_done a drain later (the run's coreLo cycles: never longer than the next run),
// and every transfer of a phase must wait for the drain of the run before the phase's own.
// c10 .. c15 have late tensors (LATE: an epilogue operand of an output's shape and DEP, loaded
// for the step being computed; with and without reduction loops spanning several tiles, a
// reloaded output, two late tensors, chained runs). Besides the cycle-exact comparison, a late
// tensor is checked on the RTL's own pulses, independently of the timeline: its load of step s
// (the model's s-th load step) starts in phase s (counted from core_start pulses; phase N from
// the half toggle after the last one) with step s's geometry; when its output's tile of a step
// s' of the same run is stored, the late tile was loaded before and half[t] is the complement
// of the half current at its load (the half the late DMA wrote); and no late load writes a half
// whose tile's store has not yet finished.
// c16 .. c18 are c0, c1 and c9 with a `+=` output C (ACC: loaded at every run start, first visits
// included, never acc_zero): C kept across k; C's partial sums reloaded (runs of one step, its
// loads after its stores); chained, next to an output D without ACC. On the RTL's own pulses:
// acc_zero of an ACC tensor is never 1, its loads of first visits (which only ACC makes) happen,
// and each run starts exactly as many loads as the same configuration without ACC except for the
// ACC tensor, which starts more.
// c19 .. c21 are tiles as strided boxes (RSTEP, CSTEP, PITCH, ASTEP: tiles that overlap, rows a
// pitch other than TCOLS apart, addresses moved by other loops): a 2-D convolution whose input
// tile (channels x (h + halo) * W) overlaps the next by its halo, with a padded output pitch and
// partial edge tiles; a batched GEMM whose tensors move per batch (ASTEP on a loop that indexes
// neither rows nor columns, and added to a row and a column loop's own move); a convolution down
// the rows (RSTEP below ROWS) with an ACC output, a late tensor, a negative ASTEP and 12-bit
// addresses that wrap. The model's geometry is the header's formula with multiplications; its
// st_row0 / st_col0 are r * RSTEP and c * CSTEP.
#include "Vtb_rubick_buf_seq.h"
#include "rtl_test.h"
#include "rubick/arch/BufferSequence.h"

#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

using Vtb = Vtb_rubick_buf_seq;
const char* kTest = "test_rubick_buf_seq";
constexpr int kNone = -1;

struct Tensor {
  const char* name;
  bool out;
  std::vector<int> dep, red; // loops, by position in the order (0 outermost)
  int rowLoop, colLoop;      // kNone: one tile in that dimension
  int64_t rows, cols, trows, tcols, ebytes;
  int lateFor = kNone; // a late tensor (LATE): the output whose stores read it
  bool acc = false;    // an output computed with `+=` (ACC)
  // RSTEP, CSTEP, PITCH (0: ROWS, COLS, TCOLS) and ASTEP (bytes per index of each loop of the
  // order; empty: none).
  int64_t rstep = 0, cstep = 0, pitch = 0;
  std::vector<uint64_t> astep = {};
};

// The effective steps and pitch (the header: 0 stands for ROWS, COLS, TCOLS).
int64_t rowStep(const Tensor& x) {
  return x.rstep != 0 ? x.rstep : x.rows;
}
int64_t colStep(const Tensor& x) {
  return x.cstep != 0 ? x.cstep : x.cols;
}
int64_t pitchOf(const Tensor& x) {
  return x.pitch != 0 ? x.pitch : x.tcols;
}

struct Config {
  const char* name;
  std::vector<int64_t> ext; // tiles per loop of the order, outermost first
  int addrW, dimW;
  std::vector<Tensor> t;
  bool chain = false;
};

// Must match tb_rubick_buf_seq.v.
const Config kConfigs[] = {
    {"c0 GEMM (i,j,k)",
     {3, 3, 3},
     32,
     5,
     {{"A", false, {0, 2}, {}, 0, 2, 4, 4, 10, 9, 1},
      {"B", false, {2, 1}, {}, 2, 1, 4, 3, 9, 7, 1},
      {"C", true, {0, 1}, {}, 0, 1, 4, 3, 10, 7, 4}}},
    {"c1 GEMM (k,i,j)",
     {3, 3, 3},
     40,
     3,
     {{"C", true, {1, 2}, {0}, 1, 2, 4, 3, 10, 7, 4},
      {"A", false, {0, 1}, {}, 1, 0, 4, 4, 10, 9, 1},
      {"B", false, {0, 2}, {}, 0, 2, 4, 3, 9, 7, 1}}},
    {"c2 GEMV (k,i)",
     {2, 4},
     32,
     16,
     {{"A", false, {0, 1}, {}, 1, 0, 4, 4, 13, 6, 2},
      {"x", false, {0}, {}, kNone, 0, 1, 4, 1, 6, 2},
      {"y", true, {1}, {0}, kNone, 1, 1, 4, 1, 13, 4}}},
    {"c3 one tile",
     {1},
     64,
     4,
     {{"A", false, {}, {}, kNone, kNone, 8, 8, 5, 6, 1},
      {"B", false, {0}, {}, 0, kNone, 8, 4, 6, 3, 1},
      {"C", true, {0}, {}, kNone, 0, 8, 4, 5, 3, 4}}},
    {"c4 four loops",
     {2, 1, 3, 2},
     64,
     6,
     {{"Z", false, {}, {}, kNone, kNone, 1, 5, 1, 5, 8},
      {"O", true, {2}, {0, 1}, kNone, 2, 1, 4, 1, 10, 4},
      {"W", false, {2, 3}, {}, 2, 3, 4, 8, 10, 9, 2},
      {"X", false, {3, 0}, {}, 3, 0, 8, 3, 9, 5, 1}}},
    {"c5 outputs only", {5}, 16, 2, {{"O", true, {0}, {}, kNone, 0, 1, 3, 1, 13, 1}}},
    {"c6 inputs only", {2, 3}, 12, 2, {{"I", false, {0, 1}, {}, 0, 1, 2, 2, 3, 6, 1}}},
    {"c7 two outputs (k,i,j)",
     {2, 3, 3},
     32,
     4,
     {{"D", true, {1}, {0}, kNone, 1, 1, 4, 1, 11, 4},
      {"C", true, {1, 2}, {0}, 1, 2, 4, 3, 11, 8, 2},
      {"A", false, {0, 1}, {}, 1, 0, 4, 5, 11, 7, 1},
      {"B", false, {0, 2}, {}, 0, 2, 5, 3, 7, 8, 1}}},
    {"c8 GEMM (i,j,k) chained",
     {3, 3, 3},
     32,
     5,
     {{"A", false, {0, 2}, {}, 0, 2, 4, 4, 10, 9, 1},
      {"B", false, {2, 1}, {}, 2, 1, 4, 3, 9, 7, 1},
      {"C", true, {0, 1}, {}, 0, 1, 4, 3, 10, 7, 4}},
     true},
    {"c9 two outputs (k,i,j) chained",
     {2, 3, 3},
     32,
     4,
     {{"D", true, {1}, {0}, kNone, 1, 1, 4, 1, 11, 4},
      {"C", true, {1, 2}, {0}, 1, 2, 4, 3, 11, 8, 2},
      {"A", false, {0, 1}, {}, 1, 0, 4, 5, 11, 7, 1},
      {"B", false, {0, 2}, {}, 0, 2, 5, 3, 7, 8, 1}},
     true},
    {"c10 GEMM (i,j,k) late R",
     {3, 3, 3},
     32,
     5,
     {{"A", false, {0, 2}, {}, 0, 2, 4, 4, 10, 9, 1},
      {"R", false, {0, 1}, {}, 0, 1, 4, 3, 10, 7, 2, 3},
      {"B", false, {2, 1}, {}, 2, 1, 4, 3, 9, 7, 1},
      {"C", true, {0, 1}, {}, 0, 1, 4, 3, 10, 7, 4}}},
    {"c11 GEMM (k,i,j) late R, C reloaded",
     {2, 3, 2},
     40,
     3,
     {{"C", true, {1, 2}, {0}, 1, 2, 4, 3, 10, 5, 4},
      {"R", false, {1, 2}, {}, 1, 2, 4, 3, 10, 5, 1, 0},
      {"A", false, {0, 1}, {}, 1, 0, 4, 4, 10, 7, 1},
      {"B", false, {0, 2}, {}, 0, 2, 4, 3, 7, 5, 1}}},
    {"c12 GEMM (i,j) one k tile, late R last",
     {2, 3},
     24,
     4,
     {{"A", false, {0}, {}, 0, kNone, 4, 6, 7, 6, 1},
      {"B", false, {1}, {}, kNone, 1, 6, 3, 6, 8, 1},
      {"C", true, {0, 1}, {}, 0, 1, 4, 3, 7, 8, 4},
      {"R", false, {0, 1}, {}, 0, 1, 4, 3, 7, 8, 2, 2}}},
    {"c13 GEMM (i,j,k) late R chained",
     {3, 3, 3},
     32,
     5,
     {{"A", false, {0, 2}, {}, 0, 2, 4, 4, 10, 9, 1},
      {"R", false, {0, 1}, {}, 0, 1, 4, 3, 10, 7, 2, 3},
      {"B", false, {2, 1}, {}, 2, 1, 4, 3, 9, 7, 1},
      {"C", true, {0, 1}, {}, 0, 1, 4, 3, 10, 7, 4}},
     true},
    {"c14 GEMV (i,k) two late vectors",
     {3, 2},
     16,
     4,
     {{"r", false, {0}, {}, kNone, 0, 1, 4, 1, 11, 2, 3},
      {"A", false, {0, 1}, {}, 0, 1, 4, 5, 11, 9, 1},
      {"x", false, {1}, {}, kNone, 1, 1, 5, 1, 9, 1},
      {"y", true, {0}, {}, kNone, 0, 1, 4, 1, 11, 4},
      {"q", false, {0}, {}, kNone, 0, 1, 4, 1, 11, 1, 3}}},
    {"c15 GEMM (k,i,j) late R, C reloaded, chained",
     {2, 3, 2},
     40,
     3,
     {{"C", true, {1, 2}, {0}, 1, 2, 4, 3, 10, 5, 4},
      {"R", false, {1, 2}, {}, 1, 2, 4, 3, 10, 5, 1, 0},
      {"A", false, {0, 1}, {}, 1, 0, 4, 4, 10, 7, 1},
      {"B", false, {0, 2}, {}, 0, 2, 4, 3, 7, 5, 1}},
     true},
    {"c16 GEMM (i,j,k) C +=",
     {3, 3, 3},
     32,
     5,
     {{"A", false, {0, 2}, {}, 0, 2, 4, 4, 10, 9, 1},
      {"B", false, {2, 1}, {}, 2, 1, 4, 3, 9, 7, 1},
      {"C", true, {0, 1}, {}, 0, 1, 4, 3, 10, 7, 4, kNone, true}}},
    {"c17 GEMM (k,i,j) C +=, reloaded",
     {3, 3, 3},
     40,
     3,
     {{"C", true, {1, 2}, {0}, 1, 2, 4, 3, 10, 7, 4, kNone, true},
      {"A", false, {0, 1}, {}, 1, 0, 4, 4, 10, 9, 1},
      {"B", false, {0, 2}, {}, 0, 2, 4, 3, 9, 7, 1}}},
    {"c18 two outputs (k,i,j) C +=, chained",
     {2, 3, 3},
     32,
     4,
     {{"D", true, {1}, {0}, kNone, 1, 1, 4, 1, 11, 4},
      {"C", true, {1, 2}, {0}, 1, 2, 4, 3, 11, 8, 2, kNone, true},
      {"A", false, {0, 1}, {}, 1, 0, 4, 5, 11, 7, 1},
      {"B", false, {0, 2}, {}, 0, 2, 5, 3, 7, 8, 1}},
     true},
    // O[f,h,w] += I[c,h+r,w+s] * W[f,c,r,s], F 10, C 7, Hout 7, Wout 4, R = S = 3 (H 9, W 6);
    // tiles f 4, h 3, c 3. I: c x (h 3 + 2) * 6 = 3 x 30 moving by 3 * 6 = 18 of 9 * 6 = 54
    // columns (the last tile: 54 - 36 = 18 columns, h 1 + 2); W: f x c * 9 of 10 x 63; O:
    // f x h * 4 of 10 x 28 with rows 32 apart.
    {"c19 convolution (f,h,c): halo, pitch",
     {3, 3, 3},
     32,
     5,
     {{"I", false, {1, 2}, {}, 2, 1, 3, 30, 7, 54, 1, kNone, false, 0, 18, 54},
      {"W", false, {0, 2}, {}, 0, 2, 4, 27, 10, 63, 1},
      {"O", true, {0, 1}, {2}, 0, 1, 4, 12, 10, 28, 4, kNone, false, 0, 0, 32}}},
    // C[b,i,j] += A[b,i,k] * B[b,k,j], 2 x 7 x 6 x 5, b tiles of one (ASTEP per batch), tiles
    // i 4, j 3, k 3; B's rows 8 apart and 4 more bytes per k tile, C's 8 more per j tile. C's
    // tiles step by 3 rows (row 3 in both) and 4 columns (column 3 in none): st_row0, st_col0.
    {"c20 batched GEMM (b,i,j,k): ASTEP",
     {2, 2, 2, 2},
     24,
     3,
     {{"A", false, {0, 1, 3}, {}, 1, 3, 4, 3, 7, 5, 1, kNone, false, 0, 0, 0, {35, 0, 0, 0}},
      {"B", false, {0, 2, 3}, {}, 3, 2, 3, 3, 5, 6, 2, kNone, false, 0, 0, 8, {80, 0, 0, 4}},
      {"C", true, {0, 1, 2}, {3}, 1, 2, 4, 3, 7, 6, 4, kNone, false, 3, 4, 0, {4096, 0, 8, 0}}}},
    // Y[i,j] += X[k,i+r,j] * W[k,r] + R[i,j], order (k, j, i), 12-bit addresses: X rows of 5
    // moving by 3 (a halo of 2; 10 rows: the last tile has 4), rows 9 apart, -256 bytes per k;
    // W one tile, 5 bytes per k; Y `+=` (RED k); late R with rows 8 apart.
    {"c21 row convolution (k,j,i): row halo, ACC, late R, wrapping",
     {2, 2, 3},
     12,
     3,
     {{"X", false, {0, 1, 2}, {}, 2, 1, 5, 4, 10, 7, 2, kNone, false, 3, 0, 9, {~0xFFull, 0, 0}},
      {"W", false, {0}, {}, kNone, kNone, 1, 3, 1, 3, 1, kNone, false, 0, 0, 0, {5, 0, 0}},
      {"Y", true, {1, 2}, {0}, 2, 1, 3, 4, 8, 7, 4, kNone, true},
      {"R", false, {1, 2}, {}, 2, 1, 3, 4, 8, 7, 1, 2, false, 0, 0, 8}}},
};

// The ACC configurations, the same ones without ACC, and the loads per run ACC adds (by hand:
// C's first visits, one per (i, j) tile: 9 in each).
struct AccTwin {
  const char *acc, *plain;
  int64_t added;
};
const AccTwin kAccTwins[] = {{"c16", "c0", 9}, {"c17", "c1", 9}, {"c18", "c9", 9}};

// ---- Reference model (from the specification).

enum Kind { kCore = 0, kLoad = 1, kStore = 2 };
const char* kindName(Kind k) {
  return k == kCore ? "core" : k == kLoad ? "load" : "store";
}

struct Geo {
  uint64_t addr = 0;
  int64_t rows = 0, cols = 0;
  bool operator==(const Geo&) const = default;
  std::string str() const {
    char b[96];
    std::snprintf(b, sizeof b, "addr=0x%llx rows=%lld cols=%lld", (unsigned long long)addr,
                  (long long)rows, (long long)cols);
    return b;
  }
};

// The element indices of a stored tile's first row and column (st_row0, st_col0).
struct Idx {
  int64_t row0 = 0, col0 = 0;
  bool operator==(const Idx&) const = default;
  std::string str() const {
    return "row0=" + std::to_string(row0) + " col0=" + std::to_string(col0);
  }
};

struct Event {
  Kind kind;
  int t; // 0 for the core
  int64_t step, start, done;
  Geo geo;
};

struct Phase {
  int64_t first, last; // cycles P(k) .. E(k)
  uint64_t half, accZero;
};

struct Expected {
  std::vector<Phase> phases; // k = -1 .. N
  std::vector<Event> events; // in phase order
  int64_t done = 0;          // the cycle of the done pulse (start sampled at edge 0)
};

// Cycles from a start to its done: the j-th event of (kind, t).
using Delay = std::function<int64_t(Kind, int, int64_t)>;

class Model {
public:
  explicit Model(const Config& c) : c_(c) {
    std::vector<int64_t> idx(c.ext.size(), 0);
    for (;;) {
      idx_.push_back(idx);
      int i = int(idx.size()) - 1;
      for (; i >= 0; --i) {
        if (++idx[size_t(i)] < c.ext[size_t(i)]) break;
        idx[size_t(i)] = 0;
      }
      if (i < 0) break;
    }
  }
  int64_t steps() const { return int64_t(idx_.size()); }
  int tensors() const { return int(c_.t.size()); }

  bool sameTile(int t, int64_t a, int64_t b) const {
    for (int i : c_.t[size_t(t)].dep)
      if (at(a, i) != at(b, i)) return false;
    return true;
  }
  bool runStart(int t, int64_t s) const { return s == 0 || s == steps() || !sameTile(t, s, s - 1); }
  bool runEnd(int t, int64_t s) const { return s == steps() - 1 || !sameTile(t, s, s + 1); }
  bool firstVisit(int t, int64_t s) const {
    for (int i : c_.t[size_t(t)].red)
      if (at(s, i) != 0) return false;
    return true;
  }
  // An ACC output loads its start values at every run start, the first visit included, and its
  // core never starts from zero.
  bool load(int t, int64_t s) const {
    const Tensor& x = c_.t[size_t(t)];
    return runStart(t, s) && (!x.out || x.acc || !firstVisit(t, s));
  }
  bool accZero(int t, int64_t s) const {
    const Tensor& x = c_.t[size_t(t)];
    return x.out && !x.acc && runStart(t, s) && firstVisit(t, s);
  }
  bool store(int t, int64_t s) const { return c_.t[size_t(t)].out && runEnd(t, s); }

  // r * RSTEP and c * CSTEP of tensor t's tile at step s (0 without a row / column loop).
  Idx idx(int t, int64_t s) const {
    const Tensor& x = c_.t[size_t(t)];
    return {x.rowLoop == kNone ? 0 : at(s, x.rowLoop) * rowStep(x),
            x.colLoop == kNone ? 0 : at(s, x.colLoop) * colStep(x)};
  }

  // addr = base + (r * RSTEP * PITCH + c * CSTEP) * EBYTES + sum of idx_i * ASTEP[i] (mod
  // 2**ADDR_W), rows = min(ROWS, TROWS - r * RSTEP), cols = min(COLS, TCOLS - c * CSTEP).
  Geo geo(int t, int64_t s, uint64_t base) const {
    const Tensor& x = c_.t[size_t(t)];
    const int64_t r = x.rowLoop == kNone ? 0 : at(s, x.rowLoop);
    const int64_t col = x.colLoop == kNone ? 0 : at(s, x.colLoop);
    uint64_t a = base + uint64_t((r * rowStep(x) * pitchOf(x) + col * colStep(x)) * x.ebytes);
    for (size_t i = 0; i < x.astep.size(); ++i)
      a += uint64_t(at(s, int(i))) * x.astep[i];
    Geo g;
    g.addr = a & rtl::mask(c_.addrW);
    g.rows = std::min(x.rows, x.trows - r * rowStep(x));
    g.cols = std::min(x.cols, x.tcols - col * colStep(x));
    return g;
  }

  // The timeline is rubick_lib's (arch::sequencerTimeline, what the cycle prediction of memory
  // designs uses), so that the library and the RTL are checked against each other; the rest of
  // this model checks its inputs (steps, transfers, geometry) independently.
  Expected run(const std::vector<uint64_t>& bases, const Delay& delay, int64_t tail = 0) const {
    rubick::arch::SequencerConfig lc;
    lc.ext = c_.ext;
    lc.chain = c_.chain;
    lc.coreTail = tail;
    for (const Tensor& x : c_.t) {
      rubick::arch::SequencedTensor t;
      t.out = x.out;
      t.dep.assign(c_.ext.size(), 0);
      t.red.assign(c_.ext.size(), 0);
      for (int i : x.dep)
        t.dep[size_t(i)] = 1;
      for (int i : x.red)
        t.red[size_t(i)] = 1;
      t.rowLoop = x.rowLoop;
      t.colLoop = x.colLoop;
      t.rows = x.rows;
      t.cols = x.cols;
      t.trows = x.trows;
      t.tcols = x.tcols;
      t.ebytes = x.ebytes;
      t.rstep = x.rstep;
      t.cstep = x.cstep;
      t.pitch = x.pitch;
      t.astep = x.astep;
      t.late = x.lateFor != kNone;
      t.acc = x.acc;
      lc.tensors.push_back(t);
    }
    auto kindOf = [](rubick::arch::SeqKind k) {
      return k == rubick::arch::SeqKind::core   ? kCore
             : k == rubick::arch::SeqKind::load ? kLoad
                                                : kStore;
    };
    std::map<std::pair<int, int>, int64_t> count;
    const rubick::arch::SeqTimeline tl =
        rubick::arch::sequencerTimeline(lc, bases, [&](const rubick::arch::SeqEvent& ev) {
          const Kind k = kindOf(ev.kind);
          return delay(k, ev.tensor, count[{k, ev.tensor}]++);
        });
    Expected e;
    for (const rubick::arch::SeqPhase& p : tl.phases)
      e.phases.push_back({p.first, p.last, p.half, p.accZero});
    for (const rubick::arch::SeqEvent& ev : tl.events) {
      Geo g;
      if (ev.kind != rubick::arch::SeqKind::core) {
        g.addr = ev.addr & rtl::mask(c_.addrW);
        g.rows = ev.rows;
        g.cols = ev.cols;
        // The library's geometry is the specification's formula too.
        if (!(g == geo(ev.tensor, ev.step, bases[size_t(ev.tensor)])))
          rtl::fail(kTest, 0, std::string(c_.name) + ": rubick_lib's geometry " + g.str());
      }
      e.events.push_back({kindOf(ev.kind), ev.tensor, ev.step, ev.start, ev.done, g});
      // A load of step s runs in phase s - 1 (phases[s]), a late tensor's in phase s.
      if (ev.kind == rubick::arch::SeqKind::load) {
        const size_t ph = size_t(ev.step) + (c_.t[size_t(ev.tensor)].lateFor != kNone ? 1 : 0);
        if (ph >= tl.phases.size() || ev.start < tl.phases[ph].first ||
            ev.start > tl.phases[ph].last)
          rtl::fail(kTest, 0,
                    std::string(c_.name) + ": rubick_lib's load of " +
                        c_.t[size_t(ev.tensor)].name + " step " + std::to_string(ev.step) +
                        " outside its phase");
      }
    }
    // The library's transfers are the ones this model's predicates give.
    int64_t loads = 0, stores = 0, wantLoads = 0, wantStores = 0;
    for (const Event& ev : e.events) {
      const bool ok =
          ev.kind == kCore || (ev.kind == kLoad ? load(ev.t, ev.step) : store(ev.t, ev.step));
      if (!ok)
        rtl::fail(kTest, 0,
                  std::string(c_.name) + ": rubick_lib's timeline has a stray " +
                      kindName(ev.kind));
      loads += ev.kind == kLoad;
      stores += ev.kind == kStore;
    }
    for (int64_t st = 0; st < steps(); ++st)
      for (int t = 0; t < tensors(); ++t) {
        wantLoads += load(t, st);
        wantStores += store(t, st);
      }
    if (loads != wantLoads || stores != wantStores)
      rtl::fail(kTest, 0, std::string(c_.name) + ": rubick_lib's timeline misses transfers");
    e.done = tl.done;
    return e;
  }

private:
  int64_t at(int64_t s, int loop) const { return idx_[size_t(s)][size_t(loop)]; }
  const Config& c_;
  std::vector<std::vector<int64_t>> idx_;
};

// ---- Ports of one instance.

struct Io {
  std::function<void(bool)> rst, start, coreDone, coreNext;
  std::function<void(uint64_t)> ldDone, stDone;
  std::function<void(int, uint64_t)> base;
  std::function<bool()> busy, done, coreStart;
  std::function<uint64_t()> half, accZero, ldStart, stStart;
  std::function<Geo(int)> ldGeo, stGeo;
  std::function<Idx(int)> stIdx;
};

#define IO(P, AW, DW)                                                                              \
  Io {                                                                                             \
    .rst = [&m](bool v) { m.P##_rst = v; }, .start = [&m](bool v) { m.P##_start = v; },            \
    .coreDone = [&m](bool v) { m.P##_core_done = v; },                                             \
    .coreNext = [&m](bool v) { m.P##_core_next = v; },                                             \
    .ldDone = [&m](uint64_t v) { m.P##_ld_done = static_cast<CData>(v); },                         \
    .stDone = [&m](uint64_t v) { m.P##_st_done = static_cast<CData>(v); },                         \
    .base = [&m](int t, uint64_t v) { rtl::setBits(m.P##_base, t*(AW), AW, v); },                  \
    .busy = [&m] { return bool(m.P##_busy); }, .done = [&m] { return bool(m.P##_done); },          \
    .coreStart = [&m] { return bool(m.P##_core_start); },                                          \
    .half = [&m] { return uint64_t(m.P##_half); },                                                 \
    .accZero = [&m] { return uint64_t(m.P##_acc_zero); },                                          \
    .ldStart = [&m] { return uint64_t(m.P##_ld_start); },                                          \
    .stStart = [&m] { return uint64_t(m.P##_st_start); },                                          \
    .ldGeo =                                                                                       \
        [&m](int t) {                                                                              \
          return Geo{rtl::getBits(m.P##_ld_addr, t * (AW), AW),                                    \
                     int64_t(rtl::getBits(m.P##_ld_rows, t * (DW), DW)),                           \
                     int64_t(rtl::getBits(m.P##_ld_cols, t * (DW), DW))};                          \
        },                                                                                         \
    .stGeo =                                                                                       \
        [&m](int t) {                                                                              \
          return Geo{rtl::getBits(m.P##_st_addr, t * (AW), AW),                                    \
                     int64_t(rtl::getBits(m.P##_st_rows, t * (DW), DW)),                           \
                     int64_t(rtl::getBits(m.P##_st_cols, t * (DW), DW))};                          \
        },                                                                                         \
    .stIdx = [&m](int t) {                                                                         \
      return Idx{int64_t(rtl::getBits(m.P##_st_row0, t * 32, 32)),                                 \
                 int64_t(rtl::getBits(m.P##_st_col0, t * 32, 32))};                                \
    }                                                                                              \
  }

// ---- Delays of the fake core and engines.

struct Mode {
  const char* name;
  int64_t coreLo, coreHi, dmaLo, dmaHi;
};
const Mode kModes[] = {
    {"1-cycle", 1, 1, 1, 1},     {"short", 1, 4, 1, 4},         {"long", 50, 300, 20, 200},
    {"dma-bound", 1, 6, 10, 80}, {"core-bound", 60, 150, 1, 8},
};

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

Delay modeDelay(const Mode& md, uint64_t seed) {
  return [md, seed](Kind kind, int t, int64_t j) {
    const uint64_t h = splitmix(
        seed ^ splitmix(uint64_t(kind) * 131 + uint64_t(t) * 7919 + uint64_t(j) * 1000003));
    const int64_t lo = kind == kCore ? md.coreLo : md.dmaLo;
    const int64_t hi = kind == kCore ? md.coreHi : md.dmaHi;
    return lo + int64_t(h % uint64_t(hi - lo + 1));
  };
}

// ---- The bench.

struct Bench {
  Vtb& m;
  rtl::Rng& rng;
  long cycle = 0;
  long checkedCycles = 0;
  long lateLoads = 0, lateStores = 0; // late transfers checked on the RTL's own pulses
  long accFirstLoads = 0;             // ACC loads of first visits (none without ACC)
  // Per configuration, the RTL's ld_start pulses per tensor in one whole run.
  std::map<std::string, std::vector<int64_t>> runLoads{};

  [[noreturn]] void fail(const Config& c, int64_t rc, const std::string& what) {
    rtl::fail(kTest, cycle,
              std::string(c.name) + " (run cycle " + std::to_string(rc) + "): " + what);
  }

  void idleInputs(Io& io) {
    io.rst(false);
    io.start(false);
    io.coreDone(false);
    io.coreNext(false);
    io.ldDone(0);
    io.stDone(0);
  }

  void tick() {
    rtl::tick(m);
    ++cycle;
  }

  // One run, start in run cycle 0. prevDone: the done pulse of the previous run is due in cycle
  // 0. abortAt >= 0: rst in that run cycle instead of finishing. Returns after the run's last
  // busy cycle (its done pulse is due in the next cycle).
  // tail: with chained runs, the cycles from a run's core_next to its core_done.
  void run(const Config& c, Io& io, const Model& model, const std::vector<uint64_t>& bases,
           const Delay& delay, const Expected& e, bool prevDone, int64_t tail,
           int64_t abortAt = -1) {
    const int nt = model.tensors();
    for (int t = 0; t < nt; ++t)
      io.base(t, bases[size_t(t)]);
    // Expected starts per (kind, t), in order.
    std::map<std::pair<int, int>, std::vector<const Event*>> queue;
    std::map<std::pair<int, int>, size_t> next;
    for (const Event& ev : e.events)
      queue[{ev.kind, ev.t}].push_back(&ev);
    // The fake devices: done cycle of the work in flight (-1: none) and the geometry it started
    // with.
    int64_t coreNextAt = -1;
    std::deque<int64_t> coreDoneAt; // runs still draining, oldest first
    std::vector<int64_t> ldDoneAt(size_t(nt), -1), stDoneAt(size_t(nt), -1);
    std::vector<Geo> ldHeld(static_cast<size_t>(nt)), stHeld(static_cast<size_t>(nt));
    std::vector<Idx> idxHeld(static_cast<size_t>(nt));
    std::map<std::pair<int, int>, int64_t> count;

    uint64_t accMask = 0;
    for (int t = 0; t < nt; ++t)
      if (c.t[size_t(t)].acc) accMask |= uint64_t{1} << t;
    std::vector<int64_t> loadsSeen(size_t(nt), 0);

    // Late tensors, checked on the RTL's own pulses, not the timeline: the phase from the
    // core_start pulses seen (phase N from the half toggle after the last one), the steps from
    // the model's predicates.
    const int64_t n = model.steps();
    int64_t cores = 0;
    bool phaseN = false;
    uint64_t lastHalf = io.half();
    struct LateTile {
      int64_t step;
      uint64_t half;               // the half current at its load: the one its DMA writes
      int64_t loaded, stored = -1; // done cycles of its load and of its output's store
    };
    const size_t nts = static_cast<size_t>(nt);
    std::vector<std::vector<int64_t>> lateSteps(nts), storeSteps(nts);
    std::vector<size_t> lateNext(nts, 0), storeNext(nts, 0);
    std::vector<std::vector<LateTile>> lateTiles(nts);
    for (int t = 0; t < nt; ++t)
      for (int64_t s = 0; s < n; ++s) {
        if (c.t[size_t(t)].lateFor != kNone && model.load(t, s)) lateSteps[size_t(t)].push_back(s);
        if (model.store(t, s)) storeSteps[size_t(t)].push_back(s);
      }
    auto lateLoad = [&](int t, int64_t rc, int64_t done, const Geo& g) {
      const std::string who = std::string("late load of ") + c.t[size_t(t)].name;
      size_t& j = lateNext[size_t(t)];
      if (j >= lateSteps[size_t(t)].size()) fail(c, rc, who + ": one too many");
      const int64_t s = lateSteps[size_t(t)][j++];
      const int64_t phase = phaseN ? n : cores - 1;
      if (phase != s)
        fail(c, rc, who + " of step " + std::to_string(s) + " in phase " + std::to_string(phase));
      const Geo want = model.geo(t, s, bases[size_t(t)]);
      if (!(g == want))
        fail(c, rc, who + " of step " + std::to_string(s) + ": " + g.str() + ", not " + want.str());
      const uint64_t h = (io.half() >> t) & 1;
      for (const LateTile& x : lateTiles[size_t(t)])
        if (x.half == h && !(x.stored >= 0 && x.stored < rc))
          fail(c, rc,
               who + " of step " + std::to_string(s) + " overwrites half " + std::to_string(h) +
                   " before the store reading step " + std::to_string(x.step) + "'s tile is done");
      lateTiles[size_t(t)].push_back({s, h, done});
      ++lateLoads;
    };
    // An output's store starts: every late tensor it reads must be in ~half[t].
    auto lateStore = [&](int o, int64_t rc, int64_t done) {
      const int64_t s = storeSteps[size_t(o)][storeNext[size_t(o)]++];
      for (int t = 0; t < nt; ++t) {
        if (c.t[size_t(t)].lateFor != o) continue;
        const std::string who = std::string("store of ") + c.t[size_t(o)].name + " step " +
                                std::to_string(s) + ": late " + c.t[size_t(t)].name;
        LateTile* x = nullptr;
        for (LateTile& y : lateTiles[size_t(t)])
          if (y.step <= s) x = &y;
        if (!x || !model.sameTile(t, x->step, s)) fail(c, rc, who + "'s tile never loaded");
        if (x->loaded >= rc)
          fail(c, rc, who + "'s load is done only in run cycle " + std::to_string(x->loaded));
        const uint64_t h = (io.half() >> t) & 1;
        if (h != (x->half ^ 1))
          fail(c, rc,
               who + ": half = " + std::to_string(h) + ", but its tile of step " +
                   std::to_string(x->step) + " went into half " + std::to_string(x->half));
        x->stored = done;
        ++lateStores;
      }
    };

    for (int64_t rc = 0; rc < e.done; ++rc) {
      const bool wantBusy = rc >= 1;
      io.rst(rc == abortAt);
      io.start(rc == 0 || (wantBusy && rng.chance(0.05)));
      io.coreNext(c.chain && coreNextAt == rc);
      io.coreDone(!coreDoneAt.empty() && coreDoneAt.front() == rc);
      if (!coreDoneAt.empty() && coreDoneAt.front() == rc) coreDoneAt.pop_front();
      uint64_t ld = 0, st = 0;
      for (int t = 0; t < nt; ++t) {
        if (ldDoneAt[size_t(t)] == rc) ld |= uint64_t{1} << t;
        if (stDoneAt[size_t(t)] == rc) st |= uint64_t{1} << t;
      }
      io.ldDone(ld);
      io.stDone(st);
      m.eval();
      if (rc == abortAt) {
        tick();
        idleInputs(io);
        m.eval();
        if (io.busy() || io.done() || io.accZero() != 0 || io.half() != rtl::mask(nt) ||
            io.coreStart() || io.ldStart() || io.stStart())
          fail(c, rc + 1, "state after rst");
        return;
      }

      if (io.busy() != wantBusy) fail(c, rc, rtl::mismatch("busy", io.busy(), wantBusy));
      if (io.done() != (rc == 0 && prevDone))
        fail(c, rc, rtl::mismatch("done", io.done(), rc == 0 && prevDone));
      if (wantBusy) {
        const Phase* ph = nullptr;
        for (const Phase& x : e.phases)
          if (x.first <= rc && rc <= x.last) ph = &x;
        if (!ph) fail(c, rc, "no phase holds this cycle (model)");
        if (io.half() != ph->half)
          fail(c, rc, rtl::mismatch("half", int64_t(io.half()), int64_t(ph->half)));
        if (io.accZero() != ph->accZero)
          fail(c, rc, rtl::mismatch("acc_zero", int64_t(io.accZero()), int64_t(ph->accZero)));
      } else if (io.accZero() != 0) {
        fail(c, rc, "acc_zero while idle");
      }
      // An ACC output always adds to the start values it loaded.
      if (io.accZero() & accMask) fail(c, rc, "acc_zero of an ACC tensor");

      // Phases as the RTL shows them (for the late checks).
      if (io.coreStart())
        ++cores;
      else if (cores == n && io.half() != lastHalf)
        phaseN = true;
      lastHalf = io.half();

      // Starts: exactly the model's, in the model's cycle, with its geometry.
      auto check = [&](Kind kind, int t, bool got, const Geo& geo) {
        auto& q = queue[{kind, t}];
        size_t& i = next[{kind, t}];
        const bool want = i < q.size() && q[i]->start == rc;
        const std::string who = std::string(kindName(kind)) + (kind == kCore ? "" : " of ") +
                                (kind == kCore ? "" : c.t[size_t(t)].name);
        if (got != want) {
          std::string exp = i < q.size()
                                ? "next expected in run cycle " + std::to_string(q[i]->start) +
                                      " for step " + std::to_string(q[i]->step)
                                : "none expected any more";
          fail(c, rc, who + (got ? " started" : " did not start") + " (" + exp + ")");
        }
        if (!got) return int64_t(-1);
        if (kind != kCore && !(geo == q[i]->geo))
          fail(c, rc,
               who + " step " + std::to_string(q[i]->step) + ": " + geo.str() + ", expected " +
                   q[i]->geo.str());
        const int64_t done = rc + delay(kind, t, count[{kind, t}]++);
        if (done != q[i]->done) fail(c, rc, "bench and model disagree on a delay");
        ++i;
        return done;
      };
      if (int64_t d = check(kCore, 0, io.coreStart(), Geo{}); d >= 0) {
        coreNextAt = d;
        coreDoneAt.push_back(c.chain ? d + tail : d);
      }
      for (int t = 0; t < nt; ++t) {
        const Geo lg = io.ldGeo(t), sg = io.stGeo(t);
        const Idx si = io.stIdx(t);
        const std::string name = c.t[size_t(t)].name;
        const size_t ldNext = next[{kLoad, t}]; // the load that starts now, if one does
        if (int64_t d = check(kLoad, t, (io.ldStart() >> t) & 1, lg); d >= 0) {
          ++loadsSeen[size_t(t)];
          if (c.t[size_t(t)].acc && model.firstVisit(t, queue[{kLoad, t}][ldNext]->step))
            ++accFirstLoads;
          ldDoneAt[size_t(t)] = d;
          ldHeld[size_t(t)] = lg;
          if (c.t[size_t(t)].lateFor != kNone) lateLoad(t, rc, d, lg);
        }
        const size_t stNext = next[{kStore, t}]; // the store that starts now, if one does
        if (int64_t d = check(kStore, t, (io.stStart() >> t) & 1, sg); d >= 0) {
          stDoneAt[size_t(t)] = d;
          stHeld[size_t(t)] = sg;
          // First row and column from the step's loop indices (the odometer), not the address.
          const int64_t step = queue[{kStore, t}][stNext]->step;
          const Idx want = model.idx(t, step);
          if (!(si == want))
            fail(c, rc,
                 "store of " + name + " step " + std::to_string(step) + ": " + si.str() +
                     ", expected " + want.str());
          idxHeld[size_t(t)] = si;
          lateStore(t, rc, d);
        }
        if (!c.t[size_t(t)].out && !(si == Idx{}))
          fail(c, rc, "st_row0/st_col0 of input " + name + ": " + si.str());
        // Geometry held from start to done.
        if (ldDoneAt[size_t(t)] >= rc && !(lg == ldHeld[size_t(t)]))
          fail(c, rc, std::string("load geometry of ") + c.t[size_t(t)].name + " not held");
        if (stDoneAt[size_t(t)] >= rc && !(sg == stHeld[size_t(t)]))
          fail(c, rc, std::string("store geometry of ") + c.t[size_t(t)].name + " not held");
        if (stDoneAt[size_t(t)] >= rc && !(si == idxHeld[size_t(t)]))
          fail(c, rc, "st_row0/st_col0 of " + name + " not held");
      }
      tick();
      ++checkedCycles;
    }
    for (auto& [key, q] : queue)
      if (next[key] != q.size())
        fail(c, e.done, std::string(kindName(Kind(key.first))) + " events missing");
    for (int t = 0; t < nt; ++t)
      if (lateNext[size_t(t)] != lateSteps[size_t(t)].size())
        fail(c, e.done, std::string("late loads of ") + c.t[size_t(t)].name + " missing");
    // Every whole run starts the same loads.
    const std::string id = std::string(c.name).substr(0, std::string(c.name).find(' '));
    if (!runLoads.count(id)) runLoads[id] = loadsSeen;
    if (runLoads[id] != loadsSeen) fail(c, e.done, "another number of loads than the run before");
  }
};

// Hand-derived facts about the configurations, to check the model itself.
void checkModel(const Config& c, const Model& model) {
  auto count = [&](Kind kind, int t) {
    int64_t n = 0;
    for (int64_t s = 0; s < model.steps(); ++s)
      n += kind == kLoad    ? model.load(t, s)
           : kind == kStore ? model.store(t, s)
                            : model.accZero(t, s);
    return n;
  };
  struct Want {
    const char* cfg;
    int t;
    Kind kind; // kCore counts acc_zero steps
    int64_t n;
  };
  // c0: A and B change every step (k innermost), C once per (i, j) and never reloaded.
  // c1: C of one step per run, reloaded for k > 0; A changes with i, B every step.
  // c2: A every step, x per k, y reloaded for k = 1. c4: O's runs are 2 steps (c innermost).
  // c7: D's runs are 3 steps (j innermost), C's one; both reloaded for k = 1.
  // c10: R once per (i, j); c11: R every step, C reloaded for k = 1; c12: A per i, B and R
  // every step; c14: r and q per i, A and x every step, y stored per i.
  // c16: C (ACC) loaded at each of its 9 run starts (k = 0 of each (i, j)), where c0 loads none.
  // c17: C (ACC) loaded at all 27 steps (runs of one step), c1's 18 reloads and the 9 first
  // visits (k = 0). c18: C (ACC) at all 18 steps (c9: 9); D as in c9: 3 reloads, 3 from zero.
  // c19: I and W change every step (c innermost), O once per (f, h). c20: A and B every step (k
  // innermost), C per (b, i, j). c21: X, Y (ACC, runs of one step) and late R every step, W per k.
  const Want wants[] = {
      {"c0", 0, kLoad, 27},  {"c0", 1, kLoad, 27},  {"c0", 2, kLoad, 0},   {"c0", 2, kStore, 9},
      {"c0", 2, kCore, 9},   {"c1", 0, kLoad, 18},  {"c1", 0, kStore, 27}, {"c1", 0, kCore, 9},
      {"c1", 1, kLoad, 9},   {"c1", 2, kLoad, 27},  {"c2", 0, kLoad, 8},   {"c2", 1, kLoad, 2},
      {"c2", 2, kLoad, 4},   {"c2", 2, kStore, 8},  {"c3", 0, kLoad, 1},   {"c3", 2, kStore, 1},
      {"c4", 0, kLoad, 1},   {"c4", 1, kLoad, 3},   {"c4", 1, kStore, 6},  {"c4", 1, kCore, 3},
      {"c4", 2, kLoad, 12},  {"c4", 3, kLoad, 12},  {"c5", 0, kStore, 5},  {"c5", 0, kLoad, 0},
      {"c6", 0, kLoad, 6},   {"c7", 0, kStore, 6},  {"c7", 0, kLoad, 3},   {"c7", 0, kCore, 3},
      {"c7", 1, kStore, 18}, {"c7", 1, kLoad, 9},   {"c7", 1, kCore, 9},   {"c7", 2, kLoad, 6},
      {"c7", 3, kLoad, 18},  {"c10", 1, kLoad, 9},  {"c10", 0, kLoad, 27}, {"c10", 3, kStore, 9},
      {"c10", 3, kLoad, 0},  {"c11", 1, kLoad, 12}, {"c11", 0, kLoad, 6},  {"c11", 0, kStore, 12},
      {"c12", 3, kLoad, 6},  {"c12", 0, kLoad, 2},  {"c12", 1, kLoad, 6},  {"c12", 2, kStore, 6},
      {"c14", 0, kLoad, 3},  {"c14", 4, kLoad, 3},  {"c14", 1, kLoad, 6},  {"c14", 2, kLoad, 6},
      {"c14", 3, kStore, 3}, {"c16", 2, kLoad, 9},  {"c16", 2, kStore, 9}, {"c16", 2, kCore, 0},
      {"c16", 0, kLoad, 27}, {"c16", 1, kLoad, 27}, {"c17", 0, kLoad, 27}, {"c17", 0, kStore, 27},
      {"c17", 0, kCore, 0},  {"c17", 1, kLoad, 9},  {"c17", 2, kLoad, 27}, {"c18", 0, kLoad, 3},
      {"c18", 0, kCore, 3},  {"c18", 0, kStore, 6}, {"c18", 1, kLoad, 18}, {"c18", 1, kStore, 18},
      {"c18", 1, kCore, 0},  {"c18", 2, kLoad, 6},  {"c18", 3, kLoad, 18}, {"c19", 0, kLoad, 27},
      {"c19", 1, kLoad, 27}, {"c19", 2, kLoad, 0},  {"c19", 2, kStore, 9}, {"c19", 2, kCore, 9},
      {"c20", 0, kLoad, 16}, {"c20", 1, kLoad, 16}, {"c20", 2, kStore, 8}, {"c20", 2, kCore, 8},
      {"c21", 0, kLoad, 12}, {"c21", 1, kLoad, 2},  {"c21", 2, kLoad, 12}, {"c21", 2, kStore, 12},
      {"c21", 2, kCore, 0},  {"c21", 3, kLoad, 12}};
  for (const Want& w : wants)
    if (std::string(c.name).rfind(std::string(w.cfg) + " ", 0) == 0 && count(w.kind, w.t) != w.n)
      rtl::fail(kTest, 0,
                std::string(c.name) + ": model counts " + std::to_string(count(w.kind, w.t)) +
                    " for a hand-derived " + std::to_string(w.n));
  // ACC adds exactly the loads of the steps that start from zero without it.
  Config plain = c;
  for (Tensor& x : plain.t)
    x.acc = false;
  const Model pm(plain);
  for (int t = 0; t < model.tensors(); ++t) {
    int64_t added = 0, zeroed = 0;
    for (int64_t s = 0; s < model.steps(); ++s) {
      added += int64_t(model.load(t, s)) - int64_t(pm.load(t, s));
      zeroed += pm.accZero(t, s);
    }
    if (added != (c.t[size_t(t)].acc ? zeroed : 0) || (c.t[size_t(t)].acc && zeroed == 0))
      rtl::fail(kTest, 0,
                std::string(c.name) + ": ACC adds " + std::to_string(added) + " loads of " +
                    c.t[size_t(t)].name + " for " + std::to_string(zeroed) + " zero starts");
  }
  // c0: A's tile (i = 1, k = 2) at step 1*9 + 0*3 + 2 = 11: rows 4..7, cols 8..8 of a 10 x 9
  // int8 tensor at base 1000: 1000 + 4 * 9 + 8.
  if (std::string(c.name).rfind("c0 ", 0) == 0 && !(model.geo(0, 11, 1000) == Geo{1044, 4, 1}))
    rtl::fail(kTest, 0, "c0: model geometry of A at step 11: " + model.geo(0, 11, 1000).str());
  // Geometry of c19 .. c21 by hand. c19 (f, h, c) step 2*9 + 2*3 + 1 = 25: I's tile (c 1, h 2)
  // at 1000 + 1 * 3 * 54 + 2 * 18 = 1198, rows min(3, 7 - 3) = 3, cols min(30, 54 - 36) = 18 (the
  // last h tile: 1 + 2 rows of 6); O's (f 2, h 2) at 1000 + (2 * 4 * 32 + 2 * 12) * 4 = 2120,
  // rows 10 - 8 = 2, cols 28 - 24 = 4, first row 8 and column 24. c20 (b, i, j, k) step 8 + 2 + 1
  // = 11 (b 1, i 0, j 1, k 1): B's tile (k 1, j 1) at 1000 + (3 * 8 + 3) * 2 + 80 + 4 = 1138,
  // rows 5 - 3 = 2, cols 3; C's (i 0, j 1) at 1000 + 4 * 4 + 4096 + 8 = 5120, rows 4, cols
  // min(3, 6 - 4) = 2, and at step 15 (i 1, j 1) 1000 + (3 * 6 + 4) * 4 + 4104 = 5192, rows
  // min(4, 7 - 3) = 4, first row 3 and column 4. c21 (k, j, i) step 6 + 3 + 2 = 11 (k 1, j 1,
  // i 2): X's tile at 100 + (2 * 3 * 9 + 4) * 2 - 256 = -40, i.e. 4096 - 40 = 4056 in 12 bits,
  // rows min(5, 10 - 6) = 4 (the halo's last tile), cols 7 - 4 = 3; Y's at 100 + (2 * 3 * 7 + 4)
  // * 4 = 284, rows 8 - 6 = 2, cols 3, first row 6 and column 4.
  struct HandGeo {
    const char* cfg;
    int t;
    int64_t step;
    uint64_t base;
    Geo geo;
    Idx idx;
  };
  const HandGeo hand[] = {
      {"c19", 0, 25, 1000, {1198, 3, 18}, {3, 36}}, {"c19", 2, 25, 1000, {2120, 2, 4}, {8, 24}},
      {"c20", 1, 11, 1000, {1138, 2, 3}, {3, 3}},   {"c20", 2, 11, 1000, {5120, 4, 2}, {0, 4}},
      {"c20", 2, 15, 1000, {5192, 4, 2}, {3, 4}},   {"c21", 0, 11, 100, {4056, 4, 3}, {6, 4}},
      {"c21", 2, 11, 100, {284, 2, 3}, {6, 4}}};
  for (const HandGeo& h : hand)
    if (std::string(c.name).rfind(std::string(h.cfg) + " ", 0) == 0 &&
        (!(model.geo(h.t, h.step, h.base) == h.geo) || !(model.idx(h.t, h.step) == h.idx)))
      rtl::fail(kTest, 0,
                std::string(h.cfg) + ": model geometry of tensor " + std::to_string(h.t) +
                    " at step " + std::to_string(h.step) + ": " +
                    model.geo(h.t, h.step, h.base).str() + " " + model.idx(h.t, h.step).str());
  // Every configuration keeps the header's rules: with a row loop of EXT e, (e - 1) * RSTEP <
  // TROWS <= (e - 1) * RSTEP + ROWS and, if e >= 2, (e - 2) * RSTEP + ROWS <= TROWS; without
  // one, TROWS <= ROWS (the same for columns).
  for (const Tensor& x : c.t) {
    auto fits = [&](int loop, int64_t tile, int64_t step, int64_t total) {
      if (loop == kNone) return total <= tile;
      const int64_t e = c.ext[size_t(loop)];
      return (e - 1) * step < total && total <= (e - 1) * step + tile &&
             (e < 2 || (e - 2) * step + tile <= total);
    };
    if (!fits(x.rowLoop, x.rows, rowStep(x), x.trows) ||
        !fits(x.colLoop, x.cols, colStep(x), x.tcols))
      rtl::fail(kTest, 0, std::string(c.name) + ": " + x.name + "'s tiles break the rules");
  }
  // c3 with core 7, loads 5, stores 3 cycles: phase -1 loads A (1..6) and B (7..12), phase 0
  // computes 13..20, phase 1 stores C 21..24: done in cycle 25.
  if (std::string(c.name).rfind("c3 ", 0) == 0) {
    auto fixed = [](Kind k, int, int64_t) -> int64_t {
      return k == kCore ? 7 : k == kLoad ? 5 : 3;
    };
    const int64_t d = model.run({0, 0, 0}, fixed).done;
    if (d != 25) rtl::fail(kTest, 0, "c3: model done in cycle " + std::to_string(d) + ", not 25");
  }
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(14);
  std::vector<Io> ios = {IO(c0, 32, 5),  IO(c1, 40, 3),  IO(c2, 32, 16), IO(c3, 64, 4),
                         IO(c4, 64, 6),  IO(c5, 16, 2),  IO(c6, 12, 2),  IO(c7, 32, 4),
                         IO(c8, 32, 5),  IO(c9, 32, 4),  IO(c10, 32, 5), IO(c11, 40, 3),
                         IO(c12, 24, 4), IO(c13, 32, 5), IO(c14, 16, 4), IO(c15, 40, 3),
                         IO(c16, 32, 5), IO(c17, 40, 3), IO(c18, 32, 4), IO(c19, 32, 5),
                         IO(c20, 24, 3), IO(c21, 12, 3)};
  Bench b{m, rng};

  m.clk = 0;
  for (Io& io : ios) {
    b.idleInputs(io);
    io.rst(true);
  }
  m.eval();
  b.tick();
  for (Io& io : ios)
    io.rst(false);

  size_t ci = 0;
  long runs = 0, conflicts = 0;
  for (const Config& c : kConfigs) {
    Io& io = ios[ci++];
    const Model model(c);
    checkModel(c, model);
    const int nt = model.tensors();
    auto randomBases = [&] {
      std::vector<uint64_t> bases;
      for (int t = 0; t < nt; ++t)
        bases.push_back(rng.chance(0.3) ? rtl::mask(c.addrW) - rng.bits(8) // wraps
                                        : rng.bits(c.addrW));
      return bases;
    };
    bool prevDone = false;
    uint64_t seed = 1;
    for (int rep = 0; rep < 2; ++rep) {
      for (const Mode& md : kModes) {
        const Delay delay = modeDelay(md, seed++);
        const std::vector<uint64_t> bases = randomBases();
        const Expected e = model.run(bases, delay, md.coreLo);
        for (const Event& ev : e.events)
          conflicts += ev.kind == kLoad && ev.step >= 2 && model.store(ev.t, ev.step - 2);
        b.run(c, io, model, bases, delay, e, prevDone, md.coreLo);
        ++runs;
        if (md.coreLo == 1 && md.coreHi == 1 && rep == 0)
          std::printf("%s: %s: %lld buffer tiles, done in cycle %lld\n", kTest, c.name,
                      (long long)model.steps(), (long long)e.done);
        // Back to back (start in the done cycle) or after a gap.
        prevDone = true;
        for (int gap = rng.range(0, 3); gap > 0; --gap) {
          b.idleInputs(io);
          m.eval();
          if (io.busy() || io.done() != prevDone || io.coreStart() || io.ldStart() || io.stStart())
            b.fail(c, -1, "not idle after done");
          prevDone = false;
          b.tick();
        }
      }
      // A run cut by rst half way; the next run must not notice.
      const Delay delay = modeDelay(kModes[1], seed++);
      const std::vector<uint64_t> bases = randomBases();
      const Expected e = model.run(bases, delay, kModes[1].coreLo);
      b.run(c, io, model, bases, delay, e, prevDone, kModes[1].coreLo, e.done / 2);
      prevDone = false;
    }
    // Let the last done pulse pass.
    b.idleInputs(io);
    m.eval();
    if (io.done() != prevDone || io.busy()) b.fail(c, -1, "done pulse at the end");
    b.tick();
    m.eval();
    if (io.done() || io.busy()) b.fail(c, -1, "done longer than one cycle");
  }
  if (conflicts == 0) rtl::fail(kTest, b.cycle, "no load waited for its store (test too weak)");
  if (b.lateLoads == 0 || b.lateStores == 0)
    rtl::fail(kTest, b.cycle, "no late load or store checked (test too weak)");
  if (b.accFirstLoads == 0) rtl::fail(kTest, b.cycle, "no ACC load of a first visit (too weak)");
  // On the RTL's own pulses: ACC adds its first visits to its tensor's loads per run, and
  // changes no other tensor's loads.
  for (const auto& [acc, twin, added] : kAccTwins) {
    const std::vector<int64_t>&a = b.runLoads.at(acc), &o = b.runLoads.at(twin);
    const Config* cfg = nullptr;
    for (const Config& c : kConfigs)
      if (std::string(c.name).rfind(std::string(acc) + " ", 0) == 0) cfg = &c;
    if (!cfg || a.size() != o.size()) rtl::fail(kTest, b.cycle, std::string(acc) + ": no twin");
    for (size_t t = 0; t < a.size(); ++t)
      if (a[t] - o[t] != (cfg->t[t].acc ? added : 0))
        rtl::fail(kTest, b.cycle,
                  std::string(acc) + ": " + std::to_string(a[t]) + " loads of " + cfg->t[t].name +
                      " per run, " + std::to_string(o[t]) + " in " + twin);
  }
  std::printf("%s: OK (%zu configurations, %ld runs, %ld loads after their store, %ld late "
              "loads and %ld stores reading them checked directly, %ld ACC loads of first "
              "visits, %ld cycles)\n",
              kTest, std::size(kConfigs), runs, conflicts, b.lateLoads, b.lateStores,
              b.accFirstLoads, b.checkedCycles);
  return 0;
}
