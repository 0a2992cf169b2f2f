// SPDX-License-Identifier: Apache-2.0
#pragma once
// How verify runs a design with a memory system (docs/verification.md): where each trial puts
// the tensors in the harness's memory, and the cycles the hardware must take with them there.

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/Dram.h"
#include "rubick/arch/MemoryPlan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rubick::verify {

/// Base addresses for trial `seed`, plan order (output first): one after the other from 4 KiB,
/// each at a multiple of 4 KiB plus an offset that is zero for some tensors and a multiple of
/// the element size inside two bus words for the others (varied with the seed, so rows start
/// and end inside bus words in different ways), with at least 4 KiB free after each tensor (a
/// stray access lands outside every tensor).
std::vector<uint64_t> trialBases(const arch::MemoryPlan& m, uint64_t seed, int64_t busBytes);

/// The same for these tensors, in their order.
std::vector<uint64_t> trialBases(const std::vector<arch::MovedTensor>& moved, uint64_t seed,
                                 int64_t busBytes);

/// The harness arguments of trial `seed`: `--bases B0,B1,... --predicted CYCLES`, the
/// prediction being arch::memoryTiming's for those bases; with `dram`, arch::dramTiming's, and
/// `--dram SPEC --tolerance kDramTolerance`.
std::vector<std::string> memoryRunArgs(const arch::MemoryPlan& m, const arch::AxiOptions& o,
                                       const dse::MemorySystem& mem,
                                       const std::optional<arch::Dram>& dram, uint64_t seed);

/// The harness arguments for tensors at `bases` and a prediction: `--bases B0,B1,...
/// --predicted CYCLES`, with `dram` also `--dram SPEC --tolerance kDramTolerance`.
std::vector<std::string> runArgs(const std::vector<uint64_t>& bases, int64_t predicted,
                                 const std::optional<arch::Dram>& dram);

} // namespace rubick::verify
