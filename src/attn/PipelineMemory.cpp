// SPDX-License-Identifier: Apache-2.0
// The attention pipeline's memory plan (see PipelineMemory.h).

#include "rubick/attn/PipelineMemory.h"

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/HostMap.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>
#include <stdexcept>

namespace rubick::attn {

namespace {

// Loops of the pipeline's buffer tiling: the query row, the key, the head dimension and the
// value dimension. Only the key has several tiles (the blocks).
enum Loop { kI = 0, kJ = 1, kD = 2, kE = 3 };

// A tile held row-major in `banks` banks: element x at word x / banks of bank x mod banks.
arch::TensorMap flatLayout(const std::vector<int64_t>& tile, int64_t banks) {
  arch::TensorMap m;
  m.shape = tile;
  int64_t n = 1;
  for (int64_t s : tile)
    n *= s;
  for (int64_t x = 0; x < n; ++x)
    m.elements.push_back({{static_cast<int>(x % banks), x / banks}});
  return m;
}

} // namespace

std::string pipelineMemoryProblem(const tc::Program& prog, const AttentionForm& f) {
  if (f.multiHead)
    return "multi-head attention with an external memory is not built yet (its tensors have "
           "three dimensions; the DMA moves tiles of matrices): give one head";
  for (int t : {f.o, f.q, f.k, f.v}) {
    const tc::Tensor& x = prog.tensors[size_t(t)];
    if (tc::bitWidth(x.type) % 8 != 0)
      return x.name + " has " + std::to_string(tc::bitWidth(x.type)) +
             "-bit elements; the DMA moves whole bytes";
  }
  return "";
}

arch::MemoryPlan pipelineMemoryPlan(const tc::Program& prog, const AttentionForm& f,
                                    int64_t blockKeys, const dse::MemorySystem& mem,
                                    const std::string& name) {
  if (std::string why = pipelineMemoryProblem(prog, f); !why.empty())
    throw Unsupported("attention", why);
  const int64_t blocks = (f.s + blockKeys - 1) / blockKeys;
  const int64_t busBytes = arch::axiOptions(mem).busBytes;
  arch::MemoryPlan m;
  m.tiling.size = {f.l, blockKeys, f.d, f.dv};
  m.tileCount = {1, blocks, 1, 1};
  if (blocks > 1) m.tiling.order = {kJ};
  m.core.name = name;
  m.core.statement = "the fused attention pipeline of " + prog.name;
  // Per tensor: its loops per dimension (in the declared order: Kt(d, j) has the key second).
  struct Role {
    int tensor;
    std::vector<int> loops;
  };
  const std::vector<Role> roles = {
      {f.o, {kI, kE}},
      {f.q, f.queryDim == 0 ? std::vector<int>{kI, kD} : std::vector<int>{kD, kI}},
      {f.k, f.keyDimK == 0 ? std::vector<int>{kJ, kD} : std::vector<int>{kD, kJ}},
      {f.v, f.keyDimV == 0 ? std::vector<int>{kJ, kE} : std::vector<int>{kE, kJ}}};
  for (size_t r = 0; r < roles.size(); ++r) {
    const tc::Tensor& x = prog.tensors[size_t(roles[r].tensor)];
    const int64_t bits = tc::bitWidth(x.type);
    const std::vector<int>& loops = roles[r].loops;
    arch::TensorTransfer t;
    t.access = r;
    t.shape = x.shape;
    for (int l : loops)
      t.tile.push_back(m.tiling.size[size_t(l)]);
    // Its box: a matrix tile, rows and columns its two dimensions.
    dataflow::AccessView a;
    a.name = x.name;
    a.shape = x.shape;
    a.constant.assign(loops.size(), 0);
    for (int l : loops) {
      a.coeffs.push_back(IntVec(m.tiling.size.size(), 0));
      a.coeffs.back()[size_t(l)] = 1;
    }
    const std::vector<int64_t> extent = {f.l, f.s, f.d, f.dv};
    std::string why;
    std::optional<dse::TileBox> box = dse::tileBox(a, extent, m.tiling.size, 0, why);
    if (!box) throw std::logic_error("attention: a tile that is not a box: " + why);
    t.box = *box;
    const bool blocked = std::find(loops.begin(), loops.end(), kJ) != loops.end();
    if (blocks > 1) {
      t.indexedBy = {char(blocked)};
      t.revisits = {0};
    }
    // The tile row-major in G banks, a bus word's elements, so that the engines move up to a
    // bus word a cycle; fewer when no DMA map of at most kMaxCells cells has them (a row length
    // prime to a wide bus repeats its bank pattern only after G rows), down to one bank, which
    // always has one.
    int64_t banks = std::max<int64_t>(1, busBytes / (bits / 8));
    std::optional<arch::DmaMap> d;
    for (;; banks /= 2) {
      std::string why;
      d = arch::deriveDmaMap(flatLayout(t.tile, banks), banks, why);
      if (d) break;
      if (banks == 1)
        throw std::logic_error("attention: a one-bank buffer without a DMA map: " + why);
    }
    t.dma = *d;
    arch::TensorPlan p;
    p.name = x.name;
    p.id = "t" + std::to_string(r) + "_" + x.name;
    p.access = r;
    p.output = r == 0;
    p.elementBits = bits;
    p.wireBits = bits;
    for (int64_t b = 0; b < banks; ++b)
      p.ports.push_back({0, b});
    p.depth = (t.tile[0] * t.tile[1] + banks - 1) / banks;
    p.addressBits = arch::bitsFor(p.depth);
    m.core.tensors.push_back(std::move(p));
    m.tensors.push_back(std::move(t));
  }
  return m;
}

std::vector<int64_t> pipelineStepCycles(const PipelineTiming& t) {
  std::vector<int64_t> out;
  for (int64_t b = 0; b < t.blocks; ++b)
    out.push_back((b == 0 ? t.query : 0) + t.perBlock() + (b + 1 == t.blocks ? t.normalise : 0) +
                  1);
  return out;
}

int64_t memoryBufferBytes(const arch::MemoryPlan& m) {
  int64_t bytes = 0;
  for (const arch::TensorPlan& t : m.core.tensors)
    bytes += 2 * (int64_t(1) << t.addressBits) * int64_t(t.ports.size()) * (t.elementBits / 8);
  return bytes;
}

arch::MemoryPlan withSteps(arch::MemoryPlan m, const PipelineTiming& t) {
  m.stepCycles = pipelineStepCycles(t);
  return m;
}

} // namespace rubick::attn
