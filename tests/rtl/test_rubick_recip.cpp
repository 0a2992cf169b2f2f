// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_recip.v (and of the division it makes with rubick_scale.v)
// against include/rubick/ref/Fixed.h, checked three ways.
//  1. Closed form: after rst, start sampled at edge 0 alone; the divider must be busy in
//     cycles 1..33 and done from cycle 34 on, with recip = reciprocal(b).
//  2. Random rst, start (also while busy, where it must be ignored) and b (often 0, 1, powers
//     of two and their neighbours, 2^32 - 1) against a C++ model of the handshake, cycle by
//     cycle; whenever done, recip = reciprocal(b as sampled at the accepted start).
//  3. Behind it, q = (a * recip + 2^31) >> 32 loaded while done must equal divide(a, b, 32),
//     the reference model's a / b for an int32 result (0 for b = 0).
#include "Vtb_rubick_recip.h"
#include "rtl_test.h"

#include "rubick/ref/Fixed.h"

namespace {

constexpr int kSteps = 33;
constexpr int kRandomCycles = 60000;
const char* kTest = "test_rubick_recip";

uint64_t pickDivisor(rtl::Rng& rng) {
  switch (rng.range(0, 5)) {
  case 0:
    return rng.range(0, 3);
  case 1: {
    uint64_t p = uint64_t{1} << rng.range(0, 31);
    return (p + static_cast<uint64_t>(rng.range(-1, 1))) & rtl::mask(32);
  }
  case 2:
    return rtl::mask(32) - static_cast<uint64_t>(rng.range(0, 2));
  default:
    return rng.bits(rng.range(1, 32));
  }
}

void checkRecip(const Vtb_rubick_recip& m, long cycle, uint64_t b) {
  uint64_t want = rubick::ref::reciprocal(b);
  if (m.recip != want)
    rtl::fail(kTest, cycle,
              rtl::mismatch("recip for b = " + std::to_string(b), std::to_string(m.recip),
                            std::to_string(want)));
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_recip m(ctx.get());
  rtl::Rng rng(31);
  long cycles = 0;

  m.clk = 0;
  m.a = 0;
  m.eval();

  // 1. Closed form, for a few divisors.
  for (uint64_t b : {uint64_t{1}, uint64_t{3}, uint64_t{65533}, uint64_t{0x80000000},
                     uint64_t{0xffffffff}, uint64_t{0}}) {
    m.rst = 1;
    m.start = 0;
    rtl::tick(m);
    m.rst = 0;
    m.start = 1;
    m.b = static_cast<uint32_t>(b);
    m.eval();
    rtl::tick(m); // edge 0
    m.start = 0;
    m.b = 0x5a5a5a5a; // the divider must have captured b
    for (int c = 1; c <= kSteps + 3; ++c) {
      m.eval();
      bool busy = c <= kSteps, done = c > kSteps;
      if (m.busy != busy || m.done != done)
        rtl::fail(kTest, cycles + c,
                  "closed form, b = " + std::to_string(b) + ", cycle " + std::to_string(c) +
                      ": busy=" + std::to_string(m.busy) + " done=" + std::to_string(m.done) +
                      ", expected busy=" + std::to_string(busy) + " done=" + std::to_string(done));
      if (done) checkRecip(m, cycles + c, b);
      rtl::tick(m);
    }
    cycles += kSteps + 5;
  }

  // 2 and 3. Random handshake against a model.
  bool busy = false, done = false;
  int left = 0;
  uint64_t captured = 0;
  bool qWanted = false;
  int64_t qWant = 0;
  long divisions = 0;
  m.rst = 1;
  m.start = 0;
  rtl::tick(m);
  m.rst = 0;
  for (long cycle = 0; cycle < kRandomCycles; ++cycle) {
    bool rst = rng.chance(0.002);
    bool start = rng.chance(busy ? 0.2 : 0.3);
    uint64_t b = pickDivisor(rng);
    int64_t a = rtl::sext(rng.edgy(32), 32);
    m.rst = rst;
    m.start = start;
    m.b = static_cast<uint32_t>(b);
    m.a = static_cast<uint32_t>(a);
    m.eval();
    // The division stage loads while done, from this cycle's a and recip.
    bool loads = m.done;
    int64_t loadWant = rubick::ref::divide(a, static_cast<int64_t>(captured), 32);
    // The model's edge.
    if (rst) {
      busy = false;
      done = false;
    } else if (!busy) {
      if (start) {
        busy = true;
        done = false;
        left = kSteps;
        captured = b;
      }
    } else if (left == 1) {
      busy = false;
      done = true;
    } else {
      --left;
    }
    rtl::tick(m);
    if (m.busy != busy || m.done != done)
      rtl::fail(kTest, cycle,
                "busy=" + std::to_string(m.busy) + " done=" + std::to_string(m.done) +
                    ", expected busy=" + std::to_string(busy) + " done=" + std::to_string(done));
    if (done) checkRecip(m, cycle, captured);
    if (m.q_valid != loads) rtl::fail(kTest, cycle, rtl::mismatch("q_valid", m.q_valid, loads));
    if (loads) {
      qWanted = true;
      qWant = loadWant;
      ++divisions;
    }
    if (qWanted && rtl::sext(m.q, 32) != qWant)
      rtl::fail(kTest, cycle, rtl::mismatch("q", rtl::sext(m.q, 32), qWant));
  }
  if (divisions < 1000) rtl::fail(kTest, 0, "too few divisions checked");
  std::printf("%s: OK (%ld random cycles, %ld divisions checked)\n", kTest, long(kRandomCycles),
              divisions);
  return 0;
}
