// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/ChainPlan.h"

#include "rubick/arch/DramTiming.h"
#include "rubick/dse/Fusion.h"
#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

namespace rubick::arch {

const char* toString(ChainRole r) {
  switch (r) {
  case ChainRole::Output:
    return "output";
  case ChainRole::Intermediate:
    return "intermediate";
  case ChainRole::Input:
    return "input";
  }
  return "?";
}

namespace {

// `x` as the whole chain holds it: with tiles, a tensor a tile's plan moves with 1/tiles of
// `whole`'s rows gets them all and moves by tiles.
ChainTensor wholeTensor(const MovedTensor& x, const tc::Tensor& whole, int64_t tiles) {
  ChainTensor ct{x};
  if (x.shape == whole.shape) return ct;
  std::vector<int64_t> rows = x.shape;
  if (!rows.empty()) rows[0] *= tiles;
  if (tiles == 1 || rows != whole.shape)
    throw Unsupported("chain", "a tile of rows moves " + x.name + " other than by its rows (" +
                                   std::to_string(x.shape.empty() ? 0 : x.shape[0]) +
                                   " of its first dimension)");
  ct.tensor.shape = whole.shape;
  ct.tileBytes = static_cast<uint64_t>(tensorBytes(x));
  return ct;
}

} // namespace

ChainPlan chainPlan(const tc::Program& prog, const std::string& name,
                    std::vector<MemoryPlan> stages, const std::vector<dse::MemorySystem>& memories,
                    int64_t tiles) {
  ChainPlan c;
  c.name = name;
  c.tiles = tiles;
  // Every tensor some stage moves, with what it is to the chain.
  std::vector<int> written(prog.tensors.size(), 0);
  std::vector<const MovedTensor*> moved(prog.tensors.size(), nullptr);
  std::vector<std::vector<MovedTensor>> perStage;
  for (const MemoryPlan& m : stages)
    perStage.push_back(movedTensors(m));
  for (const std::vector<MovedTensor>& ts : perStage)
    for (const MovedTensor& x : ts) {
      const int t = prog.findTensor(x.name);
      if (t < 0) throw std::logic_error("chainPlan: a stage moves " + x.name + ", not a tensor");
      if (x.output) written[static_cast<size_t>(t)] = 1;
      if (!moved[static_cast<size_t>(t)] || x.output) moved[static_cast<size_t>(t)] = &x;
    }
  for (ChainRole role : {ChainRole::Output, ChainRole::Intermediate, ChainRole::Input})
    for (size_t t = 0; t < prog.tensors.size(); ++t) {
      if (!moved[t]) continue;
      const ChainRole r = !written[t] ? ChainRole::Input
                          : prog.tensors[t].role == tc::TensorRole::Output
                              ? ChainRole::Output
                              : ChainRole::Intermediate;
      if (r != role) continue;
      ChainTensor ct = wholeTensor(*moved[t], prog.tensors[t], tiles);
      ct.role = r;
      ct.programTensor = static_cast<int>(t);
      ct.tensor.output = r != ChainRole::Input;
      c.tensors.push_back(ct);
    }
  for (size_t k = 0; k < stages.size(); ++k) {
    ChainStagePlan s{std::move(stages[k]), memories.at(k), {}};
    for (const MovedTensor& x : perStage[k]) {
      const int t = prog.findTensor(x.name);
      for (size_t r = 0; r < c.tensors.size(); ++r)
        if (c.tensors[r].programTensor == t) s.registers.push_back(r);
      const ChainTensor& ct = c.tensors[s.registers.back()];
      const MovedTensor& held = ct.tensor;
      if (held.bits != x.bits ||
          (ct.tileBytes ? tensorBytes(x) != int64_t(ct.tileBytes) : held.shape != x.shape))
        throw Unsupported("chain", x.name + " is moved as " + std::to_string(x.bits) +
                                       "-bit elements by one stage and " +
                                       std::to_string(held.bits) + "-bit by another");
    }
    c.stages.push_back(std::move(s));
  }
  return c;
}

int64_t tensorBytes(const MovedTensor& t) {
  int64_t bytes = t.bits / 8;
  for (int64_t s : t.shape)
    bytes *= s;
  return bytes;
}

int64_t chipTensorBytes(const ChainTensor& t) {
  return t.tileBytes ? static_cast<int64_t>(t.tileBytes) : tensorBytes(t.tensor);
}

void placeOnChip(ChainPlan& c, int64_t budgetBytes, int64_t busBytes, int64_t addrBits,
                 const std::vector<size_t>& groupOf) {
  c.chipBytes = 0;
  c.chipSelectBit = addrBits - 1;
  // The one group of stages that touches each tensor (-1: stages of several groups).
  std::vector<int64_t> group(c.tensors.size(), -2);
  for (size_t k = 0; k < c.stages.size(); ++k) {
    const int64_t g = groupOf.empty() ? 0 : static_cast<int64_t>(groupOf.at(k));
    for (size_t r : c.stages[k].registers)
      group[r] = group[r] == -2 || group[r] == g ? g : -1;
  }
  std::map<int64_t, std::vector<int64_t>> placed; // group -> bytes of its tensors on chip
  for (size_t r = 0; r < c.tensors.size(); ++r) {
    ChainTensor& t = c.tensors[r];
    t.onChip = false;
    t.chipOffset = 0;
    if (t.role != ChainRole::Intermediate || group[r] < 0) continue;
    std::vector<int64_t> with = placed[group[r]];
    with.push_back(chipTensorBytes(t));
    const int64_t ram = dse::chipRamBytes(with, busBytes);
    // The RAM's bytes must fit the budget, and its addresses stay below the select bit.
    if (ram > budgetBytes || c.chipSelectBit < 1 || ram > (int64_t{1} << c.chipSelectBit)) continue;
    t.onChip = true;
    for (int64_t b : placed[group[r]])
      t.chipOffset += static_cast<uint64_t>((b + busBytes - 1) / busBytes * busBytes);
    placed[group[r]] = std::move(with);
    c.chipBytes = std::max(c.chipBytes, ram);
  }
}

uint64_t onChipAddress(const ChainPlan& c, size_t r) {
  return (uint64_t{1} << c.chipSelectBit) | c.tensors.at(r).chipOffset;
}

std::vector<MovedTensor> chainTensors(const ChainPlan& c) {
  std::vector<MovedTensor> ts;
  for (const ChainTensor& t : c.tensors)
    ts.push_back(t.tensor);
  return ts;
}

std::vector<MovedTensor> memoryTensors(const ChainPlan& c) {
  std::vector<MovedTensor> ts;
  for (const ChainTensor& t : c.tensors)
    if (!t.onChip) ts.push_back(t.tensor);
  return ts;
}

std::vector<int> baseRegisters(const ChainPlan& c) {
  std::vector<int> regs;
  int next = 0;
  for (const ChainTensor& t : c.tensors)
    regs.push_back(t.onChip ? -1 : next++);
  return regs;
}

std::vector<uint64_t> chainBases(const ChainPlan& c, const std::vector<uint64_t>& bases) {
  const std::vector<int> regs = baseRegisters(c);
  std::vector<uint64_t> all;
  for (size_t r = 0; r < c.tensors.size(); ++r)
    all.push_back(regs[r] < 0 ? onChipAddress(c, r) : bases.at(static_cast<size_t>(regs[r])));
  return all;
}

std::vector<uint64_t> stageBases(const ChainPlan& c, size_t k, const std::vector<uint64_t>& bases,
                                 int64_t tile) {
  std::vector<uint64_t> b;
  for (size_t r : c.stages[k].registers) {
    const ChainTensor& t = c.tensors[r];
    b.push_back(bases.at(r) + (t.onChip ? 0 : static_cast<uint64_t>(tile) * t.tileBytes));
  }
  return b;
}

ChainTiming chainTiming(const ChainPlan& c, const AxiOptions& o, const std::vector<uint64_t>& given,
                        const Dram* dram) {
  ChainTiming t;
  t.bases = given;
  if (t.bases.empty()) {
    uint64_t next = 4096;
    for (const ChainTensor& x : c.tensors) {
      t.bases.push_back(next);
      if (!x.onChip) next += (static_cast<uint64_t>(tensorBytes(x.tensor)) + 4095) / 4096 * 4096;
    }
  }
  if (t.bases.size() != c.tensors.size())
    throw Error("timing", std::to_string(t.bases.size()) + " base addresses for " +
                              std::to_string(c.tensors.size()) + " tensors");
  // The on-chip tensors are where the top puts them, whatever the host gives.
  for (size_t r = 0; r < c.tensors.size(); ++r)
    if (c.tensors[r].onChip) t.bases[r] = onChipAddress(c, r);
  std::optional<DramBanks> banks;
  if (dram) banks.emplace(*dram);
  for (int64_t tile = 0; tile < c.tiles; ++tile)
    for (size_t k = 0; k < c.stages.size(); ++k) {
      const ChainStagePlan& st = c.stages[k];
      const std::vector<uint64_t> bases = stageBases(c, k, t.bases, tile);
      OnChip chip;
      chip.latency = c.chipLatency;
      for (size_t r : st.registers)
        chip.tensors.push_back(c.tensors[r].onChip);
      t.stages.push_back(banks ? dramTiming(st.plan, o, st.memory, bases, *banks, chip)
                               : memoryTiming(st.plan, o, st.memory, bases, chip));
      t.cycles += t.stages.back().cycles + (t.stages.size() > 1 ? kChainHandoff : 0);
      // The next run's start is sampled in the cycle of this one's done pulse.
      if (banks) banks->shift(t.stages.back().cycles + kChainHandoff);
    }
  return t;
}

} // namespace rubick::arch
