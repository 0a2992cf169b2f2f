// SPDX-License-Identifier: Apache-2.0
// dse::tileBox: buffer tiles of n-D tensors as the DMA's rows x cols boxes. Every expected
// number is worked out by hand in the comments from the tensor's row-major layout.
#include "rubick/dse/TileBox.h"

#include <gtest/gtest.h>

namespace rubick::dse {
namespace {

// An access with one coefficient row per dimension over `loops` loops.
dataflow::AccessView access(const std::string& name, std::vector<IntVec> coeffs, IntVec shape) {
  dataflow::AccessView a;
  a.name = name;
  a.constant.assign(coeffs.size(), 0);
  a.coeffs = std::move(coeffs);
  a.shape = std::move(shape);
  return a;
}

TEST(TileBox, MatrixRowsAndColumnsAreItsDimensions) {
  // A(i, k) 10 x 9, tiles i:4 k:3 (loops i, k).
  const dataflow::AccessView a = access("A", {{1, 0}, {0, 1}}, {10, 9});
  std::string why;
  const auto b = tileBox(a, {10, 9}, {4, 3}, 0, why);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(b->rows, 4);
  EXPECT_EQ(b->cols, 3);
  EXPECT_EQ(b->trows, 10);
  EXPECT_EQ(b->tcols, 9);
  EXPECT_EQ(b->rstep, 4);
  EXPECT_EQ(b->cstep, 3);
  EXPECT_EQ(b->pitch, 9);
  EXPECT_EQ(b->rowLoop, 0);
  EXPECT_EQ(b->colLoop, 1);
  EXPECT_EQ(b->rowDim, 0);
  EXPECT_EQ(b->colDim, 1);
  EXPECT_EQ(b->loopStep, (std::vector<int64_t>{0, 0}));
}

// Convolution loops n, f, h, w, c, r, s.
const std::vector<int64_t> kConvExtent = {1, 16, 8, 8, 8, 3, 3};

// O(n, f, h, w), 1 x 16 x 8 x 8.
dataflow::AccessView convOutput() {
  return access(
      "O",
      {{1, 0, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0, 0}, {0, 0, 0, 1, 0, 0, 0}},
      {1, 16, 8, 8});
}

// I(n, c, h + r, w + s), 1 x 8 x 10 x 10.
dataflow::AccessView convInput() {
  return access(
      "I",
      {{1, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 1, 0, 0}, {0, 0, 1, 0, 0, 1, 0}, {0, 0, 0, 1, 0, 0, 1}},
      {1, 8, 10, 10});
}

TEST(TileBox, ConvolutionOutputRowsAreChannelsAndColumnsImageRows) {
  // O(n, f, h, w) 1 x 16 x 8 x 8, tile f:4 h:2 (w whole). The columns cannot be w alone (the
  // rows f, h would be 4 x 2 unevenly spaced); they are h, w: 2 x 8 = 16 elements moved by 16
  // per tile of h, of 8 x 8 = 64; the rows are f: 4, moved by 4, of 16, 64 elements apart.
  const dataflow::AccessView o = convOutput();
  std::string why;
  const auto b = tileBox(o, kConvExtent, {1, 4, 2, 8, 8, 3, 3}, 0, why);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(b->shape, (std::vector<int64_t>{1, 4, 2, 8}));
  EXPECT_EQ(b->rows, 4);
  EXPECT_EQ(b->rstep, 4);
  EXPECT_EQ(b->trows, 16);
  EXPECT_EQ(b->cols, 16);
  EXPECT_EQ(b->cstep, 16);
  EXPECT_EQ(b->tcols, 64);
  EXPECT_EQ(b->pitch, 64);
  EXPECT_EQ(b->rowLoop, 1);
  EXPECT_EQ(b->colLoop, 2);
  EXPECT_EQ(b->rowDim, 1);
  EXPECT_EQ(b->colDim, -1);
}

TEST(TileBox, ConvolutionInputTilesOverlapByTheWindow) {
  // I(n, c, h + r, w + s) 1 x 8 x 10 x 10, tile c:4 h:2 (r, s, w whole): rows h + r cover
  // 2 + 3 - 1 = 4 image rows and move by 2 per tile of h; w + s covers 8 + 3 - 1 = 10 (whole).
  // Columns h, w: 4 x 10 = 40 elements moved by 20, of 10 x 10 = 100; rows c: 4 of 8, moved by
  // 4, 100 elements apart. The last tile of h (index 3) starts at row 6: 4 rows, all valid.
  const dataflow::AccessView in = convInput();
  std::string why;
  const auto b = tileBox(in, kConvExtent, {1, 16, 2, 8, 4, 3, 3}, 0, why);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(b->shape, (std::vector<int64_t>{1, 4, 4, 10}));
  EXPECT_EQ(b->cols, 40);
  EXPECT_EQ(b->cstep, 20);
  EXPECT_EQ(b->tcols, 100);
  EXPECT_EQ(b->rows, 4);
  EXPECT_EQ(b->rstep, 4);
  EXPECT_EQ(b->trows, 8);
  EXPECT_EQ(b->pitch, 100);
  EXPECT_EQ(b->rowLoop, 4);
  EXPECT_EQ(b->colLoop, 2);
}

TEST(TileBox, ReductionTilesOfTheWindowMoveTheInputToo) {
  // The same input with r cut to 1 (and h whole): rows h + r cover 8 + 1 - 1 = 8 image rows,
  // moved by 1 per tile of r; of the 10 rows, the last tile (r = 2) starts at 2: 8 valid.
  const dataflow::AccessView in = convInput();
  std::string why;
  const auto b = tileBox(in, kConvExtent, {1, 16, 8, 8, 8, 1, 3}, 0, why);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(b->cols, 80);
  EXPECT_EQ(b->cstep, 10);
  EXPECT_EQ(b->tcols, 100);
  EXPECT_EQ(b->colLoop, 5);
  // c whole and r cut: the rows are c, 8 of them with no loop.
  EXPECT_EQ(b->rows, 8);
  EXPECT_EQ(b->trows, 8);
  EXPECT_EQ(b->rowLoop, -1);
}

TEST(TileBox, UnevenRowsHaveNoBox) {
  // O with w cut too (tile f:4 h:2 w:4): the columns can only be w, and the rows f, h would be
  // 4 x 2 rows of unequal spacing.
  const dataflow::AccessView o = convOutput();
  std::string why;
  EXPECT_FALSE(tileBox(o, kConvExtent, {1, 4, 2, 4, 8, 3, 3}, 0, why));
  EXPECT_NE(why.find("not a box"), std::string::npos) << why;
}

TEST(TileBox, AnEpilogueOperandsDimensionStaysTheRows) {
  // The whole O (16 x 8 x 8): without operands the fewest columns that still give even rows,
  // w: rows f, h (128 of them, 8 apart). A bias along f needs f alone as the rows: columns h, w
  // (64), rows f (16).
  const dataflow::AccessView o = convOutput();
  std::string why;
  const auto plain = tileBox(o, kConvExtent, kConvExtent, 0, why);
  ASSERT_TRUE(plain) << why;
  EXPECT_EQ(plain->rows, 128);
  EXPECT_EQ(plain->cols, 8);
  EXPECT_EQ(plain->pitch, 8);
  EXPECT_EQ(plain->rowDim, -1);
  EXPECT_EQ(plain->colDim, 3);
  const auto bias = tileBox(o, kConvExtent, kConvExtent, 1u << 1, why);
  ASSERT_TRUE(bias) << why;
  EXPECT_EQ(bias->rows, 16);
  EXPECT_EQ(bias->cols, 64);
  EXPECT_EQ(bias->pitch, 64);
  EXPECT_EQ(bias->rowDim, 1);
  // Along h, neither works: h is inside the rows f, h or the columns h, w.
  EXPECT_FALSE(tileBox(o, kConvExtent, kConvExtent, 1u << 2, why));
}

TEST(TileBox, SplitDimensionsAreNeverWhole) {
  // O's tile f:4 h:2 (w whole) has columns h, w; with h and w split (a shortcut read from a
  // larger tensor moves with the same boxes) the columns can only be w and the rows f, h are
  // not evenly spaced: no box. With f cut to 1 the rows are h alone (2, 8 apart) either way,
  // and each tile of f moves the box by 64 elements.
  const dataflow::AccessView o = convOutput();
  const uint32_t split = (1u << 2) | (1u << 3);
  std::string why;
  EXPECT_TRUE(tileBox(o, kConvExtent, {1, 4, 2, 8, 8, 3, 3}, 0, why));
  EXPECT_FALSE(tileBox(o, kConvExtent, {1, 4, 2, 8, 8, 3, 3}, 0, why, split));
  const auto b = tileBox(o, kConvExtent, {1, 1, 2, 8, 8, 3, 3}, 0, why, split);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(b->rows, 2);
  EXPECT_EQ(b->cols, 8);
  EXPECT_EQ(b->pitch, 8);
  EXPECT_EQ(b->rowLoop, 2);
  EXPECT_EQ(b->loopStep[1], 64);
}

TEST(TileBox, LoopsOfOneElementDimensionsOnlyMoveTheAddress) {
  // X(b, i, k) 3 x 4 x 5 (loops b, i, k), tile b:1: rows i (4), columns k (5), and each tile of
  // b moves the box by one 4 x 5 matrix, 20 elements.
  const dataflow::AccessView x = access("X", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {3, 4, 5});
  std::string why;
  const auto b = tileBox(x, {3, 4, 5}, {1, 4, 5}, 0, why);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(b->rows, 4);
  EXPECT_EQ(b->cols, 5);
  EXPECT_EQ(b->pitch, 5);
  EXPECT_EQ(b->rowLoop, -1);
  EXPECT_EQ(b->colLoop, -1);
  EXPECT_EQ(b->loopStep, (std::vector<int64_t>{20, 0, 0}));
}

TEST(TileBox, BackwardIndicesAreRefused) {
  const dataflow::AccessView a = access("A", {{-1, 0}, {0, 1}}, {4, 4});
  std::string why;
  EXPECT_FALSE(tileBox(a, {4, 4}, {2, 2}, 0, why));
  EXPECT_NE(why.find("backwards"), std::string::npos) << why;
}

TEST(TileBox, OnlyTensorsBeyondMatricesOfSingleLoopsMayFail) {
  dataflow::StatementView gemm;
  gemm.extent = {4, 4, 4};
  gemm.accesses = {access("C", {{1, 0, 0}, {0, 1, 0}}, {4, 4}),
                   access("A", {{1, 0, 0}, {0, 0, 1}}, {4, 4})};
  EXPECT_FALSE(boxesMayFail(gemm));
  gemm.accesses.push_back(access("X", {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {4, 4, 4}));
  EXPECT_TRUE(boxesMayFail(gemm));
}

} // namespace
} // namespace rubick::dse
