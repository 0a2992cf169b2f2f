// SPDX-License-Identifier: Apache-2.0
#include "MemoryRun.h"

#include "rubick/arch/ChainPlan.h"
#include "rubick/arch/DramTiming.h"
#include "rubick/arch/MemoryTiming.h"
#include "rubick/verify/Verify.h"

#include <cstdio>

namespace rubick::verify {

std::vector<uint64_t> trialBases(const arch::MemoryPlan& m, uint64_t seed, int64_t busBytes) {
  return trialBases(arch::movedTensors(m), seed, busBytes);
}

std::vector<uint64_t> trialBases(const std::vector<arch::MovedTensor>& moved, uint64_t seed,
                                 int64_t busBytes) {
  std::vector<uint64_t> bases;
  uint64_t at = 4096;
  for (size_t t = 0; t < moved.size(); ++t) {
    const arch::MovedTensor& x = moved[t];
    const uint64_t bytes = uint64_t(x.bits / 8);
    const auto footprint = static_cast<uint64_t>(arch::tensorBytes(x));
    const uint64_t k = (seed * 7 + t * 3) % 5;
    const uint64_t base = at + (k == 0 ? 0 : (k * 3 * bytes) % (2 * uint64_t(busBytes)));
    bases.push_back(base);
    at = (base + footprint + 4096 + 4095) / 4096 * 4096;
  }
  return bases;
}

std::vector<std::string> memoryRunArgs(const arch::MemoryPlan& m, const arch::AxiOptions& o,
                                       const dse::MemorySystem& mem,
                                       const std::optional<arch::Dram>& dram, uint64_t seed) {
  const std::vector<uint64_t> bases = trialBases(m, seed, o.busBytes);
  const int64_t cycles = dram ? arch::dramTiming(m, o, mem, *dram, bases).cycles
                              : arch::memoryTiming(m, o, mem, bases).cycles;
  return runArgs(bases, cycles, dram);
}

std::vector<std::string> runArgs(const std::vector<uint64_t>& bases, int64_t predicted,
                                 const std::optional<arch::Dram>& dram) {
  std::string list;
  for (uint64_t b : bases)
    list += (list.empty() ? "" : ",") + std::to_string(b);
  std::vector<std::string> args = {"--bases", list, "--predicted", std::to_string(predicted)};
  if (dram) {
    char tolerance[32];
    std::snprintf(tolerance, sizeof tolerance, "%g", kDramTolerance);
    args.insert(args.end(), {"--dram", toString(*dram), "--tolerance", tolerance});
  }
  return args;
}

} // namespace rubick::verify
