// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_mul.v: every configuration instantiated in tb_rubick_mul.v
// against a C++ model, cycle by cycle: prod(edge k) = valid ? op0*...*op(N-1) : INVALID of the
// inputs before edge k, fitted to PW bits (the low PW bits, sign-extended when PW > 64; INVALID
// is a signed 64-bit value, 0 by default).
#include "Vtb_rubick_mul.h"
#include "rtl_test.h"

namespace {

struct Config {
  const char* name;
  int n;
  int w[4];
  int pw;
  uint64_t invalid = 0;
};

// Must match tb_rubick_mul.v.
constexpr Config kConfigs[] = {
    {"c0", 1, {8, 8, 8, 8}, 8},
    {"c1", 2, {8, 8, 8, 8}, 16},
    {"c2", 2, {1, 3, 8, 8}, 4},
    {"c3", 3, {8, 4, 6, 8}, 18},
    {"c4", 4, {3, 5, 7, 2}, 17},
    {"c5", 4, {16, 16, 16, 16}, 64},
    {"c6", 2, {8, 8, 8, 8}, 12},
    {"c7", 1, {5, 8, 8, 8}, 9},
    {"c8", 3, {2, 16, 9, 8}, 30},
    {"c9", 1, {8, 8, 8, 8}, 8, ~uint64_t{127}}, // -128
    {"c10", 2, {8, 8, 8, 8}, 16, 0x7fff},
    {"c11", 3, {16, 8, 9, 8}, 33, uint64_t{1} << 32},
    {"c12", 2, {16, 16, 8, 8}, 33, 0xdeadbeeeffffffff},
    {"c13", 4, {16, 16, 16, 16}, 64, uint64_t{1} << 63},
    {"c14", 2, {16, 16, 8, 8}, 70, 0x8000000000000001},
    {"c15", 3, {16, 16, 16, 8}, 70, 0x7ffffffffffffffe},
    {"c16", 1, {1, 8, 8, 8}, 1, 1},
};
constexpr int kN = sizeof kConfigs / sizeof kConfigs[0];
constexpr int kCycles = 20000;

rtl::Value prod(const Vtb_rubick_mul& m, int c) {
  const int pw = kConfigs[c].pw;
  switch (c) {
  case 0:
    return rtl::get(m.prod_c0, pw);
  case 1:
    return rtl::get(m.prod_c1, pw);
  case 2:
    return rtl::get(m.prod_c2, pw);
  case 3:
    return rtl::get(m.prod_c3, pw);
  case 4:
    return rtl::get(m.prod_c4, pw);
  case 5:
    return rtl::get(m.prod_c5, pw);
  case 6:
    return rtl::get(m.prod_c6, pw);
  case 7:
    return rtl::get(m.prod_c7, pw);
  case 8:
    return rtl::get(m.prod_c8, pw);
  case 9:
    return rtl::get(m.prod_c9, pw);
  case 10:
    return rtl::get(m.prod_c10, pw);
  case 11:
    return rtl::get(m.prod_c11, pw);
  case 12:
    return rtl::get(m.prod_c12, pw);
  case 13:
    return rtl::get(m.prod_c13, pw);
  case 14:
    return rtl::get(m.prod_c14, pw);
  case 15:
    return rtl::get(m.prod_c15, pw);
  default:
    return rtl::get(m.prod_c16, pw);
  }
}

// A signed value fitted to w bits (w <= 128): its low w bits, sign-extended as needed.
rtl::Value fit(__int128 v, int w) {
  rtl::Value r(w);
  r.chunk[0] = static_cast<uint64_t>(v);
  if (r.chunk.size() > 1) r.chunk[1] = static_cast<uint64_t>(v >> 64);
  r.trim();
  return r;
}

// An operand: rtl::Rng::edgy, or often the most negative or most positive value of one of the
// tested operand widths (sign-extended to 16 bits).
uint64_t operand(rtl::Rng& rng) {
  if (!rng.chance(0.15)) return rng.edgy(16);
  static constexpr int kWidths[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16};
  int w = kWidths[rng.range(0, 9)];
  uint64_t extreme = rng.chance(0.5) ? uint64_t{1} << (w - 1) : rtl::mask(w - 1);
  return static_cast<uint64_t>(rtl::sext(extreme, w)) & rtl::mask(16);
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_mul m(ctx.get());
  rtl::Rng rng(1);

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    uint64_t ops[4];
    for (auto& op : ops)
      op = operand(rng);
    m.valid = rng.chance(0.8);
    m.op0 = ops[0];
    m.op1 = ops[1];
    m.op2 = ops[2];
    m.op3 = ops[3];
    m.eval();

    rtl::Value want[kN];
    for (int c = 0; c < kN; ++c) {
      const Config& cfg = kConfigs[c];
      __int128 p = 1;
      for (int k = 0; k < cfg.n; ++k)
        p *= rtl::sext(ops[k], cfg.w[k]);
      want[c] = fit(m.valid ? p : static_cast<__int128>(static_cast<int64_t>(cfg.invalid)), cfg.pw);
    }
    rtl::tick(m);
    for (int c = 0; c < kN; ++c) {
      const Config& cfg = kConfigs[c];
      rtl::Value got = prod(m, c);
      if (got != want[c])
        rtl::fail("test_rubick_mul", cycle,
                  rtl::mismatch(std::string(cfg.name) + ".prod", got.hex(), want[c].hex()));
    }
  }
  std::printf("test_rubick_mul: OK (%d configurations, %d cycles)\n", kN, kCycles);
  return 0;
}
