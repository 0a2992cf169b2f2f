// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fixed-point numerics of softmax attention: the one C++ definition of exp, the reciprocal,
// the rounding multiply-shift and the division that the reference model, the attention model and
// the RTL templates (rtl_templates/rubick_exp.v, rubick_recip.v, rubick_scale.v, tested
// bit-exact against these functions) all implement. docs/attention-numerics.md explains the
// formats and the error they cause.
//
//   exp:  argument x stands for x / 2^F (F = exp_frac, 0..24); result Q0.15 (0..32767 stands
//         for value / 32768), 32767 for x >= 0.
//   a/b:  a * floor(2^32 / |b|), rounded (half up) back down by 2^32, negated for b < 0;
//         b == 0 gives 0.

#include <array>
#include <cstdint>

namespace rubick::ref {

/// round(log2(e) * 2^16): exp(x) = 2^(x * log2(e)).
inline constexpr uint64_t kLog2E16 = 94548;
/// The largest Q0.15 value, exp(0) (1.0 itself does not fit in 15 fraction bits).
inline constexpr int64_t kQ15Max = 32767;
/// Q0.15 products are scaled back by this shift (rounding half up).
inline constexpr int kQ15Shift = 15;
/// The reciprocal is floor(2^kRecipShift / b).
inline constexpr int kRecipShift = 32;

/// LUT[f] = min(32767, round(32768 * 2^(-f/256))), f = 0..255: 2 to the power of minus the
/// 8-bit fraction of the base-2 exponent.
const std::array<uint16_t, 256>& expLut();

/// exp(-d / 2^expFrac) in Q0.15 for a distance d >= 0 (the hardware's input, d = max - score):
/// y = d * kLog2E16, n = y >> (expFrac + 16), f = (y >> (expFrac + 8)) & 255,
/// result = n >= 16 ? 0 : LUT[f] >> n. Exact for every d (y is formed in 128 bits).
/// Throws std::out_of_range for expFrac outside 0..24.
int64_t expQ15Distance(uint64_t d, int expFrac);

/// exp(x / 2^expFrac) in Q0.15: 32767 for x > 0 (saturated), else expQ15Distance(-x).
int64_t expQ15(int64_t x, int expFrac);

/// floor(2^32 / b) for b in 1..2^32 (up to 2^32, 33 bits); 0 for b == 0 and for b > 2^32.
uint64_t reciprocal(uint64_t b);

/// floor((a * b + 2^(shift-1)) / 2^shift), computed exactly: a * b rounded half up to an
/// integer multiple of 2^shift (no rounding term for shift == 0). Needs b < 2^63 and shift in
/// 0..64; throws std::out_of_range otherwise.
__int128 mulShiftRound(int64_t a, uint64_t b, int shift);

/// v clamped to the signed `bits`-bit range (1..64).
int64_t saturate(__int128 v, int bits);

/// The online-softmax rescale of a running sum by alpha (Q0.15): (v * alpha + 2^14) >> 15.
/// alpha must be in 0..32767; the result is exact (|result| <= |v|).
int64_t rescaleQ15(int64_t v, int64_t alpha);

/// a / b before saturation: mulShiftRound(a, reciprocal(|b|), 32), negated for b < 0; 0 for
/// b == 0.
__int128 divideExact(int64_t a, int64_t b);

/// a / b saturated to a signed `bits`-bit value (saturation, not wrap: an overflowing quotient
/// is clamped to the type's minimum or maximum).
int64_t divide(int64_t a, int64_t b, int bits);

/// TC's requant(x, m, s), the requantisation of an accumulator (docs/language.md): x * m
/// rounded half up to a multiple of 2^s, divided by 2^s, saturated to a signed `bits`-bit
/// value: saturate(floor((x * m + 2^(s-1)) / 2^s), bits), exact (128-bit product). s in 0..31.
int64_t requantise(int64_t x, int64_t m, int64_t s, int bits);

} // namespace rubick::ref
