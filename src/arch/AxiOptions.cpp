// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/AxiOptions.h"

#include <algorithm>
#include <string>

namespace rubick::arch {

AxiOptions axiOptions(const dse::MemorySystem& mem) {
  AxiOptions o;
  o.busBytes = std::max<int64_t>(4, mem.bytesPerCycle);
  o.burstBeats = std::clamp<int64_t>(mem.burstBytes / o.busBytes, 1, 256);
  // Enough bursts in flight to cover the latency even when rows are one beat long.
  o.outstanding = std::clamp<int64_t>(mem.latency + 2, 2, 256);
  return o;
}

std::string axiBuildProblem(const dse::MemorySystem& mem) {
  if (!mem.enabled() || mem.bytesPerCycle <= kMaxAxiBusBytes * kMaxAxiPorts) return {};
  return "a memory of " + std::to_string(mem.bytesPerCycle) + " bytes a cycle needs more than " +
         std::to_string(kMaxAxiPorts) + " AXI4 ports of " + std::to_string(kMaxAxiBusBytes) +
         " bytes";
}

} // namespace rubick::arch
