#include "rubick/arch/ChainPlan.h"

#include "rubick/arch/DramTiming.h"
#include <optional>

#include "rubick/support/Diagnostic.h"
#include "rubick/support/Unsupported.h"

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

ChainPlan chainPlan(const tc::Program& prog, const std::string& name,
                    std::vector<MemoryPlan> stages,
                    const std::vector<dse::MemorySystem>& memories) {
  ChainPlan c;
  c.name = name;
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
      ChainTensor ct{*moved[t], r, static_cast<int>(t)};
      ct.tensor.output = r != ChainRole::Input;
      c.tensors.push_back(ct);
    }
  for (size_t k = 0; k < stages.size(); ++k) {
    ChainStagePlan s{std::move(stages[k]), memories.at(k), {}};
    for (const MovedTensor& x : perStage[k]) {
      const int t = prog.findTensor(x.name);
      for (size_t r = 0; r < c.tensors.size(); ++r)
        if (c.tensors[r].programTensor == t) s.registers.push_back(r);
      const MovedTensor& held = c.tensors[s.registers.back()].tensor;
      if (held.bits != x.bits || held.shape != x.shape)
        throw Unsupported("chain", x.name + " is moved as " + std::to_string(x.bits) +
                                       "-bit elements by one stage and " +
                                       std::to_string(held.bits) + "-bit by another");
    }
    c.stages.push_back(std::move(s));
  }
  return c;
}

std::vector<MovedTensor> chainTensors(const ChainPlan& c) {
  std::vector<MovedTensor> ts;
  for (const ChainTensor& t : c.tensors)
    ts.push_back(t.tensor);
  return ts;
}

std::vector<uint64_t> stageBases(const ChainPlan& c, size_t k, const std::vector<uint64_t>& bases) {
  std::vector<uint64_t> b;
  for (size_t r : c.stages[k].registers)
    b.push_back(bases.at(r));
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
      int64_t bytes = x.tensor.bits / 8;
      for (int64_t s : x.tensor.shape)
        bytes *= s;
      next += (static_cast<uint64_t>(bytes) + 4095) / 4096 * 4096;
    }
  }
  if (t.bases.size() != c.tensors.size())
    throw Error("timing", std::to_string(t.bases.size()) + " base addresses for " +
                              std::to_string(c.tensors.size()) + " tensors");
  std::optional<DramBanks> banks;
  if (dram) banks.emplace(*dram);
  for (size_t k = 0; k < c.stages.size(); ++k) {
    const ChainStagePlan& st = c.stages[k];
    const std::vector<uint64_t> bases = stageBases(c, k, t.bases);
    t.stages.push_back(banks ? dramTiming(st.plan, o, st.memory, bases, *banks)
                             : memoryTiming(st.plan, o, st.memory, bases));
    t.cycles += t.stages.back().cycles + (k ? kChainHandoff : 0);
    // The next stage's start is sampled in the cycle of this one's done pulse.
    if (banks) banks->shift(t.stages.back().cycles + kChainHandoff);
  }
  return t;
}

} // namespace rubick::arch
