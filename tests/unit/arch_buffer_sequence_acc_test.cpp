// SPDX-License-Identifier: Apache-2.0
// `+=` outputs of the buffer sequencer's model (rubick/arch/BufferSequence.h, the ACC parameter
// of rtl_templates/rubick_buf_seq.v): an ACC output is loaded at every run start, its first
// visits included (its values in memory are its start values), after its own store when both
// fall in one phase, and never starts from zero. Loads and a timeline worked out by hand, and
// sequencerConfig and the emitted instance following the plan's startValues.
// tests/rtl/test_rubick_buf_seq checks the RTL against the same model.

#include "dataflow_test_util.h"

#include "rubick/arch/BufferSequence.h"
#include "rubick/arch/MemoryPlan.h"
#include "rubick/dse/Explore.h"
#include "rubick/emit/MemoryTop.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

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

// GEMV y[i] += A[i,k] * x[k] without x, order (k, i) of 2 x 2 tiles: steps (k, i) = (0,0),
// (0,1), (1,0), (1,1). Tensor 0: y (output, dep i, red k: runs of one step), tensor 1: A.
SequencerConfig gemvKI(bool acc) {
  SequencerConfig c;
  c.ext = {2, 2};
  SequencedTensor y = tensor(2, {1}, -1, 1, 1, 4, 1, 8, 4);
  y.out = true;
  y.red = {1, 0};
  y.acc = acc;
  SequencedTensor a = tensor(2, {0, 1}, 1, 0, 4, 5, 8, 10, 1);
  c.tensors = {y, a};
  return c;
}

using Load = std::tuple<int, int64_t, int>; // tensor, step, the store it waits for (-1: none)

std::vector<std::vector<Load>> loads(const std::vector<SeqWork>& w) {
  std::vector<std::vector<Load>> v;
  for (const SeqWork& p : w) {
    v.emplace_back();
    for (size_t i = 0; i < p.loads.size(); ++i)
      v.back().emplace_back(p.loads[i].tensor, p.loads[i].step, p.after[i]);
  }
  return v;
}

TEST(BufferSequenceAcc, EveryRunStartLoadsTheOutput) {
  const std::vector<uint64_t> bases = {0x100, 0x1000};
  const std::vector<SeqWork> acc = sequencerWork(gemvKI(true), bases);
  const std::vector<SeqWork> plain = sequencerWork(gemvKI(false), bases);
  ASSERT_EQ(acc.size(), 6U); // phases -1 .. 4
  // Phase k loads step k+1. With ACC y is loaded at all four steps; in phases 1 and 2 it is also
  // stored (step k-1, the same half: runs of one step), so its load waits for store 0 of the
  // phase. Without ACC only k = 1 (steps 2, 3) reloads.
  const std::vector<std::vector<Load>> wantAcc = {{{0, 0, -1}, {1, 0, -1}},
                                                  {{0, 1, -1}, {1, 1, -1}},
                                                  {{0, 2, 0}, {1, 2, -1}},
                                                  {{0, 3, 0}, {1, 3, -1}},
                                                  {},
                                                  {}};
  const std::vector<std::vector<Load>> wantPlain = {
      {{1, 0, -1}}, {{1, 1, -1}}, {{0, 2, 0}, {1, 2, -1}}, {{0, 3, 0}, {1, 3, -1}}, {}, {}};
  EXPECT_EQ(loads(acc), wantAcc);
  EXPECT_EQ(loads(plain), wantPlain);
  for (size_t p = 0; p < acc.size(); ++p) {
    SCOPED_TRACE("phase " + std::to_string(acc[p].step));
    // ACC never starts from zero; without it y starts from zero in phases 0 and 1 (k = 0).
    EXPECT_EQ(acc[p].accZero, 0U);
    EXPECT_EQ(plain[p].accZero, p == 1 || p == 2 ? 1U : 0U);
    // Stores and halves do not change.
    EXPECT_EQ(acc[p].half, plain[p].half);
    ASSERT_EQ(acc[p].stores.size(), p >= 2 ? 1U : 0U);
    ASSERT_EQ(plain[p].stores.size(), acc[p].stores.size());
    if (p >= 2) {
      EXPECT_EQ(acc[p].stores[0].tensor, 0);
      EXPECT_EQ(acc[p].stores[0].step, static_cast<int64_t>(p) - 2);
    }
  }
  // y's first-visit loads have their tile's geometry: step 1 is i = 1, cols 4..7 of 8.
  const SeqEvent& y1 = acc[1].loads[0];
  EXPECT_EQ(y1.addr, 0x100U + 4 * 4);
  EXPECT_EQ(y1.rows, 1);
  EXPECT_EQ(y1.cols, 4);
  EXPECT_TRUE(gemvKI(true).tensors[0].loads());
  EXPECT_TRUE(gemvKI(false).tensors[0].loads()); // red
}

TEST(BufferSequenceAcc, OutputKeptAcrossTheReduction) {
  // C[i] over order (i, k), 2 x 3 tiles: C's runs are steps 0..2 and 3..5 (no red). With ACC it
  // is loaded at steps 0 and 3 (phases -1 and 2), rows 0..3 and 4..7 of an 8 x 5 int32 tensor;
  // without it never. Stored at steps 2 and 5 either way.
  SequencerConfig c;
  c.ext = {2, 3};
  SequencedTensor out = tensor(2, {0}, 0, -1, 4, 5, 8, 5, 4);
  out.out = true;
  out.acc = true;
  c.tensors = {out};
  EXPECT_TRUE(c.tensors[0].loads());
  const std::vector<SeqWork> w = sequencerWork(c, {0x2000});
  ASSERT_EQ(w.size(), 8U);
  std::vector<std::tuple<int64_t, int64_t, uint64_t>> got, stored; // phase, step, addr
  for (const SeqWork& p : w) {
    EXPECT_EQ(p.accZero, 0U) << "phase " << p.step;
    for (const SeqEvent& e : p.loads)
      got.emplace_back(p.step, e.step, e.addr);
    for (const SeqEvent& e : p.stores)
      stored.emplace_back(p.step, e.step, e.addr);
    for (int a : p.after)
      EXPECT_EQ(a, -1);
  }
  const std::vector<std::tuple<int64_t, int64_t, uint64_t>> want = {{-1, 0, 0x2000},
                                                                    {2, 3, 0x2000 + 4 * 5 * 4}};
  const std::vector<std::tuple<int64_t, int64_t, uint64_t>> wantStored = {
      {3, 2, 0x2000}, {6, 5, 0x2000 + 4 * 5 * 4}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(stored, wantStored);
  c.tensors[0].acc = false;
  EXPECT_FALSE(c.tensors[0].loads());
  for (const SeqWork& p : sequencerWork(c, {0x2000}))
    EXPECT_TRUE(p.loads.empty());
}

TEST(BufferSequenceAcc, HandWorkedTimeline) {
  // gemvKI with ACC; core 10 cycles, loads 5, stores 3. Phase -1 (1..12): y(0) 1..6, A(0)
  // 7..12. Phase 0 (13..24): core 13..23, y(1) 13..18, A(1) 19..24. Phase 1 (25..40): core
  // 25..35, store y(0) 25..28, y(2) after it 29..34, A(2) 35..40. Phase 2 (41..56): the same,
  // y(3) 45..50, A(3) 51..56. Phase 3 (57..67): core, store y(2) 57..60. Phase 4 (68..71):
  // store y(3). done 72.
  const SeqTimeline t =
      sequencerTimeline(gemvKI(true), {0, 0x1000}, [](const SeqEvent& e) -> int64_t {
        return e.kind == SeqKind::core ? 10 : e.kind == SeqKind::load ? 5 : 3;
      });
  ASSERT_EQ(t.phases.size(), 6U);
  const int64_t last[] = {12, 24, 40, 56, 67, 71};
  for (size_t k = 0; k < 6; ++k)
    EXPECT_EQ(t.phases[k].last, last[k]) << "phase " << int(k) - 1;
  EXPECT_EQ(t.done, 72);
  const std::vector<std::pair<int64_t, int64_t>> want = {{0, 1}, {1, 13}, {2, 29}, {3, 45}};
  std::vector<std::pair<int64_t, int64_t>> got; // y's loads: step, start
  for (const SeqEvent& e : t.events)
    if (e.kind == SeqKind::load && e.tensor == 0) got.emplace_back(e.step, e.start);
  EXPECT_EQ(got, want);
}

TEST(BufferSequenceAcc, ConfigAndInstanceFollowStartValues) {
  tc::Program prog =
      dataflow::test::program(dataflow::test::kGemm, {{"M", 16}, {"N", 16}, {"K", 16}});
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = {{4, 4}};
  o.constraints.memory = {8, 50, 64};
  o.constraints.bufferBytes = 1024;
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.write ? 32 : 8);
  const dse::ExploreResult r = dse::explore(v, o);
  ASSERT_FALSE(r.points.empty());
  const dse::DesignPoint& pt = r.points.front();
  MemoryPlan m =
      makeMemoryPlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, pt.buffer, "d");
  size_t out = m.tensors.size();
  for (size_t t = 0; t < m.tensors.size(); ++t) {
    m.tensors[t].startValues = false;
    if (m.core.tensors[t].output) out = t;
  }
  ASSERT_LT(out, m.tensors.size());
  const emit::MemoryTopOptions axi = axiOptions(o.constraints.memory);
  for (bool sv : {false, true}) {
    SCOPED_TRACE(sv ? "startValues" : "no startValues");
    m.tensors[out].startValues = sv;
    m.tensors[out].reload = m.tensors[out].reload || sv;
    const SequencerConfig c = sequencerConfig(m);
    std::string bits = std::to_string(c.tensors.size()) + "'b";
    for (size_t t = c.tensors.size(); t-- > 0;) {
      EXPECT_EQ(c.tensors[t].acc, t == out && sv) << "tensor " << t;
      bits += t == out ? '1' : '0';
    }
    if (sv) {
      EXPECT_TRUE(c.tensors[out].loads());
    }
    const std::string top = emit::memoryTopModule(m, axi);
    // ACC is passed only when some tensor has it.
    if (sv)
      EXPECT_NE(top.find(".ACC(" + bits + ")"), std::string::npos) << bits;
    else
      EXPECT_EQ(top.find(".ACC("), std::string::npos);
  }
}

} // namespace
} // namespace rubick::arch
