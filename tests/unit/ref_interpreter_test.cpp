// SPDX-License-Identifier: Apache-2.0
// The reference model against independent computations: Eigen's matrix products for the
// GEMM family, hand-written loops for convolution, and hand-derived values for the wrap-around
// and reduction rules.

#include "dataflow_test_util.h"

#include "rubick/ref/Interpreter.h"
#include "rubick/support/Diagnostic.h"

#include <Eigen/Dense>
#include <gtest/gtest.h>
#include <random>

namespace rubick::ref {
namespace {

tc::Program program(const std::string& text, std::vector<std::pair<std::string, int64_t>> sizes) {
  auto file = std::make_shared<const SourceFile>("t.tc", text);
  tc::SemaOptions o;
  for (auto& [n, v] : sizes)
    o.sizes.push_back({n, v, {}});
  return tc::analyze(tc::parse(file), file, o);
}

std::vector<int64_t> random(size_t n, int bits, std::mt19937_64& rng) {
  std::uniform_int_distribution<int64_t> d(-(int64_t(1) << (bits - 1)),
                                           (int64_t(1) << (bits - 1)) - 1);
  std::vector<int64_t> v(n);
  for (int64_t& x : v)
    x = d(rng);
  return v;
}

using Mat64 = Eigen::Matrix<int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

TEST(Reference, GemmMatchesEigen) {
  std::mt19937_64 rng(1);
  const int m = 7, n = 5, k = 9;
  tc::Program p = program(dataflow::test::kGemm, {{"M", m}, {"N", n}, {"K", k}});
  TensorData in(p.tensors.size());
  in[p.findTensor("A")] = random(m * k, 8, rng);
  in[p.findTensor("B")] = random(k * n, 8, rng);
  TensorData out = interpret(p, in);
  Mat64 a = Eigen::Map<Mat64>(in[p.findTensor("A")].data(), m, k);
  Mat64 b = Eigen::Map<Mat64>(in[p.findTensor("B")].data(), k, n);
  Mat64 c = a * b;
  const std::vector<int64_t>& got = out[p.findTensor("C")];
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      EXPECT_EQ(got[i * n + j], c(i, j)) << i << "," << j;
}

TEST(Reference, BatchedGemmAndGemvMatchEigen) {
  std::mt19937_64 rng(2);
  tc::Program p = program(dataflow::test::kBmm, {{"NB", 3}, {"M", 4}, {"N", 6}, {"K", 5}});
  TensorData in(p.tensors.size());
  in[p.findTensor("A")] = random(3 * 4 * 5, 8, rng);
  in[p.findTensor("B")] = random(3 * 5 * 6, 8, rng);
  TensorData out = interpret(p, in);
  for (int b = 0; b < 3; ++b) {
    Mat64 a = Eigen::Map<Mat64>(in[p.findTensor("A")].data() + b * 20, 4, 5);
    Mat64 bb = Eigen::Map<Mat64>(in[p.findTensor("B")].data() + b * 30, 5, 6);
    Mat64 c = a * bb;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 6; ++j)
        EXPECT_EQ(out[p.findTensor("C")][b * 24 + i * 6 + j], c(i, j));
  }
  tc::Program g = program(dataflow::test::kGemv, {{"M", 6}, {"N", 7}});
  TensorData gi(g.tensors.size());
  gi[g.findTensor("A")] = random(42, 8, rng);
  gi[g.findTensor("x")] = random(7, 8, rng);
  TensorData go = interpret(g, gi);
  Eigen::Matrix<int64_t, Eigen::Dynamic, 1> y =
      Eigen::Map<Mat64>(gi[g.findTensor("A")].data(), 6, 7) *
      Eigen::Map<Eigen::Matrix<int64_t, Eigen::Dynamic, 1>>(gi[g.findTensor("x")].data(), 7);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(go[g.findTensor("y")][i], y(i));
}

TEST(Reference, ConvolutionMatchesNestedLoops) {
  std::mt19937_64 rng(3);
  tc::Program p = program(dataflow::test::kConv,
                          {{"N", 2}, {"C", 3}, {"H", 5}, {"W", 6}, {"F", 2}, {"R", 2}, {"S", 3}});
  TensorData in(p.tensors.size());
  in[p.findTensor("I")] = random(2 * 3 * 5 * 6, 8, rng);
  in[p.findTensor("Wt")] = random(2 * 3 * 2 * 3, 8, rng);
  TensorData out = interpret(p, in);
  const auto& I = in[p.findTensor("I")];
  const auto& W = in[p.findTensor("Wt")];
  const int ho = 4, wo = 4; // H-R+1, W-S+1
  for (int n = 0; n < 2; ++n)
    for (int f = 0; f < 2; ++f)
      for (int h = 0; h < ho; ++h)
        for (int w = 0; w < wo; ++w) {
          int64_t s = 0;
          for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 2; ++r)
              for (int q = 0; q < 3; ++q)
                s += I[((n * 3 + c) * 5 + h + r) * 6 + w + q] * W[((f * 3 + c) * 2 + r) * 3 + q];
          EXPECT_EQ(out[p.findTensor("O")][((n * 2 + f) * ho + h) * wo + w], s);
        }
}

TEST(Reference, WrapsToTheDeclaredType) {
  // 100 * 100 = 10000 = 0x2710; the low 8 bits 0x10 = 16; 3 terms: 30000 = 0x7530 -> 0x30 = 48.
  tc::Program p =
      program("def f(int8(K) A, int8(K) B) -> (int8() C) { C() +=! A(k) * B(k) }", {{"K", 3}});
  TensorData in(p.tensors.size());
  in[p.findTensor("A")] = {100, 100, 100};
  in[p.findTensor("B")] = {100, 100, 100};
  EXPECT_EQ(interpret(p, in)[p.findTensor("C")][0], 48);
  EXPECT_EQ(wrap(255, 8), -1);
  EXPECT_EQ(wrap(-129, 8), 127);
  EXPECT_EQ(wrap(int64_t(1) << 40, 32), 0);
}

TEST(Reference, OtherReductionsAndMultipleStatements) {
  tc::Program p = program("def f(int16(N,K) A) -> (mx, mn, C) {\n"
                          "  mx(i) max=! A(i,k)\n"
                          "  mn(i) min=! A(i,k)\n"
                          "  C(i) = mx(i) - mn(i)\n}",
                          {{"N", 2}, {"K", 3}});
  TensorData in(p.tensors.size());
  in[p.findTensor("A")] = {5, -7, 3, 0, 0, -1};
  TensorData out = interpret(p, in);
  EXPECT_EQ(out[p.findTensor("mx")], (std::vector<int64_t>{5, 0}));
  EXPECT_EQ(out[p.findTensor("mn")], (std::vector<int64_t>{-7, -1}));
  EXPECT_EQ(out[p.findTensor("C")], (std::vector<int64_t>{12, 1}));
}

TEST(Reference, ExpUsesTheProgramsExpFrac) {
  // exp(-1.0) is 12065 in Q0.15 (LUT[113] >> 1, see ref_fixed_test.cpp), whatever the format:
  // with exp_frac = 4 the argument -16 means -1.0; with the default 12, -4096 does.
  tc::Program p = program("# rubick: fixed exp_frac=4\n"
                          "def f(int32(N) A) -> (B) { B(i) = exp(A(i)) }",
                          {{"N", 4}});
  EXPECT_EQ(p.expFrac, 4);
  TensorData in(p.tensors.size());
  in[p.findTensor("A")] = {0, -16, 5, -1000};
  // -1000 / 16 = -62.5: far beyond the last table shift, 0.
  EXPECT_EQ(interpret(p, in)[p.findTensor("B")], (std::vector<int64_t>{32767, 12065, 32767, 0}));
  tc::Program d = program("def f(int32(N) A) -> (B) { B(i) = exp(A(i)) }", {{"N", 2}});
  EXPECT_EQ(d.expFrac, 12);
  TensorData din(d.tensors.size());
  din[d.findTensor("A")] = {-4096, -16};
  // -16 / 4096: d = 16, y = 1512768, n = 0, f = (y >> 20) & 255 = 1, LUT[1] = 32679.
  EXPECT_EQ(interpret(d, din)[d.findTensor("B")], (std::vector<int64_t>{12065, 32679}));
}

TEST(Reference, DivisionRoundsAndSaturatesToTheWrittenType) {
  tc::Program p = program("def f(int32(N) A, int32(N) B) -> (int8(N) C, int32(N) D) {\n"
                          "  C(i) = A(i) / B(i)\n"
                          "  D(i) = A(i) / B(i) + 1000\n}",
                          {{"N", 5}});
  TensorData in(p.tensors.size());
  in[p.findTensor("A")] = {7, -7, 1000, -1000, 5};
  in[p.findTensor("B")] = {2, 2, 3, 1, 0};
  TensorData out = interpret(p, in);
  // 3.5 -> 4, -3.5 -> -3 (half up), 333 and -1000 saturate to int8, x / 0 = 0.
  EXPECT_EQ(out[p.findTensor("C")], (std::vector<int64_t>{4, -3, 127, -128, 0}));
  // In int32 nothing saturates; the quotient then takes part in the rest of the expression.
  EXPECT_EQ(out[p.findTensor("D")], (std::vector<int64_t>{1004, 997, 1333, 0, 1000}));
}

TEST(Reference, RequantRoundsAndSaturatesToTheWrittenType) {
  // A bias-add, ReLU and requantise epilogue: Y = requant(max(H + b, 0), M, 5) as int8.
  tc::Program p = program("def f(int32(N) H, int32(N) b, int32(N) M) -> (int8(N) Y) {\n"
                          "  Y(i) = requant(max(H(i) + b(i), 0), M(i), 5)\n}",
                          {{"N", 5}});
  TensorData in(p.tensors.size());
  in[p.findTensor("H")] = {1000, 990, -50, 100000, 7};
  in[p.findTensor("b")] = {0, 10, 10, 0, 9};
  in[p.findTensor("M")] = {3, 3, 3, 3, -1};
  TensorData out = interpret(p, in);
  // 3000 / 32 = 93.75 -> 94; 3000 again; max(-40, 0) = 0; 300000 / 32 saturates; -16 / 32 =
  // -0.5 -> 0 (half up).
  EXPECT_EQ(out[p.findTensor("Y")], (std::vector<int64_t>{94, 94, 0, 127, 0}));
}

TEST(Reference, RejectsFloats) {
  tc::Program p = program("def f(int8(N) A) -> (int32(N) B) { B(i) = A(i) * 1.5 }", {{"N", 2}});
  TensorData in(p.tensors.size());
  in[p.findTensor("A")] = {1, 2};
  try {
    interpret(p, in);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.diag().message.find("floating-point literals are not supported"),
              std::string::npos);
  }
}

} // namespace
} // namespace rubick::ref
