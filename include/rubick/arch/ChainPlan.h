#pragma once
// A chain of stages built as hardware (docs/fusion.md, "Chains as hardware"): each stage a
// memory design (MemoryPlan) run one after another by the chain's top, every stage's result in
// memory for the stages after it to read. The chain's tensors, its base registers, and its
// exact cycles.

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/Dram.h"
#include "rubick/arch/MemoryPlan.h"
#include "rubick/arch/MemoryTiming.h"
#include "rubick/frontend/Program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rubick::arch {

enum class ChainRole { Output, Intermediate, Input };
const char* toString(ChainRole r);

struct ChainTensor {
  MovedTensor tensor;
  ChainRole role = ChainRole::Input;
  int programTensor = -1;
};

struct ChainStagePlan {
  MemoryPlan plan;
  dse::MemorySystem memory; // as the stage was explored (an epilogue's additions included)
  std::vector<size_t>
      registers; // per tensor the stage moves (its base-register order): the chain's
};

struct ChainPlan {
  std::string name;                 // the chain top is `<name>_top`
  std::vector<ChainTensor> tensors; // base-register order: outputs, intermediates, inputs
  std::vector<ChainStagePlan> stages;
};

/// The chain `name` of `prog` from its stages' plans (in order; their tensors named as the
/// program's). A program output is an output, another tensor a stage writes an intermediate,
/// the rest inputs; each group in the program's tensor order. `memories`: each stage's memory
/// system. Throws Unsupported when two stages move a tensor at different widths.
ChainPlan chainPlan(const tc::Program& prog, const std::string& name,
                    std::vector<MemoryPlan> stages, const std::vector<dse::MemorySystem>& memories);

/// The chain's tensors in base-register order.
std::vector<MovedTensor> chainTensors(const ChainPlan& c);

/// Stage `k`'s base addresses, picked from the chain's.
std::vector<uint64_t> stageBases(const ChainPlan& c, size_t k, const std::vector<uint64_t>& bases);

/// Cycles between one stage's done and the next stage's first busy cycle: the next stage is
/// started by the done pulse, in which neither is busy (rubick_buf_seq's start and done).
inline constexpr int64_t kChainHandoff = 1;

struct ChainTiming {
  int64_t cycles = 0;               // the chain's CYCLES register (with a DRAM: its prediction)
  std::vector<MemoryTiming> stages; // each stage's run
  std::vector<uint64_t> bases;      // the chain's base addresses assumed
};

/// The chain's cycles with its tensors at `bases` (empty: one after the other from 4 KiB at
/// multiples of 4 KiB): every stage's memoryTiming on its memory, plus kChainHandoff between
/// stages. With `dram`, every stage's dramTiming instead, each from the banks the stage before
/// it left open (the memory is one across the run; the first stage's are closed).
ChainTiming chainTiming(const ChainPlan& c, const AxiOptions& o,
                        const std::vector<uint64_t>& bases = {}, const Dram* dram = nullptr);

} // namespace rubick::arch
