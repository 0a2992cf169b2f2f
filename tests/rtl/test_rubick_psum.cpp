// Unit test of rtl_templates/rubick_psum.v: every width instantiated in tb_rubick_psum.v against
// a C++ model, cycle by cycle: sum_out <= sum_in + add, modulo 2**W.
#include "Vtb_rubick_psum.h"
#include "rtl_test.h"

namespace {

constexpr int kWidths[] = {20, 1, 64, 33}; // must match tb_rubick_psum.v
constexpr int kCycles = 20000;

uint64_t sumOut(const Vtb_rubick_psum& m, int c) {
  switch (c) {
  case 0:
    return m.sum_out_w20;
  case 1:
    return m.sum_out_w1;
  case 2:
    return m.sum_out_w64;
  default:
    return m.sum_out_w33;
  }
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_psum m(ctx.get());
  rtl::Rng rng(5);

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    uint64_t sum_in = rng.edgy(64), add = rng.edgy(64);
    m.sum_in = sum_in;
    m.add = add;
    m.eval();
    rtl::tick(m);
    for (size_t c = 0; c < std::size(kWidths); ++c) {
      uint64_t want = (sum_in + add) & rtl::mask(kWidths[c]);
      if (sumOut(m, c) != want)
        rtl::fail("test_rubick_psum", cycle,
                  rtl::mismatch("sum_out_w" + std::to_string(kWidths[c]),
                                rtl::sext(sumOut(m, c), kWidths[c]), rtl::sext(want, kWidths[c])));
    }
  }
  std::printf("test_rubick_psum: OK (%zu configurations, %d cycles)\n", std::size(kWidths),
              kCycles);
  return 0;
}
