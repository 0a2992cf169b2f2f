// SPDX-License-Identifier: Apache-2.0
// Range inference: plain ranges, `where` overrides, ranges derived from affine uses such as
// I(h + r), A(2*i) or A(K - 1 - k), intersections of several derived ranges, conflicts, and the
// bounds check that follows. Every expected range below is worked out by hand in a comment.

#include "tc_test_util.h"

#include <gtest/gtest.h>

namespace rubick::tc {
namespace {

using test::analyzeText;
using test::semaError;

// "1:COL: " where COL is the column of the first `needle` in the one-line program `text`.
std::string at(const std::string& text, const std::string& needle) {
  return "1:" + std::to_string(text.find(needle) + 1) + ": ";
}

// "name lo:hi" for every loop of statement `s`, with "(r)" on reduction loops.
std::string loops(const Program& p, size_t s = 0) {
  std::string out;
  for (const Loop& l : p.statements.at(s).loops)
    out += (out.empty() ? "" : " ") + l.name + " " + std::to_string(l.lo) + ":" +
           std::to_string(l.hi) + (l.reduction ? "(r)" : "");
  return out;
}

std::vector<int64_t> shapeOf(const Program& p, const std::string& tensor) {
  return p.tensors.at(p.findTensor(tensor)).shape;
}

TEST(SemaRanges, PlainRangesComeFromTheShapes) {
  // i indexes A's dim 0 (M=4), j B's dim 1 (N=5), k A's dim 1 and B's dim 0 (K=6).
  Program p = analyzeText("# rubick: size M=4, N=5, K=6\n"
                          "def gemm(int8(M,K) A, int8(K,N) B) -> (C) {\n"
                          "  C(i,j) +=! A(i,k) * B(k,j)\n"
                          "}");
  EXPECT_EQ(loops(p), "i 0:4 j 0:5 k 0:6(r)");
  EXPECT_EQ(shapeOf(p, "C"), (std::vector<int64_t>{4, 5}));
  // The inferred shape keeps the size symbols of the dimensions it came from.
  EXPECT_EQ(p.tensors[p.findTensor("C")].dimSymbols, (std::vector<std::string>{"M", "N"}));
}

TEST(SemaRanges, LiteralDimensions) {
  Program p = analyzeText("def f(int8(3, 7) A) -> (B) { B(j, i) = A(i, j) }");
  EXPECT_EQ(loops(p), "j 0:7 i 0:3");
  EXPECT_EQ(shapeOf(p, "B"), (std::vector<int64_t>{7, 3}));
}

TEST(SemaRanges, WhereOverridesThePlainRange) {
  // Plain would give i 0:8; `where` narrows it, and A(i) stays in bounds.
  Program p = analyzeText("def f(int8(8) A) -> (B) { B(i) = A(i) where i in 0:3 }");
  EXPECT_EQ(loops(p), "i 0:3");
  EXPECT_EQ(shapeOf(p, "B"), (std::vector<int64_t>{3}));
  // `where` also settles a conflict between two plain ranges (A gives 0:8, C gives 0:6).
  Program q = analyzeText("def f(int8(8) A, int8(6) C) -> (B) { B(i) = A(i) + C(i)"
                          " where i in 0:6 }");
  EXPECT_EQ(loops(q), "i 0:6");
  // Bounds in `where` are evaluated with sizes: N/3 floors 8/3 to 2, -7/2 floors to -4.
  Program r = analyzeText("# rubick: size N=8\n"
                          "def f(int8(N) A) -> (B) { B(i) +=! A(i + k + 4)"
                          " where i in 0:N/3, k in -7/2:0 }");
  EXPECT_EQ(loops(r), "i 0:2 k -4:0(r)");
}

TEST(SemaRanges, DerivedFromASumOfIndices) {
  // r plain 0:3 (W). I(h + r) in 0..9 for every r in 0..2: h >= 0 and h + 2 <= 9, so h in 0:8.
  Program p = analyzeText("# rubick: size H=10, R=3\n"
                          "def conv1d(int8(H) I, int8(R) W) -> (O) { O(h) +=! I(h + r) * W(r) }");
  EXPECT_EQ(loops(p), "h 0:8 r 0:3(r)");
  EXPECT_EQ(shapeOf(p, "O"), (std::vector<int64_t>{8}));
  EXPECT_EQ(p.tensors[p.findTensor("O")].dimSymbols, (std::vector<std::string>{""}));
}

TEST(SemaRanges, DerivedFromAStride) {
  // 0 <= 2i <= 9: i in 0:5.   0 <= 2i + 1 <= 8: i in 0:4.   0 <= 3i - 2 <= 9: i in 1:4.
  EXPECT_EQ(loops(analyzeText("def f(int8(10) A) -> (B) { B(i) = A(2*i) }")), "i 0:5");
  EXPECT_EQ(loops(analyzeText("def f(int8(9) A) -> (B) { B(i) = A(2*i + 1) }")), "i 0:4");
  EXPECT_EQ(loops(analyzeText("def f(int8(10) A) -> (B) { B(i) +=! A(3*j - 2) where i in 0:1 }")),
            "i 0:1 j 1:4(r)");
  // A constant factor written as an expression, and a size as a constant: with N=2,
  // 0 <= 2k + 2 <= 9 gives k in -1:4.
  EXPECT_EQ(loops(analyzeText("# rubick: size N=2\n"
                              "def f(int8(10) A, int8(N) X) -> (B) {"
                              " B(j) +=! A(k * (1 + 1) + N) where j in 0:1 }")),
            "j 0:1 k -1:4(r)");
}

TEST(SemaRanges, DerivedWithNegativeCoefficients) {
  // 0 <= 3 - k <= 7: k in -4:4 (eight values).   0 <= 7 - 2k <= 7: k in 0:4 (k <= 3.5).
  Program p = analyzeText("def f(int8(2, 8) A) -> (s) { s(i) +=! A(i, 3 - k) }");
  EXPECT_EQ(loops(p), "i 0:2 k -4:4(r)");
  EXPECT_EQ(loops(analyzeText("def f(int8(8) A) -> (s) { s(i) +=! A(7 - 2*k) where i in 0:1 }")),
            "i 0:1 k 0:4(r)");
  // A mirrored read: 0 <= N - 1 - i <= N - 1 gives i in 0:N.
  EXPECT_EQ(loops(analyzeText("# rubick: size N=6\n"
                              "def f(int8(N) A) -> (B) { B(i) = A(N - 1 - i) }")),
            "i 0:6");
  // r plain 0:3; 0 <= h - r + 2 <= 15 for r in 0..2: h >= 0 and h + 2 <= 15, so h in 0:14.
  EXPECT_EQ(loops(analyzeText("def f(int8(16) I, int8(3) W) -> (O) {"
                              " O(h) +=! I(h - r + 2) * W(r) }")),
            "h 0:14 r 0:3(r)");
}

TEST(SemaRanges, SeveralDerivedRangesIntersect) {
  // r plain 0:3. I(h + r), I size 10: h in 0:8. J(h + 2r), J size 9: h + 4 <= 8, h in 0:5.
  // The intersection is 0:5.
  Program p = analyzeText("def f(int8(10) I, int8(9) J, int8(3) W) -> (O) {"
                          " O(h) +=! I(h + r) * J(h + 2*r) * W(r) }");
  EXPECT_EQ(loops(p), "h 0:5 r 0:3(r)");
  // Lower bounds intersect too: A(i - 2) needs i >= 2, A(i + 1) (size 6) needs i <= 4.
  EXPECT_EQ(loops(analyzeText("def f(int8(6) A) -> (B) { B(j) +=! A(i - 2) * A(i + 1)"
                              " where j in 0:1 }")),
            "j 0:1 i 2:5(r)");
}

TEST(SemaRanges, DerivedRangesChain) {
  // k plain 0:2 (W). j from X(j + k), X size 5: j in 0:4. i from Y(i + j), Y size 6: i in 0:3.
  Program p = analyzeText("def f(int8(5) X, int8(6) Y, int8(2) W) -> (O) {"
                          " O(i) +=! Y(i + j) * X(j + k) * W(k) }");
  EXPECT_EQ(loops(p), "i 0:3 j 0:4(r) k 0:2(r)");
}

TEST(SemaRanges, WrittenTensorsConstrainToo) {
  // O is declared 4 long, so the write O(h) gives h 0:4 (plain); I(h + r) then fits r in 0:5.
  Program p = analyzeText("def f(int8(8) I) -> (int32(4) O) { O(h) +=! I(h + r) }");
  EXPECT_EQ(loops(p), "h 0:4 r 0:5(r)");
  // A local written first sets the shape for later statements.
  Program q = analyzeText("def f(int8(8) I) -> (O) { T(i) = I(i) * 2  O(i) = T(i) + T(i) }");
  EXPECT_EQ(loops(q, 1), "i 0:8");
}

TEST(SemaRanges, IndexUsedOnlyAsAValue) {
  // j never indexes a tensor; `where` gives its range and it becomes a reduction loop.
  Program p = analyzeText("def f() -> (C) { C(i) +=! j where i in 0:2, j in 0:4 }");
  EXPECT_EQ(loops(p), "i 0:2 j 0:4(r)");
  EXPECT_EQ(p.statements[0].rhs.kind, Value::Kind::Index);
  EXPECT_EQ(p.statements[0].rhs.ref, 1);
}

TEST(SemaRanges, Conflicts) {
  const std::string p1 = "def f(int8(8) A, int8(6) B) -> (C) { C(i) = A(i) + B(i) }";
  EXPECT_EQ(semaError(p1),
            at(p1, "i) }") +
                "conflicting ranges for index 'i': 0:8 from dimension 0 of 'A', but 0:6 from "
                "dimension 0 of 'B'; add 'where i in lo:hi' to choose");
  const std::string p2 = "def f(int8(8) A) -> (C) { C(i) = A(i) where i in 0:4, i in 1:4 }";
  EXPECT_EQ(semaError(p2), at(p2, "i in 1:4") + "conflicting ranges for index 'i': 0:4 and 1:4");
  // The same range twice is not a conflict.
  EXPECT_NO_THROW(analyzeText("def f(int8(8) A) -> (C) { C(i) = A(i) where i in 0:4, i in 0:4 }"));
  EXPECT_NO_THROW(analyzeText("def f(int8(8) A, int8(8) B) -> (C) { C(i) = A(i) + B(i) }"));
}

TEST(SemaRanges, NoRangeOrNoValidRange) {
  const std::string p1 = "def f(int8(8) A) -> (C) { C(i) +=! A(i + k) }";
  EXPECT_EQ(semaError(p1),
            at(p1, "i) +=!") + "cannot infer the range of index 'i'; add 'where i in lo:hi'");
  // W gives r 0:8; I(h + r) with I size 4 leaves no h.
  const std::string p2 = "def f(int8(4) I, int8(8) W) -> (O) { O(h) +=! I(h + r) * W(r) }";
  EXPECT_EQ(semaError(p2), at(p2, "h + r") + "no range of index 'h' keeps every access in bounds");
  const std::string p3 = "def f(int8(8) A) -> (C) { C(i) = A(i) where i in 3:3 }";
  EXPECT_EQ(semaError(p3), at(p3, "3:3") + "empty range: i in 3:3");
  const std::string p4 = "def f(int8(8) A) -> (C) { C(i) = A(i + 3000000000) where i in 0:1 }";
  EXPECT_EQ(semaError(p4),
            at(p4, "i + 3") +
                "'A(i + 3000000000)' is out of bounds: it indexes dimension 0 of 'A' with "
                "3000000000..3000000000, but the valid indices are 0..7");
  const std::string p5 = "def f(int8(8) A) -> (C) { C(i) = A(i - 3000000000) }";
  EXPECT_EQ(semaError(p5), at(p5, "i - 3") +
                               "the range of index 'i' inferred from 'A(i - 3000000000)', "
                               "3000000000:3000000008, is too large (limit 2147483647)");
}

TEST(SemaRanges, BoundsAreChecked) {
  const std::string p1 = "def f(int8(8) A) -> (C) { C(i) = A(i) + A(i + 1) }";
  EXPECT_EQ(semaError(p1),
            at(p1, "i + 1") +
                "'A(i + 1)' is out of bounds: it indexes dimension 0 of 'A' with 1..8, but the "
                "valid indices are 0..7");
  const std::string p2 = "def f(int8(8) A) -> (C) { C(i) = A(i - 1) where i in 0:8 }";
  EXPECT_EQ(semaError(p2),
            at(p2, "i - 1") +
                "'A(i - 1)' is out of bounds: it indexes dimension 0 of 'A' with -1..6, but the "
                "valid indices are 0..7");
  const std::string p3 = "def f(int8(8) A) -> (int8(4) C) { C(i) = A(i) where i in 0:8 }";
  EXPECT_EQ(semaError(p3),
            at(p3, "i) =") +
                "'C(i)' is out of bounds: it indexes dimension 0 of 'C' with 0..7, but the valid "
                "indices are 0..3");
  // A later statement must stay inside the shape an earlier one gave a local.
  const std::string p4 =
      "def f(int8(8) A) -> (C) { T(i) = A(i) where i in 0:4 C(i) = T(i) + A(i) }";
  EXPECT_EQ(semaError(p4),
            at(p4, "i) }") +
                "conflicting ranges for index 'i': 0:4 from dimension 0 of 'T', but 0:8 from "
                "dimension 0 of 'A'; add 'where i in lo:hi' to choose");
  const std::string p5 = "def f(int8(8) A) -> (C) { C(i) = A(i + 1) where i in -1:7 }";
  EXPECT_EQ(semaError(p5),
            at(p5, "i) =") +
                "index 'i' starts at -1, so 'C' would be written at a negative position");
}

TEST(SemaRanges, OverflowIsReportedNotWrapped) {
  // (Without `where`, A(c*i) would simply give i the range 0:1.)
  const std::string p1 =
      "def f(int8(4) A) -> (C) { C(i) = A(i * 9223372036854775807) where i in 0:4 }";
  EXPECT_EQ(semaError(p1),
            at(p1, "i * 9") +
                "index expression in 'A(i * 9223372036854775807)' overflows 64-bit integers");
  const std::string p2 = "def f(int8(4) A) -> (C) { C(i) = A(9223372036854775807 + 1 + i) }";
  EXPECT_EQ(semaError(p2),
            at(p2, "9223") +
                "index expression '9223372036854775807 + 1' overflows 64-bit integers");
  // Solving i from A(i + c*j) with j = -1 and c = 2^63 - 4 gives an upper bound of 2^63 - 1;
  // the exclusive end would be one more.
  const std::string p3 =
      "def f(int8(4) A) -> (C) { C(j) +=! A(i + 9223372036854775804 * j) where j in -1:0 }";
  EXPECT_EQ(semaError(p3),
            at(p3, "i + 9") +
                "index expression in 'A(i + 9223372036854775804 * j)' overflows 64-bit "
                "integers");
  const std::string p4 =
      "def f(int8(4) A) -> (C) { C(i) = A(i) where i in 0:9223372036854775807 + 1 }";
  EXPECT_EQ(semaError(p4),
            at(p4, "9223") +
                "index expression '9223372036854775807 + 1' overflows 64-bit integers");
}

} // namespace
} // namespace rubick::tc
