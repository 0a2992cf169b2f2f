// SPDX-License-Identifier: Apache-2.0
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
  bool onChip = false;     // an intermediate in the chain's on-chip RAM (placeOnChip)
  uint64_t chipOffset = 0; // its byte offset there
  // With tiles of rows: the bytes of one tile's rows, by which its stages' base moves from one
  // tile to the next (0: a tensor every tile reads whole, such as a weight). `tensor` has the
  // whole tensor's shape; on chip only one tile is held.
  uint64_t tileBytes = 0;
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
  // The on-chip RAM of the intermediates placeOnChip put there (0 bytes: none): its size, its
  // latency (rtl_templates/rubick_scratch.v) and the address bit that selects it.
  int64_t chipBytes = 0, chipLatency = 2, chipSelectBit = 31;
  // The stages run `tiles` times in turn, each time on the next tile of rows (stage plans are
  // for one tile).
  int64_t tiles = 1;
};

/// The chain `name` of `prog` from its stages' plans (in order; their tensors named as the
/// program's). A program output is an output, another tensor a stage writes an intermediate,
/// the rest inputs; each group in the program's tensor order. `memories`: each stage's memory
/// system. With `tiles` > 1 the plans are for one tile of rows: a tensor they move with 1/tiles
/// of `prog`'s rows (its first dimension) moves by tiles, any other must have its shape in
/// `prog`. Throws Unsupported when two stages move a tensor at different widths.
ChainPlan chainPlan(const tc::Program& prog, const std::string& name,
                    std::vector<MemoryPlan> stages, const std::vector<dse::MemorySystem>& memories,
                    int64_t tiles = 1);

/// A tensor's bytes in memory (its shape, whole elements of its width).
int64_t tensorBytes(const MovedTensor& t);

/// The bytes a chain tensor takes on chip: one tile's rows when it moves by tiles.
int64_t chipTensorBytes(const ChainTensor& t);

/// Keeps intermediates in an on-chip RAM of at most `budgetBytes` instead of memory. The
/// stages run in groups (`groupOf`: each stage's group, consecutive; empty: one group), and an
/// intermediate that only the stages of one group touch is placed for that group: in
/// base-register order, each while its group's RAM still fits (dse::chipRamBytes: a power of
/// two of `busBytes` words, each tensor at an offset aligned to `busBytes`). A group's
/// intermediates start at offset 0 (the groups run one after another, so they share the RAM);
/// the RAM is the largest group's. The stages address it with bit `addrBits - 1` set
/// (onChipAddress), so the host's tensors must lie below it.
void placeOnChip(ChainPlan& c, int64_t budgetBytes, int64_t busBytes, int64_t addrBits,
                 const std::vector<size_t>& groupOf = {});

/// Where the stages find on-chip tensor `r`: the select bit and its offset.
uint64_t onChipAddress(const ChainPlan& c, size_t r);

/// The chain's tensors in order (outputs, intermediates, inputs), on chip or not.
std::vector<MovedTensor> chainTensors(const ChainPlan& c);

/// The tensors in memory, in base-register order (the host's registers: the chain's tensors
/// without the on-chip ones), and each chain tensor's register (-1: on chip).
std::vector<MovedTensor> memoryTensors(const ChainPlan& c);
std::vector<int> baseRegisters(const ChainPlan& c);

/// Every chain tensor's address from the memory tensors' `bases` (base-register order): the
/// on-chip ones at onChipAddress.
std::vector<uint64_t> chainBases(const ChainPlan& c, const std::vector<uint64_t>& bases);

/// Stage `k`'s base addresses in tile `tile`, picked from the chain's: a tensor in memory that
/// moves by tiles `tile` times its tileBytes further.
std::vector<uint64_t> stageBases(const ChainPlan& c, size_t k, const std::vector<uint64_t>& bases,
                                 int64_t tile = 0);

/// Cycles between one stage's done and the next stage's first busy cycle: the next stage is
/// started by the done pulse, in which neither is busy (rubick_buf_seq's start and done).
inline constexpr int64_t kChainHandoff = 1;

struct ChainTiming {
  int64_t cycles = 0;               // the chain's CYCLES register (with a DRAM: its prediction)
  std::vector<MemoryTiming> stages; // each stage's run, tile by tile (stage k of tile t at
                                    // t x stages + k)
  std::vector<uint64_t> bases;      // the chain's base addresses assumed
};

/// The chain's cycles with its tensors at `bases` (empty: one after the other from 4 KiB at
/// multiples of 4 KiB): every stage's memoryTiming on its memory, tile after tile, plus
/// kChainHandoff between runs; the on-chip tensors at onChipAddress (whatever `bases` says), timed
/// as the on-chip RAM (MemoryTiming.h, OnChip). With `dram`, every stage's dramTiming instead, each
/// from the banks the stage before it left open (the memory is one across the run; the first
/// stage's are closed).
ChainTiming chainTiming(const ChainPlan& c, const AxiOptions& o,
                        const std::vector<uint64_t>& bases = {}, const Dram* dram = nullptr);

} // namespace rubick::arch
