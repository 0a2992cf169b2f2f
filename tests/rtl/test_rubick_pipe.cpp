// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_pipe.v: every width instantiated in tb_rubick_pipe.v against
// a C++ model, cycle by cycle: q after an edge is d before it.
#include "Vtb_rubick_pipe.h"
#include "rtl_test.h"

namespace {

constexpr int kWidths[] = {8, 1, 100}; // must match tb_rubick_pipe.v
constexpr int kCycles = 20000;

rtl::Value q(const Vtb_rubick_pipe& m, int c) {
  switch (c) {
  case 0:
    return rtl::get(m.q_w8, 8);
  case 1:
    return rtl::get(m.q_w1, 1);
  default:
    return rtl::get(m.q_w100, 100);
  }
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_pipe m(ctx.get());
  rtl::Rng rng(6);

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    rtl::Value d = rng.value(100);
    rtl::put(m.d, d);
    m.eval();
    rtl::tick(m);
    for (size_t c = 0; c < std::size(kWidths); ++c) {
      rtl::Value want = d.low(kWidths[c]);
      rtl::Value got = q(m, c);
      if (got != want)
        rtl::fail("test_rubick_pipe", cycle,
                  rtl::mismatch("q_w" + std::to_string(kWidths[c]), got.hex(), want.hex()));
    }
  }
  std::printf("test_rubick_pipe: OK (%zu configurations, %d cycles)\n", std::size(kWidths),
              kCycles);
  return 0;
}
