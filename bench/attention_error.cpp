// SPDX-License-Identifier: Apache-2.0
// Error of the fixed-point attention numerics (not a test: it prints figures). For random int8
// Q, K, V it compares the bit-exact model of the hardware, attentionFixed (one block of all keys,
// and the online algorithm over blocks of 16 keys), with attention in double precision on the
// same integers, attentionFloat. docs/attention-numerics.md shows and explains the table.
//
//   build/bench/attention_error                  exp_frac 12 (the default), seed 1
//   build/bench/attention_error --exp-frac 14 --seed 7
//
// Per row: L = S queries and keys, head dimension D, keys per block, over kHeads heads (one
// attentionFixed call each): the largest and mean |O - O_f|, in output units (O is a weighted
// average of V, so units of V), both relative to the range max(O_f) - min(O_f), and how often
// and by how much O differs from O_f rounded to the nearest integer (an integer output cannot
// do better than that; a mean error near 0.25 is that rounding alone).

#include "rubick/ref/Attention.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace rubick;

namespace {

constexpr int kHeads = 4;

std::vector<int64_t> randomInt8(size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int64_t> v(-128, 127);
  std::vector<int64_t> out(n);
  for (int64_t& x : out)
    x = v(rng);
  return out;
}

struct Errors {
  double maxAbs = 0, sumAbs = 0, lo = INFINITY, hi = -INFINITY;
  size_t count = 0;
  // Against the float result rounded to the nearest integer, the best an integer output can do.
  size_t offRounded = 0;
  double maxOffRounded = 0;
};

} // namespace

int main(int argc, char** argv) {
  int expFrac = 12;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--exp-frac") && i + 1 < argc) {
      expFrac = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: %s [--exp-frac F] [--seed N]\n", argv[0]);
      return 2;
    }
  }
  if (expFrac < 0 || expFrac > 24) {
    std::fprintf(stderr, "--exp-frac must be 0..24\n");
    return 2;
  }

  std::printf("attention: fixed point (bit-exact hardware model) vs double precision\n");
  std::printf("exp_frac=%d, seed=%llu, random int8 Q, K, V, %d heads per row\n\n", expFrac,
              static_cast<unsigned long long>(seed), kHeads);
  std::printf("| L=S | D | keys/block | max abs err | mean abs err | range of O_f | max/range "
              "| mean/range | O != round(O_f) | max abs(O - round(O_f)) |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int64_t d : {16, 64}) {
    for (int64_t s : {16, 32, 64, 128, 256}) {
      // Blocks of 16 keys, unless that is one block already.
      std::vector<int64_t> blocks{s};
      if (s > 16) blocks.push_back(16);
      for (int64_t block : blocks) {
        // The same data for both block sizes: the seed depends on the shape only.
        std::mt19937_64 rng(seed * 1000003 + uint64_t(s) * 131 + uint64_t(d));
        Errors e;
        for (int h = 0; h < kHeads; ++h) {
          auto q = randomInt8(s * d, rng), k = randomInt8(s * d, rng), v = randomInt8(s * d, rng);
          std::vector<int64_t> o = ref::attentionFixed(q, k, v, s, s, d, expFrac, block);
          std::vector<double> f = ref::attentionFloat(q, k, v, s, s, d, expFrac);
          for (size_t i = 0; i < o.size(); ++i) {
            double err = std::fabs(double(o[i]) - f[i]);
            e.maxAbs = std::max(e.maxAbs, err);
            e.sumAbs += err;
            double off = std::fabs(double(o[i]) - std::round(f[i]));
            e.offRounded += off != 0;
            e.maxOffRounded = std::max(e.maxOffRounded, off);
            e.lo = std::min(e.lo, f[i]);
            e.hi = std::max(e.hi, f[i]);
            ++e.count;
          }
        }
        const double mean = e.sumAbs / double(e.count), range = e.hi - e.lo;
        std::printf("| %lld | %lld | %s | %.3f | %.3f | %.1f | %.2f%% | %.3f%% | %.2f%% | %.0f |\n",
                    static_cast<long long>(s), static_cast<long long>(d),
                    block == s ? "all (1 block)" : "16", e.maxAbs, mean, range,
                    100 * e.maxAbs / range, 100 * mean / range,
                    100 * double(e.offRounded) / double(e.count), e.maxOffRounded);
      }
    }
  }
  return 0;
}
