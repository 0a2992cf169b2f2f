// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_psum.v: every width and reduction instantiated in
// tb_rubick_psum.v against a C++ model, cycle by cycle: sum_out <= combine(sum_in, add), combine
// a sum modulo 2**W (OP 0), the signed maximum (OP 1) or the signed minimum (OP 2).
#include "Vtb_rubick_psum.h"
#include "rtl_test.h"

namespace {

struct Config {
  const char* name;
  int w, op; // op: 0 sum, 1 maximum, 2 minimum
};

// Must match tb_rubick_psum.v.
constexpr Config kConfigs[] = {
    {"sum_out_w20", 20, 0}, {"sum_out_w1", 1, 0}, {"sum_out_w64", 64, 0}, {"sum_out_w33", 33, 0},
    {"max_out_w20", 20, 1}, {"max_out_w1", 1, 1}, {"max_out_w64", 64, 1}, {"max_out_w33", 33, 1},
    {"min_out_w20", 20, 2}, {"min_out_w1", 1, 2}, {"min_out_w64", 64, 2}, {"min_out_w33", 33, 2},
};
constexpr int kN = sizeof kConfigs / sizeof kConfigs[0];
constexpr int kCycles = 20000;

uint64_t sumOut(const Vtb_rubick_psum& m, int c) {
  switch (c) {
  case 0:
    return m.sum_out_w20;
  case 1:
    return m.sum_out_w1;
  case 2:
    return m.sum_out_w64;
  case 3:
    return m.sum_out_w33;
  case 4:
    return m.max_out_w20;
  case 5:
    return m.max_out_w1;
  case 6:
    return m.max_out_w64;
  case 7:
    return m.max_out_w33;
  case 8:
    return m.min_out_w20;
  case 9:
    return m.min_out_w1;
  case 10:
    return m.min_out_w64;
  default:
    return m.min_out_w33;
  }
}

// The widths the configurations test: every instance sees its type's extremes.
constexpr int kWidths[] = {kConfigs[0].w, kConfigs[1].w, kConfigs[2].w, kConfigs[3].w};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_psum m(ctx.get());
  rtl::Rng rng(5);

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    uint64_t sum_in = rtl::extremeStimulus(rng, kWidths), add = rtl::extremeStimulus(rng, kWidths);
    m.sum_in = sum_in;
    m.add = add;
    m.eval();
    rtl::tick(m);
    for (int c = 0; c < kN; ++c) {
      const Config& cfg = kConfigs[c];
      uint64_t want = rtl::fold(cfg.op, cfg.w, sum_in, add);
      if (sumOut(m, c) != want)
        rtl::fail("test_rubick_psum", cycle,
                  rtl::mismatch(cfg.name, rtl::sext(sumOut(m, c), cfg.w), rtl::sext(want, cfg.w)));
    }
  }
  std::printf("test_rubick_psum: OK (%d configurations, %d cycles)\n", kN, kCycles);
  return 0;
}
