// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the fixed-latency prediction (MemoryTiming.cpp) and the DRAM one (DramTiming.cpp) share:
// the bus and engines a plan is timed with, one transfer's cycles, and the breakdown of a run.

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/BufferSequence.h"
#include "rubick/arch/DmaTiming.h"
#include "rubick/arch/MemoryTiming.h"

#include <vector>

namespace rubick::arch::timing {

/// The given bases, or defaultBases when none; throws Error when their count is wrong.
std::vector<uint64_t> basesFor(const MemoryPlan& m, const std::vector<uint64_t>& given);

/// The bus as the engines see it: the top's width and burst limits, the memory's rate and
/// latency (fixed; bus.memory null).
BusTiming busTiming(const AxiOptions& o, const dse::MemorySystem& mem);

/// The bus an on-chip RAM's transfers see: `bus` with a beat every cycle, its latency and no
/// memory hook.
BusTiming onChipBus(const BusTiming& bus, const OnChip& onChip);

/// The core's longest run over the buffer tiles (MemoryTiming::coreCycles).
int64_t mostCoreCycles(const MemoryPlan& m);

/// Per tensor, its DMA engine.
std::vector<DmaEngine> engines(const MemoryPlan& m);

/// Start pulse to done pulse of a load or store: a load ends with the scatter's done, one
/// cycle after the reader's; a store with the writer's, fed by the gather from cycle 3.
int64_t transferCycles(const SequencerConfig& c, const DmaEngine& e, const SeqEvent& ev,
                       const BusTiming& bus);

/// Fills r's cycles, tiles, first load, last store and per-phase breakdown from a run.
void summarize(const SeqTimeline& tl, MemoryTiming& r);

} // namespace rubick::arch::timing
