#include "rubick/arch/AxiOptions.h"

#include <algorithm>

namespace rubick::arch {

AxiOptions axiOptions(const dse::MemorySystem& mem) {
  AxiOptions o;
  o.busBytes = std::max<int64_t>(4, mem.bytesPerCycle);
  o.burstBeats = std::clamp<int64_t>(mem.burstBytes / o.busBytes, 1, 256);
  // Enough bursts in flight to cover the latency even when rows are one beat long.
  o.outstanding = std::clamp<int64_t>(mem.latency + 2, 2, 256);
  return o;
}

} // namespace rubick::arch
