// SPDX-License-Identifier: Apache-2.0
#pragma once
// The cycles of one run of a memory design's top on a memory with DRAM timing
// (sim_templates/rubick_axi_mem.h with `dram` set; arch/Dram.h): docs/memory.md, "DRAM timing".
//
// A burst's beats now depend on the rows its bank has open, so on every burst before it on
// either channel: the run is replayed in time order, phase by phase (the sequencer's rule of
// MemoryTiming.h), every burst's address handshake applied to the banks as the memory does.
// In a phase the stores (write channel) and loads (read channel) run at the same time; each
// channel is timed with the other's bursts replayed in between, alternately, until neither
// changes (the memory's order is then the one both assumed).

#include "rubick/arch/Dram.h"
#include "rubick/arch/MemoryTiming.h"

namespace rubick::arch {

/// Replays per phase at most this often before settling for an approximate phase.
inline constexpr int kMaxDramReplays = 32;

/// The cycles of one run of `m`'s top built with `o`, on memory `mem` with DRAM timing `dram`
/// (banks closed at the start), with the tensors at `bases` (empty: defaultBases). Unlike the
/// fixed latency, the absolute addresses matter (rows and banks), not only the 4 KiB offsets.
MemoryTiming dramTiming(const MemoryPlan& m, const AxiOptions& o, const dse::MemorySystem& mem,
                        const Dram& dram, const std::vector<uint64_t>& bases = {});

/// The same, with the banks as `banks` holds them at this run's start (in its cycles: an earlier
/// run's state, DramBanks::shift'ed); `banks` receives them as this run leaves them. The
/// tensors `onChip` names are in that RAM (MemoryTiming.h), their bursts not on the DRAM.
MemoryTiming dramTiming(const MemoryPlan& m, const AxiOptions& o, const dse::MemorySystem& mem,
                        const std::vector<uint64_t>& bases, DramBanks& banks,
                        const OnChip& onChip = {});

} // namespace rubick::arch
