// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_hold.v: every width instantiated in tb_rubick_hold.v against
// a C++ model, cycle by cycle: q <= load ? d : q. q is compared from the first load on (there is
// no reset), including long stretches without load.
#include "Vtb_rubick_hold.h"
#include "rtl_test.h"

#include <optional>

namespace {

constexpr int kWidths[] = {8, 1, 40, 100}; // must match tb_rubick_hold.v
constexpr int kCycles = 20000;

rtl::Value q(const Vtb_rubick_hold& m, int c) {
  switch (c) {
  case 0:
    return rtl::get(m.q_w8, 8);
  case 1:
    return rtl::get(m.q_w1, 1);
  case 2:
    return rtl::get(m.q_w40, 40);
  default:
    return rtl::get(m.q_w100, 100);
  }
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_hold m(ctx.get());
  rtl::Rng rng(7);
  std::optional<rtl::Value> held;

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    // Phases of frequent and of rare loads.
    bool load = cycle == 3 || rng.chance((cycle / 500) % 2 ? 0.5 : 0.01);
    rtl::Value d = rng.value(100);
    m.load = load;
    rtl::put(m.d, d);
    m.eval();
    if (load) held = d;
    rtl::tick(m);
    if (!held) continue;
    for (size_t c = 0; c < std::size(kWidths); ++c) {
      rtl::Value want = held->low(kWidths[c]);
      rtl::Value got = q(m, c);
      if (got != want)
        rtl::fail("test_rubick_hold", cycle,
                  rtl::mismatch("q_w" + std::to_string(kWidths[c]), got.hex(), want.hex()));
    }
  }
  std::printf("test_rubick_hold: OK (%zu configurations, %d cycles)\n", std::size(kWidths),
              kCycles);
  return 0;
}
