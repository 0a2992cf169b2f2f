// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_exp.v: every EXP_FRAC instantiated in tb_rubick_exp.v
// against expQ15Distance of include/rubick/ref/Fixed.h (the C++ definition the reference model
// uses), cycle by cycle: out_valid follows in_valid one edge later and out takes the exponential
// of d when in_valid, holding otherwise.
// Stimuli: for each configuration with EXP_FRAC >= 9 and every pair (n, f) of shift and table
// index with n < 16, the smallest d that reaches it and the d just below (so every table entry
// under every shift, and every boundary); then small d for EXP_FRAC = 0, edge cases and random
// 32-bit values. The test also checks that the stimuli reached every (n, f).
#include "Vtb_rubick_exp.h"
#include "rtl_test.h"

#include "rubick/ref/Fixed.h"

#include <set>

namespace {

constexpr int kFracs[] = {12, 0, 9, 24}; // must match tb_rubick_exp.v
constexpr int kRandomCycles = 20000;

void outputs(const Vtb_rubick_exp& m, int c, bool& valid, uint64_t& out) {
  switch (c) {
  case 0:
    valid = m.valid_c0, out = m.out_c0;
    break;
  case 1:
    valid = m.valid_c1, out = m.out_c1;
    break;
  case 2:
    valid = m.valid_c2, out = m.out_c2;
    break;
  default:
    valid = m.valid_c3, out = m.out_c3;
  }
}

// (n, f) as the definition computes them, for the coverage check: n * 256 + f, or -1 for n >= 16.
int shiftAndIndex(uint64_t d, int frac) {
  unsigned __int128 y = static_cast<unsigned __int128>(d) * rubick::ref::kLog2E16;
  unsigned __int128 n = y >> (frac + 16);
  if (n >= 16) return -1;
  return static_cast<int>(n) * 256 + static_cast<int>((y >> (frac + 8)) & 255);
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_exp m(ctx.get());
  rtl::Rng rng(21);
  constexpr int kN = sizeof kFracs / sizeof kFracs[0];

  std::vector<uint64_t> stimuli;
  for (int frac : kFracs) {
    if (frac < 9) continue;
    // y = d * 94548 reaches k * 2^(frac+8) first at d = ceil(k * 2^(frac+8) / 94548); the step
    // 94548 < 2^(frac+8) cannot jump over the next k.
    for (uint64_t k = 0; k < 16 * 256; ++k) {
      uint64_t d = ((k << (frac + 8)) + rubick::ref::kLog2E16 - 1) / rubick::ref::kLog2E16;
      stimuli.push_back(d);
      if (d > 0) stimuli.push_back(d - 1);
    }
  }
  for (uint64_t d = 0; d < 64; ++d)
    stimuli.push_back(d);
  for (uint64_t d : {0xffffffffull, 0x80000000ull, 0x7fffffffull, 0x10000ull, 0xffffull})
    stimuli.push_back(d);
  const size_t directed = stimuli.size();
  for (int i = 0; i < kRandomCycles; ++i) {
    // Mostly within the range where the result is not 0 for some configuration.
    int w = rng.range(1, 32);
    stimuli.push_back(rng.bits(w));
  }

  std::vector<std::set<int>> reached(kN);
  bool wantValid[kN] = {};
  uint64_t wantOut[kN] = {}, wantD[kN] = {};
  bool known[kN] = {};
  m.clk = 0;
  m.eval();
  for (size_t cycle = 0; cycle < stimuli.size(); ++cycle) {
    uint64_t d = stimuli[cycle];
    // Directed stimuli always valid; random ones mostly, to check the hold.
    bool valid = cycle < directed || rng.chance(0.8);
    m.d = static_cast<uint32_t>(d);
    m.in_valid = valid;
    m.eval();
    for (int c = 0; c < kN; ++c) {
      wantValid[c] = valid;
      if (valid) {
        wantOut[c] = static_cast<uint64_t>(rubick::ref::expQ15Distance(d, kFracs[c]));
        wantD[c] = d;
        known[c] = true;
        reached[c].insert(shiftAndIndex(d, kFracs[c]));
      }
    }
    rtl::tick(m);
    for (int c = 0; c < kN; ++c) {
      bool gotValid;
      uint64_t got;
      outputs(m, c, gotValid, got);
      std::string name = "c" + std::to_string(c) + " (EXP_FRAC " + std::to_string(kFracs[c]) + ")";
      if (gotValid != wantValid[c])
        rtl::fail("test_rubick_exp", long(cycle),
                  rtl::mismatch(name + ".out_valid", gotValid, wantValid[c]));
      if (known[c] && got != wantOut[c])
        rtl::fail("test_rubick_exp", long(cycle),
                  rtl::mismatch(name + ".out for d = " + std::to_string(wantD[c]), int64_t(got),
                                int64_t(wantOut[c])));
    }
  }
  for (int c = 0; c < kN; ++c) {
    if (kFracs[c] < 9) continue;
    for (int k = 0; k < 16 * 256; ++k)
      if (!reached[c].count(k))
        rtl::fail("test_rubick_exp", 0,
                  "stimuli never reach n = " + std::to_string(k / 256) + ", f = " +
                      std::to_string(k % 256) + " for EXP_FRAC " + std::to_string(kFracs[c]));
  }
  std::printf("test_rubick_exp: OK (%d configurations, %zu cycles)\n", kN, stimuli.size());
  return 0;
}
