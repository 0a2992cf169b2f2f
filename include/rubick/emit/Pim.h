// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything `rubick emit` writes for one processing-in-memory design (docs/pim.md, "The
// hardware"): the unit core, the unit, the top of all units, the templates, filelist.f,
// design.json (the units, their banks, every unit's stream of words in bank order, where the
// host puts and finds every on-chip element) and README.md.

#include "rubick/dse/Pim.h"
#include "rubick/emit/Package.h"

#include <string>
#include <vector>

namespace rubick::emit {

/// Why `d` cannot be built as hardware yet (empty: it can): dma units, outputs placed in the
/// banks, a spread that does not divide its loop, streamed tensors of different widths.
std::string pimBuildProblem(const dataflow::StatementView& v, const dse::PimDesign& d,
                            const dse::PimSystem& s, const dse::ExploreOptions& o);

/// The module prefix of PIM design `id` ("UNITID/SPREAD"): moduleName's, '/' made '_'.
std::string pimModuleName(const std::string& program, const std::string& id);

struct PimPackage {
  std::vector<File> files;
  int64_t predictedCycles = 0; // the units' run, start to done, replayed exactly
  int64_t explorerCycles = 0;  // the explorer's closed form of the same
  int64_t streamWords = 0;     // words in one unit's banks
  std::string top;             // the top module
  std::string topNote;         // what its ports are, briefly
  // Units with a DMA: where the tensors lie in each unit's banks, and the banks as a --dram
  // value (what the memory harness runs them on).
  std::vector<uint64_t> bases;
  std::string dram;
};

/// The files of design `d` of `v` (statement of `prog`) on `s`; `o` the explore options that
/// found it (element widths). Throws Unsupported with pimBuildProblem's reason.
PimPackage packagePim(const tc::Program& prog, const dataflow::StatementView& v,
                      const dse::PimDesign& d, const dse::PimSystem& s,
                      const dse::ExploreOptions& o, const std::string& name);

/// The units' run of `d` as its hardware takes it (start to done, replayed exactly; what
/// verify measures), or -1 when pimBuildProblem says it is not built.
int64_t pimReplayCycles(const tc::Program& prog, const dataflow::StatementView& v,
                        const dse::PimDesign& d, const dse::PimSystem& s,
                        const dse::ExploreOptions& o);

/// pimReplayCycles for every design of `v` (statement of `prog`) on `s`: explorePim's exact
/// cycles.
dse::PimExact pimExact(const tc::Program& prog, const dataflow::StatementView& v,
                       const dse::PimSystem& s, const dse::ExploreOptions& o);

} // namespace rubick::emit
