// SPDX-License-Identifier: Apache-2.0
// Shared helpers for the Verilator unit tests of rtl_templates/: bit-exact values of any width,
// port access for scalar and wide (VlWide) ports, clocking, stimuli and failure reporting.
#pragma once

#include "verilated.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace rtl {

inline uint64_t mask(int w) {
  return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}

// Two's complement value of the low w bits of v (1 <= w <= 64).
inline int64_t sext(uint64_t v, int w) {
  v &= mask(w);
  if (w < 64 && ((v >> (w - 1)) & 1)) v |= ~mask(w);
  return static_cast<int64_t>(v);
}

// An unsigned value of any width, 64 bits per chunk, little-endian; unused bits are zero.
struct Value {
  int width = 0;
  std::vector<uint64_t> chunk;

  Value() = default;
  explicit Value(int w, uint64_t low = 0) : width(w), chunk((w + 63) / 64, 0) {
    chunk[0] = low;
    trim();
  }
  void trim() {
    if (width % 64) chunk.back() &= mask(width % 64);
    if (width < 64) chunk[0] &= mask(width);
  }
  // The low w bits (w <= width).
  Value low(int w) const {
    Value v(w);
    for (size_t i = 0; i < v.chunk.size(); ++i)
      v.chunk[i] = chunk[i];
    v.trim();
    return v;
  }
  bool operator==(const Value& o) const { return width == o.width && chunk == o.chunk; }
  bool operator!=(const Value& o) const { return !(*this == o); }
  std::string hex() const {
    std::ostringstream s;
    s << width << "'h";
    char buf[17];
    for (size_t i = chunk.size(); i-- > 0;) {
      std::snprintf(buf, sizeof buf, i + 1 == chunk.size() ? "%llx" : "%016llx",
                    static_cast<unsigned long long>(chunk[i]));
      s << buf;
    }
    return s.str();
  }
};

// Bits [lo, lo + w) of a port (w <= 64).
template <class T>
uint64_t getBits(const T& port, int lo, int w) {
  return (static_cast<uint64_t>(port) >> lo) & mask(w);
}
template <std::size_t N>
uint64_t getBits(const VlWide<N>& port, int lo, int w) {
  uint64_t v = 0;
  for (int b = 0; b < w; ++b) {
    int bit = lo + b;
    v |= static_cast<uint64_t>((port.at(bit / 32) >> (bit % 32)) & 1) << b;
  }
  return v;
}

template <class T>
void setBits(T& port, int lo, int w, uint64_t v) {
  uint64_t m = mask(w) << lo;
  uint64_t p = (static_cast<uint64_t>(port) & ~m) | ((v << lo) & m);
  port = static_cast<T>(p);
}
template <std::size_t N>
void setBits(VlWide<N>& port, int lo, int w, uint64_t v) {
  for (int b = 0; b < w; ++b) {
    int bit = lo + b;
    uint32_t one = uint32_t{1} << (bit % 32);
    if ((v >> b) & 1)
      port.at(bit / 32) |= one;
    else
      port.at(bit / 32) &= ~one;
  }
}

// Whole ports as Values.
template <class T>
Value get(const T& port, int w) {
  Value v(w);
  for (int lo = 0; lo < w; lo += 64)
    v.chunk[lo / 64] = getBits(port, lo, std::min(64, w - lo));
  return v;
}
template <class T>
void put(T& port, const Value& v) {
  for (int lo = 0; lo < v.width; lo += 64)
    setBits(port, lo, std::min(64, v.width - lo), v.chunk[lo / 64]);
}

// Whole ports as Values; wide ports 32 bits at a time.
template <class T>
Value getV(const T& p, int w) {
  return get(p, w);
}
template <std::size_t N>
Value getV(const VlWide<N>& p, int w) {
  Value v(w);
  for (int i = 0; i < (w + 31) / 32; ++i)
    v.chunk[size_t(i / 2)] |= uint64_t(p.at(size_t(i))) << (32 * (i % 2));
  v.trim();
  return v;
}
template <class T>
void putV(T& p, const Value& v) {
  put(p, v);
}
template <std::size_t N>
void putV(VlWide<N>& p, const Value& v) {
  for (int i = 0; i < (v.width + 31) / 32; ++i)
    p.at(size_t(i)) = uint32_t(v.chunk[size_t(i / 2)] >> (32 * (i % 2)));
}

// Bits [lo, lo + w) of a Value (w <= 64), and setting them.
inline uint64_t fld(const Value& v, int lo, int w) {
  const size_t c = size_t(lo / 64);
  const int o = lo % 64;
  uint64_t r = v.chunk[c] >> o;
  if (o && o + w > 64 && c + 1 < v.chunk.size()) r |= v.chunk[c + 1] << (64 - o);
  return r & mask(w);
}
inline void setFld(Value& v, int lo, int w, uint64_t x) {
  x &= mask(w);
  const size_t c = size_t(lo / 64);
  const int o = lo % 64;
  v.chunk[c] = (v.chunk[c] & ~(mask(w) << o)) | (x << o);
  if (o && o + w > 64) {
    const int hi = o + w - 64;
    v.chunk[c + 1] = (v.chunk[c + 1] & ~mask(hi)) | (x >> (64 - o));
  }
}
inline bool bit(const Value& v, int i) {
  return fld(v, i, 1) != 0;
}

// A test top's ports by number, set and read as Values: for tests that drive and check every
// pin of several instances through one table. RTL_PIN_ENTRY(table, Model, prefix, n) makes the
// entry of port `prefix_n` under number `n` (an enumerator of the same name).
template <class M, std::size_t N>
struct PinTable {
  std::array<std::function<void(M&, const Value&)>, N> set;
  std::array<std::function<Value(M&, int)>, N> get;
};
#define RTL_PIN_ENTRY(table, M, P, n)                                                              \
  table.set[n] = [](M& m, const rtl::Value& v) { rtl::putV(m.P##_##n, v); };                       \
  table.get[n] = [](M& m, int w) { return rtl::getV(m.P##_##n, w); };

// Deterministic stimuli.
class Rng {
public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint64_t bits(int w) { return gen_() & mask(w); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(gen_) < p; }
  int range(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen_); }
  Value value(int w) {
    Value v(w);
    for (auto& c : v.chunk)
      c = gen_();
    v.trim();
    return v;
  }
  // A w-bit pattern that is often an edge case: 0, 1, -1, the most negative or most positive
  // value of some width <= w (sign-extended to w bits), otherwise uniform.
  uint64_t edgy(int w) {
    if (!chance(0.4)) return bits(w);
    int k = range(1, w);
    switch (range(0, 4)) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return mask(w);
    case 3:
      return static_cast<uint64_t>(sext(uint64_t{1} << (k - 1), k)) & mask(w); // min of k
    default:
      return mask(k - 1); // max of k
    }
  }

private:
  std::mt19937_64 gen_;
};

// Reports the first mismatch and ends the test with a non-zero status.
[[noreturn]] inline void fail(const std::string& test, long cycle, const std::string& what) {
  std::fprintf(stderr, "%s: FAIL at cycle %ld: %s\n", test.c_str(), cycle, what.c_str());
  std::exit(1);
}

inline std::string mismatch(const std::string& signal, const std::string& got,
                            const std::string& want) {
  return signal + " = " + got + ", expected " + want;
}
inline std::string mismatch(const std::string& signal, int64_t got, int64_t want) {
  return mismatch(signal, std::to_string(got), std::to_string(want));
}

// A context whose registers without reset start random (with --x-initial unique), so a test
// cannot pass by relying on simulators starting at 0.
inline std::unique_ptr<VerilatedContext> makeContext(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  ctx->randReset(2);
  ctx->randSeed(12345);
  return ctx;
}

// One clock cycle: rising edge, then falling edge; inputs change while clk is low.
template <class M>
void tick(M& m) {
  m.clk = 1;
  m.eval();
  m.clk = 0;
  m.eval();
}

// a and b meeting under a reduction operator (0: sum modulo 2**w, 1: the signed maximum, 2: the
// signed minimum), as w-bit values; the result in the low w bits.
inline uint64_t fold(int op, int w, uint64_t a, uint64_t b) {
  const int64_t sa = sext(a, w), sb = sext(b, w);
  switch (op) {
  case 0:
    return (a + b) & mask(w);
  case 1:
    return static_cast<uint64_t>(std::max(sa, sb)) & mask(w);
  default:
    return static_cast<uint64_t>(std::min(sa, sb)) & mask(w);
  }
}

// A 64-bit stimulus: Rng::edgy, or often (15%) the most negative or most positive value of one
// of `widths` (sign-extended), so that every instance sees its type's extremes.
template <typename Rng, size_t N>
uint64_t extremeStimulus(Rng& rng, const int (&widths)[N]) {
  if (!rng.chance(0.15)) return rng.edgy(64);
  const int w = widths[rng.range(0, static_cast<int>(N) - 1)];
  const uint64_t extreme = rng.chance(0.5) ? uint64_t{1} << (w - 1) : mask(w - 1);
  return static_cast<uint64_t>(sext(extreme, w));
}

} // namespace rtl
