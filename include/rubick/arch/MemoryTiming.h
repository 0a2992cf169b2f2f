// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exact cycles of one run of a memory design's top (docs/memory.md, "Cycle prediction"):
// the CYCLES register after a run, for a memory like sim_templates/rubick_axi_mem.h with the
// bus width of the AXI options, the memory's bytes per cycle and latency, no outstanding limit
// of its own and no DRAM timing. Composed of the sequencer's phase rule (BufferSequence.h),
// the core's latency per buffer tile and the DMA engines' timing (DmaTiming.h).

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/MemoryPlan.h"

#include <cstdint>
#include <vector>

namespace rubick::arch {

struct MemoryTiming {
  int64_t cycles = 0;     // the CYCLES register: cycles with the sequencer busy
  int64_t tiles = 0;      // buffer tiles (steps)
  int64_t coreCycles = 0; // one buffer tile: core start to its done pulse (the longest, when
                          // it differs per tile: MemoryPlan::stepCycles)
  int64_t firstLoad = 0;  // phase -1: the first tile's loads
  int64_t lastStore = 0;  // phase N: the last tile's stores
  // Phases 0 .. N-1 by what ended them (the core; the loads; the stores, a store before a
  // reload of the same tensor counted with the loads) and their cycles in all.
  int64_t computeBound = 0, loadBound = 0, storeBound = 0;
  int64_t computePhaseCycles = 0, loadPhaseCycles = 0, storePhaseCycles = 0;
  int64_t loads = 0, stores = 0;           // transfers
  int64_t loadCycles = 0, storeCycles = 0; // their start-to-done cycles, summed
  std::vector<uint64_t> bases;             // the tensor base addresses assumed
  // With DRAM timing (arch/DramTiming.h): the row accesses predicted, and the phases whose two
  // channels' replay did not settle within its bound (their cycles are then approximate).
  int64_t rowHits = 0, rowMisses = 0, rowConflicts = 0;
  int64_t unsettledPhases = 0;
};

/// Base addresses the prediction assumes by default: the tensors one after the other from
/// 4 KiB, each at a multiple of 4 KiB (any bases congruent to them modulo 4096 give the same
/// cycles: the bursts only depend on the offsets within a 4 KiB page).
std::vector<uint64_t> defaultBases(const MemoryPlan& m);

/// An on-chip RAM that some of a run's tensors live in instead of the memory (a chain's
/// intermediates; rtl_templates/rubick_scratch.v): their transfers see its latency and a beat
/// every cycle, on the same bus width and burst limits; a DRAM's banks never see them.
struct OnChip {
  std::vector<bool> tensors; // per moved tensor (base-register order); none: all in memory
  int64_t latency = 2;       // AR or AW handshake to the first beat or the earliest response
  bool has(size_t tensor) const { return tensor < tensors.size() && tensors[tensor]; }
};

/// The cycles of one run of `m`'s top built with `o`, on memory `mem`, with the tensors at
/// `bases` (byte addresses, multiples of the element size; empty: defaultBases); the tensors
/// `onChip` names in that RAM.
MemoryTiming memoryTiming(const MemoryPlan& m, const AxiOptions& o, const dse::MemorySystem& mem,
                          const std::vector<uint64_t>& bases = {}, const OnChip& onChip = {});

} // namespace rubick::arch
