// SPDX-License-Identifier: Apache-2.0
#include "rubick/ref/Fixed.h"

#include "rubick/frontend/Ast.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rubick::ref {

const std::array<uint16_t, 256>& expLut() {
  // Every entry is at least 2.7e-4 away from a rounding tie, so double precision gives the same
  // table on every libm; tests/rtl/test_rubick_exp.cpp compares all 256 entries with the
  // Verilog table, which was generated separately.
  static const std::array<uint16_t, 256> lut = [] {
    std::array<uint16_t, 256> t{};
    for (int f = 0; f < 256; ++f) {
      double v = std::floor(32768.0 * std::exp2(-f / 256.0) + 0.5);
      t[f] = static_cast<uint16_t>(std::min<double>(v, kQ15Max));
    }
    return t;
  }();
  return lut;
}

namespace {

void checkExpFrac(int expFrac) {
  if (expFrac < 0 || expFrac > tc::kMaxExpFrac)
    throw std::out_of_range("exp_frac " + std::to_string(expFrac) + " is outside 0..24");
}

} // namespace

int64_t expQ15Distance(uint64_t d, int expFrac) {
  checkExpFrac(expFrac);
  // 64 x 17 bits: y needs up to 81 bits, so it is formed in 128.
  unsigned __int128 y = static_cast<unsigned __int128>(d) * kLog2E16;
  unsigned __int128 n = y >> (expFrac + 16);
  if (n >= 16) return 0;
  unsigned f = static_cast<unsigned>(y >> (expFrac + 8)) & 255;
  return expLut()[f] >> static_cast<unsigned>(n);
}

int64_t expQ15(int64_t x, int expFrac) {
  checkExpFrac(expFrac);
  if (x > 0) return kQ15Max;
  // -x as unsigned: also right for INT64_MIN.
  return expQ15Distance(uint64_t(0) - static_cast<uint64_t>(x), expFrac);
}

uint64_t reciprocal(uint64_t b) {
  if (b == 0) return 0;
  return (uint64_t(1) << kRecipShift) / b;
}

__int128 mulShiftRound(int64_t a, uint64_t b, int shift) {
  if (b >> 63 || shift < 0 || shift > 64)
    throw std::out_of_range("mulShiftRound: b must be below 2^63 and shift in 0..64");
  __int128 p = static_cast<__int128>(a) * static_cast<__int128>(b);
  if (shift == 0) return p;
  p += static_cast<__int128>(1) << (shift - 1);
  // >> of a negative __int128 is an arithmetic (floor) shift in GCC and Clang, and defined
  // that way since C++20.
  return p >> shift;
}

int64_t saturate(__int128 v, int bits) {
  if (bits < 1 || bits > 64) throw std::out_of_range("saturate: bits must be 1..64");
  const __int128 hi = (static_cast<__int128>(1) << (bits - 1)) - 1;
  const __int128 lo = -hi - 1;
  return static_cast<int64_t>(v > hi ? hi : v < lo ? lo : v);
}

int64_t rescaleQ15(int64_t v, int64_t alpha) {
  if (alpha < 0 || alpha > kQ15Max) throw std::out_of_range("rescaleQ15: alpha must be Q0.15");
  return static_cast<int64_t>(mulShiftRound(v, static_cast<uint64_t>(alpha), kQ15Shift));
}

__int128 divideExact(int64_t a, int64_t b) {
  if (b == 0) return 0;
  uint64_t mag = b < 0 ? uint64_t(0) - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  __int128 q = mulShiftRound(a, reciprocal(mag), kRecipShift);
  return b < 0 ? -q : q;
}

int64_t divide(int64_t a, int64_t b, int bits) {
  return saturate(divideExact(a, b), bits);
}

int64_t requantise(int64_t x, int64_t m, int64_t s, int bits) {
  if (s < 0 || s > 31) throw std::out_of_range("requantise: the shift must be 0..31");
  __int128 p = static_cast<__int128>(x) * static_cast<__int128>(m);
  if (s > 0) p = (p + (static_cast<__int128>(1) << (s - 1))) >> s; // floor: arithmetic shift
  return saturate(p, bits);
}

} // namespace rubick::ref
