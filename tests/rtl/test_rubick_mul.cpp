// Unit test of rtl_templates/rubick_mul.v: every configuration instantiated in tb_rubick_mul.v
// against a C++ model, cycle by cycle: prod(edge k) = valid ? op0*...*op(N-1) : 0 of the inputs
// before edge k, fitted to PW bits.
#include "Vtb_rubick_mul.h"
#include "rtl_test.h"

namespace {

struct Config {
  const char* name;
  int n;
  int w[4];
  int pw;
};

// Must match tb_rubick_mul.v.
constexpr Config kConfigs[] = {
    {"c0", 1, {8, 8, 8, 8}, 8},  {"c1", 2, {8, 8, 8, 8}, 16}, {"c2", 2, {1, 3, 8, 8}, 4},
    {"c3", 3, {8, 4, 6, 8}, 18}, {"c4", 4, {3, 5, 7, 2}, 17}, {"c5", 4, {16, 16, 16, 16}, 64},
    {"c6", 2, {8, 8, 8, 8}, 12}, {"c7", 1, {5, 8, 8, 8}, 9},  {"c8", 3, {2, 16, 9, 8}, 30},
};
constexpr int kCycles = 20000;

uint64_t prod(const Vtb_rubick_mul& m, int c) {
  switch (c) {
  case 0:
    return m.prod_c0;
  case 1:
    return m.prod_c1;
  case 2:
    return m.prod_c2;
  case 3:
    return m.prod_c3;
  case 4:
    return m.prod_c4;
  case 5:
    return m.prod_c5;
  case 6:
    return m.prod_c6;
  case 7:
    return m.prod_c7;
  default:
    return m.prod_c8;
  }
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_mul m(ctx.get());
  rtl::Rng rng(1);
  constexpr int kN = sizeof kConfigs / sizeof kConfigs[0];

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    uint64_t ops[4];
    for (auto& op : ops)
      op = rng.edgy(16);
    m.valid = rng.chance(0.8);
    m.op0 = ops[0];
    m.op1 = ops[1];
    m.op2 = ops[2];
    m.op3 = ops[3];
    m.eval();

    uint64_t want[kN];
    for (int c = 0; c < kN; ++c) {
      const Config& cfg = kConfigs[c];
      __int128 p = 1;
      for (int k = 0; k < cfg.n; ++k)
        p *= rtl::sext(ops[k], cfg.w[k]);
      want[c] = m.valid ? static_cast<uint64_t>(p) & rtl::mask(cfg.pw) : 0;
    }
    rtl::tick(m);
    for (int c = 0; c < kN; ++c) {
      const Config& cfg = kConfigs[c];
      uint64_t got = prod(m, c);
      if (got != want[c])
        rtl::fail("test_rubick_mul", cycle,
                  rtl::mismatch(std::string(cfg.name) + ".prod", rtl::sext(got, cfg.pw),
                                rtl::sext(want[c], cfg.pw)));
    }
  }
  std::printf("test_rubick_mul: OK (%d configurations, %d cycles)\n", kN, kCycles);
  return 0;
}
