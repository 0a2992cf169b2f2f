// SPDX-License-Identifier: Apache-2.0
#pragma once
// The AXI parameters a memory design's top is built with (emit) and timed with (MemoryTiming).

#include "rubick/dse/Memory.h"

#include <cstdint>
#include <string>

namespace rubick::arch {

struct AxiOptions {
  int64_t busBytes = 8;    // AXI data width in bytes (a power of two, at least 4)
  int64_t burstBeats = 16; // longest burst the engines issue (1..256)
  int64_t outstanding = 4; // bursts in flight per engine (1..256)
  int64_t addrBits = 32;   // AXI address width
};

/// The AXI parameters for a memory: its bus width (at least 32 bits, AXI4-Lite's), bursts of
/// its burst size, and enough bursts in flight to cover its latency.
AxiOptions axiOptions(const dse::MemorySystem& mem);

/// The widest AXI4 data bus, in bytes (1024 bits). A wider memory bus is built as several AXI4
/// ports of this width in lock-step (rubick_axi_split), at most kMaxAxiPorts of them.
inline constexpr int64_t kMaxAxiBusBytes = 128;
inline constexpr int64_t kMaxAxiPorts = 32;

/// Why a design with memory `mem` cannot be built (empty: it can): a bus wider than
/// kMaxAxiPorts ports. The explorer models such memories; emit and verify refuse them.
std::string axiBuildProblem(const dse::MemorySystem& mem);

} // namespace rubick::arch
