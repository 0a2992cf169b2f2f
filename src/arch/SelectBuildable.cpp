// SPDX-License-Identifier: Apache-2.0
#include "rubick/arch/SelectBuildable.h"

#include "rubick/arch/MemoryPlan.h"
#include "rubick/support/Unsupported.h"

#include <numeric>

namespace rubick::arch {

BuildableSelection selectBuildable(const tc::Program& prog, const dataflow::StatementView& v,
                                   const dse::ExploreOptions& o, const dse::Selection& s,
                                   const std::string& command) {
  if (o.constraints.memory.enabled())
    if (std::string why = memoryBuildProblem(v, o.constraints.elementBits); !why.empty())
      throw Unsupported(command, why);
  BuildableSelection r;
  r.designs = dse::selectDesigns(
      v, o, s, command, &r.selected,
      [&](const dse::DesignPoint& d) { return designMemoryProblem(prog, v, d, o); }, &r.passed);
  return r;
}

std::string buildableNote(const tc::Program& prog, const dataflow::StatementView& v,
                          const dse::ExploreOptions& o,
                          const std::vector<dse::DesignPoint>& ranked) {
  if (!o.constraints.memory.enabled() || ranked.empty()) return "";
  std::vector<size_t> ranks(std::min(ranked.size(), dse::kBuildTries));
  std::iota(ranks.begin(), ranks.end(), size_t{0});
  const dse::BuildChoice c = dse::firstBuildable(
      ranked, ranks, [&](const dse::DesignPoint& d) { return designMemoryProblem(prog, v, d, o); });
  if (c.rank == size_t{0}) return "";
  if (!c.rank)
    return "note: none of the first " + std::to_string(c.checked) +
           " designs can be built; rank 1: " + c.first + "\n";
  return "note: emit and verify take rank " + std::to_string(*c.rank + 1) + " (" +
         ranked[*c.rank].id + "), the best design that can be built; rank 1: " + c.first + "\n";
}

} // namespace rubick::arch
