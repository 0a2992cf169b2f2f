// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_clock_gate.v in tb_rubick_clock_gate.v: a counter on the
// gated clock advances exactly at the edges of clk that end a cycle whose enable (en or test_en)
// was high, and a register on the gated clock takes a register on clk's value from before the
// shared edge (as in hardware: no race between the domains). Sub-cycle, at the granularity
// Verilator evaluates: en and test_en change several times while clk is low (gclk stays low,
// no edge), while clk is high (the latch is closed: gclk follows clk, no extra edge, no early
// fall) and in the very evaluation of the rising edge (the value from before the edge counts:
// the latch's hold time met). Enables: random, in long runs, toggling every cycle, and the
// test_en bypass. What this cannot see: delays, i.e. a real glitch, the latch's setup and hold
// against clk, and the skew of gclk behind clk (timing analysis checks those on the library's
// cell).
#include "Vtb_rubick_clock_gate.h"
#include "rtl_test.h"

#include <string>

namespace {

using Vtb = Vtb_rubick_clock_gate;
const char* kTest = "test_rubick_clock_gate";

struct Bench {
  Vtb& m;
  long cycle = 0;
  long evals = 0, gclkRises = 0;
  bool lastGclk = false;

  // One evaluation; a rising edge of gclk seen here must be the one expected.
  void eval(bool edgeAllowed, const std::string& when) {
    m.eval();
    ++evals;
    const bool g = m.gclk;
    if (g && !lastGclk) {
      if (!edgeAllowed) rtl::fail(kTest, cycle, "a gclk edge " + when);
      ++gclkRises;
    }
    lastGclk = g;
  }
};

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb m(ctx.get());
  rtl::Rng rng(2028);
  Bench b{m};

  // Start with clk low and the enables moving, so that the latch has taken one.
  m.clk = 0;
  m.test_en = 0;
  m.en = 1;
  m.d = 0;
  b.eval(false, "at time 0");
  m.en = 0;
  b.eval(false, "at time 0");

  enum Mode { Random, Runs, Toggle, Test };
  long enabled = 0, sameTime = 0;
  bool runEn = false, prevEn = false;
  uint16_t count = m.count; // no reset: differences count
  bool qKnown = false;
  for (int seg = 0; seg < 200; ++seg) {
    const Mode mode = Mode(rng.range(0, 3));
    for (int i = 0; i < 250; ++i, ++b.cycle) {
      // clk low: the latch is transparent, the enables wander; gclk must stay low.
      for (int k = rng.range(0, 3); k > 0; --k) {
        m.en = rng.chance(0.5);
        m.test_en = rng.chance(0.2);
        b.eval(false, "while clk is low");
        if (m.gclk || m.count != count) rtl::fail(kTest, b.cycle, "gclk high while clk is low");
      }
      bool en = false, te = false;
      switch (mode) {
      case Random:
        en = rng.chance(0.5);
        break;
      case Runs:
        if (rng.chance(0.05)) runEn = !runEn;
        en = runEn;
        break;
      case Toggle:
        en = !prevEn;
        break;
      case Test:
        en = rng.chance(0.5);
        te = true;
        break;
      }
      prevEn = en;
      m.en = en;
      m.test_en = te;
      m.d = uint8_t(rng.bits(8));
      b.eval(false, "while clk is low");
      const bool expect = en || te;
      const uint8_t qBefore = m.q_clk, dNow = m.d;
      // The rising edge; sometimes en flips in the same evaluation (the old value must count).
      if (rng.chance(0.2)) {
        m.en = !en;
        ++sameTime;
      }
      m.clk = 1;
      b.eval(expect, "at a rising edge of clk ending a cycle with the enable low");
      if (bool(m.gclk) != expect) rtl::fail(kTest, b.cycle, rtl::mismatch("gclk", m.gclk, expect));
      count = uint16_t(count + expect);
      if (m.count != count) rtl::fail(kTest, b.cycle, rtl::mismatch("count", m.count, count));
      if (expect && qKnown && m.q_gated != qBefore)
        rtl::fail(
            kTest, b.cycle,
            rtl::mismatch("q_gated (the value q_clk had before the edge)", m.q_gated, qBefore));
      if (m.q_clk != dNow) rtl::fail(kTest, b.cycle, rtl::mismatch("q_clk", m.q_clk, dNow));
      qKnown = true; // q_clk is defined from the first edge of clk
      enabled += expect;
      // clk high: the latch is closed, the enables may do anything.
      for (int k = rng.range(0, 3); k > 0; --k) {
        m.en = rng.chance(0.5);
        m.test_en = rng.chance(0.2);
        b.eval(false, "while clk is high");
        if (bool(m.gclk) != expect || m.count != count)
          rtl::fail(kTest, b.cycle, "gclk moved while clk was high");
      }
      m.clk = 0;
      b.eval(false, "at a falling edge");
      if (m.gclk || m.count != count) rtl::fail(kTest, b.cycle, "gclk high after clk fell");
    }
  }
  if (b.gclkRises != enabled)
    rtl::fail(kTest, b.cycle, rtl::mismatch("gclk rising edges", b.gclkRises, enabled));
  std::printf("%s: OK (%ld cycles, %ld gated edges, %ld edges with en changing at the edge, "
              "%ld evaluations)\n",
              kTest, b.cycle, enabled, sameTime, b.evals);
  return 0;
}
