// SPDX-License-Identifier: Apache-2.0
// The DMA maps of real designs that the test top tb_rubick_dma_scatter.v is built with: each is
// derived here again (rubick_lib: explore, plan, host map, arch::deriveDmaMap), so the test can
// assert that the parameters compiled into the top are still what rubick derives.
#pragma once

#include "rubick/arch/DmaMap.h"
#include "rubick/arch/HostMap.h"
#include "rubick/arch/Plan.h"
#include "rubick/dse/Explore.h"
#include "rubick/frontend/Parser.h"
#include "rubick/frontend/Sema.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace dma {

struct MapCase {
  std::string name; // prefix of the instance's ports in the test top
  std::string what;
  rubick::arch::DmaMap map;
  rubick::arch::TensorMap host;
  int64_t banks = 0, addressBits = 0;
};

inline rubick::tc::Program program(const std::string& text,
                                   std::vector<std::pair<std::string, int64_t>> sizes) {
  auto file = std::make_shared<const rubick::SourceFile>("t.tc", text);
  rubick::tc::SemaOptions o;
  for (auto& [n, v] : sizes)
    o.sizes.push_back({n, v, {}});
  return rubick::tc::analyze(rubick::tc::parse(file), file, o);
}

// The map of tensor `tensor` in design `id` of the sweep of `prog` over `arrays` (8-bit inputs,
// 32-bit outputs, as in tests/unit/arch_dma_map_test.cpp).
inline MapCase designMap(const std::string& name, const rubick::tc::Program& prog,
                         std::vector<rubick::dse::ArrayShape> arrays, const std::string& id,
                         const std::string& tensor) {
  using namespace rubick;
  dataflow::StatementView v = dataflow::viewStatement(prog, 0);
  dse::ExploreOptions o;
  o.constraints.arrays = std::move(arrays);
  for (const dataflow::AccessView& a : v.accesses)
    o.constraints.elementBits.push_back(a.write ? 32 : 8);
  dse::ExploreResult r = dse::explore(v, o);
  for (const dse::DesignPoint& pt : r.points) {
    if (pt.id != id) continue;
    arch::Plan plan =
        arch::makePlan(prog, v, pt.dataflow, pt.entries, o.constraints.elementBits, "d");
    std::vector<arch::TensorMap> maps = arch::hostMap(prog, v, pt.dataflow, plan);
    for (size_t t = 0; t < maps.size(); ++t) {
      if (plan.tensors[t].name != tensor) continue;
      const int64_t banks = static_cast<int64_t>(plan.tensors[t].ports.size());
      std::string why;
      std::optional<arch::DmaMap> d = arch::deriveDmaMap(maps[t], banks, why);
      if (!d) throw std::runtime_error(name + ": no DMA map: " + why);
      return {name,  "design " + id + " tensor " + tensor, *d, maps[t],
              banks, plan.tensors[t].addressBits};
    }
  }
  throw std::runtime_error(name + ": design " + id + " tensor " + tensor + " not found");
}

// No design of the sweeps above gives an input element two places, so this map is made up:
// a 5 x 5 tile in 4 banks, element (r, c) in bank c mod 2 at 3r + c/2 and in bank
// 2 + (r + c) mod 2 at 20 + 3r + c/2 (copies 2, a row period of 2, a short last group).
inline MapCase twoCopies() {
  rubick::arch::TensorMap m;
  m.shape = {5, 5};
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 5; ++c)
      m.elements.push_back({{c % 2, 3 * r + c / 2}, {2 + (r + c) % 2, 20 + 3 * r + c / 2}});
  std::string why;
  std::optional<rubick::arch::DmaMap> d = rubick::arch::deriveDmaMap(m, 4, why);
  if (!d) throw std::runtime_error("two copies: no DMA map: " + why);
  return {"cp", "made-up host map with two copies of every element", *d, m, 4, 6};
}

inline const char* kGemm =
    "def gemm(int8(M,K) A, int8(K,N) B) -> (C) { C(i,j) +=! A(i,k) * B(k,j) }";
inline const char* kConv = "def conv2d(int8(N,C,H,W) I, int8(F,C,R,S) Wt) -> (O) {"
                           " O(n,f,h,w) +=! I(n,c,h + r,w + s) * Wt(f,c,r,s) }";

// The instances of tb_rubick_dma_scatter.v, in order.
inline std::vector<MapCase> scatterCases() {
  std::vector<MapCase> out;
  const rubick::tc::Program gemm16 = program(kGemm, {{"M", 16}, {"N", 16}, {"K", 16}});
  out.push_back(designMap("rl", gemm16, {{4, 4}}, "03eb61985255a623", "A"));
  out.push_back(designMap("r3", gemm16, {{4, 4}}, "c64c8775c7be3ef2", "A"));
  const rubick::tc::Program gemm675 = program(kGemm, {{"M", 6}, {"N", 5}, {"K", 7}});
  out.push_back(designMap("c3", gemm675, {{4, 4}, {3, 2}}, "a269509ecb82c992", "B"));
  const rubick::tc::Program conv =
      program(kConv, {{"N", 1}, {"C", 2}, {"H", 6}, {"W", 6}, {"F", 2}, {"R", 3}, {"S", 3}});
  out.push_back(designMap("cv", conv, {{4, 4}}, "36c5011e58093aa7", "Wt"));
  out.push_back(designMap("rn", conv, {{4, 4}}, "1646d8cc2d004fcf", "Wt"));
  out.push_back(twoCopies());
  return out;
}

} // namespace dma
