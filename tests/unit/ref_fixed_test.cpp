// SPDX-License-Identifier: Apache-2.0
// The fixed-point primitives of attention (rubick/ref/Fixed.h) against hand-derived values and
// against double-precision math, and the attention model (rubick/ref/Attention.h) against the
// reference interpreter of examples/attention.tc and against hand-worked cases.

#include "tc_test_util.h"

#include "rubick/ref/Attention.h"
#include "rubick/ref/Fixed.h"
#include "rubick/ref/Interpreter.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace rubick::ref {
namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

TEST(Fixed, LutEntries) {
  // 32768 * 2^(-f/256), worked out to 10 digits with a calculator:
  //   f=0: 32768 (capped to 32767); f=1: 32679.397; f=64: 32768 / 2^(1/4) = 27554.494;
  //   f=113: 24130.894; f=128: 32768 / sqrt(2) = 23170.475; f=255: 16428.422.
  const auto& lut = expLut();
  EXPECT_EQ(lut[0], 32767);
  EXPECT_EQ(lut[1], 32679);
  EXPECT_EQ(lut[64], 27554);
  EXPECT_EQ(lut[113], 24131);
  EXPECT_EQ(lut[128], 23170);
  EXPECT_EQ(lut[255], 16428);
  // The steps of 2^(-1/256) are at least 16428 * 0.0027 = 44 apart: strictly decreasing.
  for (int f = 1; f < 256; ++f)
    EXPECT_LT(lut[f], lut[f - 1]) << f;
}

TEST(Fixed, ExpHandValues) {
  for (int frac : {0, 8, 12, 24}) {
    EXPECT_EQ(expQ15(0, frac), 32767) << frac;
    EXPECT_EQ(expQ15(1, frac), 32767) << frac; // positive: saturated
    EXPECT_EQ(expQ15(kInt64Max, frac), 32767) << frac;
    EXPECT_EQ(expQ15(kInt64Min, frac), 0) << frac; // d = 2^63: n far beyond 16
    EXPECT_EQ(expQ15Distance(~uint64_t{0}, frac), 0) << frac;
  }
  // exp(-1), F = 12: d = 4096, y = 4096 * 94548 = 387268608, n = y >> 28 = 1,
  // f = (y >> 20) & 255 = 369 & 255 = 113, so LUT[113] >> 1 = 24131 >> 1 = 12065;
  // 32768 / e = 12054.67.
  EXPECT_EQ(expQ15(-4096, 12), 12065);
  EXPECT_NEAR(expQ15(-4096, 12), 32768 / std::exp(1.0), 0.003 * 12055);
  // The same real argument in other formats lands on the same table entry.
  EXPECT_EQ(expQ15(-1, 0), 12065);
  EXPECT_EQ(expQ15(-(int64_t(1) << 24), 24), 12065);
  // F = 12, the end of the range: n = 14 for 14 * 2^28 <= y < 15 * 2^28, i.e. d in
  // 39749..42587 (14 * 2^28 / 94548 = 39748.03, 15 * 2^28 / 94548 = 42587.17), where every
  // LUT entry (>= 16428) shifted by 14 is 1; n = 13 just below (LUT[255] >> 13 = 2); n = 15
  // from d = 42588 on, where LUT >> 15 = 0 (the n >= 16 rule then keeps it 0).
  EXPECT_EQ(expQ15Distance(39748, 12), 2);
  EXPECT_EQ(expQ15Distance(39749, 12), 1);
  EXPECT_EQ(expQ15Distance(42587, 12), 1);
  EXPECT_EQ(expQ15Distance(42588, 12), 0);
  EXPECT_EQ(expQ15Distance(uint64_t(1) << 32, 12), 0);
  EXPECT_THROW(expQ15(0, 25), std::out_of_range);
  EXPECT_THROW(expQ15Distance(0, -1), std::out_of_range);
}

TEST(Fixed, ExpIsMonotoneAndClose) {
  for (int frac : {0, 4, 12, 16, 24}) {
    // Down to where the result reaches 0 (about 11.1 * 2^F), in at most ~200000 steps.
    const int64_t end = 12 * (int64_t(1) << frac);
    const int64_t step = std::max<int64_t>(1, end / 200000);
    int64_t prev = expQ15(0, frac);
    for (int64_t d = step; d <= end + step; d += step) {
      int64_t e = expQ15(-d, frac);
      ASSERT_LE(e, prev) << "frac " << frac << " d " << d;
      prev = e;
      // Error budget: the 8-bit fraction is truncated (relative error < 2^(1/256) - 1 =
      // 0.271%), the table is rounded (0.5), the final shift truncates (< 1), and 94548 is
      // 0.46 below log2(e) * 2^16 (relative 4.9e-6 of an exponent of at most 16: 5e-5).
      double want = 32768 * std::exp(-double(d) / std::ldexp(1.0, frac));
      ASSERT_NEAR(double(e), want, 0.0028 * want + 1.5) << "frac " << frac << " d " << d;
    }
    EXPECT_EQ(prev, 0) << frac;
  }
}

TEST(Fixed, Reciprocal) {
  EXPECT_EQ(reciprocal(1), uint64_t(1) << 32);
  EXPECT_EQ(reciprocal(2), uint64_t(1) << 31);
  EXPECT_EQ(reciprocal(3), 1431655765u); // 4294967296 / 3 = 1431655765.33
  // 65533 * 65539 = 65536^2 - 9, so 2^32 / 65533 = 65539 remainder 9.
  EXPECT_EQ(reciprocal(65533), 65539u);
  EXPECT_EQ(reciprocal(uint64_t(1) << 31), 2u);
  EXPECT_EQ(reciprocal(uint64_t(1) << 32), 1u);
  EXPECT_EQ(reciprocal((uint64_t(1) << 32) + 1), 0u);
  EXPECT_EQ(reciprocal(0), 0u);
}

TEST(Fixed, MulShiftRoundAndRescale) {
  EXPECT_EQ(int64_t(mulShiftRound(-7, 3, 0)), -21);
  // 100 * 0.5 = 50 exactly; 1 * 0.5 = 0.5 rounds up to 1; -1 * 0.5 = -0.5 rounds up to 0.
  EXPECT_EQ(rescaleQ15(100, 16384), 50);
  EXPECT_EQ(rescaleQ15(1, 16384), 1);
  EXPECT_EQ(rescaleQ15(-1, 16384), 0);
  EXPECT_EQ(rescaleQ15(-3, 16384), -1); // -1.5 -> -1
  EXPECT_EQ(rescaleQ15(123456, 0), 0);
  // 32768 * 32767 / 32768 = 32767 exactly.
  EXPECT_EQ(rescaleQ15(32768, 32767), 32767);
  // 32767 * 32767 / 32768 = 32766.0000305: one rescale by exp(0) loses 2^-15 of the sum.
  EXPECT_EQ(rescaleQ15(32767, 32767), 32766);
  EXPECT_THROW(rescaleQ15(1, 32768), std::out_of_range);
  // Wide: 2^62 * 2^33 / 2^32 = 2^63, beyond int64 but exact in the result.
  EXPECT_EQ(mulShiftRound(int64_t(1) << 62, uint64_t(1) << 33, 32), __int128(1) << 63);
}

TEST(Fixed, DivideRounding) {
  // b = 2: r = 2^31 exactly, so a / 2 rounds half up: 3.5 -> 4, -3.5 -> -3.
  EXPECT_EQ(divide(7, 2, 32), 4);
  EXPECT_EQ(divide(-7, 2, 32), -3);
  // A negative divisor negates the rounded quotient of |b|.
  EXPECT_EQ(divide(7, -2, 32), -4);
  EXPECT_EQ(divide(-7, -2, 32), 3);
  // b = 3, r = 1431655765: (1 * r + 2^31) >> 32 = 0 (1/3); (2r + 2^31) >> 32 = 1 (2/3);
  // (3r + 2^31) >> 32 = 1; (-r + 2^31) >> 32 = 0 (-1/3); (-2r + 2^31) >> 32 = -1 (-2/3).
  EXPECT_EQ(divide(1, 3, 32), 0);
  EXPECT_EQ(divide(2, 3, 32), 1);
  EXPECT_EQ(divide(3, 3, 32), 1);
  EXPECT_EQ(divide(-1, 3, 32), 0);
  EXPECT_EQ(divide(-2, 3, 32), -1);
  EXPECT_EQ(divide(123456789, 1, 32), 123456789);
  EXPECT_EQ(divide(-5, 1, 32), -5);
  EXPECT_EQ(divide(42, 0, 32), 0);
  EXPECT_EQ(divide(-42, 0, 8), 0);
  // Saturation, not wrap.
  EXPECT_EQ(divide(1000, 1, 8), 127);
  EXPECT_EQ(divide(-1000, 1, 8), -128);
  EXPECT_EQ(divide(1000, 3, 8), 127);
  EXPECT_EQ(divide(kInt64Min, -1, 64), kInt64Max);
  EXPECT_EQ(divide(kInt64Min, 1, 64), kInt64Min);
  // |b| > 2^32: the reciprocal is 0.
  EXPECT_EQ(divide(kInt64Max, int64_t(1) << 33, 64), 0);
  EXPECT_EQ(saturate(__int128(1) << 100, 64), kInt64Max);
  EXPECT_EQ(saturate(-(__int128(1) << 100), 16), -32768);
}

TEST(Fixed, DivideErrorBound) {
  // With r = 2^32 / b - e (0 <= e < 1), a * r / 2^32 = a / b - a * e / 2^32: the quotient is
  // within 1/2 + |a| / 2^32 of a / b (1/2 from the rounding).
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> num(-(int64_t(1) << 40), int64_t(1) << 40);
  std::uniform_int_distribution<int64_t> den(-(int64_t(1) << 31), int64_t(1) << 31);
  for (int t = 0; t < 100000; ++t) {
    int64_t a = num(rng), b = den(rng);
    if (b == 0) continue;
    double exact = double(a) / double(b);
    double got = double(divideExact(a, b));
    ASSERT_LE(std::fabs(got - exact), 0.5 + std::fabs(double(a)) / 4294967296.0 + 1e-9)
        << a << " / " << b;
  }
}

// The examples/attention.tc program with the given sizes (and exp_frac directive, if any).
tc::Program attentionProgram(int64_t l, int64_t s, int64_t d, const std::string& directive) {
  tc::SemaOptions o;
  o.sizes = {{"L", l, {}}, {"S", s, {}}, {"D", d, {}}};
  return test::analyzeText(directive + "\n" + test::readExample("attention.tc"), o);
}

std::vector<int64_t> randomInt8(size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int64_t> v(-128, 127);
  std::uniform_int_distribution<int> pick(0, 9);
  std::vector<int64_t> out(n);
  for (int64_t& x : out) {
    int k = pick(rng);
    x = k == 0 ? -128 : k == 1 ? 127 : v(rng);
  }
  return out;
}

TEST(Attention, OneBlockEqualsTheInterpreter) {
  std::mt19937_64 rng(11);
  struct Case {
    int64_t l, s, d;
    int frac;
    bool directive;
  };
  // Sizes keep U within int32 (at most S * 32767 * 128 = 2^30 for S = 256), as the program's
  // int32 locals need for the identity to hold.
  const Case cases[] = {{4, 8, 4, 12, false},   {16, 16, 16, 12, true}, {8, 32, 16, 8, true},
                        {5, 7, 3, 0, true},     {3, 64, 64, 24, true},  {16, 256, 8, 12, false},
                        {2, 100, 16, 16, true}, {1, 1, 1, 12, false}};
  for (const Case& c : cases) {
    std::string dir = c.directive ? "# rubick: fixed exp_frac=" + std::to_string(c.frac) : "";
    tc::Program p = attentionProgram(c.l, c.s, c.d, dir);
    ASSERT_EQ(p.expFrac, c.frac);
    for (int trial = 0; trial < 3; ++trial) {
      TensorData in(p.tensors.size());
      in[p.findTensor("Q")] = randomInt8(c.l * c.d, rng);
      in[p.findTensor("K")] = randomInt8(c.s * c.d, rng);
      in[p.findTensor("V")] = randomInt8(c.s * c.d, rng);
      if (trial == 2) // every score equal: a flat softmax, the largest row sums
        in[p.findTensor("Q")].assign(c.l * c.d, 0);
      TensorData out = interpret(p, in);
      const int oBits = tc::bitWidth(p.tensors[p.findTensor("O")].type);
      for (int64_t block : {c.s, c.s + 5}) {
        std::vector<int64_t> o =
            attentionFixed(in[p.findTensor("Q")], in[p.findTensor("K")], in[p.findTensor("V")], c.l,
                           c.s, c.d, c.frac, block);
        ASSERT_EQ(saturateValues(o, oBits), out[p.findTensor("O")])
            << c.l << "x" << c.s << "x" << c.d << " frac " << c.frac << " trial " << trial;
      }
    }
  }
}

TEST(Attention, HandWorkedBlocks) {
  // F = 0, one query (D = 1, Q = 1), keys K = (0, 1) so Sc = (0, 1), values V = (10, 20).
  // Float: (10 + 20e) / (1 + e) = 17.3106.
  const std::vector<int64_t> q{1}, k{0, 1}, v{10, 20};
  std::vector<double> f = attentionFloat(q, k, v, 1, 2, 1, 0);
  EXPECT_NEAR(f[0], 17.310585786, 1e-9);
  // One block: m = 1, E = (exp(-1), exp(0)) = (12065, 32767) (see ExpHandValues),
  // l = 44832, U = 120650 + 655340 = 775990, r = 2^32 / 44832 = 95801 (rem 16864),
  // (775990 * 95801 + 2^31) >> 32 = 17.
  EXPECT_EQ(attentionFixed(q, k, v, 1, 2, 1, 0, 2), std::vector<int64_t>{17});
  // Two blocks of one key. Block 0: m = 0, l = 32767, U = 327670. Block 1: m = 1,
  // alpha = 12065, l = ((32767 * 12065 + 2^14) >> 15) + 32767 = 12065 + 32767 = 44832,
  // U = ((327670 * 12065 + 2^14) >> 15) + 655340 = 120646 + 655340 = 775986,
  // (775986 * 95801 + 2^31) >> 32 = 17.
  EXPECT_EQ(attentionFixed(q, k, v, 1, 2, 1, 0, 1), std::vector<int64_t>{17});
  // Equal scores: V averaged. One block: l = 65534, U = 32767 * 30, quotient exactly 15.
  // Two blocks: alpha = exp(0) = 32767 shrinks block 0 by 2^-15: l = 32766 + 32767 = 65533,
  // U = 327660 + 655340 = 983000; r = 2^32 / 65533 = 65539; (983000 * 65539 + 2^31) >> 32 = 15.
  const std::vector<int64_t> k0{0, 0};
  EXPECT_EQ(attentionFixed(q, k0, v, 1, 2, 1, 0, 2), std::vector<int64_t>{15});
  EXPECT_EQ(attentionFixed(q, k0, v, 1, 2, 1, 0, 1), std::vector<int64_t>{15});
  EXPECT_NEAR(attentionFloat(q, k0, v, 1, 2, 1, 0)[0], 15.0, 1e-12);
}

TEST(Attention, ValueDimensionMayDifferFromTheHeadDimension) {
  // Each output column depends only on its value column: column c of O with Dv = 5 equals
  // column 0 of O with Dv = D = 3 when that one's value column 0 is column c.
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int64_t> val(-128, 127);
  const int64_t L = 4, S = 7, D = 3, Dv = 5;
  std::vector<int64_t> q(L * D), k(S * D), v(S * Dv);
  for (std::vector<int64_t>* t : {&q, &k, &v})
    for (int64_t& x : *t)
      x = val(rng);
  for (int64_t block : {7, 3}) {
    std::vector<int64_t> o = attentionFixed(q, k, v, L, S, D, Dv, 12, block);
    ASSERT_EQ(o.size(), size_t(L * Dv));
    for (int64_t c = 0; c < Dv; ++c) {
      std::vector<int64_t> v3(S * D, 1);
      for (int64_t j = 0; j < S; ++j)
        v3[j * D] = v[j * Dv + c];
      std::vector<int64_t> o3 = attentionFixed(q, k, v3, L, S, D, 12, block);
      for (int64_t i = 0; i < L; ++i)
        EXPECT_EQ(o[i * Dv + c], o3[i * D]) << "row " << i << " column " << c;
    }
  }
  EXPECT_THROW(attentionFixed(q, k, v, L, S, D, 4, 12, 7), std::invalid_argument);
}

TEST(Attention, BlocksStayCloseToFloat) {
  // Each weight is within about 0.3% of exp (ExpIsMonotoneAndClose), so the weighted average
  // of int8 values moves by at most about 2 * 0.003 * 128 = 0.8; the division adds at most
  // 1/2 + |U| / 2^32 (< 0.01 here); each block's alpha rescale loses at most 2^-15 per block.
  std::mt19937_64 rng(5);
  const int64_t L = 8, S = 64, D = 16;
  auto q = randomInt8(L * D, rng), k = randomInt8(S * D, rng), v = randomInt8(S * D, rng);
  for (int frac : {8, 12}) {
    std::vector<double> f = attentionFloat(q, k, v, L, S, D, frac);
    for (int64_t block : {1, 5, 16, 64}) {
      std::vector<int64_t> o = attentionFixed(q, k, v, L, S, D, frac, block);
      for (size_t i = 0; i < o.size(); ++i)
        ASSERT_NEAR(double(o[i]), f[i], 1.5) << "frac " << frac << " block " << block << " @" << i;
    }
  }
  EXPECT_THROW(attentionFixed(q, k, v, L, S, D, 12, 0), std::invalid_argument);
  EXPECT_THROW(attentionFixed(q, k, v, L, S + 1, D, 12, 4), std::invalid_argument);
  EXPECT_EQ(saturateValues({300, -300, 5}, 8), (std::vector<int64_t>{127, -128, 5}));
}

} // namespace
} // namespace rubick::ref

namespace rubick::ref {
namespace {

TEST(Fixed, RequantiseRoundsHalfUpAndSaturates) {
  // 1000 * 3 / 2^5 = 93.75 -> 94; 1000 * 3 / 2^4 = 187.5 -> 188, over int8: 127.
  EXPECT_EQ(requantise(1000, 3, 5, 8), 94);
  EXPECT_EQ(requantise(1000, 3, 4, 8), 127);
  EXPECT_EQ(requantise(1000, 3, 4, 16), 188);
  // Half up also for negatives: -5 / 2 = -2.5 -> -2; -7 / 2 = -3.5 -> -3; -7 / 4 = -1.75 -> -2.
  EXPECT_EQ(requantise(-5, 1, 1, 8), -2);
  EXPECT_EQ(requantise(-7, 1, 1, 8), -3);
  EXPECT_EQ(requantise(-7, 1, 2, 8), -2);
  // A negative multiplier, saturating at the bottom.
  EXPECT_EQ(requantise(1000, -3, 4, 8), -128);
  // No shift: the product, saturated; the product is exact beyond 64 bits.
  EXPECT_EQ(requantise(12, 10, 0, 8), 120);
  EXPECT_EQ(requantise(INT64_MAX, 4, 2, 64), INT64_MAX);
  EXPECT_EQ(requantise(int64_t(1) << 40, int64_t(1) << 30, 31, 64), int64_t(1) << 39);
  EXPECT_THROW(requantise(1, 1, 32, 8), std::out_of_range);
}

} // namespace
} // namespace rubick::ref
