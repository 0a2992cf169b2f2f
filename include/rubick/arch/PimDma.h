// SPDX-License-Identifier: Apache-2.0
#pragma once
// A PIM unit with a DMA ('access': 'dma', docs/pim.md, "Units with a DMA"): its design is one
// of the memory-system designs, whose memory is the unit's own banks. What its hardware is
// built with, where the tensors lie in the banks, and the run's exact cycles.

#include "rubick/arch/AxiOptions.h"
#include "rubick/arch/Dram.h"
#include "rubick/arch/MemoryPlan.h"
#include "rubick/arch/MemoryTiming.h"
#include "rubick/dse/Pim.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rubick::arch {

/// Design `d`'s share of `v` (statement of `prog`) as a problem of its own: every loop at the
/// share's extent, every tensor the block one unit holds.
std::pair<tc::Program, dataflow::StatementView>
pimShareProblem(const tc::Program& prog, const dataflow::StatementView& v, const dse::PimDesign& d);

/// The memory plan of design `d`'s unit (on pimShareProblem).
MemoryPlan pimUnitPlan(const tc::Program& prog, const dataflow::StatementView& v,
                       const dse::PimDesign& d, const std::vector<int64_t>& elementBits,
                       const std::string& name);

/// Unit u's first iteration of every loop in design `d`: the blocks of the spread loops
/// numbered by u in mixed radix, the first loop counting fastest.
std::vector<int64_t> pimUnitLoopStarts(const dse::PimDesign& d, int64_t u);

/// Unit u's first element of every tensor dimension of `v` in design `d`: the blocks of the
/// spread loops numbered by u in mixed radix, the first loop counting fastest (per access,
/// per dimension; memory designs index each dimension by one loop).
std::vector<std::vector<int64_t>> pimUnitOffsets(const dataflow::StatementView& v,
                                                 const dse::PimDesign& d, int64_t u);

/// The unit's banks as a DRAM: `banks_per_unit` banks taking rows in turn, the bank's row and
/// its timings in unit cycles (tRAS included).
Dram pimUnitDram(const dse::PimSystem& s);

/// The memory the unit's port sees: the bank's bytes a cycle, an address reaching the banks
/// the cycle after its handshake (the rest of the latency is the DRAM's timing).
dse::MemorySystem pimUnitPort(const dse::PimSystem& s);

/// The port's AXI parameters: those of dse::unitMemory, whose latency (tRCD + CL) sizes the
/// bursts in flight.
AxiOptions pimUnitAxi(const dse::PimSystem& s);

/// Where the tensors of `m` lie in the unit's banks (byte addresses of the unit's address
/// space): one after the other in plan order (output first), each from a row boundary, as
/// the explorer places them.
std::vector<uint64_t> pimUnitBases(const MemoryPlan& m, const dse::PimSystem& s);

/// One run of the unit's top with the tensors at pimUnitBases, on its banks: dramTiming with
/// the port, its AXI parameters and the banks above.
MemoryTiming pimUnitTiming(const MemoryPlan& m, const dse::PimSystem& s);

} // namespace rubick::arch
