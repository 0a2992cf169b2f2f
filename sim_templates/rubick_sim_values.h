// SPDX-License-Identifier: Apache-2.0
// rubick_sim_values.h: what both testbench cores (rubick_harness.cpp, rubick_mem_harness.cpp)
// do with values: wrap to a width, name an element, read the stimulus file. Header-only,
// standard C++; `rubick verify` writes it beside them in the shared runtime.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace rubick_sim {

// `v` as a two's-complement integer of `bits` bits, sign-extended.
inline int64_t wrap(int64_t v, int bits) {
  if (bits >= 64) return v;
  const uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (u >> (bits - 1)) u |= ~mask;
  return int64_t(u);
}

// "C[2][3]" for row-major index `lin` of tensor `name` with `shape`.
inline std::string indexText(const std::string& name, const std::vector<int64_t>& shape,
                             uint64_t lin) {
  std::string s;
  for (size_t r = shape.size(); r-- > 0;) {
    s = "[" + std::to_string(lin % uint64_t(shape[r])) + "]" + s;
    lin /= uint64_t(shape[r]);
  }
  return name + s;
}

// The stimulus: "rubick-stimulus 1", then per tensor "tensor SELECT COUNT" (an input),
// "initial SELECT COUNT" (the start values of an output that `+=` adds to) or "expect SELECT
// COUNT" (an output's expected values) and COUNT values, row-major. values[s] receives tensor
// s's, initial[s] its start values (only where `initial` is given); COUNT must be counts[s].
// False (with a message) when it does not match.
inline bool readStimulus(const char* path, const std::vector<size_t>& counts,
                         std::vector<std::vector<int64_t>>& values,
                         std::vector<std::vector<int64_t>>* initial = nullptr) {
  std::ifstream st(path);
  std::string word;
  st >> word; // rubick-stimulus
  int version = 0;
  st >> version;
  values.resize(counts.size());
  if (initial) initial->resize(counts.size());
  while (st >> word) {
    size_t sel = 0, count = 0;
    st >> sel >> count;
    if (sel >= counts.size() || count != counts[sel]) {
      std::fprintf(stderr, "stimulus does not match design.json (tensor %zu)\n", sel);
      return false;
    }
    if (word == "initial" && !initial) {
      std::fprintf(stderr, "stimulus: this testbench takes no start values (tensor %zu)\n", sel);
      return false;
    }
    std::vector<int64_t>& into = word == "initial" ? (*initial)[sel] : values[sel];
    into.resize(count);
    for (int64_t& v : into)
      st >> v;
  }
  return true;
}

} // namespace rubick_sim
