// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_accum.v: every width and reduction instantiated in
// tb_rubick_accum.v against a C++ model, cycle by cycle: acc <= init ? init_val : combine(acc,
// in), combine a sum modulo 2**W (OP 0), the signed maximum (OP 1) or the signed minimum (OP 2).
// acc is compared from the first init on (there is no reset).
#include "Vtb_rubick_accum.h"
#include "rtl_test.h"

#include <optional>

namespace {

struct Config {
  const char* name;
  int w, op; // op: 0 sum, 1 maximum, 2 minimum
};

// Must match tb_rubick_accum.v.
constexpr Config kConfigs[] = {
    {"acc_w20", 20, 0},     {"acc_w1", 1, 0},     {"acc_w64", 64, 0},     {"acc_w33", 33, 0},
    {"acc_max_w20", 20, 1}, {"acc_max_w1", 1, 1}, {"acc_max_w64", 64, 1}, {"acc_max_w33", 33, 1},
    {"acc_min_w20", 20, 2}, {"acc_min_w1", 1, 2}, {"acc_min_w64", 64, 2}, {"acc_min_w33", 33, 2},
};
constexpr int kN = sizeof kConfigs / sizeof kConfigs[0];
constexpr int kCycles = 20000;

uint64_t acc(const Vtb_rubick_accum& m, int c) {
  switch (c) {
  case 0:
    return m.acc_w20;
  case 1:
    return m.acc_w1;
  case 2:
    return m.acc_w64;
  case 3:
    return m.acc_w33;
  case 4:
    return m.acc_max_w20;
  case 5:
    return m.acc_max_w1;
  case 6:
    return m.acc_max_w64;
  case 7:
    return m.acc_max_w33;
  case 8:
    return m.acc_min_w20;
  case 9:
    return m.acc_min_w1;
  case 10:
    return m.acc_min_w64;
  default:
    return m.acc_min_w33;
  }
}

// The widths the configurations test: every instance sees its type's extremes.
constexpr int kWidths[] = {kConfigs[0].w, kConfigs[1].w, kConfigs[2].w, kConfigs[3].w};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_accum m(ctx.get());
  rtl::Rng rng(4);
  std::optional<uint64_t> want[kN];

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    bool init = cycle == 5 || rng.chance(0.05);
    uint64_t init_val = rtl::extremeStimulus(rng, kWidths), in = rtl::extremeStimulus(rng, kWidths);
    m.init = init;
    m.init_val = init_val;
    m.in = in;
    m.eval();
    for (int c = 0; c < kN; ++c) {
      const Config& cfg = kConfigs[c];
      if (init)
        want[c] = init_val & rtl::mask(cfg.w);
      else if (want[c])
        want[c] = rtl::fold(cfg.op, cfg.w, *want[c], in & rtl::mask(cfg.w));
    }
    rtl::tick(m);
    for (int c = 0; c < kN; ++c) {
      const Config& cfg = kConfigs[c];
      if (want[c] && acc(m, c) != *want[c])
        rtl::fail("test_rubick_accum", cycle,
                  rtl::mismatch(cfg.name, rtl::sext(acc(m, c), cfg.w), rtl::sext(*want[c], cfg.w)));
    }
  }
  std::printf("test_rubick_accum: OK (%d configurations, %d cycles)\n", kN, kCycles);
  return 0;
}
