#pragma once
// The files of a design with a memory system (private to src/emit; emit::package calls it for
// designs with a buffer tiling).

#include "rubick/dse/Explore.h"
#include "rubick/emit/MemoryTop.h"
#include "rubick/emit/Package.h"
#include "rubick/frontend/Program.h"

#include <string>
#include <vector>

namespace rubick::emit::detail {

/// The AXI parameters for a memory: its bus width (at least 32 bits, AXI4-Lite's), bursts of
/// its burst size, and enough bursts in flight to cover its latency.
MemoryTopOptions memoryTopOptions(const dse::MemorySystem& mem);

std::vector<File> packageMemory(const tc::Program& prog, const dataflow::StatementView& v,
                                const dse::DesignPoint& pt, const dse::ExploreOptions& o,
                                const std::string& name);

} // namespace rubick::emit::detail
