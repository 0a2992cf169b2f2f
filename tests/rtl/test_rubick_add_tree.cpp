// SPDX-License-Identifier: Apache-2.0
// Unit test of rtl_templates/rubick_add_tree.v: every configuration instantiated in
// tb_rubick_add_tree.v against a C++ model. The result seen in cycle c must be the reduction of
// the inputs of cycle c - DEPTH exactly, DEPTH = ceil(log2 N) (0 for N = 1: combinational), each
// input first brought to WO bits (sign-extended or truncated): their sum modulo 2**WO (OP 0),
// their signed maximum (OP 1) or their signed minimum (OP 2).
#include "Vtb_rubick_add_tree.h"
#include "rtl_test.h"

#include <deque>

namespace {

enum Group { kA, kB, kBig };

struct Config {
  const char* name;
  Group group;
  int n, wi, wo, depth;
  int op = 0; // 0 sum, 1 maximum, 2 minimum
};

// Must match tb_rubick_add_tree.v.
constexpr Config kConfigs[] = {
    {"a1", kA, 1, 16, 20, 0},
    {"a2", kA, 2, 16, 20, 1},
    {"a3", kA, 3, 16, 20, 2},
    {"a4", kA, 4, 16, 20, 2},
    {"a5", kA, 5, 16, 20, 3},
    {"a7", kA, 7, 16, 20, 3},
    {"a8", kA, 8, 16, 20, 3},
    {"a16", kA, 16, 16, 20, 4},
    {"b5", kB, 5, 3, 6, 3},
    {"b7", kB, 7, 8, 4, 3},
    {"b1", kB, 1, 8, 4, 0},
    {"b3", kB, 3, 1, 3, 2},
    {"big", kBig, 100, 4, 11, 7},
    {"max_a1", kA, 1, 16, 20, 0, 1},
    {"max_a2", kA, 2, 16, 20, 1, 1},
    {"max_a3", kA, 3, 16, 20, 2, 1},
    {"max_a16", kA, 16, 16, 20, 4, 1},
    {"max_b7", kB, 7, 8, 4, 3, 1},
    {"max_b5", kB, 5, 3, 6, 3, 1},
    {"max_b3", kB, 3, 1, 3, 2, 1},
    {"max_big", kBig, 100, 4, 4, 7, 1},
    {"min_a5", kA, 5, 16, 16, 3, 2},
    {"min_a16", kA, 16, 16, 20, 4, 2},
    {"min_b7", kB, 7, 8, 4, 3, 2},
    {"min_b1", kB, 1, 8, 4, 0, 2},
    {"min_b5", kB, 5, 3, 6, 3, 2},
    {"min_big", kBig, 100, 4, 11, 7, 2},
};
constexpr int kN = sizeof kConfigs / sizeof kConfigs[0];
constexpr int kCycles = 3000;
constexpr int kWidth[] = {256, 56, 400}; // in_a, in_b, in_big

uint64_t sum(const Vtb_rubick_add_tree& m, int c) {
  switch (c) {
  case 0:
    return m.sum_a1;
  case 1:
    return m.sum_a2;
  case 2:
    return m.sum_a3;
  case 3:
    return m.sum_a4;
  case 4:
    return m.sum_a5;
  case 5:
    return m.sum_a7;
  case 6:
    return m.sum_a8;
  case 7:
    return m.sum_a16;
  case 8:
    return m.sum_b5;
  case 9:
    return m.sum_b7;
  case 10:
    return m.sum_b1;
  case 11:
    return m.sum_b3;
  case 12:
    return m.sum_big;
  case 13:
    return m.max_a1;
  case 14:
    return m.max_a2;
  case 15:
    return m.max_a3;
  case 16:
    return m.max_a16;
  case 17:
    return m.max_b7;
  case 18:
    return m.max_b5;
  case 19:
    return m.max_b3;
  case 20:
    return m.max_big;
  case 21:
    return m.min_a5;
  case 22:
    return m.min_a16;
  case 23:
    return m.min_b7;
  case 24:
    return m.min_b1;
  case 25:
    return m.min_b5;
  default:
    return m.min_big;
  }
}

// Input vector of one cycle: random elements, often extreme (all most negative, all most
// positive) so that overflow and wrapping are exercised, or each element an edge case of its own
// (rtl::Rng::edgy: 0, 1, -1, the extremes of some width) so that maxima and minima meet them.
rtl::Value stimulus(rtl::Rng& rng, int width, int wi) {
  int mode = rng.range(0, 9);
  if (mode >= 4) return rng.value(width);
  rtl::Value e(width);
  for (int i = 0; i + wi <= width; i += wi) {
    uint64_t pattern = mode == 0   ? uint64_t{1} << (wi - 1) // min
                       : mode == 1 ? rtl::mask(wi - 1)       // max
                                   : rng.edgy(wi);
    for (int b = 0; b < wi; ++b)
      if ((pattern >> b) & 1) e.chunk[(i + b) / 64] |= uint64_t{1} << ((i + b) % 64);
  }
  return e;
}

uint64_t bitsOf(const rtl::Value& v, int lo, int w) {
  uint64_t r = 0;
  for (int b = 0; b < w; ++b)
    r |= ((v.chunk[(lo + b) / 64] >> ((lo + b) % 64)) & 1) << b;
  return r;
}

} // namespace

int main(int argc, char** argv) {
  auto ctx = rtl::makeContext(argc, argv);
  Vtb_rubick_add_tree m(ctx.get());
  rtl::Rng rng(2);
  // history[0] holds this cycle's inputs, history[d] those of d cycles ago.
  std::deque<rtl::Value> history[3];
  constexpr int kElementWidth[] = {16, 8, 4}; // element width the extreme patterns use

  m.clk = 0;
  m.eval();
  for (long cycle = 0; cycle < kCycles; ++cycle) {
    for (int g = 0; g < 3; ++g) {
      history[g].push_front(stimulus(rng, kWidth[g], kElementWidth[g]));
      if (history[g].size() > 16) history[g].pop_back();
    }
    rtl::put(m.in_a, history[kA][0]);
    rtl::put(m.in_b, history[kB][0]);
    rtl::put(m.in_big, history[kBig][0]);
    m.eval();

    for (int c = 0; c < kN; ++c) {
      const Config& cfg = kConfigs[c];
      if (cycle < cfg.depth) continue; // the pipeline still holds values from before cycle 0
      const rtl::Value& in = history[cfg.group][cfg.depth];
      int64_t want = 0;
      for (int i = 0; i < cfg.n; ++i) {
        int64_t x = rtl::sext(bitsOf(in, i * cfg.wi, cfg.wi), cfg.wi);
        // The input brought to WO bits: sign-extended, or truncated to its low WO bits.
        int64_t v = rtl::sext(static_cast<uint64_t>(x), cfg.wo);
        if (cfg.op == 0)
          want += x;
        else if (i == 0)
          want = v;
        else
          want = cfg.op == 1 ? std::max(want, v) : std::min(want, v);
      }
      uint64_t got = sum(m, c);
      if (got != (static_cast<uint64_t>(want) & rtl::mask(cfg.wo)))
        rtl::fail("test_rubick_add_tree", cycle,
                  rtl::mismatch(std::string(cfg.name) + ".sum", rtl::sext(got, cfg.wo),
                                rtl::sext(static_cast<uint64_t>(want), cfg.wo)));
    }
    rtl::tick(m);
  }
  std::printf("test_rubick_add_tree: OK (%d configurations, %d cycles)\n", kN, kCycles);
  return 0;
}
