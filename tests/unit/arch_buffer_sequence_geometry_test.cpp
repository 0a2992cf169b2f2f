// SPDX-License-Identifier: Apache-2.0
// Tiles as strided boxes in the buffer sequencer's model (rubick/arch/BufferSequence.h, the
// RSTEP, CSTEP, PITCH and ASTEP parameters of rtl_templates/rubick_buf_seq.v): tiles that overlap
// the next (a halo), rows a pitch other than the tensor's columns apart, addresses moved by other
// loops; every address, row and column count worked out by hand. The defaults give today's
// row-major tiles, and a transfer's cycles follow the pitch (timing::transferCycles).
// tests/rtl/test_rubick_buf_seq checks the RTL against the same formula.

#include "dma_timing_test_util.h"

#include "../../src/arch/TimingParts.h"
#include "rubick/arch/BufferSequence.h"
#include "rubick/arch/DmaTiming.h"

#include <gtest/gtest.h>

#include <tuple>
#include <utility>
#include <vector>

namespace rubick::arch {
namespace {

using Tile = std::tuple<int64_t, uint64_t, int64_t, int64_t>; // step, addr, rows, cols

// Order (b, r, c) of 2 x 2 x 3 tiles: step s = 6b + 3r + c.
//  - Tensor 0, X (input, every position in its dep): rows indexed by r, columns by c. Tiles of
//    4 x 5 int16 elements moving by RSTEP 3 and CSTEP 4 (a halo of one row and one column) over
//    a 6 x 12 tensor whose rows are PITCH 16 elements apart; 1000 bytes more per b (a batch
//    index, neither its rows nor its columns) and 6 more per r (added to the row loop's own
//    move). addr = base + (r * 3 * 16 + c * 4) * 2 + 1000 b + 6 r = base + 102 r + 8 c + 1000 b;
//    rows = min(4, 6 - 3r): 4, 3; cols = min(5, 12 - 4c): 5, 5, 4.
//  - Tensor 1, O (output, dep b and r): 2 x 8 int32 tiles of a 4 x 8 tensor whose rows are 10
//    elements apart (RSTEP and CSTEP default), -64 bytes per b (a negative move wraps):
//    addr = base + r * 2 * 10 * 4 - 64 b = base + 80 r - 64 b; stored at the end of each run
//    over c (steps 2, 5, 8, 11).
SequencerConfig boxes() {
  SequencerConfig c;
  c.ext = {2, 2, 3};
  SequencedTensor x;
  x.dep = {1, 1, 1};
  x.red = {0, 0, 0};
  x.rowLoop = 1;
  x.colLoop = 2;
  x.rows = 4;
  x.cols = 5;
  x.trows = 6;
  x.tcols = 12;
  x.ebytes = 2;
  x.rstep = 3;
  x.cstep = 4;
  x.pitch = 16;
  x.astep = {1000, 6, 0};
  SequencedTensor o;
  o.out = true;
  o.dep = {1, 1, 0};
  o.red = {0, 0, 0};
  o.rowLoop = 1;
  o.rows = 2;
  o.cols = 8;
  o.trows = 4;
  o.tcols = 8;
  o.ebytes = 4;
  o.pitch = 10;
  o.astep = {~uint64_t{63}, 0}; // -64; position 2 left out: 0
  c.tensors = {x, o};
  return c;
}

std::vector<Tile> tiles(const std::vector<SeqWork>& w, SeqKind kind, int tensor) {
  std::vector<Tile> v;
  for (const SeqWork& p : w)
    for (const SeqEvent& e : kind == SeqKind::load ? p.loads : p.stores)
      if (e.tensor == tensor) v.emplace_back(e.step, e.addr, e.rows, e.cols);
  return v;
}

TEST(BufferSequenceGeometry, StridedBoxesByHand) {
  const SequencerConfig c = boxes();
  EXPECT_EQ(c.tensors[0].rowStep(), 3);
  EXPECT_EQ(c.tensors[0].colStep(), 4);
  EXPECT_EQ(c.tensors[0].rowPitch(), 16);
  EXPECT_EQ(c.tensors[1].rowStep(), 2); // the defaults: rows, cols
  EXPECT_EQ(c.tensors[1].colStep(), 8);
  EXPECT_EQ(c.tensors[1].addrStep(0), ~uint64_t{63});
  EXPECT_EQ(c.tensors[1].addrStep(2), 0U);
  const std::vector<SeqWork> w = sequencerWork(c, {0x100, 0x20});
  ASSERT_EQ(w.size(), 14U); // phases -1 .. 12
  // X: 256 + 102 r + 8 c + 1000 b at every step (c innermost: every step starts a run).
  const std::vector<Tile> wantX = {{0, 256, 4, 5},  {1, 264, 4, 5},   {2, 272, 4, 4},
                                   {3, 358, 3, 5},  {4, 366, 3, 5},   {5, 374, 3, 4},
                                   {6, 1256, 4, 5}, {7, 1264, 4, 5},  {8, 1272, 4, 4},
                                   {9, 1358, 3, 5}, {10, 1366, 3, 5}, {11, 1374, 3, 4}};
  EXPECT_EQ(tiles(w, SeqKind::load, 0), wantX);
  // O: 32 + 80 r - 64 b: 32, 112, 32 - 64 = 2**64 - 32, 48; whole 2 x 8 tiles.
  const std::vector<Tile> wantO = {
      {2, 32, 2, 8}, {5, 112, 2, 8}, {8, ~uint64_t{31}, 2, 8}, {11, 48, 2, 8}};
  EXPECT_EQ(tiles(w, SeqKind::store, 1), wantO);
  EXPECT_TRUE(tiles(w, SeqKind::load, 1).empty()); // no red, no acc: never loaded
}

TEST(BufferSequenceGeometry, DefaultsAreRowMajorTiles) {
  // The same tiles with the steps, pitch and moves left at 0 and set to their default values:
  // the same events (and the row-major formula base + (r * rows * tcols + c * cols) * ebytes).
  SequencerConfig zero = boxes();
  for (SequencedTensor& t : zero.tensors) {
    t.rstep = t.cstep = t.pitch = 0;
    t.astep.clear();
  }
  SequencerConfig same = zero;
  for (SequencedTensor& t : same.tensors) {
    t.rstep = t.rows;
    t.cstep = t.cols;
    t.pitch = t.tcols;
    t.astep = {0, 0, 0};
  }
  const std::vector<SeqWork> a = sequencerWork(zero, {0x100, 0x20});
  const std::vector<SeqWork> b = sequencerWork(same, {0x100, 0x20});
  EXPECT_EQ(tiles(a, SeqKind::load, 0), tiles(b, SeqKind::load, 0));
  EXPECT_EQ(tiles(a, SeqKind::store, 1), tiles(b, SeqKind::store, 1));
  // X without the box: 4 x 5 tiles of 6 x 12 (rows 4, 2; cols 5, 5, 2). Step 5 (b 0, r 1, c 2):
  // 256 + (1 * 4 * 12 + 2 * 5) * 2 = 372, rows 6 - 4 = 2, cols 12 - 10 = 2.
  const std::vector<Tile> x = tiles(a, SeqKind::load, 0);
  ASSERT_EQ(x.size(), 12U);
  EXPECT_EQ(x[5], Tile(5, 372, 2, 2));
  EXPECT_EQ(x[11], Tile(11, 372, 2, 2)); // b moves nothing
}

TEST(BufferSequenceGeometry, TransferCyclesFollowThePitch) {
  // A 3 x 4 int16 tile of a tensor with 4 columns: rows 8 bytes apart by default (contiguous:
  // one beat each on an 8-byte bus, from 4096, 4104 and 4112), 20 bytes apart with PITCH 10
  // (rows at 4096, 4116 and 4136: 1, 2 and 1 beats, the second row straddling a beat boundary).
  SequencerConfig c;
  c.ext = {1};
  SequencedTensor t;
  t.dep = {0};
  t.red = {0};
  t.rows = t.trows = 3;
  t.cols = t.tcols = 4;
  t.ebytes = 2;
  c.tensors = {t};
  const DmaEngine e = test::engine(2, 4, false, 3, 4);
  const BusTiming bus = test::bus(8, 10);
  SeqEvent ev;
  ev.kind = SeqKind::load;
  ev.addr = 4096;
  ev.rows = 3;
  ev.cols = 4;
  const TileGeometry packed{4096, 8, 3, 4}, spread{4096, 20, 3, 4};
  auto beats = [&](const TileGeometry& g) {
    std::vector<std::pair<uint64_t, int64_t>> v;
    for (const DmaCommand& d : readCommands(e, g, 8))
      v.emplace_back(d.addr, d.beats);
    return v;
  };
  using Beats = std::vector<std::pair<uint64_t, int64_t>>;
  ASSERT_EQ(beats(packed), (Beats{{4096, 1}, {4104, 1}, {4112, 1}}));
  ASSERT_EQ(beats(spread), (Beats{{4096, 1}, {4112, 2}, {4136, 1}}));
  const int64_t dense = timing::transferCycles(c, e, ev, bus);
  EXPECT_EQ(dense, dmaReadDone(e, packed, bus) + 1);
  c.tensors[0].pitch = 4; // the default's value, named
  EXPECT_EQ(timing::transferCycles(c, e, ev, bus), dense);
  c.tensors[0].pitch = 10;
  const int64_t apart = timing::transferCycles(c, e, ev, bus);
  EXPECT_EQ(apart, dmaReadDone(e, spread, bus) + 1);
  EXPECT_GT(apart, dense);
  // A store: the writer's done, fed by the gather from cycle 3, one command per row either way.
  ev.kind = SeqKind::store;
  EXPECT_EQ(timing::transferCycles(c, e, ev, bus), dmaWriteDone(e, spread, bus, 3));
  c.tensors[0].pitch = 0;
  EXPECT_EQ(timing::transferCycles(c, e, ev, bus), dmaWriteDone(e, packed, bus, 3));
}

} // namespace
} // namespace rubick::arch
