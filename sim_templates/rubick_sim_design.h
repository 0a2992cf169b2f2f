// SPDX-License-Identifier: Apache-2.0
// rubick_sim_design.h: the tensors of design.json as both testbench cores (rubick_harness.cpp,
// rubick_mem_harness.cpp) read them. Header-only; `rubick verify` writes it beside them in the
// shared runtime.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rubick_sim {

struct Tensor {
  std::string name;
  bool output = false;
  int bits = 0;
  std::vector<int64_t> shape;
  // Host-port designs: per element (row-major) its places, (bank, address) each.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> places;
  // Memory designs: its BASE register and the bytes between its rows in memory.
  unsigned baseRegister = 0;
  uint64_t pitch = 0;
  uint64_t base = 0;           // memory designs: where this run puts it
  std::vector<int64_t> values; // from the stimulus: an input's values, an output's expected ones

  uint64_t elements() const {
    uint64_t n = 1;
    for (int64_t s : shape)
      n *= uint64_t(s);
    return n;
  }
  unsigned bytes() const { return unsigned(bits / 8); }
  uint64_t rows() const { return shape.size() < 2 ? 1 : elements() / uint64_t(shape.back()); }
  uint64_t footprint() const { return rows() * pitch; }
  // Byte address of element `lin` (row-major index) in memory.
  uint64_t address(uint64_t lin) const {
    const uint64_t cols = uint64_t(shape.back());
    return base + (lin / cols) * pitch + (lin % cols) * bytes();
  }
};

// design.json's "tensors": name, role, element bits and shape; each design kind's own fields
// (a host-port design's "elements", a memory design's "base_register" and "row_pitch_bytes")
// where present.
inline std::vector<Tensor> readDesign(const nlohmann::json& j) {
  std::vector<Tensor> ts;
  for (const auto& t : j["tensors"]) {
    Tensor x;
    x.name = t["name"];
    x.output = t["role"] == "output" || t["role"] == "intermediate"; // both written
    x.bits = t["element_bits"];
    x.shape = t["shape"].get<std::vector<int64_t>>();
    if (t.contains("elements"))
      for (const auto& e : t["elements"]) {
        std::vector<std::pair<uint32_t, uint32_t>> ps;
        for (const auto& p : e)
          ps.push_back({p[0].get<uint32_t>(), p[1].get<uint32_t>()});
        x.places.push_back(std::move(ps));
      }
    if (t.contains("base_register")) x.baseRegister = t["base_register"];
    if (t.contains("row_pitch_bytes")) x.pitch = t["row_pitch_bytes"];
    ts.push_back(std::move(x));
  }
  return ts;
}

} // namespace rubick_sim
