// Unit test of rtl_templates/rubick_accum.v: every width instantiated in tb_rubick_accum.v
// against a C++ model, cycle by cycle: acc <= init ? init_val : acc + in, modulo 2**W.
// acc is compared from the first init on (there is no reset).
#include "Vtb_rubick_accum.h"
#include "rtl_test.h"

#include <optional>

namespace {

constexpr int kWidths[] = {20, 1, 64, 33}; // must match tb_rubick_accum.v
constexpr int kCycles = 20000;

uint64_t acc(const Vtb_rubick_accum& m, int c) {
  switch (c) {
  case 0:
    return m.acc_w20;
  case 1:
    return m.acc_w1;
  case 2:
    return m.acc_w64;
  default:
    return m.acc_w33;
  }
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_accum m(ctx.get());
  rtl::Rng rng(4);
  std::optional<uint64_t> want[std::size(kWidths)];

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    bool init = cycle == 5 || rng.chance(0.05);
    uint64_t init_val = rng.edgy(64), in = rng.edgy(64);
    m.init = init;
    m.init_val = init_val;
    m.in = in;
    m.eval();
    for (size_t c = 0; c < std::size(kWidths); ++c) {
      uint64_t mask = rtl::mask(kWidths[c]);
      if (init)
        want[c] = init_val & mask;
      else if (want[c])
        want[c] = (*want[c] + in) & mask;
    }
    rtl::tick(m);
    for (size_t c = 0; c < std::size(kWidths); ++c) {
      if (want[c] && acc(m, c) != *want[c])
        rtl::fail("test_rubick_accum", cycle,
                  rtl::mismatch("acc_w" + std::to_string(kWidths[c]),
                                rtl::sext(acc(m, c), kWidths[c]), rtl::sext(*want[c], kWidths[c])));
    }
  }
  std::printf("test_rubick_accum: OK (%zu configurations, %d cycles)\n", std::size(kWidths),
              kCycles);
  return 0;
}
