// SPDX-License-Identifier: Apache-2.0
// Late tensors of the buffer sequencer's model (rubick/arch/BufferSequence.h, the LATE parameter
// of rtl_templates/rubick_buf_seq.v): an epilogue operand of the output's shape is loaded in the
// phase computing its step, with that step's geometry, into the half current then. A timeline
// worked out by hand, and on GEMM-like configurations: turning `late` on moves only that tensor's
// loads one phase later, and its tile is in the other half when its output's tile is stored.
// tests/rtl/test_rubick_buf_seq checks the RTL against the same model.

#include "rubick/arch/BufferSequence.h"

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <tuple>

namespace rubick::arch {
namespace {

SequencedTensor tensor(size_t nl, std::vector<int> dep, int rowLoop, int colLoop, int64_t rows,
                       int64_t cols, int64_t trows, int64_t tcols, int64_t ebytes) {
  SequencedTensor t;
  t.dep.assign(nl, 0);
  t.red.assign(nl, 0);
  for (int i : dep)
    t.dep[static_cast<size_t>(i)] = 1;
  t.rowLoop = rowLoop;
  t.colLoop = colLoop;
  t.rows = rows;
  t.cols = cols;
  t.trows = trows;
  t.tcols = tcols;
  t.ebytes = ebytes;
  return t;
}

// GEMM C[i,j] = A[i] * B[j] + R[i,j] (K in one tile), order (i, j) of 2 x 3 tiles; tensors A,
// B, C, R with R late.
SequencerConfig gemmOneK() {
  SequencerConfig c;
  c.ext = {2, 3};
  SequencedTensor a = tensor(2, {0}, 0, -1, 4, 6, 8, 6, 1);
  SequencedTensor b = tensor(2, {1}, -1, 1, 6, 3, 6, 9, 1);
  SequencedTensor out = tensor(2, {0, 1}, 0, 1, 4, 3, 8, 9, 4);
  out.out = true;
  SequencedTensor r = tensor(2, {0, 1}, 0, 1, 4, 3, 8, 9, 2);
  r.late = true;
  c.tensors = {a, b, out, r};
  return c;
}

TEST(BufferSequenceLate, HandWorkedTimeline) {
  // Core 10 cycles, loads 5, stores 3. Phase -1 (1..12): A(0), B(0). Phase 0 (13..24): core
  // 13..23, B(1) 13..18, then R(0) 19..24. Phase 1 (25..36): store C(0), B(2) 25..30, R(1)
  // 31..36. Phase 2 (37..54): A(3), B(3), R(2) one after the other. Phases 3, 4 like phase 1
  // (55..66, 67..78). Phase 5 (79..89): core to 89, R(5) 79..84. Phase 6 (90..93): store C(5).
  const SeqTimeline t =
      sequencerTimeline(gemmOneK(), {0, 1000, 2000, 10000}, [](const SeqEvent& e) -> int64_t {
        return e.kind == SeqKind::core ? 10 : e.kind == SeqKind::load ? 5 : 3;
      });
  ASSERT_EQ(t.phases.size(), 8U);
  const int64_t last[] = {12, 24, 36, 54, 66, 78, 89, 93};
  for (size_t k = 0; k < 8; ++k)
    EXPECT_EQ(t.phases[k].last, last[k]) << "phase " << int(k) - 1;
  EXPECT_EQ(t.done, 94);
  // Every load of R: step k in phase k, after the phase's other loads (t = 3 is the last), at
  // R's tile (i, j) of step k.
  int rLoads = 0;
  for (const SeqEvent& e : t.events) {
    if (e.kind != SeqKind::load || e.tensor != 3) continue;
    ++rLoads;
    const int64_t i = e.step / 3, j = e.step % 3;
    const SeqPhase& ph = t.phases[static_cast<size_t>(e.step + 1)];
    EXPECT_GE(e.start, ph.first) << "step " << e.step;
    EXPECT_LE(e.done, ph.last) << "step " << e.step;
    EXPECT_EQ(e.addr, 10000U + static_cast<uint64_t>((i * 4 * 9 + j * 3) * 2));
    EXPECT_EQ(e.rows, 4);
    EXPECT_EQ(e.cols, 3);
  }
  EXPECT_EQ(rLoads, 6);
  const std::map<int64_t, int64_t> rStart = {{0, 19}, {1, 31}, {2, 49}, {5, 79}};
  for (const SeqEvent& e : t.events)
    if (e.kind == SeqKind::load && e.tensor == 3 && rStart.count(e.step)) {
      EXPECT_EQ(e.start, rStart.at(e.step)) << "step " << e.step;
    }
}

// GEMM-like configurations with a late R of C's shape: (i, j, k) with C kept across k, (k, i, j)
// with C's partial sums reloaded (R loaded every step), and two late vectors of a GEMV.
std::vector<SequencerConfig> lateConfigs() {
  std::vector<SequencerConfig> v;
  {
    SequencerConfig c;
    c.ext = {3, 3, 3};
    SequencedTensor a = tensor(3, {0, 2}, 0, 2, 4, 4, 10, 9, 1);
    SequencedTensor r = tensor(3, {0, 1}, 0, 1, 4, 3, 10, 7, 2);
    r.late = true;
    SequencedTensor b = tensor(3, {2, 1}, 2, 1, 4, 3, 9, 7, 1);
    SequencedTensor out = tensor(3, {0, 1}, 0, 1, 4, 3, 10, 7, 4);
    out.out = true;
    c.tensors = {a, r, b, out};
    v.push_back(c);
    c.chain = true;
    c.coreTail = 3;
    v.push_back(c);
  }
  {
    SequencerConfig c;
    c.ext = {2, 3, 2};
    SequencedTensor out = tensor(3, {1, 2}, 1, 2, 4, 3, 10, 5, 4);
    out.out = true;
    out.red = {1, 0, 0};
    SequencedTensor r = tensor(3, {1, 2}, 1, 2, 4, 3, 10, 5, 1);
    r.late = true;
    SequencedTensor a = tensor(3, {0, 1}, 1, 0, 4, 4, 10, 7, 1);
    SequencedTensor b = tensor(3, {0, 2}, 0, 2, 4, 3, 7, 5, 1);
    c.tensors = {out, r, a, b};
    v.push_back(c);
  }
  {
    SequencerConfig c;
    c.ext = {3, 2};
    SequencedTensor r = tensor(2, {0}, -1, 0, 1, 4, 1, 11, 2);
    r.late = true;
    SequencedTensor a = tensor(2, {0, 1}, 0, 1, 4, 5, 11, 9, 1);
    SequencedTensor x = tensor(2, {1}, -1, 1, 1, 5, 1, 9, 1);
    SequencedTensor y = tensor(2, {0}, -1, 0, 1, 4, 1, 11, 4);
    y.out = true;
    SequencedTensor q = r;
    q.ebytes = 1;
    c.tensors = {r, a, x, y, q};
    v.push_back(c);
  }
  v.push_back(gemmOneK());
  return v;
}

using Key = std::tuple<int, int64_t, uint64_t, int64_t, int64_t>; // tensor, step, geometry
Key key(const SeqEvent& e) {
  return {e.tensor, e.step, e.addr, e.rows, e.cols};
}

TEST(BufferSequenceLate, OnlyTheLateLoadsMoveOnePhaseLater) {
  const std::vector<uint64_t> bases = {0x1000, 0x20000, 0x300000, 0x4000000, 0x50000000};
  for (const SequencerConfig& c : lateConfigs()) {
    SequencerConfig plain = c;
    for (SequencedTensor& t : plain.tensors)
      t.late = false;
    const std::vector<uint64_t> b(bases.begin(), bases.begin() + c.tensors.size());
    const std::vector<SeqWork> late = sequencerWork(c, b), before = sequencerWork(plain, b);
    ASSERT_EQ(late.size(), before.size());
    const size_t np = late.size(); // N + 2
    for (size_t p = 0; p < np; ++p) {
      const SeqWork &w = late[p], &o = before[p];
      SCOPED_TRACE("phase " + std::to_string(w.step));
      EXPECT_EQ(w.core, o.core);
      EXPECT_EQ(w.half, o.half);
      EXPECT_EQ(w.accZero, o.accZero);
      ASSERT_EQ(w.stores.size(), o.stores.size());
      for (size_t i = 0; i < w.stores.size(); ++i)
        EXPECT_EQ(key(w.stores[i]), key(o.stores[i]));
      // Loads one after the other in ascending tensor order; the ordinary ones as before, the
      // late ones of step k the ones phase k-1 had without `late`.
      std::vector<Key> ordinary, lateHere, plainOrdinary, plainLateNext;
      for (size_t i = 0; i < w.loads.size(); ++i) {
        if (i > 0) {
          EXPECT_LT(w.loads[i - 1].tensor, w.loads[i].tensor);
        }
        const bool isLate = c.tensors[static_cast<size_t>(w.loads[i].tensor)].late;
        (isLate ? lateHere : ordinary).push_back(key(w.loads[i]));
        if (isLate) {
          EXPECT_EQ(w.loads[i].step, w.step);
          EXPECT_EQ(w.after[i], -1);
        }
      }
      for (const SeqEvent& e : o.loads)
        if (!c.tensors[static_cast<size_t>(e.tensor)].late) plainOrdinary.push_back(key(e));
      if (p > 0)
        for (const SeqEvent& e : before[p - 1].loads)
          if (c.tensors[static_cast<size_t>(e.tensor)].late) plainLateNext.push_back(key(e));
      EXPECT_EQ(ordinary, plainOrdinary);
      EXPECT_EQ(lateHere, plainLateNext);
    }
    // Phase -1 and phase N load no late tensor; phase N loads nothing.
    for (const SeqEvent& e : late.front().loads)
      EXPECT_FALSE(c.tensors[static_cast<size_t>(e.tensor)].late);
    EXPECT_TRUE(late.back().loads.empty());
  }
}

TEST(BufferSequenceLate, TheStoreFindsTheLateTileInTheOtherHalf) {
  for (const SequencerConfig& c : lateConfigs()) {
    const std::vector<SeqWork> w = sequencerWork(c, std::vector<uint64_t>(c.tensors.size(), 0));
    int checked = 0;
    for (size_t t = 0; t < c.tensors.size(); ++t) {
      if (!c.tensors[t].late) continue;
      // The half the late DMA writes: bit t of the half of the phase of its load.
      std::map<int64_t, uint64_t> wrote; // step -> half bit
      for (const SeqWork& p : w)
        for (const SeqEvent& e : p.loads)
          if (static_cast<size_t>(e.tensor) == t) wrote[e.step] = (p.half >> t) & 1;
      // Every store of an output of the same dep: bit t of that phase's half is the other one,
      // for the tile loaded at the run's first step (the last late load at or before it).
      for (const SeqWork& p : w)
        for (const SeqEvent& s : p.stores) {
          if (c.tensors[static_cast<size_t>(s.tensor)].dep != c.tensors[t].dep) continue;
          auto it = wrote.upper_bound(s.step);
          ASSERT_NE(it, wrote.begin());
          --it;
          EXPECT_EQ((p.half >> t) & 1, it->second ^ 1)
              << "store of step " << s.step << ", late tile of step " << it->first;
          // The next late load (of step s + 1, in the store's phase) writes the other half.
          auto next = std::next(it);
          if (next != wrote.end()) {
            EXPECT_EQ(next->first, s.step + 1);
            EXPECT_EQ(next->second, it->second ^ 1);
          }
          ++checked;
        }
    }
    EXPECT_GT(checked, 0);
  }
}

} // namespace
} // namespace rubick::arch
