// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_scale.v: every configuration instantiated in
// tb_rubick_scale.v against saturate(mulShiftRound(a, b, SHIFT), OUT_W) of
// include/rubick/ref/Fixed.h (the C++ definition the reference model uses), cycle by cycle:
// out_valid follows in_valid one edge later, out takes the scaled value when in_valid and holds
// otherwise. The first 512 cycles run through every a and b of the 5 x 4-bit configuration s3
// (and of the 1-bit s7); then a wide random sweep with edge values (0, +-1, extremes of every
// width) for all.
#include "Vtb_rubick_scale.h"
#include "rtl_test.h"

#include "rubick/ref/Fixed.h"

namespace {

struct Config {
  const char* name;
  int aw, bw, shift, ow;
};

// Must match tb_rubick_scale.v.
constexpr Config kConfigs[] = {
    {"s0", 32, 33, 32, 32}, {"s1", 32, 33, 32, 8}, {"s2", 40, 15, 15, 40}, {"s3", 5, 4, 3, 4},
    {"s4", 8, 8, 0, 12},    {"s5", 8, 4, 20, 3},   {"s6", 64, 33, 32, 64}, {"s7", 1, 1, 0, 1},
    {"s8", 16, 15, 8, 25},  {"s9", 16, 16, 8, 30},
};
constexpr int kN = sizeof kConfigs / sizeof kConfigs[0];
constexpr int kExhaustive = 512; // 2^5 values of a times 2^4 of b, for s3
constexpr int kRandomCycles = 40000;

void outputs(const Vtb_rubick_scale& m, int c, bool& valid, uint64_t& out) {
  switch (c) {
  case 0:
    valid = m.valid_s0, out = m.out_s0;
    break;
  case 1:
    valid = m.valid_s1, out = m.out_s1;
    break;
  case 2:
    valid = m.valid_s2, out = m.out_s2;
    break;
  case 3:
    valid = m.valid_s3, out = m.out_s3;
    break;
  case 4:
    valid = m.valid_s4, out = m.out_s4;
    break;
  case 5:
    valid = m.valid_s5, out = m.out_s5;
    break;
  case 6:
    valid = m.valid_s6, out = m.out_s6;
    break;
  case 7:
    valid = m.valid_s7, out = m.out_s7;
    break;
  case 8:
    valid = m.valid_s8, out = m.out_s8;
    break;
  default:
    valid = m.valid_s9, out = m.out_s9;
  }
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_scale m(ctx.get());
  rtl::Rng rng(41);

  bool wantValid[kN] = {}, known[kN] = {};
  int64_t wantOut[kN] = {};
  m.clk = 0;
  m.eval();
  const long cycles = kExhaustive + kRandomCycles;
  for (long cycle = 0; cycle < cycles; ++cycle) {
    uint64_t a = rng.edgy(64), b = rng.edgy(33);
    bool valid = true;
    if (cycle < kExhaustive) {
      a = (a & ~rtl::mask(5)) | (uint64_t(cycle) & 31);
      b = (b & ~rtl::mask(4)) | (uint64_t(cycle) >> 5);
    } else {
      valid = rng.chance(0.8);
    }
    m.a = a;
    rtl::put(m.b, rtl::Value(33, b));
    m.in_valid = valid;
    m.eval();
    for (int c = 0; c < kN; ++c) {
      const Config& k = kConfigs[c];
      wantValid[c] = valid;
      if (!valid) continue;
      __int128 scaled =
          rubick::ref::mulShiftRound(rtl::sext(a, k.aw), b & rtl::mask(k.bw), k.shift);
      wantOut[c] = rubick::ref::saturate(scaled, k.ow);
      known[c] = true;
    }
    rtl::tick(m);
    for (int c = 0; c < kN; ++c) {
      const Config& k = kConfigs[c];
      bool gotValid;
      uint64_t got;
      outputs(m, c, gotValid, got);
      if (gotValid != wantValid[c])
        rtl::fail("test_rubick_scale", cycle,
                  rtl::mismatch(std::string(k.name) + ".out_valid", gotValid, wantValid[c]));
      if (known[c] && rtl::sext(got, k.ow) != wantOut[c])
        rtl::fail("test_rubick_scale", cycle,
                  rtl::mismatch(std::string(k.name) + ".out", rtl::sext(got, k.ow), wantOut[c]));
    }
  }
  std::printf("test_rubick_scale: OK (%d configurations, %ld cycles)\n", kN, cycles);
  return 0;
}
